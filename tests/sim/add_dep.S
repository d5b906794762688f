# add_dep [N]: N (default 1000) iterations of a loop whose body is one
# dependent chain of 128 `add t0, t0, t1` (4-byte instructions), then
# `addi s1, s1, -1; bnez s1`. Per iteration 130 instructions; the chain
# is the critical path: 128 x fu.alu cycles per iteration.
# Instructions: N x 130 + start-up (argument parsing) + 3 (exit).
#include "macros.h"
    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    ARG_U64 s1, 1, 1000
    li      t0, 0
    li      t1, 1
    .p2align 4
1:
    .rept 128
    add     t0, t0, t1
    .endr
    addi    s1, s1, -1
    bnez    s1, 1b
    EXIT_STATUS zero
