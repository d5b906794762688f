# ordering_violation: every iteration stores through an address that a
# divide makes late, then loads the same location with an early address.
# The load issues before the store's address is known: a memory-ordering
# violation, flushed and replayed from the load when it reaches the ROB head.
# expect-iterations: 1000 (one violation each)

    .option norvc
    .text
    .globl _start
_start:
    la      a0, slot
    li      t0, 1000          # iterations
    li      t1, 7
1:  div     t2, t0, t1        # slow
    andi    t2, t2, 0         # = 0, but only once the divide is done
    add     t3, a0, t2        # store address depends on the divide
    sd      t0, 0(t3)
    ld      t4, 0(a0)         # same location, address known at once
    addi    t0, t0, -1
    bnez    t0, 1b
    li      a0, 0
    li      a7, 93
    ecall

    .data
    .balign 8
slot: .dword 0
