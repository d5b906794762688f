/* The part of lib/fpu.c that is inlined where an instruction's semantics
 * calls it (the interpreter and the translator's stencils): the two formats
 * as bit fields, the operations the host's SSE unit computes, and the
 * common case of a rounded operation, which needs no MXCSR (see
 * host_round_quick()). Without it, every fadd.d paid two calls and a
 * switch on a format read from memory. Only fpu.h includes it (at its end). */
#ifndef RV_FPU_QUICK_H
#define RV_FPU_QUICK_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <xmmintrin.h>
#include <emmintrin.h>

#if !defined(__x86_64__)
#error "lib/fpu_quick.h relies on x86-64 SSE"
#endif

/* ------------------------------------------------------------------ formats */

struct fp_format {
    unsigned frac_bits; /* stored significand bits */
    unsigned exp_bits;
    uint64_t canonical_nan;
};

static const struct fp_format FMT32 = {23, 8, F32_CANONICAL_NAN};
static const struct fp_format FMT64 = {52, 11, F64_CANONICAL_NAN};

/* Field access (f is one of the two constants above, folded away once inlined). */
static inline bool is_binary64(const struct fp_format *f) { return f->frac_bits == 52; }
static inline uint64_t sign_mask(const struct fp_format *f)
{
    return UINT64_C(1) << (f->frac_bits + f->exp_bits);
}
static inline uint64_t quiet_bit(const struct fp_format *f)
{
    return UINT64_C(1) << (f->frac_bits - 1);
}
static inline unsigned exp_all_ones(const struct fp_format *f) { return (1u << f->exp_bits) - 1; }
static inline int exp_bias(const struct fp_format *f) { return (1 << (f->exp_bits - 1)) - 1; }
static inline uint64_t frac_of(const struct fp_format *f, uint64_t x)
{
    return x & ((UINT64_C(1) << f->frac_bits) - 1);
}
static inline unsigned exp_of(const struct fp_format *f, uint64_t x)
{
    return (unsigned)(x >> f->frac_bits) & exp_all_ones(f);
}
static inline bool is_neg(const struct fp_format *f, uint64_t x) { return x & sign_mask(f); }
static inline bool is_zero(const struct fp_format *f, uint64_t x)
{
    return (x & ~sign_mask(f)) == 0;
}
static inline bool is_inf(const struct fp_format *f, uint64_t x)
{
    return exp_of(f, x) == exp_all_ones(f) && frac_of(f, x) == 0;
}
static inline bool is_nan(const struct fp_format *f, uint64_t x)
{
    return exp_of(f, x) == exp_all_ones(f) && frac_of(f, x) != 0;
}
static inline bool is_snan(const struct fp_format *f, uint64_t x)
{
    return is_nan(f, x) && !(x & quiet_bit(f));
}

static inline float f32_value(uint64_t bits)
{
    uint32_t b = (uint32_t)bits;
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}
static inline double f64_value(uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}
static inline uint64_t f32_bits_of(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}
static inline uint64_t f64_bits_of(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* ------------------------------------------------------------ host SSE unit */

/* Operations the host computes. The first four match fp_arith_op. */
enum host_op {
    H_ADD = FP_ADD,
    H_SUB = FP_SUB,
    H_MUL = FP_MUL,
    H_DIV = FP_DIV,
    H_SQRT,
    H_FMA,
    H_FROM_I64, /* operand a is a signed integer */
    H_FROM_U64, /* operand a is an unsigned integer */
    H_FROM_F64, /* operand a is a binary64 (narrowing) */
};

/* The same operation, instantiated per C type. VALUE decodes an operand's bits into TYPE. */
#define DEFINE_APPLY(NAME, TYPE, VALUE, SQRT, FMA)                                                 \
    static inline TYPE NAME(enum host_op op, uint64_t a, uint64_t b, uint64_t c)                   \
    {                                                                                              \
        switch (op) {                                                                              \
        case H_ADD: return VALUE(a) + VALUE(b);                                                    \
        case H_SUB: return VALUE(a) - VALUE(b);                                                    \
        case H_MUL: return VALUE(a) * VALUE(b);                                                    \
        case H_DIV: return VALUE(a) / VALUE(b);                                                    \
        case H_SQRT: return SQRT(VALUE(a));                                                        \
        case H_FMA: return FMA(VALUE(a), VALUE(b), VALUE(c));                                      \
        case H_FROM_I64: return (TYPE)(int64_t)a;                                                  \
        case H_FROM_U64: return (TYPE)a;                                                           \
        case H_FROM_F64: return (TYPE)f64_value(a);                                                \
        }                                                                                          \
        __builtin_unreachable();                                                                   \
    }

/* sqrtf()/sqrt() would add an errno path; the intrinsics are the bare instructions. */
static inline float sse_sqrt_f32(float x) { return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))); }
static inline double sse_sqrt_f64(double x)
{
    return _mm_cvtsd_f64(_mm_sqrt_sd(_mm_set_sd(x), _mm_set_sd(x)));
}

DEFINE_APPLY(apply_f32, float, f32_value, sse_sqrt_f32, fmaf)
DEFINE_APPLY(apply_f64, double, f64_value, sse_sqrt_f64, fma)

/* fcvt.{s,d}.{w,wu,l,lu}'s operand as the host converts it: a signed (*op =
 * H_FROM_I64) or unsigned (H_FROM_U64) 64-bit integer. */
static inline uint64_t int_operand(uint64_t v, fp_int_kind kind, enum host_op *op)
{
    *op = kind == FP_INT_LU ? H_FROM_U64 : H_FROM_I64;
    switch (kind) {
    case FP_INT_W: return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
    case FP_INT_WU: return (uint32_t)v;
    default: return v;
    }
}

/* ---------------------------------------------------------------- common case */

static inline bool is_normal(const struct fp_format *f, uint64_t x)
{
    unsigned e = exp_of(f, x);
    return e != 0 && e != exp_all_ones(f);
}

static inline bool normal_or_zero(const struct fp_format *f, uint64_t x)
{
    return is_normal(f, x) || is_zero(f, x);
}

/* The common case, without MXCSR: round to nearest even (MXCSR's control
 * state between calls), NX already accrued, operands that are normal
 * numbers or zeros (no zero divisor), and a result that is either normal
 * above the smallest binade or an exact zero (a sum, or a product with a
 * zero factor). Then no flag but NX can arise (NV needs an infinity, a NaN
 * or a negative square root, DZ a zero divisor, OF an infinite result, UF a
 * result tiny after rounding, which one above the smallest binade is not,
 * nor an exact zero), and NX is already set: the host's result is the whole
 * answer. Otherwise (false) the full path decides. */
static inline __attribute__((always_inline)) bool
host_round_quick(const struct fp_format *f, enum host_op op, uint64_t a, uint64_t b,
                                    uint64_t c, unsigned rm, const unsigned *flags, uint64_t *r)
{
    if (rm != FP_RNE || !(*flags & FFLAG_NX))
        return false;
    bool zero_exact; /* a zero result would be exact */
    switch (op) {
    case H_FROM_I64: case H_FROM_U64: zero_exact = true; break;
    case H_FROM_F64:
        if (!normal_or_zero(&FMT64, a)) return false;
        zero_exact = is_zero(&FMT64, a);
        break;
    case H_SQRT:
        if (!normal_or_zero(f, a)) return false;
        zero_exact = true;
        break;
    case H_ADD: case H_SUB:
        if (!normal_or_zero(f, a) || !normal_or_zero(f, b)) return false;
        zero_exact = true; /* a sum that cancels is exact */
        break;
    case H_DIV:
        if (!normal_or_zero(f, a) || !is_normal(f, b)) return false;
        zero_exact = is_zero(f, a);
        break;
    default: /* H_MUL, H_FMA */
        if (!normal_or_zero(f, a) || !normal_or_zero(f, b) || (op == H_FMA && !normal_or_zero(f, c))) return false;
        zero_exact = is_zero(f, a) || is_zero(f, b);
        break;
    }
    *r = is_binary64(f) ? f64_bits_of(apply_f64(op, a, b, c)) : f32_bits_of(apply_f32(op, a, b, c));
    return is_zero(f, *r) ? zero_exact : is_normal(f, *r) && exp_of(f, *r) > 1;
}

#endif
