# wrong_path_forward: a coin toss decides a branch; on the side it skips
# when the coin is 0, a load through a pointer that is then NULL, a store of
# what it loaded and a load of the stored bytes. The core executes that
# side as its wrong path whenever it mispredicts a 0: the NULL load cannot
# execute there (its result never comes), so the store's data never issues,
# and the load after it forwards from the store: it issues but never gets
# its data (tests/unit/test_wrong_path_forward.c). Both sides take as many
# instructions; the exit status is 0.
# expect-insts: 36008
# expect-status: 0
#
# Count:
#         la s0 (auipc, addi), li s2, li s3, li s4             =  5
#         2000 iterations of 18:
#           xorshift (6), the coin (srli, andi), the pointer
#           (neg, and), beqz, a side (5), addi, bnez           = 36000
#         exit: li a0, li a7, ecall                           =  3
#         total                                               = 36008
# (.option norvc: every instruction here is a 4-byte one.)

    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    la      s0, buf
    li      s2, 2000            # iterations
    li      s3, 1234            # xorshift state
    li      s4, 0
loop:
    slli    t0, s3, 13
    xor     s3, s3, t0
    srli    t0, s3, 7
    xor     s3, s3, t0
    slli    t0, s3, 17
    xor     s3, s3, t0
    srli    t0, s3, 20
    andi    t0, t0, 1           # the coin
    neg     t1, t0
    and     t2, s0, t1          # buf if 1, NULL if 0
    beqz    t0, 1f
    ld      t3, 0(t2)
    sd      t3, 8(s0)
    ld      t4, 8(s0)           # forwarded from the store
    add     s4, s4, t4
    j       2f
1:
    addi    s4, s4, 1
    addi    s4, s4, 1
    addi    s4, s4, 1
    addi    s4, s4, 1
    addi    s4, s4, 1
2:
    addi    s2, s2, -1
    bnez    s2, loop

    li      a0, 0
    li      a7, 93
    ecall

    .data
    .balign 8
buf:
    .dword  0, 0
