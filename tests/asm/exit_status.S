# exit_status: write one line to stdout and one to stderr, then exit 42.
# expect-insts: 15
# expect-status: 42
#
# Count:  write stdout  li a0, lla a1 (auipc+addi), li a2, li a7, ecall  =  6
#         write stderr  li a0, lla a1 (auipc+addi), li a2, li a7, ecall  =  6
#         exit          li a0, li a7, ecall                              =  3
#         total                                                          = 15

    .section .rodata
out:    .ascii "exit_status: to stdout\n"
    .equ outlen, . - out
err:    .ascii "exit_status: to stderr\n"
    .equ errlen, . - err

    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    li      a0, 1
    lla     a1, out
    li      a2, outlen
    li      a7, 64
    ecall
    li      a0, 2
    lla     a1, err
    li      a2, errlen
    li      a7, 64
    ecall
    li      a0, 42
    li      a7, 93
    ecall
