/* The decoder and disassembler (lib/decode.c), checked against the GNU
 * assembler: decode_vectors.h holds the encodings binutils produced for
 * assembly whose operands gen_decode_vectors.sh chose, so the assembler is
 * the oracle for the bits and the generator's table for the fields. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "decode_vectors.h"

enum { NVEC = sizeof decode_vectors / sizeof decode_vectors[0] };

static void decode_bits(rv_insn *in, uint64_t pc, uint32_t bits)
{
    rv_decode(in, pc, (uint16_t)(bits & 0xffff), (uint16_t)(bits >> 16));
}

/* rv_ops[op].name with '_' read as '.' */
static void op_name(unsigned op, char *buf, size_t size)
{
    snprintf(buf, size, "%s", rv_ops[op].name);
    for (char *c = buf; *c; c++)
        if (*c == '_')
            *c = '.';
}

/* Names of the compressed forms, straight from the table the decoder uses. */
static const char *const rvc_names[] = {
#define RV_CINSN(nm, match, mask, cf, base) #nm,
#include "isa/rvc.def"
#undef RV_CINSN
};
enum { NRVC = sizeof rvc_names / sizeof rvc_names[0] };

static void dotted(const char *src, char *dst, size_t size)
{
    snprintf(dst, size, "%s", src);
    for (char *c = dst; *c; c++)
        if (*c == '_')
            *c = '.';
}

/* ------------------------------------------------------------- vectors */

Test(decode, assembler_vectors)
{
    cr_assert_gt(NVEC, 500);
    int failures = 0;
    for (size_t i = 0; i < NVEC; i++) {
        const decode_vector *v = &decode_vectors[i];
        rv_insn in;
        uint64_t pc = 0x10000 + 2 * i;
        /* a compressed instruction's upper halfword is whatever follows: make it noise */
        uint32_t bits = v->len == 2 ? (v->bits | 0xdead0000u) : v->bits;
        decode_bits(&in, pc, bits);
        char name[32];
        op_name(in.op, name, sizeof name);
        bool ok = true;
#define CHECK(cond, ...)                                                                                           \
    do {                                                                                                           \
        if (!(cond)) {                                                                                             \
            cr_expect(cond, __VA_ARGS__);                                                                          \
            ok = false;                                                                                            \
        }                                                                                                          \
    } while (0)
        CHECK(in.op != RV_OP_illegal, "%s (%#x): decoded as illegal", v->text, v->bits);
        CHECK(strcmp(name, v->op) == 0, "%s (%#x): op %s, expected %s", v->text, v->bits, name, v->op);
        CHECK(in.len == v->len, "%s: len %u, expected %u", v->text, in.len, v->len);
        CHECK(rv_insn_length((uint16_t)v->bits) == v->len, "%s: rv_insn_length", v->text);
        CHECK(in.pc == pc, "%s: pc not recorded", v->text);
        CHECK(in.bits == v->bits, "%s: bits %#x, expected %#x", v->text, in.bits, v->bits);
        if (v->cform) {
            CHECK(in.cop != 0, "%s: not marked compressed", v->text);
            CHECK(strcmp(rv_insn_mnemonic(&in), v->cform) == 0, "%s: mnemonic %s, expected %s", v->text,
                  rv_insn_mnemonic(&in), v->cform);
        } else {
            CHECK(in.cop == 0, "%s: marked compressed", v->text);
            CHECK(strcmp(rv_insn_mnemonic(&in), v->op) == 0, "%s: mnemonic %s", v->text, rv_insn_mnemonic(&in));
        }
        if (v->rd != DC)
            CHECK(in.rd == v->rd, "%s: rd %u, expected %d", v->text, in.rd, v->rd);
        if (v->rs1 != DC)
            CHECK(in.rs1 == v->rs1, "%s: rs1 %u, expected %d", v->text, in.rs1, v->rs1);
        if (v->rs2 != DC)
            CHECK(in.rs2 == v->rs2, "%s: rs2 %u, expected %d", v->text, in.rs2, v->rs2);
        if (v->rs3 != DC)
            CHECK(in.rs3 == v->rs3, "%s: rs3 %u, expected %d", v->text, in.rs3, v->rs3);
        if (v->check_imm)
            CHECK(in.imm == v->imm, "%s: imm %lld, expected %lld", v->text, (long long)in.imm, (long long)v->imm);
        if (v->rm != DC)
            CHECK(in.rm == v->rm, "%s: rm %u, expected %d", v->text, in.rm, v->rm);
        /* the disassembly starts with the mnemonic */
        char dis[96];
        rv_disasm(&in, dis, sizeof dis);
        const char *mn = rv_insn_mnemonic(&in);
        CHECK(strncmp(dis, mn, strlen(mn)) == 0, "%s: disassembly \"%s\"", v->text, dis);
        /* 32-bit: the encoding matches its table entry */
        if (v->len == 4)
            CHECK((v->bits & rv_ops[in.op].mask) == rv_ops[in.op].match, "%s: match/mask", v->text);
#undef CHECK
        if (!ok)
            failures++;
    }
    cr_expect_eq(failures, 0, "%d of %d vectors failed", failures, (int)NVEC);
}

Test(decode, vectors_cover_every_operation_and_compressed_form)
{
    bool seen_op[RV_OP_COUNT] = {false};
    bool seen_c[NRVC] = {false};
    for (size_t i = 0; i < NVEC; i++) {
        const decode_vector *v = &decode_vectors[i];
        char name[32];
        for (unsigned op = 1; op < RV_OP_fallthrough; op++) {
            op_name(op, name, sizeof name);
            if (!v->cform && strcmp(name, v->op) == 0)
                seen_op[op] = true;
        }
        for (unsigned c = 0; c < NRVC && v->cform; c++) {
            dotted(rvc_names[c], name, sizeof name);
            if (strcmp(name, v->cform) == 0)
                seen_c[c] = true;
        }
    }
    for (unsigned op = 1; op < RV_OP_fallthrough; op++)
        cr_expect(seen_op[op], "no assembler vector for %s", rv_ops[op].name);
    for (unsigned c = 0; c < NRVC; c++)
        cr_expect(seen_c[c], "no assembler vector for %s", rvc_names[c]);
}

/* Every rounding-mode operation has a vector for each valid static rounding mode. */
Test(decode, vectors_cover_every_rounding_mode)
{
    for (unsigned op = 1; op < RV_OP_fallthrough; op++) {
        unsigned f = rv_ops[op].format;
        if (f != FMT_F_R4 && f != FMT_F_RRR && f != FMT_F_RR && f != FMT_F_TOX && f != FMT_F_FROMX)
            continue;
        char name[32];
        op_name(op, name, sizeof name);
        unsigned seen = 0;
        for (size_t i = 0; i < NVEC; i++)
            if (!decode_vectors[i].cform && strcmp(decode_vectors[i].op, name) == 0 && decode_vectors[i].rm >= 0)
                seen |= 1u << decode_vectors[i].rm;
        /* fcvt.d.s, fcvt.d.w and fcvt.d.wu are exact: binutils only emits rm = 0 for them */
        if (op == RV_OP_fcvt_d_s || op == RV_OP_fcvt_d_w || op == RV_OP_fcvt_d_wu)
            cr_expect(seen & 1, "%s", name);
        else
            cr_expect_eq(seen, 0x9f, "%s: rounding modes seen %#x", name, seen);
    }
}

/* ----------------------------------------------------- table properties */

Test(decode, table_is_consistent)
{
    for (unsigned op = 1; op < RV_OP_fallthrough; op++) {
        const rv_op_info *a = &rv_ops[op];
        cr_expect_eq(a->match & ~a->mask, 0, "%s: match has bits outside the mask", a->name);
        cr_expect_eq(a->match & 3, 3, "%s: not a 32-bit encoding", a->name);
        /* no encoding is claimed by two operations */
        for (unsigned o2 = op + 1; o2 < RV_OP_fallthrough; o2++) {
            const rv_op_info *b = &rv_ops[o2];
            uint32_t common = a->mask & b->mask;
            cr_expect((a->match & common) != (b->match & common), "%s and %s overlap", a->name, b->name);
        }
        /* the decoder gives back the op for its own match pattern (with zero fields) */
        rv_insn in;
        decode_bits(&in, 0, a->match);
        cr_expect_eq(in.op, op, "%s: match decodes as %s", a->name, rv_ops[in.op].name);
    }
}

Test(decode, classes_and_flags)
{
    static const struct { unsigned op, cls, flags_set, flags_clear; } t[] = {
        {RV_OP_beq, CLS_BRANCH, RVF_CTRL, RVF_FFLAGS},
        {RV_OP_jal, CLS_JAL, RVF_CTRL, 0},
        {RV_OP_jalr, CLS_JALR, RVF_CTRL, 0},
        {RV_OP_add, CLS_ALU, 0, RVF_CTRL | RVF_ENDS_BLOCK | RVF_SERIAL},
        {RV_OP_mul, CLS_MUL, 0, RVF_CTRL},
        {RV_OP_divuw, CLS_DIV, 0, RVF_CTRL},
        {RV_OP_ld, CLS_LOAD, 0, RVF_ATOMIC},
        {RV_OP_sb, CLS_STORE, 0, RVF_ATOMIC},
        {RV_OP_lr_d, CLS_LOAD, RVF_ATOMIC, 0},
        {RV_OP_sc_w, CLS_STORE, RVF_ATOMIC, 0},
        {RV_OP_amomaxu_d, CLS_AMO, RVF_ATOMIC, 0},
        {RV_OP_ecall, CLS_SYSTEM, RVF_ENDS_BLOCK | RVF_SERIAL, RVF_CTRL},
        {RV_OP_ebreak, CLS_SYSTEM, RVF_ENDS_BLOCK, RVF_CTRL},
        {RV_OP_fence_i, CLS_FENCE, RVF_ENDS_BLOCK | RVF_SERIAL, 0},
        {RV_OP_fence, CLS_FENCE, 0, RVF_ENDS_BLOCK},
        {RV_OP_csrrw, CLS_CSR, RVF_SERIAL, 0},
        {RV_OP_csrrci, CLS_CSR, RVF_SERIAL, 0},
        {RV_OP_fadd_s, CLS_FADD, RVF_FFLAGS, 0},
        {RV_OP_fmadd_d, CLS_FMA, RVF_FFLAGS, 0},
        {RV_OP_fdiv_d, CLS_FDIV, RVF_FFLAGS, 0},
        {RV_OP_fsqrt_s, CLS_FSQRT, RVF_FFLAGS, 0},
        {RV_OP_fsgnj_d, CLS_FMISC, 0, RVF_FFLAGS},
        {RV_OP_fmv_x_w, CLS_FMOVE, 0, RVF_FFLAGS},
        {RV_OP_fmv_d_x, CLS_FMOVE, 0, RVF_FFLAGS},
        {RV_OP_fcvt_w_d, CLS_FCVT, RVF_FFLAGS, 0},
        {RV_OP_fclass_s, CLS_FMISC, 0, RVF_FFLAGS},
        {RV_OP_feq_d, CLS_FMISC, RVF_FFLAGS, 0},
        {RV_OP_flw, CLS_FLOAD, 0, 0},
        {RV_OP_fsd, CLS_FSTORE, 0, 0},
        {RV_OP_illegal, CLS_SYSTEM, RVF_ENDS_BLOCK, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const rv_op_info *o = &rv_ops[t[i].op];
        cr_expect_eq(o->cls, t[i].cls, "%s class %u", o->name, o->cls);
        cr_expect_eq(o->flags & t[i].flags_set, t[i].flags_set, "%s flags %#x", o->name, o->flags);
        cr_expect_eq(o->flags & t[i].flags_clear, 0, "%s flags %#x", o->name, o->flags);
    }
    /* every control-transfer instruction, and only those, has RVF_CTRL */
    for (unsigned op = 1; op < RV_OP_fallthrough; op++) {
        unsigned f = rv_ops[op].format;
        bool ctrl = f == FMT_B || f == FMT_J || op == RV_OP_jalr;
        cr_expect_eq(!!(rv_ops[op].flags & RVF_CTRL), ctrl, "%s", rv_ops[op].name);
        bool atomic = f == FMT_LR || f == FMT_AMO;
        cr_expect_eq(!!(rv_ops[op].flags & RVF_ATOMIC), atomic, "%s", rv_ops[op].name);
    }
}

/* -------------------------------------------------------------- illegal */

static void expect_illegal(uint32_t bits, unsigned len, const char *why)
{
    rv_insn in;
    decode_bits(&in, 0x4000, bits);
    char name[32];
    op_name(in.op, name, sizeof name);
    cr_expect_eq(in.op, RV_OP_illegal, "%#010x (%s) decoded as %s", bits, why, name);
    cr_expect_eq(in.len, len, "%#010x (%s): len %u", bits, why, in.len);
    cr_expect_eq(in.cop, 0, "%s", why);
    cr_expect_str_eq(rv_insn_mnemonic(&in), "illegal", "%s", why);
    rv_operands o = rv_insn_operands(&in);
    cr_expect(o.dst == RV_REG_NONE && o.src[0] == RV_REG_NONE && o.src[1] == RV_REG_NONE &&
                  o.src[2] == RV_REG_NONE, "%s: illegal has operands", why);
}

static void expect_legal(uint32_t bits, unsigned op, const char *why)
{
    rv_insn in;
    decode_bits(&in, 0x4000, bits);
    cr_expect_eq(in.op, op, "%#010x (%s) decoded as %s, expected %s", bits, why, rv_ops[in.op].name,
                 rv_ops[op].name);
}

Test(decode, reserved_compressed_encodings_are_illegal)
{
    expect_illegal(0x0000, 2, "all-zero halfword");
    expect_illegal(0x00000000, 2, "all-zero word");
    expect_illegal(0x0004, 2, "c.addi4spn rd'=x9 nzuimm=0");
    expect_illegal(0x001c, 2, "c.addi4spn rd'=x15 nzuimm=0");
    expect_illegal(0x4002, 2, "c.lwsp rd=x0");
    expect_illegal(0x4012, 2, "c.lwsp x0, 4(sp)");
    expect_illegal(0x6002, 2, "c.ldsp rd=x0");
    expect_illegal(0x7ffe & ~0x0f80, 2, "c.ldsp x0, max offset");
    expect_illegal(0x8002, 2, "c.jr rs1=x0");
    expect_illegal(0x2001, 2, "c.addiw rd=x0");
    expect_illegal(0x2005, 2, "c.addiw x0, 1");
    expect_illegal(0x307d, 2, "c.addiw x0, -1");
    expect_illegal(0x6081, 2, "c.lui ra, 0");
    expect_illegal(0x6001, 2, "c.lui x0, 0");
    expect_illegal(0x6f81, 2, "c.lui x31, 0");
    expect_illegal(0x6101, 2, "c.addi16sp imm=0");
    for (uint32_t low = 0; low < 0x2000; low += 0x1c4)
        expect_illegal(0x8000 | (low & 0x1ffc), 2, "quadrant 0, funct3=100 (reserved)");
    expect_illegal(0x9c41, 2, "c.subw/c.addw space, funct2=10 (reserved)");
    expect_illegal(0x9c61, 2, "c.subw/c.addw space, funct2=11 (reserved)");
    expect_illegal(0x9fe1, 2, "reserved CA encoding with other registers");
}

Test(decode, compressed_edge_forms_that_are_legal)
{
    expect_legal(0x2002, RV_OP_fld, "c.fldsp f0, 0(sp): rd=0 is fine for FP");
    expect_legal(0x9002, RV_OP_ebreak, "c.ebreak");
    expect_legal(0x9082, RV_OP_jalr, "c.jalr ra");
    expect_legal(0x8016, RV_OP_add, "c.mv x0, t0 (HINT)");
    expect_legal(0x0001, RV_OP_addi, "c.nop");
    rv_insn in;
    decode_bits(&in, 0, 0x6105);
    cr_expect_eq(in.op, RV_OP_addi, "rd=2 in c.lui space is c.addi16sp");
    cr_expect_str_eq(rv_insn_mnemonic(&in), "c.addi16sp");
    decode_bits(&in, 0, 0x1002);
    cr_expect_eq(in.op, RV_OP_slli, "c.slli x0 with shamt[5]=1 (HINT)");
    cr_expect_eq(in.imm, 32);
    decode_bits(&in, 0, 0x9002 | 5 << 2);
    cr_expect_str_eq(rv_insn_mnemonic(&in), "c.add", "c.add x0, t0 (HINT)");
    cr_expect_eq(in.rd, RV_X_SINK);
}

Test(decode, reserved_rounding_modes_are_illegal)
{
    /* fadd.s ft1, ft2, ft3 is 0x003170d3 with rm = 7 in bits 14:12 */
    static const uint32_t with_rm[] = {
        0x003100d3, /* fadd.s */
        0x203170c3, /* fmadd.s ft1, ft2, ft3, ft4 */
        0x6ac58543, /* fmadd.d fa0, fa1, fa2, fa3 */
        0x5800c053, /* fsqrt.s */
        0xc2051553, /* fcvt.w.d */
        0xd225b553, /* fcvt.d.l */
        0x401140d3, /* fcvt.s.d */
        0x1a000053, /* fdiv.d */
    };
    for (size_t i = 0; i < sizeof with_rm / sizeof with_rm[0]; i++) {
        uint32_t base = with_rm[i] & ~(7u << 12);
        rv_insn in;
        for (uint32_t rm = 0; rm < 8; rm++) {
            decode_bits(&in, 0, base | rm << 12);
            if (rm == 5 || rm == 6) {
                cr_expect_eq(in.op, RV_OP_illegal, "%#x with rm=%u", base, rm);
            } else {
                cr_expect_neq(in.op, RV_OP_illegal, "%#x with rm=%u", base, rm);
                cr_expect_eq(in.rm, rm);
            }
        }
    }
    /* operations without a rounding mode use funct3 as an opcode: values beyond theirs are illegal */
    expect_illegal(0x20b53553, 4, "fsgnj.s funct3=3");
    expect_illegal(0x28b53553, 4, "fmin/fmax.s funct3=3");
    expect_illegal(0xa2b53553, 4, "feq/flt/fle.d funct3=3");
    expect_illegal(0xe0002553, 4, "fmv.x.w / fclass.s funct3=2");
    expect_illegal(0xf0001553, 4, "fmv.w.x funct3=1");
}

Test(decode, unknown_opcodes_are_illegal)
{
    expect_illegal(0xffffffff, 4, "all ones (longer-than-32-bit prefix)");
    expect_illegal(0x0000001f, 4, "48-bit prefix");
    expect_illegal(0x0000003f, 4, "64-bit prefix");
    expect_illegal(0x1234007f, 4, "80-bit+ prefix");
    expect_illegal(0x022180d7, 4, "vadd.vv v1, v2, v3 (V extension)");
    expect_illegal(0x02056087, 4, "vle32.v v1, (a0): LOAD-FP with a vector width");
    expect_illegal(0x0015200f, 4, "cbo.clean (a0): MISC-MEM funct3=2");
    expect_illegal(0x10500073, 4, "wfi");
    expect_illegal(0x30200073, 4, "mret");
    expect_illegal(0x10200073, 4, "sret");
    expect_illegal(0x000000f3, 4, "ecall with rd != 0");
    expect_illegal(0x00100173, 4, "ebreak with rd != 0");
    expect_illegal(0x0000406b, 4, "reserved major opcode 11010");
    expect_illegal(0x0000000b, 4, "custom-0 opcode");
    expect_illegal(0x00007003, 4, "load funct3=7 (ldu does not exist)");
    expect_illegal(0x00004023, 4, "store funct3=4");
    expect_illegal(0x00002063, 4, "branch funct3=2");
    expect_illegal(0x00001067, 4, "jalr funct3=1");
    expect_illegal(0x04051513, 4, "slli with imm[11:6] = 1");
    expect_illegal(0x80055513, 4, "srli with funct6 = 100000");
    expect_illegal(0x0205151b, 4, "slliw with shamt[5] = 1 (reserved on RV64)");
    expect_illegal(0x4205551b, 4, "sraiw with shamt[5] = 1");
    expect_illegal(0x04b50533, 4, "OP with funct7 = 0000010");
    expect_illegal(0x02b5153b, 4, "OP-32 mulw space funct3=1");
    expect_illegal(0x00b5002f, 4, "AMO funct3=0 (byte atomics)");
    expect_illegal(0x00b5402f, 4, "AMO funct3=4");
    expect_illegal(0x1016252f, 4, "lr.w a0, (a2) with rs2 = x1");
    expect_illegal(0x11f6352f, 4, "lr.d with rs2 = x31");
    expect_illegal(0xf8b5202f, 4, "AMO funct5=11111");
    expect_illegal(0x00004007, 4, "LOAD-FP funct3=4 (flq: no Q)");
    expect_illegal(0x06000053, 4, "OP-FP fmt=11 (quad)");
    expect_illegal(0x04000053, 4, "OP-FP fmt=10 (half)");
    expect_illegal(0xc0400053, 4, "fcvt.?.s with rs2 = 4");
    expect_illegal(0x40000053, 4, "fcvt.s.s (rs2 = 0 in fcvt.s.d space)");
}

/* 0x0000103b is sllw x0, x0, x0: legal.  Kept apart so the list above reads as "illegal". */
Test(decode, sllw_x0_is_legal)
{
    expect_legal(0x0000103b, RV_OP_sllw, "sllw x0, x0, x0");
}

Test(decode, fence_i_ignores_its_reserved_fields)
{
    /* Zifencei: "The unused fields in the FENCE.I instruction, imm[11:0], rs1, and rd, are reserved
     * for finer-grain fences in future extensions. For forward compatibility, base implementations
     * shall ignore these fields" */
    expect_legal(0x0000100f, RV_OP_fence_i, "fence.i");
    expect_legal(0x1231108f, RV_OP_fence_i, "fence.i with rd=1, rs1=2, imm=0x123");
    expect_legal(0xfff0100f, RV_OP_fence_i, "fence.i with imm=-1");
    /* fence: all fm/pred/succ combinations are FENCE (unknown fm values execute as a full fence) */
    expect_legal(0x8330000f, RV_OP_fence, "fence.tso");
    expect_legal(0x0100000f, RV_OP_fence, "pause");
    expect_legal(0x0000000f, RV_OP_fence, "fence with empty sets");
}

/* ------------------------------------------------------------ fields */

Test(decode, integer_destination_x0_is_the_sink)
{
    rv_insn in;
    decode_bits(&in, 0, 0x00000013); /* addi x0, x0, 0 */
    cr_expect_eq(in.rd, RV_X_SINK);
    decode_bits(&in, 0, 0xe0000053); /* fmv.x.w x0, ft0 */
    cr_expect_eq(in.rd, RV_X_SINK);
    decode_bits(&in, 0, 0x00002007); /* flw ft0, 0(x0): FP destination f0 stays 0 */
    cr_expect_eq(in.rd, 0);
    decode_bits(&in, 0, 0xd0000053); /* fcvt.s.w ft0, x0 */
    cr_expect_eq(in.rd, 0);
    cr_expect_eq(in.rs1, 0);
    decode_bits(&in, 0, 0x00002023); /* sw x0, 0(x0): no destination, fields as encoded */
    cr_expect_eq(in.rs2, 0);
    cr_expect_eq(in.rs1, 0);
    decode_bits(&in, 0, 0x00000063); /* beq x0, x0, 0 */
    cr_expect_eq(in.rs1, 0);
    cr_expect_eq(in.rs2, 0);
}

Test(decode, length_from_low_bits)
{
    for (uint32_t lo = 0; lo < 0x10000; lo += 0x3d)
        cr_expect_eq(rv_insn_length((uint16_t)lo), (lo & 3) == 3 ? 4u : 2u);
}

/* ---------------------------------------------------------- disassembly */

Test(decode, disassembly_text)
{
    static const struct { uint64_t pc; uint32_t bits; const char *text; } t[] = {
        {0x1000, 0x01010513, "addi a0, sp, 16"},
        {0x1000, 0x00813083, "ld ra, 8(sp)"},
        {0x1000, 0xfe813823, "sd s0, -16(sp)"},
        {0x1000, 0x00b50463, "beq a0, a1, 0x1008"},
        {0x2000, 0x81f01063, "bne zero, t6, 0x1000"},
        {0x1000, 0x123452b7, "lui t0, 0x12345"},
        {0x1000, 0x100000ef, "jal ra, 0x1100"},
        {0x1000, 0x000500e7, "jalr ra, 0(a0)"},
        {0x1000, 0x00351513, "slli a0, a0, 3"},
        {0x1000, 0xc0202573, "csrrs a0, instret, zero"},
        {0x1000, 0x7c02d073, "csrrwi zero, 0x7c0, 5"},
        {0x1000, 0x0421a0af, "amoadd.w.aq ra, sp, (gp)"},
        {0x1000, 0x0221a0af, "amoadd.w.rl ra, sp, (gp)"},
        {0x1000, 0x1401b0af, "lr.d.aq ra, (gp)"},
        {0x1000, 0x1ab6252f, "sc.w.rl a0, a1, (a2)"},
        {0x1000, 0x003170d3, "fadd.s ft1, ft2, ft3, dyn"},
        {0x1000, 0x6ac58543, "fmadd.d fa0, fa1, fa2, fa3, rne"},
        {0x1000, 0xc2051553, "fcvt.w.d a0, fa0, rtz"},
        {0x1000, 0x00813427, "fsd fs0, 8(sp)"},
        {0x1000, 0xffc52787, "flw fa5, -4(a0)"},
        {0x1000, 0xe0000553, "fmv.x.w a0, ft0"},
        {0x1000, 0xd225b553, "fcvt.d.l fa0, a1, rup"},
        {0x1000, 0xa2c5a553, "feq.d a0, fa1, fa2"},
        {0x1000, 0x22b58553, "fsgnj.d fa0, fa1, fa1"},
        {0x1000, 0x5800c053, "fsqrt.s ft0, ft1, rmm"},
        {0x1000, 0xe2051553, "fclass.d a0, fa0"},
        {0x1000, 0x0ff0000f, "fence"},
        {0x1000, 0x00000073, "ecall"},
        {0x1000, 0x0000100f, "fence.i"},
        {0x1000, 0x00b50033, "add zero, a0, a1"},
        {0x1000, 0x4512, "c.lwsp a0, 4(sp)"},
        {0x1000, 0xc048, "c.sw a0, 4(s0)"},
        {0x1000, 0x0000, "illegal 0x0000"},
        {0x1000, 0x022180d7, "illegal 0x022180d7"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        rv_insn in;
        char buf[80];
        decode_bits(&in, t[i].pc, t[i].bits);
        rv_disasm(&in, buf, sizeof buf);
        cr_expect_str_eq(buf, t[i].text, "%#x: \"%s\", expected \"%s\"", t[i].bits, buf, t[i].text);
    }
}

/* With both aq and rl set the suffix is ".aqrl" (objdump -M no-aliases on
 * 0x0621a0af; GNU as rejects ".aq.rl").  Regression: it was once ".aq.rl". */
Test(decode, aqrl_disassembly)
{
    static const struct { uint32_t bits; const char *text; } t[] = {
        {0x0621a0af, "amoadd.w.aqrl ra, sp, (gp)"},
        {0x16082daf, "lr.w.aqrl s11, (a6)"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        rv_insn in;
        char buf[80];
        decode_bits(&in, 0x1000, t[i].bits);
        rv_disasm(&in, buf, sizeof buf);
        cr_expect_str_eq(buf, t[i].text, "%#x: \"%s\", expected \"%s\"", t[i].bits, buf, t[i].text);
    }
}

Test(decode, disassembly_of_compressed_uses_its_mnemonic)
{
    static const struct { uint64_t pc; uint16_t bits; const char *mn; } t[] = {
        {0x1000, 0x713d, "c.addi16sp"}, {0x1010, 0xbfc5, "c.j"}, {0x1000, 0x4515, "c.li"},
        {0x1000, 0x852e, "c.mv"},       {0x1000, 0x8082, "c.jr"}, {0x1000, 0x9002, "c.ebreak"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        rv_insn in;
        char buf[80];
        decode_bits(&in, t[i].pc, t[i].bits);
        rv_disasm(&in, buf, sizeof buf);
        size_t n = strlen(t[i].mn);
        cr_expect(strncmp(buf, t[i].mn, n) == 0 && (buf[n] == ' ' || buf[n] == '\0'), "%s for %s", buf, t[i].mn);
    }
    rv_insn in;
    char buf[80];
    decode_bits(&in, 0x1010, 0xbfc5); /* c.j .-16: the target is pc-relative */
    cr_expect(strstr(rv_disasm(&in, buf, sizeof buf), "0x1000") != NULL, "%s", buf);
    decode_bits(&in, 0x1000, 0x713d);
    cr_expect(strstr(rv_disasm(&in, buf, sizeof buf), "-32") != NULL, "%s", buf);
}

Test(decode, disassembly_truncates_safely)
{
    rv_insn in;
    char buf[8];
    memset(buf, 'x', sizeof buf);
    decode_bits(&in, 0x1000, 0x6ac58543); /* fmadd.d fa0, fa1, fa2, fa3, rne */
    rv_disasm(&in, buf, sizeof buf);
    cr_expect_eq(buf[7], '\0');
    cr_expect_str_eq(buf, "fmadd.d");
}

/* ------------------------------------------------------------- operands */

static void expect_operands(uint32_t bits, unsigned dst, unsigned s0, unsigned s1, unsigned s2, const char *what)
{
    rv_insn in;
    decode_bits(&in, 0, bits);
    rv_operands o = rv_insn_operands(&in);
    cr_expect_eq(o.dst, dst, "%s: dst %u, expected %u", what, o.dst, dst);
    cr_expect_eq(o.src[0], s0, "%s: src0 %u, expected %u", what, o.src[0], s0);
    cr_expect_eq(o.src[1], s1, "%s: src1 %u, expected %u", what, o.src[1], s1);
    cr_expect_eq(o.src[2], s2, "%s: src2 %u, expected %u", what, o.src[2], s2);
}

#define F(n) (RV_REG_F0 + (n))
#define NONE RV_REG_NONE

Test(decode, operand_register_files)
{
    expect_operands(0xc2051553, 10, F(10), NONE, NONE, "fcvt.w.d a0, fa0");
    expect_operands(0x00813427, NONE, 2, F(8), NONE, "fsd fs0, 8(sp)");
    expect_operands(0xffc52787, F(15), 10, NONE, NONE, "flw fa5, -4(a0)");
    expect_operands(0x6ac58543, F(10), F(11), F(12), F(13), "fmadd.d fa0, fa1, fa2, fa3");
    expect_operands(0xa2c5a553, 10, F(11), F(12), NONE, "feq.d a0, fa1, fa2");
    expect_operands(0xd225b553, F(10), 11, NONE, NONE, "fcvt.d.l fa0, a1");
    expect_operands(0xe0000553, 10, F(0), NONE, NONE, "fmv.x.w a0, ft0");
    expect_operands(0x003170d3, F(1), F(2), F(3), NONE, "fadd.s ft1, ft2, ft3");
    expect_operands(0x00b50033, NONE, 10, 11, NONE, "add zero, a0, a1: no destination");
    expect_operands(0x00b00533, 10, 0, 11, NONE, "add a0, zero, a1: x0 read as 0");
    expect_operands(0x01010513, 10, 2, NONE, NONE, "addi a0, sp, 16");
    expect_operands(0xfe813823, NONE, 2, 8, NONE, "sd s0, -16(sp)");
    expect_operands(0x00b50463, NONE, 10, 11, NONE, "beq a0, a1");
    expect_operands(0x123452b7, 5, NONE, NONE, NONE, "lui t0");
    expect_operands(0x100000ef, 1, NONE, NONE, NONE, "jal ra");
    expect_operands(0x0621a0af, 1, 3, 2, NONE, "amoadd.w ra, sp, (gp)");
    expect_operands(0x1401b0af, 1, 3, NONE, NONE, "lr.d ra, (gp)");
    expect_operands(0xc0202573, 10, 0, NONE, NONE, "csrrs a0, instret, zero");
    expect_operands(0x7c02d073, NONE, NONE, NONE, NONE, "csrrwi zero, 0x7c0, 5");
    expect_operands(0x0ff0000f, NONE, NONE, NONE, NONE, "fence");
    expect_operands(0x00000073, 10, 17, 10, NONE, "ecall: reads a7 and a0, writes a0");
    expect_operands(0xc048, NONE, 8, 10, NONE, "c.sw a0, 4(s0)");
    expect_operands(0x4512, 10, 2, NONE, NONE, "c.lwsp a0, 4(sp)");
    expect_operands(0x852e, 10, 0, 11, NONE, "c.mv a0, a1 (add a0, x0, a1)");
    expect_operands(0x8082, NONE, 1, NONE, NONE, "c.jr ra");
    expect_operands(0x9082, 1, 1, NONE, NONE, "c.jalr ra");
}

/* Exhaustive: every 16-bit encoding is illegal for the decoder exactly when
 * objdump does not know it as a compressed instruction.  The one deliberate
 * difference: objdump shows 0x6101 as "c.addi16sp sp,0", but the spec reserves
 * C.ADDI16SP with nzimm = 0 ("the code point with nzimm=0 is reserved"). */
Test(decode, compressed_legality_matches_objdump_exhaustively)
{
    static bool objdump_illegal[0x10000];
    size_t n = sizeof rvc_illegal_by_objdump / sizeof rvc_illegal_by_objdump[0];
    cr_assert_gt(n, 1000);
    for (size_t i = 0; i < n; i++)
        objdump_illegal[rvc_illegal_by_objdump[i]] = true;
    objdump_illegal[0x6101] = true;
    int mismatches = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 3) == 3)
            continue;
        rv_insn in;
        rv_decode(&in, 0x1000, (uint16_t)h, 0xffff);
        bool illegal = in.op == RV_OP_illegal;
        if (illegal != objdump_illegal[h] && mismatches++ < 20)
            cr_expect(false, "%#06x: decoder says %s, objdump %s", h, illegal ? "illegal" : rv_insn_mnemonic(&in),
                      objdump_illegal[h] ? "illegal" : "legal");
        if (!illegal) {
            cr_expect_eq(in.len, 2);
            cr_expect_neq(in.cop, 0);
        }
    }
    cr_expect_eq(mismatches, 0, "%d mismatches", mismatches);
}

/* 3000 pseudo-random 32-bit words: legal exactly when objdump (with the spec
 * corrections listed in decode_vectors.h) knows them, as the same operation. */
Test(decode, random_words_match_objdump)
{
    size_t n = sizeof random_words / sizeof random_words[0];
    cr_assert_eq(n, 3000);
    int mismatches = 0, legal = 0;
    for (size_t i = 0; i < n; i++) {
        const random_word *r = &random_words[i];
        rv_insn in;
        decode_bits(&in, 0x1000, r->bits);
        char name[32];
        op_name(in.op, name, sizeof name);
        bool ok = r->op ? in.op != RV_OP_illegal && strcmp(name, r->op) == 0 : in.op == RV_OP_illegal;
        legal += r->op != NULL;
        if (!ok && mismatches++ < 20)
            cr_expect(false, "%#010x: decoder says %s, objdump %s", r->bits, name, r->op ? r->op : "illegal");
        if (r->op)
            cr_expect_eq(in.len, 4);
    }
    cr_expect_eq(mismatches, 0, "%d of %zu words differ", mismatches, n);
    cr_expect_gt(legal, 1000, "the sample should be mostly legal words");
}
