# store_stream [KIB]: one `sd zero` to every 64-byte line of a fresh
# anonymous mapping of KIB KiB (default 16384 = 16 MiB), in address order,
# 16 stores per loop iteration (+ addi, bltu: 18 instructions), no loads.
# Every store misses the whole hierarchy (write-allocate), and once the LLC
# is full each fill also evicts a dirty line.
#include "macros.h"
    .option norvc
    .option norelax
    .text
    .globl _start
_start:
    ARG_U64 s0, 1, 16384
    slli    s0, s0, 10
    MMAP_ANON s2, s0
    add     s3, s2, s0
    mv      a0, s2
    .p2align 4
1:
    .set off, 0
    .rept 16
    sd      zero, off(a0)
    .set off, off + 64
    .endr
    addi    a0, a0, 1024
    bltu    a0, s3, 1b
    EXIT_STATUS zero
