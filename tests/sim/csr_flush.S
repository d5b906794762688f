# csr_flush [MODE [N]]: N (default 10000) iterations of a loop of 4
# independent adds plus, in MODE 'c' (default), `fsflags zero` and
# `frflags t0` (the Imagick case: fflags accesses, each of which flushes
# the pipeline at commit). MODE 'n': the same loop without the two CSR
# instructions. Per iteration: 8 instructions (c) or 6 (n), with 2 CSR
# accesses in mode c: exactly 2N fflags accesses in the whole run.
#include "macros.h"
    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    ARG_CHAR s5, 1, 'c'
    ARG_U64 s1, 2, 10000
    li      s3, 1
    li      a1, 0
    li      a2, 0
    li      a3, 0
    li      a4, 0
    li      t1, 'c'
    bne     s5, t1, 3f
    .p2align 4
1:  fsflags zero
    frflags t0
    add     a1, a1, s3
    add     a2, a2, s3
    add     a3, a3, s3
    add     a4, a4, s3
    addi    s1, s1, -1
    bnez    s1, 1b
    j       4f
    .p2align 4
3:  add     a1, a1, s3
    add     a2, a2, s3
    add     a3, a3, s3
    add     a4, a4, s3
    addi    s1, s1, -1
    bnez    s1, 3b
4:  EXIT_STATUS zero
