# fetch_packets [MODE [N]]: N (default 10000) iterations of a 7-instruction
# loop: 5 independent adds, addi, bnez, starting on a 16-byte boundary.
# MODE 'w' (default): 4-byte instructions, 28 bytes: the loop spans two
# 16-byte fetch packets (4 + 3 instructions; the taken branch ends the
# second), so fetch delivers 7 instructions per 2 cycles: IPC 3.5.
# MODE 'c': the same loop in 2-byte (RVC) instructions, 14 bytes, one fetch
# packet per iteration (7 instructions per cycle): decode/commit width 4
# limits, IPC 4.
#include "macros.h"
    .option norelax
    .option norvc
    .text
    .globl _start
_start:
    ARG_CHAR s5, 1, 'w'
    ARG_U64 s1, 2, 10000
    li      s3, 1
    li      a1, 0
    li      a2, 0
    li      a3, 0
    li      a4, 0
    li      a5, 0
    li      t1, 'c'
    beq     s5, t1, 2f
    .p2align 4
1:  add     a1, a1, s3
    add     a2, a2, s3
    add     a3, a3, s3
    add     a4, a4, s3
    add     a5, a5, s3
    addi    s1, s1, -1
    bnez    s1, 1b
    j       3f
    .option rvc
    .p2align 4
2:  c.add   a1, s3
    c.add   a2, s3
    c.add   a3, s3
    c.add   a4, s3
    c.add   a5, s3
    c.addi  s1, -1
    c.bnez  s1, 2b
    .option norvc
3:  EXIT_STATUS zero
