# ptr_chase [KIB [N]]: build one cyclic chain of pointers through every
# 64-byte line of a fresh KIB-KiB mapping (default 4; a multiple of 4),
# then chase it for N (default 1000) iterations of 16 dependent loads
# `ld a0, 0(a0)` (+ addi, bnez: 18 instructions per iteration).
#
# Order: page-major. The chain visits the 64 lines of a 4 KiB page in a
# scrambled order (line offsets 0, 37, 74 mod 64, ... x 64 bytes: stride
# 37 lines mod 64, a single cycle since 37 is odd), then goes to offset 0
# of the next page, and from the last page back to the first. Every line
# is visited exactly once per cycle, so with LRU replacement a cache level
# whose sets each receive at most its associativity of the chain's lines
# hits on every load, and one whose sets each receive several times its
# associativity misses on every load: sharp plateaus. Visiting a page's
# lines together makes D-TLB misses at most one per 64 loads, so the
# latency measured is the cache hierarchy's. Consecutive lines of the
# chain are never adjacent (stride 37), which matters only with the
# next-line prefetcher on.
# Build: about 8 instructions per line (every line is written once, so
# the last-written lines are in the caches when the chase starts).
#include "macros.h"
    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    ARG_U64 s0, 1, 4
    ARG_U64 s1, 2, 1000
    slli    s0, s0, 10
    MMAP_ANON s2, s0
    add     s3, s2, s0              /* end */
    li      t4, 4096
    li      t5, 37 * 64
    li      t6, 4095
    mv      a0, s2                  /* current page */
1:  li      t0, 0                   /* offset of the current line in the page */
    li      t3, 63
2:  add     t1, t0, t5
    and     t1, t1, t6              /* offset of the next line */
    add     t2, a0, t1
    add     a2, a0, t0
    sd      t2, 0(a2)
    mv      t0, t1
    addi    t3, t3, -1
    bnez    t3, 2b
    add     a2, a0, t0              /* the page's last line -> next page, offset 0 */
    add     a0, a0, t4
    mv      t2, a0
    bltu    a0, s3, 3f
    mv      t2, s2
3:  sd      t2, 0(a2)
    bltu    a0, s3, 1b

    mv      a0, s2
    .p2align 4
4:
    .rept 16
    ld      a0, 0(a0)
    .endr
    addi    s1, s1, -1
    bnez    s1, 4b
    EXIT_STATUS zero
