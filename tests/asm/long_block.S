# long_block: a loop whose body is one straight block of 60 instructions
# (58 + addi + bnez), mixed compressed and full-size, with loads and stores,
# so that stops at every position inside a block can be tested (interval
# boundaries and checkpoints that fall mid-block).
# expect-insts: 60006
# expect-status: 0
#
# Count:  setup    li t0, addi sp                         =     2
#         loop     1000 x (58 + addi + bnez)               = 60000
#         exit     li a0, li a7, ecall, plus one addi sp   =     4
#         total                                            = 60006

    .text
    .globl _start
_start:
    li      t0, 1000
    addi    sp, sp, -128
1:
    addi    t1, t4, 1
    xor     t2, t2, t5
    sd      t3, 16(sp)
    ld      t4, 64(sp)
    addi    t5, a2, 5
    xor     t6, t6, a3
    sd      a1, 48(sp)
    ld      a2, 96(sp)
    addi    a3, t2, 9
    xor     a4, a4, t3
    sd      t1, 80(sp)
    ld      t2, 0(sp)
    addi    t3, t6, 13
    xor     t4, t4, a1
    sd      t5, 112(sp)
    ld      t6, 32(sp)
    addi    a1, a4, 17
    xor     a2, a2, t1
    sd      a3, 16(sp)
    ld      a4, 64(sp)
    addi    t1, t4, 21
    xor     t2, t2, t5
    sd      t3, 48(sp)
    ld      t4, 96(sp)
    addi    t5, a2, 25
    xor     t6, t6, a3
    sd      a1, 80(sp)
    ld      a2, 0(sp)
    addi    a3, t2, 29
    xor     a4, a4, t3
    sd      t1, 112(sp)
    ld      t2, 32(sp)
    addi    t3, t6, 33
    xor     t4, t4, a1
    sd      t5, 16(sp)
    ld      t6, 64(sp)
    addi    a1, a4, 37
    xor     a2, a2, t1
    sd      a3, 48(sp)
    ld      a4, 96(sp)
    addi    t1, t4, 41
    xor     t2, t2, t5
    sd      t3, 80(sp)
    ld      t4, 0(sp)
    addi    t5, a2, 45
    xor     t6, t6, a3
    sd      a1, 112(sp)
    ld      a2, 32(sp)
    addi    a3, t2, 49
    xor     a4, a4, t3
    sd      t1, 16(sp)
    ld      t2, 64(sp)
    addi    t3, t6, 53
    xor     t4, t4, a1
    sd      t5, 48(sp)
    ld      t6, 96(sp)
    addi    a1, a4, 57
    xor     a2, a2, t1
    addi    t0, t0, -1
    bnez    t0, 1b
    addi    sp, sp, 128
    li      a0, 0
    li      a7, 93
    ecall
