# call_chain: a loop calling f1 -> f2 -> f3 with jal, jalr (through a
# register) and ret, saving ra on the stack.
# expect-insts: 6005
# expect-status: 132
#
# Count:  setup        li s0, li s1                                        =    2
#         per iteration  jal f1, addi, bnez                                =    3
#           f1         addi sp, sd ra, jal f2, addi s1, ld ra, addi sp, ret =    7
#           f2         addi sp, sd ra, lla t0 (auipc+addi = 2), jalr,
#                      ld ra, addi sp, ret                                 =    8
#           f3         addi s1, ret                                        =    2
#                      -> 20 per iteration, x 300                          = 6000
#         exit         andi a0, li a7, ecall                               =    3
#         total                                                            = 6005
# Status: s1 gains 1 + 2 = 3 per iteration: 900; 900 mod 256 = 132.
# .option norelax keeps the linker from shortening auipc+addi.

    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    li      s0, 300
    li      s1, 0
loop:
    jal     ra, f1
    addi    s0, s0, -1
    bnez    s0, loop
    andi    a0, s1, 255
    li      a7, 93
    ecall

f1:
    addi    sp, sp, -16
    sd      ra, 0(sp)
    jal     ra, f2
    addi    s1, s1, 1
    ld      ra, 0(sp)
    addi    sp, sp, 16
    ret

f2:
    addi    sp, sp, -16
    sd      ra, 0(sp)
    lla     t0, f3
    jalr    ra, 0(t0)
    ld      ra, 0(sp)
    addi    sp, sp, 16
    ret

f3:
    addi    s1, s1, 2
    ret
