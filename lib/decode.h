/* Decoding RV64GC instructions into rv_insn records, and the static facts
 * about each operation, all derived from isa/insns.def and isa/rvc.def. */
#ifndef RV_DECODE_H
#define RV_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Operand layouts. Names say which register files are involved:
 * F_ = floating point; TOX = fp source, integer destination; FROMX = the reverse;
 * _NORM = no rounding-mode field. */
enum rv_format {
    FMT_R, FMT_I, FMT_SHIFT, FMT_LOAD, FMT_S, FMT_B, FMT_U, FMT_J,
    FMT_FENCE, FMT_NONE, FMT_CSR, FMT_CSRI, FMT_LR, FMT_AMO,
    FMT_FLOAD, FMT_FSTORE, FMT_F_R4, FMT_F_RRR, FMT_F_RRR_NORM, FMT_F_RR,
    FMT_F_TOX, FMT_F_TOX_NORM, FMT_F_CMP, FMT_F_FROMX, FMT_F_FROMX_NORM,
};

/* Timing classes, for the detailed core's functional units. */
enum rv_class {
    CLS_ALU, CLS_MUL, CLS_DIV, CLS_LOAD, CLS_STORE, CLS_AMO, CLS_BRANCH, CLS_JAL,
    CLS_JALR, CLS_FENCE, CLS_CSR, CLS_SYSTEM, CLS_FLOAD, CLS_FSTORE, CLS_FADD,
    CLS_FMUL, CLS_FMA, CLS_FDIV, CLS_FSQRT, CLS_FCVT, CLS_FMISC, CLS_FMOVE,
    CLS_COUNT
};

enum {
    RVF_CTRL = 1 << 0,       /* may change control flow (branch, jump) */
    RVF_ENDS_BLOCK = 1 << 1, /* ends a decoded block (besides control flow) */
    RVF_SERIAL = 1 << 2,     /* serialising in the pipeline */
    RVF_FFLAGS = 1 << 3,     /* may accrue fflags */
    RVF_ATOMIC = 1 << 4,     /* A extension: must be naturally aligned */
};

enum rv_op {
    RV_OP_illegal,
#define RV_INSN(name, match, mask, fmt, cls, flags) RV_OP_##name,
#include "isa/insns.def"
#undef RV_INSN
    RV_OP_fallthrough, /* synthetic: ends a block that stops without a jump */
    RV_OP_COUNT
};

/* In rv_insn, register fields hold numbers within their file (0-31), except
 * that an integer destination naming x0 holds RV_X_SINK: the interpreter's x[]
 * has a 33rd slot that absorbs those writes, so no instruction needs a special
 * case for x0.  rv_operands uses one numbering for both files: 0-31 integer,
 * 32-63 floating point, RV_REG_NONE when absent. */
enum { RV_X_SINK = 32, RV_REG_F0 = 32, RV_REG_NONE = 0xff };

typedef struct rv_insn {
    uint64_t pc;
    int64_t imm;  /* immediate; CSR number for FMT_CSR/FMT_CSRI (zimm in rs1) */
    uint32_t bits;
    uint16_t op;  /* enum rv_op */
    uint8_t len;  /* 2 or 4 bytes */
    uint8_t rd, rs1, rs2, rs3; /* architectural numbers, 0-31 within their file */
    uint8_t rm;   /* rounding-mode field; aq/rl bits for atomics */
    uint16_t idx; /* position in its decoded block */
    uint16_t cop; /* compressed form (index in rvc.def + 1), 0 if 32-bit */
} rv_insn;

typedef struct rv_op_info {
    const char *name; /* mnemonic, e.g. "fcvt.w.s" */
    uint32_t match, mask;
    uint8_t format, cls;
    uint16_t flags;
} rv_op_info;

extern const rv_op_info rv_ops[RV_OP_COUNT];

/* Decode the instruction whose first 16 bits are lo16 (and, when it is a
 * 32-bit one, next 16 bits hi16) at pc. Never fails: unknown or reserved
 * encodings decode to RV_OP_illegal with len set from the low bits. */
void rv_decode(rv_insn *out, uint64_t pc, uint16_t lo16, uint16_t hi16);
/* Length in bytes implied by the low 16 bits (2 or 4; longer encodings -> 4, illegal). */
static inline unsigned rv_insn_length(uint16_t lo16) { return (lo16 & 3) == 3 ? 4 : 2; }

/* Register operands of an instruction, in the 0-63 numbering (RV_REG_NONE if
 * absent; x0 reads are reported as 0, writes to x0 as RV_REG_NONE). */
typedef struct rv_operands {
    uint8_t dst, src[3];
} rv_operands;
rv_operands rv_insn_operands(const rv_insn *in);

/* Disassemble into buf ("addi a0, sp, 16"); returns buf. */
char *rv_disasm(const rv_insn *in, char *buf, size_t size);
/* Mnemonic of the compressed form if any, else of the operation. */
const char *rv_insn_mnemonic(const rv_insn *in);

#endif
