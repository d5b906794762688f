/* The shape of a stencil, shared by the generator (gen_stencils.c), which
 * writes the tables, and the translator (jit.c), which reads them. */
#ifndef RV_JIT_STENCIL_H
#define RV_JIT_STENCIL_H

#include <stdint.h>

/* The bias of a small immediate's hole: the compiler takes a 32-bit hole
 * to be an address below 2^31, so the immediate goes in plus 2^30. */
#define JIT_SIMM_BIAS (INT64_C(1) << 30)

/* What a relocation of a stencil asks to be patched with. */
enum jit_hole {
    JIT_HOLE_RD, JIT_HOLE_RS1, JIT_HOLE_RS2, JIT_HOLE_RS3, /* register byte offsets, 32-bit */
    JIT_HOLE_IMM, JIT_HOLE_PC, JIT_HOLE_INSN,              /* 64-bit values */
    JIT_HOLE_SIMM,                                         /* the immediate + JIT_SIMM_BIAS, 32-bit */
    JIT_HOLE_LEN,                                          /* the instruction's length, 32-bit */
    JIT_HOLE_N, JIT_HOLE_BLOCK,                            /* the block exit's: length, rv_block */
    JIT_HOLE_TARGET0, JIT_HOLE_TARGET1,                    /* chained pcs */
    /* `jmp *slot(%rip)`, made direct jumps (or dropped when they would jump
     * to the next byte): */
    JIT_HOLE_CONTINUE, /* to the next stencil */
    JIT_HOLE_EXIT,     /* to the block's exit */
    JIT_HOLE_NOT_TAKEN, JIT_HOLE_TAKEN, /* to a conditional branch's two exits */
    JIT_HOLE_SLOW,     /* to the slow path of a block_exit_to (block_exit_to_slow) */
    JIT_HOLE_GOTO,     /* block_exit_to's successor: its code once chained, else the slow path */
    JIT_HOLE_CHAIN0, JIT_HOLE_CHAIN1, /* to a chained block, else to a return */
    JIT_HOLE_HELPER,   /* `call/jmp *slot(%rip)` to a host function: aimed at its slot */
};

/* How the value is written, as the x86-64 relocation types. */
enum jit_patch { JIT_PATCH_ABS64, JIT_PATCH_ABS32S, JIT_PATCH_ABS32, JIT_PATCH_PCREL32 };

typedef struct jit_reloc {
    uint16_t offset;  /* of the field in the stencil */
    uint8_t hole;     /* enum jit_hole */
    uint8_t patch;    /* enum jit_patch */
    uint16_t helper;  /* JIT_HOLE_HELPER: index in the helper table */
    int32_t addend;
} jit_reloc;

/* The versions of an operation's stencil: which source register it reads
 * from the value the previous stencils pass on (stencils.c), if any. */
enum jit_acc { JIT_ACC_NONE, JIT_ACC_RS1, JIT_ACC_RS2, JIT_ACC_VERSIONS };

typedef struct jit_stencil {
    const uint8_t *code; /* NULL: the operation is left to the interpreter */
    uint16_t size;
    uint16_t nrelocs;
    const jit_reloc *relocs;
} jit_stencil;

#endif
