# nested_loops: an outer loop of 100 iterations around an inner loop of 50.
# expect-insts: 15405
# expect-status: 112
#
# Count:  setup          li s0, li s2                                  =     2
#         per outer      li s1                                         =     1
#                        inner: 50 x (add, addi, bnez) = 150           =   150
#                        tail: addi, addi, bnez                        =     3
#                        -> 154 per outer iteration, x 100             = 15400
#         exit           andi a0, li a7, ecall                         =     3
#         total                                                        = 15405
# Status: each outer iteration adds 50+49+...+1 = 1275 plus 1, so
#         s2 = 100 x 1276 = 127600; 127600 mod 256 = 112.

    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    li      s0, 100
    li      s2, 0
outer:
    li      s1, 50
inner:
    add     s2, s2, s1
    addi    s1, s1, -1
    bnez    s1, inner
    addi    s2, s2, 1
    addi    s0, s0, -1
    bnez    s0, outer
    andi    a0, s2, 255
    li      a7, 93
    ecall
