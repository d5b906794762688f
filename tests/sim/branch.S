# branch [MODE [N]]: N (default 10000) iterations of a loop with one
# data-dependent conditional branch. MODE 'r' (default): the branch tests
# the top bit of a 64-bit LCG (Knuth's MMIX constants; seeded, so runs are
# deterministic), a bit no history-based predictor can learn: about half
# of these branches mispredict. MODE 't': the same code with the bit
# masked to 0, so the branch is always taken (about 0 mispredicts).
# The bit is computed one iteration ahead (s7), so after a mispredict
# the next branch's operand is ready almost at once: the cost of a
# mispredict is the redirect and the pipeline refill, not a dependence chain.
# Per iteration: mul, add, srli, and, beqz, [addi when not taken], mv,
# addi, bnez: 8 instructions + 1 on the not-taken path. 2 conditional
# branches per iteration (the loop branch mispredicts only at the exit).
#include "macros.h"
    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    ARG_CHAR s5, 1, 'r'
    ARG_U64 s1, 2, 10000
    addi    s6, s5, -'r'
    seqz    s6, s6                  /* s6 = 1 in mode r, else 0 */
    li      s0, 0x0123456789abcdef  /* LCG state (the seed) */
    li      s4, 6364136223846793005
    li      s3, 1442695040888963407
    li      s2, 0
    li      s7, 0
    .p2align 4
1:  mul     s0, s0, s4
    add     s0, s0, s3
    srli    t1, s0, 63
    and     t1, t1, s6
    beqz    s7, 2f                  /* the random branch (bit of the previous iteration) */
    addi    s2, s2, 1
2:  mv      s7, t1
    addi    s1, s1, -1
    bnez    s1, 1b
    EXIT_STATUS zero
