# held_register: instructions reading the register the one before wrote, as
# rs1, rs2 or both: branches on one register with itself (always or never
# taken, so their code may have a single exit), stores whose address and
# value are the same register, a write to x0 in between, and a
# floating-point register with the number of the integer one just written.
# A translator that keeps values in host registers or lays out a branch's
# exits by its code must get each right. Every wrong result adds one to s1,
# the exit status.
# expect-insts: 35
# expect-status: 0
#
# Count (the error paths are not taken):
#         li s1                                                 =  1
#         bge a2, a2 taken:     li, bge                          =  2
#         blt a2, a2 not taken: li, blt                          =  2
#         add both:             li, add, li, bne                 =  4
#         sub rs2:              li, sub, li, bne                 =  4
#         store both:           la (auipc, addi), sd, ld, bne    =  5
#         x0 write:             li, addi x0, add, li, bne        =  5
#         f28 vs x28:           li 1.0 (li, slli), fmv.d.x, li,
#                               fadd.d, fmv.x.d, li, slli, bne   =  9
#         exit:                 mv a0, li a7, ecall              =  3
#         total                                                  = 35
# (.option norvc: every instruction here is a 4-byte one.)

    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    li      s1, 0

    li      a2, 5
    bge     a2, a2, 1f          # both from the held register: always taken
    addi    s1, s1, 1
1:
    li      a2, 5
    blt     a2, a2, .Lbad       # never taken

    li      a3, 7
    add     a4, a3, a3          # rs1 and rs2 held
    li      t0, 14
    bne     a4, t0, .Lbad

    li      a5, 3
    sub     a6, a4, a5          # rs2 held
    li      t0, 11
    bne     a6, t0, .Lbad

    la      a1, buf
    sd      a1, 0(a1)           # address and value held
    ld      t1, 0(a1)
    bne     t1, a1, .Lbad

    li      a2, 5
    addi    x0, a2, 1           # writes nothing; a2 is no longer the last written
    add     a3, a2, x0
    li      t0, 5
    bne     a3, t0, .Lbad

    li      t3, 0x3ff0000000000000  # 1.0
    fmv.d.x f28, t3
    li      t3, 99              # x28 held; f28 is another register
    fadd.d  f1, f28, f28
    fmv.x.d t4, f1
    li      t5, 1
    slli    t5, t5, 62          # 2.0
    bne     t4, t5, .Lbad

    mv      a0, s1
    li      a7, 93
    ecall
.Lbad:
    li      a0, 100
    li      a7, 93
    ecall

    .data
    .balign 8
buf:
    .dword  0
