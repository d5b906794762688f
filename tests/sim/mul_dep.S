# mul_dep [N]: N (default 1000) iterations of one dependent chain of 64
# `mul t0, t0, t1` (t1 = 3), then `addi s1, s1, -1; bnez s1`
# (66 instructions per iteration; critical path 64 x fu.mul cycles).
#include "macros.h"
    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    ARG_U64 s1, 1, 1000
    li      t0, 1
    li      t1, 3
    .p2align 4
1:
    .rept 64
    mul     t0, t0, t1
    .endr
    addi    s1, s1, -1
    bnez    s1, 1b
    EXIT_STATUS zero
