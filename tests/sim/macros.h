/* Shared assembler macros of the sim microbenchmarks (tests/sim/*.S; the
 * files are preprocessed, so this is #included). Not a program itself.
 *
 *   ARG_U64 dst, idx, default   dst = decimal argv[idx], or default when
 *                               argc <= idx (clobbers t0-t2; reads sp, which
 *                               must still be the entry sp)
 *   ARG_CHAR dst, idx, default  dst = first byte of argv[idx], or default
 *   EXIT_STATUS reg             exit(reg & 255) (the programs exit 0: sim --full
 *                               mirrors the guest's status)
 *   MMAP_ANON dst, lenreg       dst = mmap(0, len, RW, PRIVATE|ANON, -1, 0)
 *                               (exit 99 on failure; clobbers a0-a5, a7)
 */
    .macro ARG_U64 dst, idx, def
    ld      t0, 0(sp)
    li      \dst, \def
    li      t1, \idx
    bleu    t0, t1, .Larg_done\@
    ld      t2, (8 + 8 * \idx)(sp)
    li      \dst, 0
.Larg_loop\@:
    lbu     t0, 0(t2)
    beqz    t0, .Larg_done\@
    addi    t0, t0, -48
    li      t1, 10
    mul     \dst, \dst, t1
    add     \dst, \dst, t0
    addi    t2, t2, 1
    j       .Larg_loop\@
.Larg_done\@:
    .endm

    .macro ARG_CHAR dst, idx, def
    ld      t0, 0(sp)
    li      \dst, \def
    li      t1, \idx
    bleu    t0, t1, .Lchar_done\@
    ld      t2, (8 + 8 * \idx)(sp)
    lbu     \dst, 0(t2)
.Lchar_done\@:
    .endm

    .macro EXIT_STATUS reg
    andi    a0, \reg, 255
    li      a7, 93
    ecall
    .endm

    .macro MMAP_ANON dst, lenreg
    li      a0, 0
    mv      a1, \lenreg
    li      a2, 3           /* PROT_READ | PROT_WRITE */
    li      a3, 0x22        /* MAP_PRIVATE | MAP_ANONYMOUS */
    li      a4, -1
    li      a5, 0
    li      a7, 222
    ecall
    li      t0, -4096
    bltu    t0, a0, .Lmmap_fail\@
    mv      \dst, a0
    j       .Lmmap_ok\@
.Lmmap_fail\@:
    li      a0, 99
    li      a7, 93
    ecall
.Lmmap_ok\@:
    .endm
