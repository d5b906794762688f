/*
 * randinsn_gen: random RV64GC instruction sequences for differential testing.
 *
 *   randinsn_gen SEED [N]        write to stdout a complete assembly program
 *   randinsn_gen --diff A B      compare two state dumps, name what differs
 *   randinsn_gen --dump A        print one state dump
 *
 * The program (assemble with riscv64-linux-gnu-gcc -static -nostdlib
 * -march=rv64gc -mabi=lp64d) initialises every register from the seed, runs
 * N random "units" (one instruction, or a short fixed group such as
 * address set-up + AMO, lr/.../sc, li + div), then writes its final state to
 * stdout and exits 0.  State dump layout (little-endian 64-bit slots):
 *
 *   slot 0..30   x1..x31
 *   slot 31..62  f0..f31 (raw 64-bit, NaN-boxing visible)
 *   slot 63      fcsr
 *   bytes 512..  the 4 KiB scratch area that all loads/stores/AMOs touch
 *   bytes 4608.. the result log: after each unit, the register it wrote
 *                (int or FP) is stored into entry k mod 512 of a ring, so a
 *                wrong result is seen even if the register is overwritten
 *
 * Register conventions inside the generated code: sp (x2) = scratch base,
 * s11 (x27) = scratch base + 2048, gp (x3) = result log + 2048; none is ever
 * a destination (sp is moved only by c.addi16sp pairs that restore it within
 * the same unit).
 * All control flow is forward (branches, jal, jalr to labels a few units
 * ahead), so every program terminates.
 *
 * The stream for (SEED, M) with M < N is a prefix of the stream for
 * (SEED, N): shrink a failing case by bisecting N.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

enum {
    SCRATCH_BYTES = 4096,
    LOG_ENTRIES = 512, /* result log: a ring of 64-bit entries, gp-relative */
    NSLOTS = 64,
    DUMP_BYTES = NSLOTS * 8 + SCRATCH_BYTES + LOG_ENTRIES * 8,
};
enum { REG_SP = 2, REG_LOG = 3, REG_BASE = 27 }; /* reserved: never written */

/* ------------------------------------------------------------------ PRNG */

static uint64_t rng_state;

static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static unsigned rn(unsigned n) { return (unsigned)(rnd() % n); }
static int chance(unsigned pct) { return rn(100) < pct; }
/* uniform in [lo, hi] */
static long rrange(long lo, long hi) { return lo + (long)(rnd() % (uint64_t)(hi - lo + 1)); }

/* -------------------------------------------------------- special values */

static const uint64_t int_specials[] = {
    0, 1, 2, 3, UINT64_MAX, UINT64_MAX - 1, 0x8000000000000000ULL, 0x7fffffffffffffffULL,
    0x8000000000000001ULL, 0xffffffff80000000ULL, 0x7fffffffULL, 0x80000000ULL, 0xffffffffULL,
    0x100000000ULL, 0xffffffff7fffffffULL, 0x0000ffff0000ffffULL, 0x5555555555555555ULL,
    0xaaaaaaaaaaaaaaaaULL, 0x00000000ffff8000ULL, 0x7ff, 0x800, 0xfffffffffffff800ULL, 63, 64, 31,
    32,
};

static const uint64_t f64_specials[] = {
    0x0000000000000000ULL, 0x8000000000000000ULL, /* +-0 */
    0x7ff0000000000000ULL, 0xfff0000000000000ULL, /* +-inf */
    0x7ff8000000000000ULL, 0xfff8000000000000ULL, /* qNaN, canonical and negative */
    0x7ff8000000000123ULL, 0x7ff0000000000001ULL, /* qNaN with payload, sNaN */
    0xfff4000000000000ULL,                        /* negative sNaN */
    0x0000000000000001ULL, 0x800fffffffffffffULL, /* subnormals */
    0x0010000000000000ULL, 0x7fefffffffffffffULL, /* min normal, max finite */
    0x3ff0000000000000ULL, 0xbff0000000000000ULL, /* +-1 */
    0x3fe0000000000000ULL, 0xbfe0000000000000ULL, /* +-0.5 */
    0x3ff8000000000000ULL, 0x4004000000000000ULL, /* 1.5, 2.5 */
    0xc004000000000000ULL,                        /* -2.5 */
    0x41e0000000000000ULL, 0x41dfffffffc00000ULL, /* 2^31, 2^31-1 */
    0x41dfffffffe00000ULL, 0xc1e0000000100000ULL, /* 2^31-0.5, -2^31-0.5 */
    0x41effffffff00000ULL, 0xbfeccccccccccccdULL, /* 2^32-0.5, -0.9 */
    0x3fdfffffffffffffULL, 0x4330000000000001ULL, /* just below 0.5, 2^52+1 */
    0xbff0000000000001ULL,                        /* -1 - ulp */
    0xc1e0000000000000ULL, 0xc1e0000000200000ULL, /* -2^31, -2^31-1 */
    0x41f0000000000000ULL, 0x43e0000000000000ULL, /* 2^32, 2^63 */
    0xc3e0000000000000ULL, 0x43f0000000000000ULL, /* -2^63, 2^64 */
    0x43dfffffffffffffULL, 0x4340000000000001ULL, /* below 2^63, 2^54+2 */
    0x400921fb54442d18ULL, 0x3fb999999999999aULL, /* pi, 0.1 */
    0x36a0000000000000ULL, 0x7e37e43c8800759cULL, /* tiny, 1e300 */
    0x3ca0000000000000ULL,                        /* 2^-53 */
};

static const uint32_t f32_specials[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, /* +-0, +-inf */
    0x7fc00000, 0xffc00000, 0x7fc00123, 0x7f800001, /* qNaNs, sNaN */
    0xff900000, 0x00000001, 0x807fffff, 0x00800000, /* sNaN, subnormals, min normal */
    0x7f7fffff, 0x3f800000, 0xbf800000, 0x3f000000, /* max, +-1, 0.5 */
    0xbf000000, 0x3fc00000, 0x40200000, 0xc0200000, /* -0.5, 1.5, 2.5, -2.5 */
    0x4f000000, 0xcf000000, 0x4eFFFFFF, 0x4f800000, /* 2^31, -2^31, <2^31, 2^32 */
    0x5f000000, 0xdf000000, 0x5f800000, 0x5effffff, /* 2^63, -2^63, 2^64, <2^63 */
    0x40490fdb, 0x3dcccccd, 0x33800000, 0x7e967699, /* pi, 0.1, 2^-24, 1e38 */
    0xbf666666, 0x4f7fffff, 0x3effffff, 0x4b000001, /* -0.9, <2^32, <0.5, 2^23+1 */
    0xbfc00000, 0x4b7fffff,                         /* -1.5, 2^24-1 */
};

static uint64_t rand_int_value(void)
{
    switch (rn(6)) {
    case 0: case 1: return int_specials[rn(ARRAY_LEN(int_specials))];
    case 2: return (uint64_t)rrange(-40, 40);
    case 3: return (uint64_t)(int64_t)(int32_t)rnd(); /* sign-extended 32-bit */
    case 4: {                                            /* one bit set, or one clear */
        uint64_t bit = 1ULL << rn(64);
        return chance(50) ? bit : ~bit;
    }
    default: return rnd();
    }
}

/* exponent of a random finite value: mostly moderate, sometimes near the
 * subnormal or the overflow boundary (bias = 127 or 1023, max = 254 or 2046) */
static long rand_exp(long bias, long max)
{
    switch (rn(12)) {
    case 0: return rrange(1, 40);
    case 1: return rrange(max - 40, max);
    default: return rrange(bias - 40, bias + 70);
    }
}

static uint64_t rand_ordinary_f64(void)
{
    uint64_t sign = (uint64_t)rn(2) << 63;
    uint64_t exp = (uint64_t)rand_exp(1023, 2046);
    uint64_t mant = rnd() & 0xfffffffffffffULL;
    if (chance(30)) mant &= 0xfffff00000000000ULL; /* few significant bits */
    return sign | exp << 52 | mant;
}

static uint32_t rand_ordinary_f32(void)
{
    uint32_t sign = (uint32_t)rn(2) << 31;
    uint32_t exp = (uint32_t)rand_exp(127, 254);
    uint32_t mant = (uint32_t)rnd() & 0x7fffff;
    if (chance(30)) mant &= 0x7f0000;
    return sign | exp << 23 | mant;
}

/* A raw 64-bit FP register value: doubles, NaN-boxed singles, and singles
 * with a broken box (which single-precision ops must read as canonical NaN). */
static uint64_t rand_fp_value(void)
{
    uint64_t box = 0xffffffff00000000ULL;
    switch (rn(8)) {
    case 0: case 1: return f64_specials[rn(ARRAY_LEN(f64_specials))];
    case 2: case 3: return rand_ordinary_f64();
    case 4: return box | f32_specials[rn(ARRAY_LEN(f32_specials))];
    case 5: return box | rand_ordinary_f32();
    case 6: {                                           /* not NaN-boxed */
        static const uint64_t bad_box[] = {0, 0xfffffffe00000000ULL, 0x7fffffff00000000ULL,
                                           0xffff0000ffffffffULL << 32};
        uint64_t hi = chance(50) ? bad_box[rn(ARRAY_LEN(bad_box))] : (rnd() << 32);
        if (hi == box) hi = 0;
        return hi | (chance(50) ? f32_specials[rn(ARRAY_LEN(f32_specials))] : rand_ordinary_f32());
    }
    default: return rnd();
    }
}

/* ------------------------------------------------------------- registers */

static const char *const abi_names[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static int g_rvc; /* inside a ".option rvc" stretch: bias towards compressible operands */

static int reserved(int r) { return r == REG_SP || r == REG_LOG || r == REG_BASE; }

/* destination register: never sp/gp/s11, x0 now and then */
static int pick_rd(void)
{
    if (g_rvc && chance(50)) return 8 + (int)rn(8);
    if (chance(3)) return 0;
    int r;
    do r = 1 + (int)rn(31); while (reserved(r));
    return r;
}

/* destination that really gets written (no x0, no reserved) */
static int pick_rd_nz(void)
{
    int r;
    do r = pick_rd(); while (r == 0);
    return r;
}

static int pick_rs(void)
{
    if (g_rvc && chance(50)) return 8 + (int)rn(8);
    if (chance(6)) return 0;
    return (int)rn(32);
}

static int pick_rvc_reg(void) { return 8 + (int)rn(8); } /* x8..x15 / f8..f15 */
static int pick_fr(void) { return g_rvc && chance(40) ? 8 + (int)rn(8) : (int)rn(32); }

/* FP register for a value of type t ('s' or 'd'): mostly from that type's
 * half of the file (singles: bit 3 clear, doubles: bit 3 set), so that
 * fewer operations see the other precision's bits as a NaN. */
static int pick_frt(char t)
{
    if ((t != 's' && t != 'd') || chance(25)) return pick_fr();
    if (g_rvc && t == 'd' && chance(40)) return 8 + (int)rn(8);
    int r = (int)rn(16);
    return (r & 7) | (r & 8) << 1 | (t == 'd' ? 8 : 0);
}

/* a scratch register for an address or a constant, distinct from `avoid` */
static int pick_tmp(unsigned avoid_mask)
{
    int r;
    do r = 1 + (int)rn(31); while (reserved(r) || (avoid_mask >> r & 1));
    return r;
}

/* ------------------------------------------------------------- immediates */

static long pick_simm(int bits)
{
    long lo = -(1L << (bits - 1)), hi = (1L << (bits - 1)) - 1;
    if (g_rvc && chance(60)) return rrange(-32, 31);
    switch (rn(6)) {
    case 0: return 0;
    case 1: return chance(50) ? lo : hi;
    case 2: return rrange(-8, 8);
    default: return rrange(lo, hi);
    }
}

/* ---------------------------------------------------------------- output */

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void emit(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    putchar('\t');
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

static const char *xr(int r) { return abi_names[r]; }

static const char *fr(int r)
{
    static char buf[4][16];
    static int i;
    i = (i + 1) & 3;
    snprintf(buf[i], sizeof buf[i], "f%d", r);
    return buf[i];
}

/* load a 64-bit constant (gas expands li into lui/addi(w)/slli as needed) */
static void emit_li(int rd, uint64_t v) { emit("li %s, %" PRId64, xr(rd), (int64_t)v); }

/* ------------------------------------------------------------ result log */

enum { MAX_LOGGED = 8 };
static int logged[MAX_LOGGED]; /* registers to log after this unit: 0..31 x, 32..63 f */
static int nlogged;
static unsigned log_next;      /* next ring entry */

static void log_x(int r)
{
    if (r != 0 && nlogged < MAX_LOGGED) logged[nlogged++] = r;
}

static void log_f(int r)
{
    if (nlogged < MAX_LOGGED) logged[nlogged++] = 32 + r;
}

/* store the unit's results into the ring (gp + -2048..2047) */
static void flush_log(void)
{
    for (int i = 0; i < nlogged; i++) {
        int off = (int)(log_next++ % LOG_ENTRIES) * 8 - 2048, r = logged[i];
        if (r < 32) emit("sd %s, %d(gp)", xr(r), off);
        else emit("fsd %s, %d(gp)", fr(r - 32), off);
    }
    nlogged = 0;
}

/* ------------------------------------------------- forward label handling */

enum { MAX_PENDING = 64 };
/* log_reg: a link register to log once the label is reached (0: none) */
static struct { unsigned id; int units_left, log_reg; } pending[MAX_PENDING];
static int npending;
static unsigned next_label;
static void tick_labels(int flush);

/* A new label that will be placed after `units` further units. */
static unsigned new_label(int units)
{
    if (npending == MAX_PENDING) tick_labels(1); /* cannot happen with the unit mix */
    unsigned id = next_label++;
    pending[npending].id = id;
    pending[npending].units_left = units;
    pending[npending].log_reg = 0;
    npending++;
    return id;
}

/* log register r right after label id (the unit that writes r jumps there) */
static void log_at_label(unsigned id, int r)
{
    for (int i = 0; i < npending; i++)
        if (pending[i].id == id) pending[i].log_reg = r;
}

/* called after every unit: place the labels that are due */
static void tick_labels(int flush)
{
    int j = 0;
    for (int i = 0; i < npending; i++) {
        if (flush || pending[i].units_left <= 0) {
            printf(".L%u:\n", pending[i].id);
            log_x(pending[i].log_reg);
            flush_log();
        } else {
            pending[j] = pending[i];
            pending[j].units_left--;
            j++;
        }
    }
    npending = j;
}

/* ------------------------------------------------------- instruction forms */

enum fmt {
    X_RRR,      /* rd, rs1, rs2 */
    X_RRI,      /* rd, rs1, simm12 */
    X_SH6,      /* rd, rs1, shamt 0..63 */
    X_SH5,      /* rd, rs1, shamt 0..31 */
    X_U,        /* rd, imm20 */
    M_LOAD,     /* rd, off(base) */
    M_STORE,    /* rs2, off(base) */
    M_FLOAD,    /* fd, off(base) */
    M_FSTORE,   /* fs2, off(base) */
    F_RRR_RM,   /* fd, fs1, fs2, rm */
    F_RRR,      /* fd, fs1, fs2 */
    F_RR_RM,    /* fd, fs1, rm */
    F_RR,       /* fd, fs1 */
    F_RRRR_RM,  /* fd, fs1, fs2, fs3, rm */
    F_XFF,      /* rd, fs1, fs2 */
    F_XF,       /* rd, fs1 */
    F_XF_RM,    /* rd, fs1, rm */
    F_FX,       /* fd, rs1 */
    F_FX_RM,    /* fd, rs1, rm */
};

struct form {
    const char *name;
    enum fmt fmt;
    int width; /* memory access size in bytes */
};

static const struct form alu_forms[] = {
    {"add", X_RRR, 0},   {"sub", X_RRR, 0},   {"sll", X_RRR, 0},    {"slt", X_RRR, 0},
    {"sltu", X_RRR, 0},  {"xor", X_RRR, 0},   {"srl", X_RRR, 0},    {"sra", X_RRR, 0},
    {"or", X_RRR, 0},    {"and", X_RRR, 0},   {"addw", X_RRR, 0},   {"subw", X_RRR, 0},
    {"sllw", X_RRR, 0},  {"srlw", X_RRR, 0},  {"sraw", X_RRR, 0},   {"addi", X_RRI, 0},
    {"slti", X_RRI, 0},  {"sltiu", X_RRI, 0}, {"xori", X_RRI, 0},   {"ori", X_RRI, 0},
    {"andi", X_RRI, 0},  {"addiw", X_RRI, 0}, {"slli", X_SH6, 0},   {"srli", X_SH6, 0},
    {"srai", X_SH6, 0},  {"slliw", X_SH5, 0}, {"srliw", X_SH5, 0},  {"sraiw", X_SH5, 0},
    {"lui", X_U, 0},     {"auipc", X_U, 0},
};

static const struct form muldiv_forms[] = {
    {"mul", X_RRR, 0},  {"mulh", X_RRR, 0},  {"mulhsu", X_RRR, 0}, {"mulhu", X_RRR, 0},
    {"div", X_RRR, 0},  {"divu", X_RRR, 0},  {"rem", X_RRR, 0},    {"remu", X_RRR, 0},
    {"mulw", X_RRR, 0}, {"divw", X_RRR, 0},  {"divuw", X_RRR, 0},  {"remw", X_RRR, 0},
    {"remuw", X_RRR, 0},
};

static const struct form mem_forms[] = {
    {"lb", M_LOAD, 1},   {"lh", M_LOAD, 2},   {"lw", M_LOAD, 4},   {"ld", M_LOAD, 8},
    {"lbu", M_LOAD, 1},  {"lhu", M_LOAD, 2},  {"lwu", M_LOAD, 4},  {"sb", M_STORE, 1},
    {"sh", M_STORE, 2},  {"sw", M_STORE, 4},  {"sd", M_STORE, 8},  {"flw", M_FLOAD, 4},
    {"fld", M_FLOAD, 8}, {"fsw", M_FSTORE, 4}, {"fsd", M_FSTORE, 8},
};

#define FP_BOTH(op, fmt) {op ".s", fmt, 0}, {op ".d", fmt, 0}
static const struct form fp_forms[] = {
    FP_BOTH("fadd", F_RRR_RM),    FP_BOTH("fsub", F_RRR_RM),    FP_BOTH("fmul", F_RRR_RM),
    FP_BOTH("fdiv", F_RRR_RM),    FP_BOTH("fsqrt", F_RR_RM),    FP_BOTH("fmadd", F_RRRR_RM),
    FP_BOTH("fmsub", F_RRRR_RM),  FP_BOTH("fnmsub", F_RRRR_RM), FP_BOTH("fnmadd", F_RRRR_RM),
    FP_BOTH("fsgnj", F_RRR),      FP_BOTH("fsgnjn", F_RRR),     FP_BOTH("fsgnjx", F_RRR),
    FP_BOTH("fmin", F_RRR),       FP_BOTH("fmax", F_RRR),       FP_BOTH("feq", F_XFF),
    FP_BOTH("flt", F_XFF),        FP_BOTH("fle", F_XFF),        FP_BOTH("fclass", F_XF),
    FP_BOTH("fcvt.w", F_XF_RM),   FP_BOTH("fcvt.wu", F_XF_RM),  FP_BOTH("fcvt.l", F_XF_RM),
    FP_BOTH("fcvt.lu", F_XF_RM),
    {"fcvt.s.w", F_FX_RM, 0},     {"fcvt.s.wu", F_FX_RM, 0},    {"fcvt.s.l", F_FX_RM, 0},
    {"fcvt.s.lu", F_FX_RM, 0},    {"fcvt.d.l", F_FX_RM, 0},     {"fcvt.d.lu", F_FX_RM, 0},
    {"fcvt.d.w", F_FX, 0},        {"fcvt.d.wu", F_FX, 0},       /* exact: gas takes no rm */
    {"fcvt.s.d", F_RR_RM, 0},     {"fcvt.d.s", F_RR, 0},
    {"fmv.x.w", F_XF, 0},         {"fmv.x.d", F_XF, 0},         {"fmv.w.x", F_FX, 0},
    {"fmv.d.x", F_FX, 0},
};

static const char *pick_rm(void)
{
    static const char *const rms[] = {"rne", "rtz", "rdn", "rup", "rmm", "dyn"};
    return rms[rn(ARRAY_LEN(rms))];
}

/* A memory operand for an access of `width` bytes: base is s11, sp, or a
 * temporary set up here (one extra addi).  Returns the operand text. */
static const char *mem_operand(int width, unsigned avoid_mask)
{
    static char buf[48];
    unsigned w = (unsigned)width;
    int kind = (int)rn(10);
    if (g_rvc && kind >= 6) kind = 3; /* sp-relative: compressible */
    if (kind < 3) {                    /* s11 +- 2 KiB covers the scratch area */
        long off = rrange(-2048, 2047 - (long)w + 1) & ~(long)(w - 1);
        snprintf(buf, sizeof buf, "%ld(%s)", off, xr(REG_BASE));
    } else if (kind < 6) {             /* sp: 0 .. 2047 */
        long hi = g_rvc ? 504 : 2047 - (long)w + 1;
        long off = rrange(0, hi) & ~(long)(w - 1);
        snprintf(buf, sizeof buf, "%ld(%s)", off, xr(REG_SP));
    } else {                           /* t = s11 + a; access a' (t) */
        int t = pick_tmp(avoid_mask);
        long a = rrange(-2048, 2047) & ~7L;
        long lo = -2048 - a, hi = 2047 - a - (long)w + 1;
        if (lo < -2048) lo = -2048;
        if (hi > 2047) hi = 2047;
        long off = rrange(lo, hi) & ~(long)(w - 1);
        if (off < lo) off += (long)w;
        emit("addi %s, %s, %ld", xr(t), xr(REG_BASE), a);
        snprintf(buf, sizeof buf, "%ld(%s)", off, xr(t));
    }
    return buf;
}

static void emit_fp_form(const struct form *f);

static void emit_form(const struct form *f)
{
    int rd, rs1;
    switch (f->fmt) {
    case X_RRR:
        rd = pick_rd();
        rs1 = g_rvc && chance(50) ? rd : pick_rs();
        emit("%s %s, %s, %s", f->name, xr(rd), xr(rs1), xr(pick_rs()));
        log_x(rd);
        break;
    case X_RRI:
        rd = pick_rd();
        rs1 = g_rvc && chance(50) ? rd : pick_rs();
        emit("%s %s, %s, %ld", f->name, xr(rd), xr(rs1), pick_simm(12));
        log_x(rd);
        break;
    case X_SH6: case X_SH5:
        rd = pick_rd();
        rs1 = g_rvc && chance(50) ? rd : pick_rs();
        emit("%s %s, %s, %u", f->name, xr(rd), xr(rs1), rn(f->fmt == X_SH6 ? 64 : 32));
        log_x(rd);
        break;
    case X_U: {
        static const long u_special[] = {0, 1, 0x7ffff, 0x80000, 0xfffff, 0xfffe0, 31};
        long imm = chance(40) ? u_special[rn(ARRAY_LEN(u_special))] : (long)rn(1 << 20);
        rd = pick_rd();
        emit("%s %s, %ld", f->name, xr(rd), imm);
        log_x(rd);
        break;
    }
    case M_LOAD:
        rd = pick_rd();
        emit("%s %s, %s", f->name, xr(rd), mem_operand(f->width, 0));
        log_x(rd);
        break;
    case M_STORE: {
        int rs2 = pick_rs();
        const char *m = mem_operand(f->width, 1u << rs2);
        emit("%s %s, %s", f->name, xr(rs2), m);
        break;
    }
    case M_FLOAD: case M_FSTORE: {
        int fd = pick_frt(f->width == 4 ? 's' : 'd');
        const char *m = mem_operand(f->width, 0);
        emit("%s %s, %s", f->name, fr(fd), m);
        if (f->fmt == M_FLOAD) log_f(fd);
        break;
    }
    default:
        emit_fp_form(f);
        break;
    }
}

/* Types of an FP mnemonic's destination and sources: 's', 'd', or another
 * letter for integers ("fcvt.w.d" -> 'w','d'; "fmv.x.w" -> 'x','s'). */
static void fp_types(const char *name, char *dst, char *src)
{
    const char *dot = strchr(name, '.'), *dot2 = strchr(dot + 1, '.');
    *dst = dot[1];
    *src = dot2 ? dot2[1] : dot[1];
    if (!strncmp(name, "fmv", 3)) { /* fmv.x.w / fmv.w.x: 'w' is the single */
        if (*dst == 'w') *dst = 's';
        if (*src == 'w') *src = 's';
    }
}

/* Exact conversions: gas takes no rounding mode for them, but the encoding
 * has an rm field that must be accepted (and checked) all the same. */
static const struct { const char *name; int funct7, rs2; } exact_cvts[] = {
    {"fcvt.d.w", 0x69, 0}, {"fcvt.d.wu", 0x69, 1}, {"fcvt.d.s", 0x21, 0},
};

/* half the time, emit an exact conversion with an explicit rm via .insn */
static int emit_exact_cvt_rm(const char *name, const char *dn, const char *s1n)
{
    static const int rms[] = {0, 1, 2, 3, 4, 7};
    for (size_t i = 0; i < ARRAY_LEN(exact_cvts); i++) {
        if (strcmp(name, exact_cvts[i].name)) continue;
        if (chance(50)) return 0;
        emit(".insn r OP_FP, %d, 0x%x, %s, %s, x%d  # %s with rm", rms[rn(ARRAY_LEN(rms))],
             exact_cvts[i].funct7, dn, s1n, exact_cvts[i].rs2, name);
        return 1;
    }
    return 0;
}

static void emit_fp_form(const struct form *f)
{
    char dt, st;
    fp_types(f->name, &dt, &st);
    int x_dst = f->fmt == F_XFF || f->fmt == F_XF || f->fmt == F_XF_RM;
    int x_src = f->fmt == F_FX || f->fmt == F_FX_RM;
    /* operands are drawn in a fixed order, so output does not depend on
     * the compiler's argument evaluation order */
    int d = x_dst ? pick_rd() : pick_frt(dt);
    int s1 = x_src ? pick_rs() : pick_frt(st);
    int s2 = pick_frt(st), s3 = pick_frt(st);
    const char *rm = pick_rm();
    const char *dn = x_dst ? xr(d) : fr(d), *s1n = x_src ? xr(s1) : fr(s1);
    switch (f->fmt) {
    case F_RRR_RM: emit("%s %s, %s, %s, %s", f->name, dn, s1n, fr(s2), rm); break;
    case F_RRR: case F_XFF: emit("%s %s, %s, %s", f->name, dn, s1n, fr(s2)); break;
    case F_RR_RM: case F_XF_RM: case F_FX_RM: emit("%s %s, %s, %s", f->name, dn, s1n, rm); break;
    case F_RR: case F_XF: case F_FX:
        if (!emit_exact_cvt_rm(f->name, dn, s1n)) emit("%s %s, %s", f->name, dn, s1n);
        break;
    case F_RRRR_RM: emit("%s %s, %s, %s, %s, %s", f->name, dn, s1n, fr(s2), fr(s3), rm); break;
    default: break;
    }
    if (x_dst) log_x(d);
    else log_f(d);
}

#define PICK(table) (&(table)[rn(ARRAY_LEN(table))])

/* ----------------------------------------------------------------- units */

static void u_alu(void) { emit_form(PICK(alu_forms)); }
static void u_muldiv(void) { emit_form(PICK(muldiv_forms)); }
static void u_mem(void) { emit_form(PICK(mem_forms)); }
static void u_fp(void) { emit_form(PICK(fp_forms)); }

/* Identities that expose double rounding and zero signs: p = a*b rounded,
 * then fmsub/fnmsub(a, b, p) is the exact rounding error of the product
 * (only a fused multiply-add gets it); a + (-a) is -0 in rdn, +0 otherwise. */
static void u_fp_exact(void)
{
    char t = chance(50) ? 's' : 'd';
    int a = pick_frt(t), b = pick_frt(t), p, d;
    do p = pick_frt(t); while (p == a || p == b);
    d = pick_frt(t);
    const char *rm1 = pick_rm(), *rm2 = pick_rm();
    if (chance(70)) {
        emit("fmul.%c %s, %s, %s, %s", t, fr(p), fr(a), fr(b), rm1);
        emit("%s.%c %s, %s, %s, %s, %s", chance(50) ? "fmsub" : "fnmsub", t, fr(d), fr(a), fr(b),
             fr(p), rm2);
    } else {
        emit("fsgnjn.%c %s, %s, %s", t, fr(p), fr(a), fr(a));
        emit("fadd.%c %s, %s, %s, %s", t, fr(d), fr(a), fr(p), rm2);
    }
    log_f(p);
    log_f(d);
}

/* div/rem by zero and signed overflow, forced */
static void u_div_special(void)
{
    static const char *const ops[] = {"div", "divu", "rem", "remu", "divw", "divuw", "remw", "remuw"};
    const char *op = ops[rn(ARRAY_LEN(ops))];
    int is_w = op[strlen(op) - 1] == 'w';
    uint64_t junk = is_w ? rnd() << 32 : 0; /* W forms must ignore the upper half */
    int rd = pick_rd();
    if (chance(40)) {                               /* divide by zero */
        int a = pick_rs();
        if (chance(40)) {
            emit("%s %s, %s, zero", op, xr(rd), xr(a));
        } else {
            int b = pick_tmp(1u << a);
            emit_li(b, junk);
            emit("%s %s, %s, %s", op, xr(rd), xr(a), xr(b));
        }
    } else {                                        /* MIN / -1 */
        int a = pick_tmp(0), b = pick_tmp(1u << a);
        emit_li(a, is_w ? (junk | 0x80000000ULL) : 0x8000000000000000ULL);
        emit_li(b, is_w ? (junk | 0xffffffffULL) : UINT64_MAX);
        emit("%s %s, %s, %s", op, xr(rd), xr(a), xr(b));
    }
    log_x(rd);
}

/* re-inject special integer values */
static void u_li(void)
{
    int rd = pick_rd_nz();
    emit_li(rd, rand_int_value());
    log_x(rd);
}

/* re-inject special FP values: li + fmv, or a NaN-boxed single via fmv.w.x */
static void u_fli(void)
{
    int t = pick_tmp(0);
    if (chance(50)) {
        int fd = pick_frt('d');
        emit_li(t, rand_fp_value());
        emit("fmv.d.x %s, %s", fr(fd), xr(t));
        log_f(fd);
    } else {
        int fd = pick_frt('s');
        uint32_t v = chance(50) ? f32_specials[rn(ARRAY_LEN(f32_specials))] : rand_ordinary_f32();
        emit_li(t, (uint64_t)v | (rnd() << 32)); /* upper bits must be ignored */
        emit("fmv.w.x %s, %s", fr(fd), xr(t));
        log_f(fd);
    }
}

static const char *amo_suffix(void)
{
    static const char *const s[] = {"", ".aq", ".rl", ".aqrl"};
    return s[rn(4)];
}

/* an aligned address in the scratch area, in a fresh temporary */
static int addr_tmp(int width, unsigned avoid_mask)
{
    int t = pick_tmp(avoid_mask);
    long off = rrange(-2048, 2047 - width + 1) & ~(long)(width - 1);
    emit("addi %s, %s, %ld", xr(t), xr(REG_BASE), off);
    return t;
}

static void u_amo(void)
{
    static const char *const ops[] = {"amoswap", "amoadd", "amoxor", "amoand", "amoor",
                                      "amomin",  "amomax", "amominu", "amomaxu"};
    int width = chance(50) ? 4 : 8;
    int rs2 = pick_rs(), rd = pick_rd(), base;
    if (chance(15)) base = chance(50) ? REG_SP : REG_BASE; /* both 8-aligned */
    else base = addr_tmp(width, 0);
    const char *op = ops[rn(ARRAY_LEN(ops))], *sfx = amo_suffix();
    emit("%s.%c%s %s, %s, (%s)", op, width == 4 ? 'w' : 'd', sfx, xr(rd), xr(rs2), xr(base));
    log_x(rd);
}

/* An ALU op that writes none of the registers in avoid_mask (for use between lr and sc). */
static void emit_alu_avoiding(unsigned avoid_mask)
{
    const struct form *f;
    do f = PICK(alu_forms); while (f->fmt == X_U && f->name[0] == 'a'); /* keep auipc out */
    int rd;
    do rd = pick_rd(); while (avoid_mask >> rd & 1);
    int rs1 = pick_rs();
    if (f->fmt == X_RRR) emit("%s %s, %s, %s", f->name, xr(rd), xr(rs1), xr(pick_rs()));
    else if (f->fmt == X_RRI) emit("%s %s, %s, %ld", f->name, xr(rd), xr(rs1), pick_simm(12));
    else if (f->fmt == X_U) emit("%s %s, %u", f->name, xr(rd), rn(1 << 20));
    else emit("%s %s, %s, %u", f->name, xr(rd), xr(rs1), rn(f->fmt == X_SH6 ? 64 : 32));
    log_x(rd);
}

/* sc.w/sc.d whose result register is none of avoid_mask */
static void emit_sc(char w, int base, unsigned avoid_mask)
{
    const char *sfx = amo_suffix();
    int rd, rs2 = pick_rs();
    do rd = pick_rd(); while (avoid_mask >> rd & 1);
    emit("sc.%c%s %s, %s, (%s)", w, sfx, xr(rd), xr(rs2), xr(base));
    log_x(rd);
}

/* fsrmi rd, <valid mode> */
static void emit_fsrmi(void)
{
    int rd = pick_rd();
    emit("fsrmi %s, %u", xr(rd), rn(5));
    log_x(rd);
}

/*
 * lr/sc as one unit, so no branch can separate them.  Outcomes that every
 * implementation agrees on: lr A; (ALU ops); sc A  -> succeeds;
 * sc with no reservation (right after another sc) -> fails;
 * lr A; sc B with B at least 256 bytes away       -> fails.
 */
static void u_lrsc(void)
{
    int width = chance(50) ? 4 : 8;
    char w = width == 4 ? 'w' : 'd';
    int kind = (int)rn(4); /* 0,1: success, 2: other address, 3: double sc */
    int a = pick_tmp(0), b = a;
    if (kind == 2) {       /* a in the upper half of the scratch area, b in the lower */
        b = pick_tmp(1u << a);
        emit("addi %s, %s, %ld", xr(a), xr(REG_BASE), rrange(128, 2040) & ~7L);
        emit("addi %s, %s, %ld", xr(b), xr(REG_BASE), rrange(-2048, -128) & ~7L);
    } else {
        emit("addi %s, %s, %ld", xr(a), xr(REG_BASE), rrange(-2048, 2040) & ~(long)(width - 1));
    }
    unsigned avoid = 1u << a | 1u << b;
    int rd;
    do rd = pick_rd(); while (avoid >> rd & 1);
    static const char *const lr_sfx[] = {"", ".aq", ".aqrl"};
    emit("lr.%c%s %s, (%s)", w, lr_sfx[rn(3)], xr(rd), xr(a));
    log_x(rd);
    for (int i = (int)rn(3); i > 0; i--) emit_alu_avoiding(avoid);
    emit_sc(w, b, avoid); /* a must survive for the second sc */
    if (kind == 3) emit_sc(w, a, 0);
}

static const char *const fp_csrs[] = {"fflags", "frm", "fcsr"};

/* Zicsr on the FP CSRs.  A write may leave frm invalid (5..7); that is
 * legal, but dynamic-rounding FP ops would then trap, so such writes are
 * followed by an fsrmi that reads the (possibly invalid) value and sets a
 * valid mode. */
static void u_csr(void)
{
    static const char *const ops[] = {"csrrw", "csrrs", "csrrc", "csrrwi", "csrrsi", "csrrci"};
    int op = (int)rn(ARRAY_LEN(ops)), csr = (int)rn(3);
    int rd = pick_rd(), needs_fix;
    if (op < 3) {
        int rs1 = pick_rs();
        if (chance(30)) { /* a known, valid source value with garbage above bit 7 */
            rs1 = pick_tmp(0);
            uint64_t v = rn(5);                 /* frm */
            if (csr == 0) v = rn(32);           /* fflags */
            if (csr == 2) v = v << 5 | rn(32);  /* fcsr */
            emit_li(rs1, v | (rnd() << 8));
        }
        emit("%s %s, %s, %s", ops[op], xr(rd), fp_csrs[csr], xr(rs1));
        log_x(rd);
        needs_fix = csr != 0 && op != 2;
    } else {
        emit("%s %s, %s, %u", ops[op], xr(rd), fp_csrs[csr], rn(32));
        log_x(rd);
        needs_fix = csr == 1 && op != 5;
    }
    if (needs_fix) emit_fsrmi();
}

/* read fflags, usually clearing them, so that the accrued exceptions are
 * checked often (via the result log) and not only once all are sticky */
static void u_flags(void)
{
    static const char *const ops[] = {"fsflags %s, zero", "frflags %s", "csrrc %s, fflags, zero",
                                      "csrrci %s, fflags, 31", "frcsr %s"};
    int rd = pick_rd_nz();
    emit(ops[rn(ARRAY_LEN(ops))], xr(rd));
    log_x(rd);
}

/* set frm to a valid mode so that dyn-rounding ops see every mode */
static void u_fsrm(void)
{
    if (chance(50)) {
        emit_fsrmi();
    } else {
        int t = pick_tmp(0), rd;
        emit_li(t, rn(5));
        rd = pick_rd();
        emit("fsrm %s, %s", xr(rd), xr(t));
        log_x(rd);
    }
}

static void u_branch(void)
{
    static const char *const ops[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};
    int rs1 = pick_rs(), rs2;
    switch (rn(5)) {
    case 0: rs2 = rs1; break;
    case 1: rs2 = 0; break;
    default: rs2 = pick_rs();
    }
    unsigned l = new_label((int)rn(7));
    emit("%s %s, %s, .L%u", ops[rn(ARRAY_LEN(ops))], xr(rs1), xr(rs2), l);
}

static void u_jump(void)
{
    unsigned l = new_label((int)rn(5));
    int rd = chance(30) ? 0 : chance(30) ? 1 : pick_rd();
    if (chance(40)) {
        emit("jal %s, .L%u", xr(rd), l);
        log_at_label(l, rd);
        return;
    }
    /* jalr: target = label, reached through base + offset, sometimes with
     * bit 0 set (jalr clears it); rd may equal the base register */
    int t = pick_tmp(0);
    long o = rrange(-64, 64);
    long extra = chance(30) ? 1 : 0;
    emit("lla %s, .L%u%+ld", xr(t), l, -o);
    if (chance(20)) rd = t;
    emit("jalr %s, %ld(%s)", xr(rd), o + extra, xr(t));
    log_at_label(l, rd);
}

static void u_fence(void)
{
    static const char *const f[] = {"fence", "fence rw, rw", "fence r, w", "fence iorw, iorw",
                                    "fence.tso", "fence.i", "nop"};
    emit("%s", f[rn(ARRAY_LEN(f))]);
}

/* ------------------------------------------------- compressed instructions */

enum cfmt {
    C_ADDI, C_LI, C_LUI, C_ADDIW, C_SLLI, C_SRxI, C_ANDI, C_MV_ADD, C_CA, C_ADDI4SPN,
    C_LSP, C_SSP, C_FLSP, C_FSSP, C_LS, C_FLS, C_BZ, C_J, C_JR, C_ADDI16SP,
};

struct cform {
    const char *name;
    enum cfmt fmt;
    int width;
};

static const struct cform c_forms[] = {
    {"c.addi", C_ADDI, 0},      {"c.li", C_LI, 0},          {"c.lui", C_LUI, 0},
    {"c.addiw", C_ADDIW, 0},    {"c.slli", C_SLLI, 0},      {"c.srli", C_SRxI, 0},
    {"c.srai", C_SRxI, 0},      {"c.andi", C_ANDI, 0},      {"c.mv", C_MV_ADD, 0},
    {"c.add", C_MV_ADD, 0},     {"c.sub", C_CA, 0},         {"c.xor", C_CA, 0},
    {"c.or", C_CA, 0},          {"c.and", C_CA, 0},         {"c.addw", C_CA, 0},
    {"c.subw", C_CA, 0},        {"c.addi4spn", C_ADDI4SPN, 0},
    {"c.lwsp", C_LSP, 4},       {"c.ldsp", C_LSP, 8},       {"c.swsp", C_SSP, 4},
    {"c.sdsp", C_SSP, 8},       {"c.fldsp", C_FLSP, 8},     {"c.fsdsp", C_FSSP, 8},
    {"c.lw", C_LS, 4},          {"c.ld", C_LS, 8},          {"c.sw", C_LS, 4},
    {"c.sd", C_LS, 8},          {"c.fld", C_FLS, 8},        {"c.fsd", C_FLS, 8},
    {"c.beqz", C_BZ, 0},        {"c.bnez", C_BZ, 0},        {"c.j", C_J, 0},
    {"c.jr", C_JR, 0},          {"c.jalr", C_JR, 0},        {"c.addi16sp", C_ADDI16SP, 0},
};

static long nz_imm6(void)
{
    long v;
    do v = rrange(-32, 31); while (v == 0);
    return v;
}

static void emit_cform(const struct cform *c)
{
    int rd = 0, fd = -1, rs2; /* rd / fd: results to log */
    long v;
    switch (c->fmt) {
    case C_ADDI:
        rd = pick_rd_nz();
        emit("%s %s, %ld", c->name, xr(rd), nz_imm6());
        break;
    case C_LI: case C_ADDIW: case C_ANDI:
        rd = c->fmt == C_ANDI ? pick_rvc_reg() : pick_rd_nz();
        emit("%s %s, %ld", c->name, xr(rd), rrange(-32, 31));
        break;
    case C_LUI:
        rd = pick_rd_nz();
        v = nz_imm6(); /* imm[17:12], sign-extended into a 20-bit field */
        emit("%s %s, %ld", c->name, xr(rd), v < 0 ? v + (1L << 20) : v);
        break;
    case C_SLLI: case C_SRxI:
        rd = c->fmt == C_SLLI ? pick_rd_nz() : pick_rvc_reg();
        emit("%s %s, %ld", c->name, xr(rd), rrange(1, 63));
        break;
    case C_MV_ADD:
        do rs2 = pick_rs(); while (rs2 == 0);
        rd = pick_rd_nz();
        emit("%s %s, %s", c->name, xr(rd), xr(rs2));
        break;
    case C_CA:
        rd = pick_rvc_reg();
        emit("%s %s, %s", c->name, xr(rd), xr(pick_rvc_reg()));
        break;
    case C_ADDI4SPN:
        rd = pick_rvc_reg();
        emit("%s %s, sp, %ld", c->name, xr(rd), rrange(1, 255) * 4);
        break;
    case C_LSP:
        rd = pick_rd_nz();
        emit("%s %s, %ld(sp)", c->name, xr(rd), rrange(0, 63) * c->width);
        break;
    case C_SSP:
        rs2 = pick_rs();
        emit("%s %s, %ld(sp)", c->name, xr(rs2), rrange(0, 63) * c->width);
        break;
    case C_FLSP: case C_FSSP:
        rs2 = pick_fr();
        emit("%s %s, %ld(sp)", c->name, fr(rs2), rrange(0, 63) * c->width);
        if (c->fmt == C_FLSP) fd = rs2;
        break;
    case C_LS: case C_FLS: { /* base' = s11 + a, then a compressed access */
        int b = pick_rvc_reg(), r;
        v = rrange(-2048, 2047 - 248) & ~7L;
        emit("addi %s, %s, %ld", xr(b), xr(REG_BASE), v);
        r = pick_rvc_reg();
        v = rrange(0, 31) * c->width;
        if (c->fmt == C_LS) emit("%s %s, %ld(%s)", c->name, xr(r), v, xr(b));
        else emit("%s %s, %ld(%s)", c->name, fr(r), v, xr(b));
        int is_load = c->name[2] == 'l' || c->name[3] == 'l';
        if (is_load && c->fmt == C_LS) rd = r;
        if (is_load && c->fmt == C_FLS) fd = r;
        break;
    }
    case C_BZ:
        /* at most 2 units ahead keeps the target within +-256 bytes */
        rs2 = pick_rvc_reg();
        emit("%s %s, .L%u", c->name, xr(rs2), new_label((int)rn(3)));
        break;
    case C_J:
        emit("%s .L%u", c->name, new_label((int)rn(5)));
        break;
    case C_JR: {
        int t = pick_tmp(0);
        unsigned l = new_label((int)rn(4));
        emit("lla %s, .L%u", xr(t), l);
        emit("%s %s", c->name, xr(t));
        if (!strcmp(c->name, "c.jalr")) log_at_label(l, 1);
        break;
    }
    case C_ADDI16SP:
        /* move sp, use it, move it back (sp stays inside .data: 512 bytes
         * of dump area lie below the scratch area) */
        do v = rrange(-31, 31) * 16; while (v == 0); /* -v must fit too */
        emit("%s sp, %ld", c->name, v);
        if (chance(50)) {
            rd = pick_rd_nz();
            emit("c.ldsp %s, %ld(sp)", xr(rd), rrange(0, 63) * 8);
        }
        if (v > 0 && chance(50)) {
            rs2 = pick_rs();
            emit("c.sdsp %s, %ld(sp)", xr(rs2), rrange(0, 63) * 8);
        }
        emit("%s sp, %ld", c->name, -v);
        break;
    }
    log_x(rd);
    if (fd >= 0) log_f(fd);
}

static void u_compressed(void)
{
    printf("\t.option push\n\t.option rvc\n");
    int saved = g_rvc;
    g_rvc = 1;
    emit_cform(PICK(c_forms));
    g_rvc = saved;
    printf("\t.option pop\n");
}

/* ------------------------------------------------------------ unit mix */

static int rvc_left; /* units left in the current .option rvc stretch */

static void u_rvc_stretch(void)
{
    if (g_rvc) return;
    printf("\t.option rvc\n");
    g_rvc = 1;
    rvc_left = (int)rrange(5, 40);
    u_alu();
}

struct unit {
    void (*gen)(void);
    int weight;
};

static const struct unit units[] = {
    /* integer */
    {u_alu, 30}, {u_muldiv, 8}, {u_div_special, 3}, {u_li, 4},
    /* memory and atomics */
    {u_mem, 14}, {u_amo, 4}, {u_lrsc, 2}, {u_fence, 1},
    /* floating point and its CSRs */
    {u_fp, 32}, {u_fli, 6}, {u_fp_exact, 4}, {u_csr, 3}, {u_fsrm, 2}, {u_flags, 5},
    /* control flow */
    {u_branch, 6}, {u_jump, 3},
    /* compressed */
    {u_compressed, 10}, {u_rvc_stretch, 1},
};

static void emit_unit(void)
{
    int total = 0;
    for (size_t i = 0; i < ARRAY_LEN(units); i++) total += units[i].weight;
    int r = (int)rn((unsigned)total);
    for (size_t i = 0; i < ARRAY_LEN(units); i++) {
        if (r < units[i].weight) {
            units[i].gen();
            flush_log();
            break;
        }
        r -= units[i].weight;
    }
    if (g_rvc && --rvc_left <= 0) {
        printf("\t.option norvc\n");
        g_rvc = 0;
    }
}

/* --------------------------------------------------------------- program */

static void emit_dwords(const char *label, const uint64_t *v, int n)
{
    printf("%s:\n", label);
    for (int i = 0; i < n; i++) printf("\t.dword 0x%016" PRIx64 "\n", v[i]);
}

static void gen_program(uint64_t seed, long n)
{
    rng_state = seed * 0x2545f4914f6cdd1dULL + 0x1234567;
    rnd();

    uint64_t mem[SCRATCH_BYTES / 8], xinit[32], finit[32];
    for (int i = 0; i < SCRATCH_BYTES / 8; i++)
        mem[i] = chance(50) ? rand_int_value() : rand_fp_value();
    for (int i = 0; i < 32; i++) xinit[i] = rand_int_value();
    for (int i = 0; i < 32; i++) finit[i] = rand_fp_value();
    unsigned fcsr0 = rn(5) << 5;
    if (chance(50)) fcsr0 |= rn(32);

    printf("# randinsn_gen %" PRIu64 " %ld\n", seed, n);
    printf("\t.option norelax\n\t.option norvc\n");
    printf("\t.data\n\t.balign 4096\n");
    printf("dump:\t.zero %d\n", NSLOTS * 8); /* the state dump; directly below scratch */
    emit_dwords("scratch", mem, SCRATCH_BYTES / 8);
    printf("resultlog:\t.zero %d\n", LOG_ENTRIES * 8);
    emit_dwords("init_x", xinit, 32);
    emit_dwords("init_f", finit, 32);

    printf("\t.text\n\t.globl _start\n_start:\n");
    emit("lla t6, init_f");
    for (int i = 0; i < 32; i++) emit("fld f%d, %d(t6)", i, i * 8);
    emit("li t0, %u", fcsr0);
    emit("fscsr t0");
    emit("lla sp, scratch");
    emit("addi s11, sp, 2047");
    emit("addi s11, s11, 1");
    emit("lla gp, resultlog + 2048");
    for (int i = 1; i < 32; i++)
        if (!reserved(i)) emit("ld %s, %d(t6)", xr(i), i * 8 - 256); /* init_x = init_f - 256 */
    printf("# ---- random code\n");

    for (long i = 0; i < n; i++) {
        emit_unit();
        tick_labels(0);
    }
    tick_labels(1);
    if (g_rvc) printf("\t.option norvc\n");
    g_rvc = 0;

    printf("# ---- dump state: x1..x31, f0..f31, fcsr, then the scratch area and the log\n");
    for (int i = 1; i < 32; i++) emit("sd %s, %d(sp)", xr(i), -512 + (i - 1) * 8);
    for (int i = 0; i < 32; i++) emit("fsd f%d, %d(sp)", i, -512 + (31 + i) * 8);
    emit("frcsr t0");
    emit("sd t0, %d(sp)", -512 + 63 * 8);
    emit("li a0, 1");
    emit("addi a1, sp, -512");
    emit("li a2, %d", DUMP_BYTES);
    emit("li a7, 64");
    emit("ecall");
    emit("li a0, 0");
    emit("li a7, 93");
    emit("ecall");
}

/* ------------------------------------------------------------ dump tools */

static long read_file(const char *path, unsigned char **out)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = DUMP_BYTES + 1, len = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *out = buf;
    return buf ? (long)len : -1;
}

static uint64_t slot(const unsigned char *p, long i)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--) v = v << 8 | p[i * 8 + k];
    return v;
}

static void slot_name(long i, char *buf, size_t n)
{
    if (i < 31) snprintf(buf, n, "x%ld(%s)", i + 1, abi_names[i + 1]);
    else if (i < 63) snprintf(buf, n, "f%ld", i - 31);
    else if (i == 63) snprintf(buf, n, "fcsr");
    else if (i < NSLOTS + SCRATCH_BYTES / 8) snprintf(buf, n, "mem[scratch+0x%03lx]", (i - NSLOTS) * 8);
    else snprintf(buf, n, "log[%ld] (%ld(gp))", i - NSLOTS - SCRATCH_BYTES / 8,
                  (i - NSLOTS - SCRATCH_BYTES / 8) * 8 - 2048);
}

static void print_slot(long i, uint64_t v)
{
    double d;
    float f;
    uint32_t lo = (uint32_t)v;
    memcpy(&d, &v, sizeof d);
    memcpy(&f, &lo, sizeof f);
    if (i >= 31 && i < 63 && v >> 32 == 0xffffffff) printf(" 0x%016" PRIx64 " (single %g)", v, (double)f);
    else if (i >= 31 && i < 63) printf(" 0x%016" PRIx64 " (%g)", v, d);
    else if (i == 63) printf(" 0x%02" PRIx64 " (frm=%u flags=0x%02x)", v, (unsigned)(v >> 5 & 7),
                             (unsigned)(v & 31));
    else printf(" 0x%016" PRIx64, v);
}

static int cmd_dump(const char *path)
{
    unsigned char *p;
    long len = read_file(path, &p);
    if (len < 0) return 2;
    if (len != DUMP_BYTES) fprintf(stderr, "%s: %ld bytes, expected %d\n", path, len, DUMP_BYTES);
    for (long i = 0; i < len / 8 && i < NSLOTS; i++) {
        char name[64];
        slot_name(i, name, sizeof name);
        printf("%-8s", name);
        print_slot(i, slot(p, i));
        putchar('\n');
    }
    free(p);
    return 0;
}

static int cmd_diff(const char *pa, const char *pb)
{
    unsigned char *a, *b;
    long la = read_file(pa, &a), lb = read_file(pb, &b);
    if (la < 0 || lb < 0) return 2;
    int ndiff = 0;
    if (la != DUMP_BYTES || lb != DUMP_BYTES) {
        printf("dump sizes: %s %ld bytes, %s %ld bytes (expected %d)\n", pa, la, pb, lb, DUMP_BYTES);
        ndiff++;
    }
    long n = (la < lb ? la : lb) / 8;
    for (long i = 0; i < n; i++) {
        uint64_t va = slot(a, i), vb = slot(b, i);
        if (va == vb) continue;
        char name[64];
        slot_name(i, name, sizeof name);
        printf("%-20s A", name);
        print_slot(i, va);
        printf("  B");
        print_slot(i, vb);
        putchar('\n');
        if (++ndiff >= 40) {
            printf("... (more differences)\n");
            break;
        }
    }
    free(a);
    free(b);
    return ndiff ? 1 : 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: randinsn_gen SEED [N]      write a random RV64GC test program (N units, default 2000)\n"
               "       randinsn_gen --diff A B    compare two state dumps (exit 1 if they differ)\n"
               "       randinsn_gen --dump A      print a state dump\n");
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--help")) {
        usage(stdout);
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "--diff")) return cmd_diff(argv[2], argv[3]);
    if (argc == 3 && !strcmp(argv[1], "--dump")) return cmd_dump(argv[2]);
    if (argc < 2 || argc > 3) {
        usage(stderr);
        return 2;
    }
    char *end;
    uint64_t seed = strtoull(argv[1], &end, 0);
    if (*end || end == argv[1]) {
        fprintf(stderr, "randinsn_gen: bad seed '%s'\n", argv[1]);
        return 2;
    }
    long n = 2000;
    if (argc == 3) {
        n = strtol(argv[2], &end, 0);
        if (*end || end == argv[2] || n < 0) {
            fprintf(stderr, "randinsn_gen: bad count '%s'\n", argv[2]);
            return 2;
        }
    }
    gen_program(seed, n);
    return fflush(stdout) ? 1 : 0;
}
