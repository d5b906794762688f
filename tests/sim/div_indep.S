# div_indep [N]: N (default 100) iterations of 32 divides in 4 independent
# chains (`div tK, tK, t1`, t1 = 1), then `addi s1, s1, -1; bnez s1`
# (34 instructions per iteration). The dependences allow 4 divides in
# flight; an unpipelined divider (fu.div_units of them) allows div_units
# per fu.div cycles: 32 x fu.div / fu.div_units cycles per iteration.
#include "macros.h"
    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    ARG_U64 s1, 1, 100
    li      t0, -1
    li      t2, -1
    li      t3, -1
    li      t4, -1
    li      t1, 1
    .p2align 4
1:
    .rept 8
    div     t0, t0, t1
    div     t2, t2, t1
    div     t3, t3, t1
    div     t4, t4, t1
    .endr
    addi    s1, s1, -1
    bnez    s1, 1b
    add     t0, t0, t2
    EXIT_STATUS zero
