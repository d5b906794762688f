# loop_simple: one counted loop, N = 1000 iterations of a K = 4 instruction body.
# expect-insts: 4005
# expect-status: 0
#
# Count:  setup    li t0 (addi), li t1 (addi)            =    2
#         loop     1000 x (addi, xor, addi, bnez)        = 4000
#         exit     li a0, li a7, ecall                   =    3
#         total                                          = 4005
# (.option norvc: every instruction here is a 4-byte one.)

    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    li      t0, 1000
    li      t1, 0
1:  addi    t1, t1, 3
    xor     t2, t1, t0
    addi    t0, t0, -1
    bnez    t0, 1b
    li      a0, 0
    li      a7, 93
    ecall
