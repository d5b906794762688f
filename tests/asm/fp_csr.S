# fp_csr: a loop of FP operations with fflags and frm CSR accesses (the
# serialising instructions of the Imagick case): clear fflags, an inexact
# divide, read fflags, switch to round-down for a conversion, switch back.
# expect-insts: 1110
# expect-status: 72
#
# Count:  setup   li t0, fcvt.d.l, li t1, fcvt.d.l, li s0, li s1             =    6
#         loop    100 x (fsflags, fdiv.d, frflags, andi, add, fsrmi,
#                        fcvt.l.d, add, fsrmi, addi, bnez) = 100 x 11       = 1100
#         exit    add, andi, li a7, ecall                                   =    4
#         total                                                             = 1110
# Status: every divide 100/3 is inexact (NX = bit 0), so s0 = 100; in
#         round-down mode fcvt.l.d gives 33, so s1 = 3300;
#         (100 + 3300) mod 256 = 72.

    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    li      t0, 100
    fcvt.d.l fa0, t0
    li      t1, 3
    fcvt.d.l fa1, t1
    li      s0, 0
    li      s1, 0
1:  fsflags zero
    fdiv.d  fa2, fa0, fa1
    frflags t2
    andi    t2, t2, 1
    add     s0, s0, t2
    fsrmi   2
    fcvt.l.d t3, fa2
    add     s1, s1, t3
    fsrmi   0
    addi    t0, t0, -1
    bnez    t0, 1b
    add     a0, s0, s1
    andi    a0, a0, 255
    li      a7, 93
    ecall
