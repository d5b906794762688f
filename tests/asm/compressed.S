# compressed: a loop mixing 2-byte (RVC) and 4-byte instructions, some of
# the 4-byte ones at addresses that are 2 mod 4, then a loop of 4-byte ones.
# expect-insts: 4108
# expect-status: 220
#
# Count (a compressed instruction counts as one):
#         setup      c.li a0, addi a2 (4-byte, at _start+2), c.li a1      =    3
#         loop 1     500 x (c.addi, c.mv, c.slli, addi (4-byte, at 2 mod 4),
#                           c.xor, c.addi, c.bnez) = 500 x 7              = 3500
#         c.j        jumps over a c.li that never executes                =    1
#         loop 2     li t0 (1) + 200 x (addi, addi, bnez), all 4-byte      =  601
#         exit       andi a0, li a7, ecall                                =    3
#         total                                                           = 4108
# Status: a0 = 3 x 500 = 1500; 1500 mod 256 = 220.
# Layout (offsets from _start, which is 4-byte aligned): c.li 0, addi 2,
# c.li 6, loop 8: c.addi 8, c.mv 10, c.slli 12, addi 14, c.xor 18,
# c.addi 20, c.bnez 22, c.j 24.

    .option norelax
    .text
    .balign 4
    .globl _start
_start:
    .option rvc
    c.li    a0, 0
    .option norvc
    addi    a2, zero, 500
    .option rvc
    c.li    a1, 20
1:  c.addi  a0, 3
    c.mv    a3, a0
    c.slli  a3, 2
    .option norvc
    addi    a4, a3, 1
    .option rvc
    c.xor   a3, a1
    c.addi  a2, -1
    c.bnez  a2, 1b
    c.j     2f
    c.li    a0, 1               # never executed
2:
    .option norvc
    li      t0, 200
3:  addi    t1, t1, 1
    addi    t0, t0, -1
    bnez    t0, 3b
    andi    a0, a0, 255
    li      a7, 93
    ecall
