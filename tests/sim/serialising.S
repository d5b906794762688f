# serialising: fences and AMOs dispatch alone into an empty ROB; reads of
# fflags (frflags) and writes (fsflags) flush the pipeline after commit.
# 500 iterations of: amoadd.d, fence, frflags, fsflags, and 4 adds.

    .option norvc
    .text
    .globl _start
_start:
    la      a0, counter
    li      t0, 500
    li      t1, 1
1:  amoadd.d t2, t1, (a0)
    fence   rw, rw
    frflags t3
    fsflags x0
    add     t4, t4, t1
    add     t5, t5, t1
    add     t6, t6, t1
    addi    t0, t0, -1
    bnez    t0, 1b
    li      a0, 0
    li      a7, 93
    ecall

    .data
    .balign 8
counter: .dword 0
