# mem_amo: a loop of loads, stores of every width and atomics (AMOs, LR/SC),
# then a write(2) of a message and an exit status computed from memory.
# expect-insts: 404
# expect-status: 17
#
# Count:  setup   lla s0, lla s3, lla s4 (auipc+addi each = 6), li s1, mv s2 =   8
#         loop    32 x (sd, ld, amoadd.d, amoswap.w, lr.d, sc.d, lb, sh, lhu,
#                       addi, addi, bnez) = 32 x 12                        = 384
#         write   li a0, lla a1 (2), li a2, li a7, ecall                    =   6
#         exit    ld a0, lw t0, add, andi, li a7, ecall                    =   6
#         total                                                            = 404
# The SC result is never branched on, so the count does not depend on it.
# Status: counter = 32 + 31 + ... + 1 = 528 (the LR/SC pair rewrites the same
#         value); swapword ends as the last s1 swapped in, 1;
#         (528 + 1) mod 256 = 17.

    .section .rodata
msg:    .ascii "mem_amo: done\n"
    .equ msglen, . - msg

    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    lla     s0, buf
    lla     s3, counter
    lla     s4, swapword
    li      s1, 32
    mv      s2, s0
1:  sd      s1, 0(s2)
    ld      t0, 0(s2)
    amoadd.d t1, t0, (s3)
    amoswap.w t2, s1, (s4)
    lr.d    t3, (s3)
    sc.d    t4, t3, (s3)
    lb      t5, 0(s2)
    sh      t5, 2(s2)
    lhu     t6, 2(s2)
    addi    s2, s2, 8
    addi    s1, s1, -1
    bnez    s1, 1b
    li      a0, 1
    lla     a1, msg
    li      a2, msglen
    li      a7, 64
    ecall
    ld      a0, 0(s3)
    lw      t0, 0(s4)
    add     a0, a0, t0
    andi    a0, a0, 255
    li      a7, 93
    ecall

    .bss
    .balign 8
buf:      .zero 256
counter:  .zero 8
swapword: .zero 8
