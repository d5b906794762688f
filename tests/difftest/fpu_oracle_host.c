/* Host side of the FPU differential test: the same line protocol as fpu_oracle_rv.c, answered
 * by lib/fpu.c.
 *
 *   fpu_oracle_host            read cases (OP RM A [B [C]]) on stdin, print RESULT FLAGS
 *   fpu_oracle_host --gen SEED N   print N generated cases covering every operation
 */
#include "fpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { K_ARITH, K_SQRT, K_FMA, K_MINMAX, K_CMP, K_CLASS, K_F2I, K_I2F, K_F2F };

struct op {
    const char *name;
    enum kind kind;
    bool dbl; /* the floating-point side is binary64 */
    int sub;  /* fp_arith_op, fp_cmp_op, fp_int_kind, is_max, or fma negations (prod<<1|addend) */
};

#define BOTH(stem, kind, sub)                                                                      \
    {stem ".s", kind, false, sub}, { stem ".d", kind, true, sub }
static const struct op OPS[] = {
    BOTH("fadd", K_ARITH, FP_ADD),
    BOTH("fsub", K_ARITH, FP_SUB),
    BOTH("fmul", K_ARITH, FP_MUL),
    BOTH("fdiv", K_ARITH, FP_DIV),
    BOTH("fsqrt", K_SQRT, 0),
    BOTH("fmadd", K_FMA, 0),
    BOTH("fmsub", K_FMA, 1),
    BOTH("fnmsub", K_FMA, 2),
    BOTH("fnmadd", K_FMA, 3),
    BOTH("fmin", K_MINMAX, 0),
    BOTH("fmax", K_MINMAX, 1),
    BOTH("feq", K_CMP, FP_EQ),
    BOTH("flt", K_CMP, FP_LT),
    BOTH("fle", K_CMP, FP_LE),
    BOTH("fclass", K_CLASS, 0),
    BOTH("fcvt.w", K_F2I, FP_INT_W),
    BOTH("fcvt.wu", K_F2I, FP_INT_WU),
    BOTH("fcvt.l", K_F2I, FP_INT_L),
    BOTH("fcvt.lu", K_F2I, FP_INT_LU),
    {"fcvt.s.w", K_I2F, false, FP_INT_W},
    {"fcvt.s.wu", K_I2F, false, FP_INT_WU},
    {"fcvt.s.l", K_I2F, false, FP_INT_L},
    {"fcvt.s.lu", K_I2F, false, FP_INT_LU},
    {"fcvt.d.w", K_I2F, true, FP_INT_W},
    {"fcvt.d.wu", K_I2F, true, FP_INT_WU},
    {"fcvt.d.l", K_I2F, true, FP_INT_L},
    {"fcvt.d.lu", K_I2F, true, FP_INT_LU},
    {"fcvt.s.d", K_F2F, true, 0}, /* dbl: the source is binary64 */
    {"fcvt.d.s", K_F2F, false, 0},
};
#define N_OPS (sizeof OPS / sizeof OPS[0])

static uint64_t run(const struct op *o, unsigned rm, uint64_t a, uint64_t b, uint64_t c,
                    unsigned *fl)
{
    uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b, c32 = (uint32_t)c;
    switch (o->kind) {
    case K_ARITH:
        return o->dbl ? f64_arith(o->sub, a, b, rm, fl) : f32_arith(o->sub, a32, b32, rm, fl);
    case K_SQRT: return o->dbl ? f64_sqrt(a, rm, fl) : f32_sqrt(a32, rm, fl);
    case K_FMA: {
        bool np = o->sub & 2, na = o->sub & 1;
        return o->dbl ? f64_fma(a, b, c, np, na, rm, fl) : f32_fma(a32, b32, c32, np, na, rm, fl);
    }
    case K_MINMAX: return o->dbl ? f64_minmax(a, b, o->sub, fl) : f32_minmax(a32, b32, o->sub, fl);
    case K_CMP: return o->dbl ? f64_compare(o->sub, a, b, fl) : f32_compare(o->sub, a32, b32, fl);
    case K_CLASS: return o->dbl ? f64_classify(a) : f32_classify(a32);
    case K_F2I: return o->dbl ? f64_to_int(a, o->sub, rm, fl) : f32_to_int(a32, o->sub, rm, fl);
    case K_I2F: return o->dbl ? f64_from_int(a, o->sub, rm, fl) : f32_from_int(a, o->sub, rm, fl);
    case K_F2F: return o->dbl ? f64_to_f32(a, rm, fl) : f32_to_f64(a32, fl);
    }
    return 0;
}

static const struct op *find_op(const char *name)
{
    for (size_t i = 0; i < N_OPS; i++)
        if (strcmp(OPS[i].name, name) == 0)
            return &OPS[i];
    return NULL;
}

static int answer(void)
{
    unsigned long n_cases = 0;
    char line[256], name[32];
    while (fgets(line, sizeof line, stdin)) {
        unsigned rm;
        unsigned long long a = 0, b = 0, c = 0;
        const struct op *o;
        if (sscanf(line, "%31s %u %llx %llx %llx", name, &rm, &a, &b, &c) < 3 ||
            !(o = find_op(name))) {
            puts("?");
            continue;
        }
        unsigned flags = 0;
        uint64_t r = run(o, rm % 5, a, b, c, &flags);
        /* Again with flags already accrued (lib/fpu.c then skips detecting those): the result
         * must not change and the new flags must still be reported. */
        unsigned accrued = (unsigned)(++n_cases * 7) & 0x1f, again = accrued;
        uint64_t r2 = run(o, rm % 5, a, b, c, &again);
        if (r2 != r || again != (flags | accrued))
            printf("accrued flags %02x changed the answer: %016llx %02x\n", accrued,
                   (unsigned long long)r2, again);
        else
            printf("%016llx %02x\n", (unsigned long long)r, flags);
    }
    return 0;
}

/* ------------------------------------------------------------------ generator */

static uint64_t rng_state;
static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static int rnd_in(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

struct fmt {
    int frac_bits, exp_bits;
};
static const struct fmt F32 = {23, 8}, F64 = {52, 11};

static int exp_max(const struct fmt *f) { return (1 << f->exp_bits) - 1; }
static int bias(const struct fmt *f) { return (1 << (f->exp_bits - 1)) - 1; }
static uint64_t frac_mask(const struct fmt *f) { return (UINT64_C(1) << f->frac_bits) - 1; }
static uint64_t pack(const struct fmt *f, bool neg, int exp, uint64_t frac)
{
    if (exp < 0)
        exp = 0;
    if (exp > exp_max(f))
        exp = exp_max(f);
    return (uint64_t)neg << (f->frac_bits + f->exp_bits) | (uint64_t)exp << f->frac_bits |
           (frac & frac_mask(f));
}
static int biased_exp(const struct fmt *f, uint64_t x) { return (int)(x >> f->frac_bits) & exp_max(f); }

/* Significand with only its top `keep` fraction bits random: products and sums of such values
 * are often exact, or exactly halfway between two representable values. */
static uint64_t short_frac(const struct fmt *f, int keep)
{
    if (keep <= 0)
        return 0;
    if (keep > f->frac_bits)
        keep = f->frac_bits;
    return (rnd() & ((UINT64_C(1) << keep) - 1)) << (f->frac_bits - keep);
}

static uint64_t special(const struct fmt *f)
{
    bool neg = rnd() & 1;
    uint64_t m = frac_mask(f), top = UINT64_C(1) << (f->frac_bits - 1);
    int em = exp_max(f), b = bias(f);
    switch (rnd() % 20) {
    case 0: return pack(f, neg, 0, 0);                           /* zero */
    case 1: return pack(f, neg, 0, 1);                           /* smallest subnormal */
    case 2: return pack(f, neg, 0, m);                           /* largest subnormal */
    case 3: return pack(f, neg, 1, 0);                           /* smallest normal */
    case 4: return pack(f, neg, em - 1, m);                      /* largest finite */
    case 5: return pack(f, neg, em, 0);                          /* infinity */
    case 6: return pack(f, false, em, top);                      /* canonical NaN */
    case 7: return pack(f, neg, em, top | (rnd() & m));          /* quiet NaN with payload */
    case 8: return pack(f, neg, em, 1 + (rnd() & (top - 2)));    /* signalling NaN */
    case 9: return pack(f, neg, b, 0);                           /* 1 */
    case 10: return pack(f, neg, b - 1, 0);                      /* 0.5 */
    case 11: return pack(f, neg, b, top);                        /* 1.5 */
    case 12: return pack(f, neg, b, 1);                          /* 1 + ulp */
    case 13: return pack(f, neg, b - 1, m);                      /* 1 - ulp/2 */
    case 14: return pack(f, neg, 1, 1);                          /* smallest normal + ulp */
    case 15: return pack(f, neg, 0, rnd() & m);                  /* random subnormal */
    case 16: return pack(f, neg, em - 1, short_frac(f, 2));      /* huge */
    case 17: return pack(f, neg, 2, short_frac(f, 3));           /* tiny normal */
    case 18: return pack(f, neg, rnd_in(1, 3), m - (rnd() & 7)); /* just below a small binade */
    default: return pack(f, neg, b + 1, 0);                      /* 2 */
    }
}

/* Values near the integer range boundaries and near .5 fractions. */
static uint64_t near_integer(const struct fmt *f)
{
    static const int boundary[] = {0, 1, 31, 32, 63, 64};
    bool neg = rnd() & 1;
    if (rnd() & 1) { /* a power of two boundary, nudged by a few ulps */
        int e = boundary[rnd() % 6] + (rnd() % 4 == 0 ? -1 : 0);
        uint64_t x = pack(f, neg, bias(f) + e, 0);
        return x + (uint64_t)(int64_t)rnd_in(-3, 3);
    }
    /* random magnitude up to 2^66 with a short significand: often exactly k + 0.5 */
    return pack(f, neg, bias(f) + rnd_in(-2, 66), short_frac(f, rnd_in(0, f->frac_bits)));
}

/* One operand; hint is a biased exponent to stay near (or -1). */
static uint64_t gen_float(const struct fmt *f, int hint)
{
    bool neg = rnd() & 1;
    int em = exp_max(f);
    int exp = hint >= 0 ? hint + rnd_in(-f->frac_bits - 3, 3) : rnd_in(0, em - 1);
    if (exp >= em)
        exp = em - 1;
    switch (rnd() % 9) {
    case 0: return special(f);
    case 1: return rnd() >> (63 - f->frac_bits - f->exp_bits); /* random bits */
    case 2:
    case 3: return pack(f, neg, exp, short_frac(f, rnd_in(0, f->frac_bits / 2 + 2)));
    case 4: return pack(f, neg, exp, rnd());
    case 5: return near_integer(f);
    case 6:
        return pack(f, neg, rnd_in(0, 3),
                    rnd() % 4 ? short_frac(f, rnd_in(0, f->frac_bits)) : rnd());
    default: return pack(f, neg, exp, short_frac(f, rnd_in(0, f->frac_bits)));
    }
}

/* ---- values built as m * 2^e, to aim exactly at rounding midpoints (RMM vs RNE) */

static int bit_length(uint64_t m) { return m ? 64 - __builtin_clzll(m) : 0; }
static int min_quantum_exp(const struct fmt *f) { return 1 - bias(f) - f->frac_bits; }

/* A random odd integer of exactly k bits (k >= 1). */
static uint64_t odd(int k)
{
    if (k <= 1)
        return 1;
    return (rnd() >> (65 - k)) << 1 | UINT64_C(1) << (k - 1) | 1;
}

/* The bits of m * 2^e (m > 0), if representable in f. */
static bool make_value(const struct fmt *f, bool neg, uint64_t m, int e, uint64_t *out)
{
    int lead = bit_length(m) - 1;
    if (m == 0 || lead + e > bias(f))
        return false;
    if (lead + e >= 1 - bias(f)) { /* normal */
        if (lead > f->frac_bits)
            return false;
        *out = pack(f, neg, lead + e + bias(f), m << (f->frac_bits - lead));
        return true;
    }
    int shift = e - min_quantum_exp(f); /* subnormal: m * 2^shift quanta */
    if (shift < 0)
        return false;
    *out = pack(f, neg, 0, m << shift);
    return true;
}

/* An exponent for a value of `bits` bits: mostly moderate, sometimes near either end. */
static int some_exp(const struct fmt *f, int bits)
{
    switch (rnd() % 4) {
    case 0: return rnd_in(min_quantum_exp(f), bias(f) - bits + 1);
    case 1: return rnd_in(min_quantum_exp(f), min_quantum_exp(f) + 2 * f->frac_bits + 4);
    default: return rnd_in(-40, 40) - bits;
    }
}

/* Operands whose exact result is, by construction, often exactly halfway between two
 * representable values (or lands in the subnormal range at such a point). */
static bool gen_midpoint_case(const struct op *o, const struct fmt *f, uint64_t *a, uint64_t *b,
                              uint64_t *c)
{
    int p = f->frac_bits + 1;
    bool sa = rnd() & 1, sb = rnd() & 1, sc = rnd() & 1;
    switch (o->kind) {
    case K_ARITH:
        if (o->sub == FP_ADD || o->sub == FP_SUB) { /* b's lowest bit at half of a's ulp */
            uint64_t ma = odd(p) ^ (rnd() % 2 ? 0 : 1);
            int ea = some_exp(f, p);
            return make_value(f, sa, ma, ea, a) && make_value(f, sb, odd(rnd_in(1, p)), ea - 1, b);
        }
        if (o->sub == FP_MUL) {
            if (rnd() % 2) { /* p+1 (or p+2) bit product of odd factors */
                int ka = rnd_in(2, p), kb = p + rnd_in(1, 2) - ka;
                if (kb < 1 || kb > p)
                    return false;
                int ea = some_exp(f, ka);
                return make_value(f, sa, odd(ka), ea, a) &&
                       make_value(f, sb, odd(kb), rnd_in(-p, p) - ea - ka - kb + rnd_in(-4, 4), b);
            }
            /* product an odd multiple of half the smallest subnormal */
            int ku = rnd_in(1, p - 1), kv = rnd_in(1, p - ku);
            int ea = rnd_in(min_quantum_exp(f), bias(f) - p);
            return make_value(f, sa, odd(ku), ea, a) &&
                   make_value(f, sb, odd(kv), min_quantum_exp(f) - 1 - ea, b);
        }
        if (o->sub == FP_DIV) { /* quotient an odd multiple of half the smallest subnormal */
            int kw = rnd_in(1, p - 1), kv = rnd_in(1, p - kw);
            uint64_t w = odd(kw), v = odd(kv);
            int eb = rnd_in(-p, bias(f) - p);
            return make_value(f, sb, v, eb, b) &&
                   make_value(f, sa, w * v, min_quantum_exp(f) - 1 + eb, a);
        }
        return false;
    case K_FMA: {
        if (rnd() % 2) { /* a midpoint product, nudged by a c far below it (or by zero) */
            static const struct op mul = {"fmul", K_ARITH, false, FP_MUL};
            if (!gen_midpoint_case(&mul, f, a, b, c))
                return false;
            int ec = biased_exp(f, *a) + biased_exp(f, *b) - bias(f) - rnd_in(p, p + 16);
            *c = rnd() % 4 ? pack(f, sc, ec, short_frac(f, rnd_in(0, 4))) : pack(f, sc, 0, 0);
            return true;
        }
        /* the product's lowest bit at half of c's ulp */
        int ka = rnd_in(1, p), kb = rnd_in(1, p);
        int ec = some_exp(f, p), ea = rnd_in(-p, p) - ka;
        return make_value(f, sc, odd(p) ^ (rnd() % 2 ? 0 : 1), ec, c) &&
               make_value(f, sa, odd(ka), ea, a) && make_value(f, sb, odd(kb), ec - 1 - ea, b);
    }
    case K_F2F: /* binary64 at a binary32 midpoint, normal or subnormal */
        if (!o->dbl)
            return false;
        if (rnd() % 2)
            return make_value(&F64, sa, odd(25), rnd_in(-150, 128) - 24, a);
        return make_value(&F64, sa, odd(rnd_in(1, 24)), min_quantum_exp(&F32) - 1, a);
    default: return false;
    }
}

static uint64_t gen_int(int prec_bits)
{
    static const uint64_t fixed[] = {
        0,
        1,
        UINT64_MAX,
        0x7fffffff,
        0x80000000,
        0xffffffff,
        0x100000000,
        UINT64_C(0xffffffff80000000),
        UINT64_C(0x7fffffffffffffff),
        UINT64_C(0x8000000000000000),
        (1u << 24) + 1,
        (1u << 24) + 3,
        (UINT64_C(1) << 53) + 1,
        (UINT64_C(1) << 53) + 3,
        UINT64_C(0xfffffffffffffc00),
        UINT64_C(0xfffffffffffff800),
        UINT64_C(0xffffff80),
    };
    if (rnd() % 5 == 0)
        return fixed[rnd() % (sizeof fixed / sizeof fixed[0])];
    int len = rnd_in(1, 64);
    uint64_t v = rnd() >> (64 - len) | UINT64_C(1) << (len - 1);
    int drop = len - (prec_bits + 1 + rnd_in(0, 2));
    if (drop > 0 && rnd() & 1) /* at most p+1..p+3 significant bits: ties and near-ties */
        v &= ~((UINT64_C(1) << drop) - 1);
    if (rnd() % 4 == 0)
        v = (uint64_t) - (int64_t)v;
    if (rnd() % 3 == 0) /* a 32-bit value, sign-extended or not */
        v = rnd() & 1 ? (uint64_t)(int64_t)(int32_t)(uint32_t)v : (uint32_t)v;
    return v;
}

static int generate(uint64_t seed, long n)
{
    rng_state = seed;
    for (long i = 0; i < n; i++) {
        const struct op *o = &OPS[rnd() % N_OPS];
        unsigned rm = (unsigned)(rnd() % 5) + (rnd() % 5 == 0 ? 5 : 0); /* 1 in 5 through frm */
        const struct fmt *f = o->dbl ? &F64 : &F32;
        uint64_t a = 0, b = 0, c = 0;
        switch (o->kind) {
        case K_I2F: a = gen_int(o->dbl ? 53 : 24); break;
        case K_F2I: a = rnd() & 1 ? near_integer(f) : gen_float(f, -1); break;
        case K_F2F:
            if (rnd() % 5 < 2 && gen_midpoint_case(o, f, &a, &b, &c))
                break;
            if (o->dbl && rnd() % 2) { /* binary64 values near binary32's range and precision */
                int e = rnd_in(1023 - 160, 1023 + 130);
                a = pack(&F64, rnd() & 1, e,
                         short_frac(&F64, rnd_in(20, 30)) | (rnd() % 3 ? 0 : rnd() & 0xfffffff));
            } else {
                a = gen_float(f, -1);
            }
            break;
        default:
            if (rnd() % 5 < 2 && gen_midpoint_case(o, f, &a, &b, &c))
                break;
            if (rnd() % 6 == 0) { /* special operands only: NaNs, infinities, zeros, limits */
                a = special(f), b = special(f), c = special(f);
                if (o->kind == K_FMA && rnd() % 3 == 0) { /* inf * 0 (+ NaN) */
                    a = pack(f, rnd() & 1, exp_max(f), 0), b = pack(f, rnd() & 1, 0, 0);
                    if (rnd() & 1) {
                        uint64_t t = a;
                        a = b;
                        b = t;
                    }
                }
                break;
            }
            a = gen_float(f, -1);
            b = gen_float(f, rnd() & 1 ? biased_exp(f, a) : -1);
            if (o->kind == K_FMA) {
                int pe = biased_exp(f, a) + biased_exp(f, b) - bias(f);
                c = gen_float(f, rnd() & 1 && pe > 0 && pe < exp_max(f) ? pe : -1);
            }
            break;
        }
        printf("%s %u %llx %llx %llx\n", o->name, rm, (unsigned long long)a, (unsigned long long)b,
               (unsigned long long)c);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--gen") == 0)
        return generate(strtoull(argv[2], NULL, 0), strtol(argv[3], NULL, 0));
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--gen SEED N] < cases\n", argv[0]);
        return 2;
    }
    return answer();
}
