# div_dep [N]: N (default 100) iterations of one dependent chain of 32
# `div t0, t0, t1` (t0 = -1, t1 = 1: every quotient is -1), then
# `addi s1, s1, -1; bnez s1` (34 instructions per iteration; critical path
# 32 x fu.div cycles).
#include "macros.h"
    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    ARG_U64 s1, 1, 100
    li      t0, -1
    li      t1, 1
    .p2align 4
1:
    .rept 32
    div     t0, t0, t1
    .endr
    addi    s1, s1, -1
    bnez    s1, 1b
    EXIT_STATUS zero
