# add_indep [N]: N (default 1000) iterations of 256 adds in 8 independent
# chains (`add tK, tK, s2`, which the assembler compresses to 2-byte c.add,
# so a 16-byte fetch packet holds 8 of them and fetch is never the limit),
# then `addi s1, s1, -1; bnez s1` (258 instructions per iteration).
# Each chain has 32 adds per iteration, so with 4 ALUs the dependences
# allow 8 per cycle: commit width is the limit (IPC -> core.commit_width).
#include "macros.h"
    .option rvc
    .option norelax
    .text
    .globl _start
_start:
    ARG_U64 s1, 1, 1000
    li      s2, 1
    li      t0, 0
    li      t1, 0
    li      t2, 0
    li      t3, 0
    li      t4, 0
    li      t5, 0
    li      t6, 0
    li      a6, 0
    .p2align 4
1:
    .rept 32
    add     t0, t0, s2
    add     t1, t1, s2
    add     t2, t2, s2
    add     t3, t3, s2
    add     t4, t4, s2
    add     t5, t5, s2
    add     t6, t6, s2
    add     a6, a6, s2
    .endr
    addi    s1, s1, -1
    bnez    s1, 1b
    add     t0, t0, a6
    EXIT_STATUS zero
