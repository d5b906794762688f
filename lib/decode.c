#include "decode.h"

#include <stdio.h>
#include <string.h>
#include <threads.h>

const rv_op_info rv_ops[RV_OP_COUNT] = {
    [RV_OP_illegal] = {"illegal", 0, 0, FMT_NONE, CLS_SYSTEM, RVF_ENDS_BLOCK},
#define RV_INSN(nm, match, mask, fmt, cls, flags) [RV_OP_##nm] = {#nm, match, mask, fmt, cls, flags},
#include "isa/insns.def"
#undef RV_INSN
    [RV_OP_fallthrough] = {"fallthrough", 0, 0, FMT_NONE, CLS_JAL, RVF_CTRL},
};

/* ------------------------------------------------------------ compressed */

enum rv_cformat {
    CF_NONE, CF_ADDI4SPN, CF_CL_W, CF_CL_D, CF_CS_W, CF_CS_D, CF_CI, CF_CI_NZRD, CF_LI,
    CF_ADDI16SP, CF_LUI, CF_CB_SHIFT, CF_CB_IMM, CF_CA, CF_CJ, CF_CB_BRANCH, CF_SLLI,
    CF_LWSP, CF_LDSP, CF_LDSP_F, CF_JR, CF_MV, CF_JALR, CF_ADD, CF_SWSP, CF_SDSP,
};

typedef struct rvc_info {
    const char *name;
    uint16_t match, mask;
    uint8_t cformat;
    uint16_t op;
} rvc_info;

static const rvc_info rvc_forms[] = {
#define RV_CINSN(nm, match, mask, cf, base) {#nm, match, mask, cf, RV_OP_##base},
#include "isa/rvc.def"
#undef RV_CINSN
};
enum { RVC_COUNT = sizeof rvc_forms / sizeof rvc_forms[0] };

static inline uint32_t bit(uint32_t v, int i) { return (v >> i) & 1; }
static inline uint32_t bits(uint32_t v, int hi, int lo) { return (v >> lo) & ((1u << (hi - lo + 1)) - 1); }
static inline int64_t sext(uint64_t v, int width)
{
    uint64_t m = UINT64_C(1) << (width - 1);
    return (int64_t)((v ^ m) - m);
}

/* Fill rd/rs1/rs2/imm for compressed form f; false for a reserved encoding. */
static bool expand_compressed(rv_insn *in, uint32_t c, enum rv_cformat f)
{
    unsigned rdp = 8 + bits(c, 4, 2), rs1p = 8 + bits(c, 9, 7), r = bits(c, 11, 7), r2 = bits(c, 6, 2);
    int64_t imm6 = sext(bit(c, 12) << 5 | bits(c, 6, 2), 6);
    switch (f) {
    case CF_NONE:
        return true;
    case CF_ADDI4SPN:
        in->rd = rdp, in->rs1 = 2;
        in->imm = bits(c, 12, 11) << 4 | bits(c, 10, 7) << 6 | bit(c, 6) << 2 | bit(c, 5) << 3;
        return in->imm != 0;
    case CF_CL_W: case CF_CS_W:
        in->rs1 = rs1p, in->rd = in->rs2 = rdp;
        in->imm = bits(c, 12, 10) << 3 | bit(c, 6) << 2 | bit(c, 5) << 6;
        return true;
    case CF_CL_D: case CF_CS_D:
        in->rs1 = rs1p, in->rd = in->rs2 = rdp;
        in->imm = bits(c, 12, 10) << 3 | bits(c, 6, 5) << 6;
        return true;
    case CF_CI: case CF_CI_NZRD:
        in->rd = in->rs1 = r, in->imm = imm6;
        return f == CF_CI || r != 0;
    case CF_LI:
        in->rd = r, in->rs1 = 0, in->imm = imm6;
        return true;
    case CF_ADDI16SP:
        in->rd = in->rs1 = 2;
        in->imm = sext(bit(c, 12) << 9 | bit(c, 6) << 4 | bit(c, 5) << 6 | bits(c, 4, 3) << 7 | bit(c, 2) << 5, 10);
        return in->imm != 0;
    case CF_LUI:
        in->rd = r, in->imm = sext((uint64_t)(bit(c, 12) << 17 | bits(c, 6, 2) << 12), 18);
        return in->imm != 0;
    case CF_CB_SHIFT:
        in->rd = in->rs1 = rs1p, in->imm = bit(c, 12) << 5 | bits(c, 6, 2);
        return true;
    case CF_CB_IMM:
        in->rd = in->rs1 = rs1p, in->imm = imm6;
        return true;
    case CF_CA:
        in->rd = in->rs1 = rs1p, in->rs2 = rdp;
        return true;
    case CF_CJ:
        in->rd = 0;
        in->imm = sext(bit(c, 12) << 11 | bit(c, 11) << 4 | bits(c, 10, 9) << 8 | bit(c, 8) << 10 |
                       bit(c, 7) << 6 | bit(c, 6) << 7 | bits(c, 5, 3) << 1 | bit(c, 2) << 5, 12);
        return true;
    case CF_CB_BRANCH:
        in->rs1 = rs1p, in->rs2 = 0;
        in->imm = sext(bit(c, 12) << 8 | bits(c, 11, 10) << 3 | bits(c, 6, 5) << 6 | bits(c, 4, 3) << 1 |
                       bit(c, 2) << 5, 9);
        return true;
    case CF_SLLI:
        in->rd = in->rs1 = r, in->imm = bit(c, 12) << 5 | bits(c, 6, 2);
        return true;
    case CF_LWSP:
        in->rd = r, in->rs1 = 2, in->imm = bit(c, 12) << 5 | bits(c, 6, 4) << 2 | bits(c, 3, 2) << 6;
        return r != 0;
    case CF_LDSP: case CF_LDSP_F:
        in->rd = r, in->rs1 = 2, in->imm = bit(c, 12) << 5 | bits(c, 6, 5) << 3 | bits(c, 4, 2) << 6;
        return f == CF_LDSP_F || r != 0;
    case CF_JR: case CF_JALR:
        in->rd = f == CF_JALR ? 1 : 0, in->rs1 = r, in->imm = 0;
        return r != 0;
    case CF_MV:
        in->rd = r, in->rs1 = 0, in->rs2 = r2;
        return true;
    case CF_ADD:
        in->rd = in->rs1 = r, in->rs2 = r2;
        return true;
    case CF_SWSP:
        in->rs1 = 2, in->rs2 = r2, in->imm = bits(c, 12, 9) << 2 | bits(c, 8, 7) << 6;
        return true;
    case CF_SDSP:
        in->rs1 = 2, in->rs2 = r2, in->imm = bits(c, 12, 10) << 3 | bits(c, 9, 7) << 6;
        return true;
    }
    return false;
}

static void decode_compressed(rv_insn *in, uint16_t c)
{
    for (unsigned i = 0; i < RVC_COUNT; i++) {
        const rvc_info *f = &rvc_forms[i];
        if ((c & f->mask) != f->match)
            continue;
        if (!expand_compressed(in, c, f->cformat))
            return;
        in->op = f->op;
        in->cop = (uint16_t)(i + 1);
        return;
    }
}

/* ---------------------------------------------------------------- 32-bit */

/* Candidate operations per major opcode (bits 6:2), built once. */
enum { MAX_PER_OPCODE = 64 };
static uint16_t by_opcode[32][MAX_PER_OPCODE];
static uint8_t by_opcode_count[32];
static once_flag index_once = ONCE_FLAG_INIT;

static void build_index(void)
{
    for (unsigned op = 1; op < RV_OP_fallthrough; op++) {
        unsigned major = (rv_ops[op].match >> 2) & 31;
        by_opcode[major][by_opcode_count[major]++] = (uint16_t)op;
    }
}

static bool has_rm(unsigned fmt)
{
    return fmt == FMT_F_R4 || fmt == FMT_F_RRR || fmt == FMT_F_RR || fmt == FMT_F_TOX || fmt == FMT_F_FROMX;
}

static void extract_fields(rv_insn *in, uint32_t w, unsigned fmt)
{
    in->rd = bits(w, 11, 7), in->rs1 = bits(w, 19, 15), in->rs2 = bits(w, 24, 20), in->rs3 = bits(w, 31, 27);
    in->rm = bits(w, 14, 12);
    switch (fmt) {
    case FMT_I: case FMT_LOAD: case FMT_FLOAD:
        in->imm = sext(bits(w, 31, 20), 12);
        break;
    case FMT_SHIFT:
        in->imm = bits(w, 25, 20);
        break;
    case FMT_S: case FMT_FSTORE:
        in->imm = sext(bits(w, 31, 25) << 5 | bits(w, 11, 7), 12);
        break;
    case FMT_B:
        in->imm = sext(bit(w, 31) << 12 | bit(w, 7) << 11 | bits(w, 30, 25) << 5 | bits(w, 11, 8) << 1, 13);
        break;
    case FMT_U:
        in->imm = sext(w & 0xfffff000u, 32);
        break;
    case FMT_J:
        in->imm = sext(bit(w, 31) << 20 | bits(w, 19, 12) << 12 | bit(w, 20) << 11 | bits(w, 30, 21) << 1, 21);
        break;
    case FMT_CSR: case FMT_CSRI:
        in->imm = bits(w, 31, 20);
        break;
    case FMT_LR: case FMT_AMO:
        in->rm = bits(w, 26, 25);
        break;
    default:
        in->imm = 0;
    }
}

static void decode_32(rv_insn *in, uint32_t w)
{
    unsigned major = (w >> 2) & 31;
    for (unsigned i = 0; i < by_opcode_count[major]; i++) {
        unsigned op = by_opcode[major][i];
        if ((w & rv_ops[op].mask) != rv_ops[op].match)
            continue;
        extract_fields(in, w, rv_ops[op].format);
        if (has_rm(rv_ops[op].format) && (in->rm == 5 || in->rm == 6))
            return; /* reserved rounding mode */
        in->op = (uint16_t)op;
        return;
    }
}

static bool writes_int_rd(unsigned fmt)
{
    switch (fmt) {
    case FMT_R: case FMT_I: case FMT_SHIFT: case FMT_LOAD: case FMT_U: case FMT_J: case FMT_CSR:
    case FMT_CSRI: case FMT_LR: case FMT_AMO: case FMT_F_TOX: case FMT_F_TOX_NORM: case FMT_F_CMP:
        return true;
    default:
        return false;
    }
}

void rv_decode(rv_insn *in, uint64_t pc, uint16_t lo16, uint16_t hi16)
{
    call_once(&index_once, build_index);
    memset(in, 0, sizeof *in);
    in->pc = pc;
    in->op = RV_OP_illegal;
    in->len = (uint8_t)rv_insn_length(lo16);
    if (in->len == 2) {
        in->bits = lo16;
        decode_compressed(in, lo16);
    } else {
        in->bits = (uint32_t)lo16 | (uint32_t)hi16 << 16;
        if ((lo16 & 0x1f) != 0x1f) /* 48-bit and longer encodings are not RV64GC */
            decode_32(in, in->bits);
    }
    if (in->op != RV_OP_illegal && writes_int_rd(rv_ops[in->op].format) && in->rd == 0)
        in->rd = RV_X_SINK;
}

/* -------------------------------------------------------------- operands */

rv_operands rv_insn_operands(const rv_insn *in)
{
    enum { X = 0, F = RV_REG_F0, N = RV_REG_NONE };
    rv_operands o = {N, {N, N, N}};
    unsigned fmt = rv_ops[in->op].format;
    /* Register file of rd, rs1, rs2, rs3 per format: X, F, or N (absent). */
    static const uint8_t files[][4] = {
        [FMT_R] = {X, X, X, N},        [FMT_I] = {X, X, N, N},          [FMT_SHIFT] = {X, X, N, N},
        [FMT_LOAD] = {X, X, N, N},     [FMT_S] = {N, X, X, N},          [FMT_B] = {N, X, X, N},
        [FMT_U] = {X, N, N, N},        [FMT_J] = {X, N, N, N},          [FMT_FENCE] = {N, N, N, N},
        [FMT_NONE] = {N, N, N, N},     [FMT_CSR] = {X, X, N, N},        [FMT_CSRI] = {X, N, N, N},
        [FMT_LR] = {X, X, N, N},       [FMT_AMO] = {X, X, X, N},        [FMT_FLOAD] = {F, X, N, N},
        [FMT_FSTORE] = {N, X, F, N},   [FMT_F_R4] = {F, F, F, F},       [FMT_F_RRR] = {F, F, F, N},
        [FMT_F_RRR_NORM] = {F, F, F, N}, [FMT_F_RR] = {F, F, N, N},     [FMT_F_TOX] = {X, F, N, N},
        [FMT_F_TOX_NORM] = {X, F, N, N}, [FMT_F_CMP] = {X, F, F, N},    [FMT_F_FROMX] = {F, X, N, N},
        [FMT_F_FROMX_NORM] = {F, X, N, N},
    };
    if (in->op == RV_OP_illegal || in->op == RV_OP_fallthrough)
        return o;
    const uint8_t *fl = files[fmt];
    uint8_t regs[4] = {in->rd, in->rs1, in->rs2, in->rs3};
    if (fl[0] != N && !(fl[0] == X && in->rd == RV_X_SINK))
        o.dst = (uint8_t)(fl[0] + regs[0]);
    for (int i = 0; i < 3; i++)
        if (fl[i + 1] != N)
            o.src[i] = (uint8_t)(fl[i + 1] + regs[i + 1]);
    if (in->op == RV_OP_ecall) { /* the system call reads a0-a5 and a7, writes a0 */
        o.dst = 10;
        o.src[0] = 17, o.src[1] = 10;
    }
    return o;
}

/* ----------------------------------------------------------- disassembly */

static char mnemonics[RV_OP_COUNT][16];
static char rvc_mnemonics[RVC_COUNT][16];
static once_flag mnemonics_once = ONCE_FLAG_INIT;

static void dotted(char *dst, const char *src)
{
    size_t i = 0;
    for (; src[i] && i < 15; i++)
        dst[i] = src[i] == '_' ? '.' : src[i];
    dst[i] = '\0';
}

static void build_mnemonics(void)
{
    for (unsigned op = 0; op < RV_OP_COUNT; op++)
        dotted(mnemonics[op], rv_ops[op].name);
    for (unsigned i = 0; i < RVC_COUNT; i++)
        dotted(rvc_mnemonics[i], rvc_forms[i].name);
}

const char *rv_insn_mnemonic(const rv_insn *in)
{
    call_once(&mnemonics_once, build_mnemonics);
    return in->cop ? rvc_mnemonics[in->cop - 1] : mnemonics[in->op];
}

static const char *const xnames[33] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6", "zero",
};
static const char *const fnames[32] = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
    "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};
static const char *const aqrl_suffix[4] = {"", ".rl", ".aq", ".aqrl"}; /* by the aq:rl bits */
static const char *const rm_names[8] = {"rne", "rtz", "rdn", "rup", "rmm", "rm5", "rm6", "dyn"};

static const char *csr_name(unsigned csr)
{
    switch (csr) {
    case 0x001: return "fflags";
    case 0x002: return "frm";
    case 0x003: return "fcsr";
    case 0xc00: return "cycle";
    case 0xc01: return "time";
    case 0xc02: return "instret";
    default: return NULL;
    }
}

char *rv_disasm(const rv_insn *in, char *buf, size_t size)
{
    const char *m = rv_insn_mnemonic(in);
    const char *rd = xnames[in->rd], *rs1 = xnames[in->rs1], *rs2 = xnames[in->rs2 & 31];
    const char *frd = fnames[in->rd & 31], *frs1 = fnames[in->rs1 & 31], *frs2 = fnames[in->rs2 & 31];
    const char *rm = rm_names[in->rm & 7];
    long long imm = (long long)in->imm;
    unsigned long long target = (unsigned long long)(in->pc + (uint64_t)in->imm);
    if (in->op == RV_OP_illegal) {
        snprintf(buf, size, in->len == 2 ? "illegal 0x%04x" : "illegal 0x%08x", in->bits);
        return buf;
    }
    switch (rv_ops[in->op].format) {
    case FMT_R: snprintf(buf, size, "%s %s, %s, %s", m, rd, rs1, rs2); break;
    case FMT_I:
        if (in->op == RV_OP_jalr)
            snprintf(buf, size, "%s %s, %lld(%s)", m, rd, imm, rs1);
        else
            snprintf(buf, size, "%s %s, %s, %lld", m, rd, rs1, imm);
        break;
    case FMT_SHIFT: snprintf(buf, size, "%s %s, %s, %lld", m, rd, rs1, imm); break;
    case FMT_LOAD: snprintf(buf, size, "%s %s, %lld(%s)", m, rd, imm, rs1); break;
    case FMT_S: snprintf(buf, size, "%s %s, %lld(%s)", m, rs2, imm, rs1); break;
    case FMT_B: snprintf(buf, size, "%s %s, %s, 0x%llx", m, rs1, rs2, target); break;
    case FMT_U: snprintf(buf, size, "%s %s, 0x%llx", m, rd, (unsigned long long)(imm >> 12) & 0xfffff); break;
    case FMT_J: snprintf(buf, size, "%s %s, 0x%llx", m, rd, target); break;
    case FMT_FENCE: case FMT_NONE: snprintf(buf, size, "%s", m); break;
    case FMT_CSR: case FMT_CSRI: {
        char num[8];
        const char *cn = csr_name((unsigned)in->imm);
        if (!cn) {
            snprintf(num, sizeof num, "0x%03llx", (unsigned long long)in->imm);
            cn = num;
        }
        if (rv_ops[in->op].format == FMT_CSR)
            snprintf(buf, size, "%s %s, %s, %s", m, rd, cn, rs1);
        else
            snprintf(buf, size, "%s %s, %s, %u", m, rd, cn, in->rs1);
        break;
    }
    case FMT_LR: snprintf(buf, size, "%s%s %s, (%s)", m, aqrl_suffix[in->rm & 3], rd, rs1); break;
    case FMT_AMO: snprintf(buf, size, "%s%s %s, %s, (%s)", m, aqrl_suffix[in->rm & 3], rd, rs2, rs1); break;
    case FMT_FLOAD: snprintf(buf, size, "%s %s, %lld(%s)", m, frd, imm, rs1); break;
    case FMT_FSTORE: snprintf(buf, size, "%s %s, %lld(%s)", m, frs2, imm, rs1); break;
    case FMT_F_R4:
        snprintf(buf, size, "%s %s, %s, %s, %s, %s", m, frd, frs1, frs2, fnames[in->rs3 & 31], rm);
        break;
    case FMT_F_RRR: snprintf(buf, size, "%s %s, %s, %s, %s", m, frd, frs1, frs2, rm); break;
    case FMT_F_RRR_NORM: snprintf(buf, size, "%s %s, %s, %s", m, frd, frs1, frs2); break;
    case FMT_F_RR: snprintf(buf, size, "%s %s, %s, %s", m, frd, frs1, rm); break;
    case FMT_F_TOX: snprintf(buf, size, "%s %s, %s, %s", m, rd, frs1, rm); break;
    case FMT_F_TOX_NORM: snprintf(buf, size, "%s %s, %s", m, rd, frs1); break;
    case FMT_F_CMP: snprintf(buf, size, "%s %s, %s, %s", m, rd, frs1, frs2); break;
    case FMT_F_FROMX: snprintf(buf, size, "%s %s, %s, %s", m, frd, rs1, rm); break;
    case FMT_F_FROMX_NORM: snprintf(buf, size, "%s %s, %s", m, frd, rs1); break;
    }
    return buf;
}
