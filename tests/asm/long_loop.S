# long_loop: exactly 10,000,000 retired instructions, for interval tests
# (ten full 1M intervals, none partial).
# expect-insts: 10000000
# expect-status: 0
#
# Count:  setup   li t0, 3333331 (lui + addiw = 2), li t1, li t2             =         4
#         loop    3,333,331 x (addi, addi, bnez) = 9,999,993                = 9,999,993
#         exit    li a0, li a7, ecall                                       =         3
#         total                                                             = 10,000,000

    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    li      t0, 3333331
    li      t1, 0
    li      t2, 7
1:  addi    t1, t1, 1
    addi    t0, t0, -1
    bnez    t0, 1b
    li      a0, 0
    li      a7, 93
    ecall
