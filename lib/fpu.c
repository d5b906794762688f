/* RISC-V F/D semantics on raw bit patterns.
 *
 * Arithmetic (add, sub, mul, div, sqrt, fma, int->float, f64->f32) runs on the host's SSE unit:
 * it rounds correctly in RNE/RTZ/RDN/RUP, detects tininess after rounding as RISC-V does, and
 * reports the five IEEE exceptions in MXCSR, which is programmed directly (see sse_exec()). On
 * top of SSE this file adds:
 *  - canonical NaN results (x86 propagates payloads, and its default NaN is negative);
 *  - round to nearest, ties to max magnitude (RMM), which x86 lacks: see host_round();
 *  - fma(inf, 0, qNaN) raising NV, which RISC-V requires and IEEE leaves optional.
 * Comparisons, min/max, classify and float<->float/int conversions that are easier to state on
 * bits are done in integer code.
 *
 * Host environment: every call leaves MXCSR in its default control state (RNE, exceptions
 * masked, no FTZ/DAZ), whatever rounding mode it used; MXCSR status flags are scratch and may
 * be left set. The caller's own control state is not honoured (guest semantics must not depend
 * on it). Callers that pass their accrued fflags as *flags make the common case cheaper: a flag
 * already set there need not be detected again (see sse_exec()).
 */
#include "fpu.h"

#include <fenv.h>
#include <math.h>
#include <string.h>
#include <xmmintrin.h>
#include <emmintrin.h>

#if !defined(__x86_64__)
#error "lib/fpu.c relies on x86-64 SSE (and the x87 unit for RMM in binary64)"
#endif

/* Exact binary32 -> binary64 for every non-NaN input (NaNs keep their payload). */
static uint64_t widen_f32_bits(uint64_t a)
{
    uint64_t sign = (a & sign_mask(&FMT32)) << 32;
    unsigned exp = exp_of(&FMT32, a);
    uint64_t frac = frac_of(&FMT32, a);
    if (exp == exp_all_ones(&FMT32))
        return sign | UINT64_C(0x7ff) << 52 | frac << 29;
    if (exp == 0) {
        if (frac == 0)
            return sign;
        /* Subnormal: frac * 2^-149 with its leading one at bit `top`. */
        int top = 63 - __builtin_clzll(frac);
        return sign | (uint64_t)(top - 149 + 1023) << 52 |
               ((frac << (52 - top)) & ((UINT64_C(1) << 52) - 1));
    }
    return sign | (uint64_t)(exp - 127 + 1023) << 52 | frac << 29;
}

/* ------------------------------------------------------------ host SSE unit */

static inline long double x87_value(uint64_t bits) { return f64_value(bits); }
DEFINE_APPLY(apply_x87, long double, x87_value, sqrtl, fmal)

#define MXCSR_DEFAULT UINT32_C(0x1f80) /* all exceptions masked, RNE, no FTZ/DAZ, flags clear */
#define MXCSR_FLAGS   UINT32_C(0x3f)   /* status: IE DE ZE OE UE PE */
#define MXCSR_DE      UINT32_C(0x02)   /* denormal operand: no RISC-V counterpart */
static const uint32_t mxcsr_mode[4] = {
    [FP_RNE] = MXCSR_DEFAULT | 0u << 13,
    [FP_RDN] = MXCSR_DEFAULT | 1u << 13,
    [FP_RUP] = MXCSR_DEFAULT | 2u << 13,
    [FP_RTZ] = MXCSR_DEFAULT | 3u << 13,
};

/* MXCSR status bits -> fflags, and back. */
static inline unsigned fflags_from_mxcsr(uint32_t csr)
{
    return (csr & 0x01 ? FFLAG_NV : 0) | (csr & 0x04 ? FFLAG_DZ : 0) | (csr & 0x08 ? FFLAG_OF : 0) |
           (csr & 0x10 ? FFLAG_UF : 0) | (csr & 0x20 ? FFLAG_NX : 0);
}
static inline uint32_t mxcsr_from_fflags(unsigned flags)
{
    return (flags & FFLAG_NV ? 0x01u : 0) | (flags & FFLAG_DZ ? 0x04u : 0) |
           (flags & FFLAG_OF ? 0x08u : 0) | (flags & FFLAG_UF ? 0x10u : 0) |
           (flags & FFLAG_NX ? 0x20u : 0);
}

/* Runs op on SSE with rounding mode rm (not RMM); returns the result bits (binary64 or binary32)
 * and ORs the raised flags into *flags.
 *
 * MXCSR status flags are sticky, so a flag can only be observed if it is clear before the op.
 * Clearing one with ldmxcsr is slow on some hosts (tens of ns), so a stale host flag is left
 * alone when its fflags counterpart is already in *flags: raising it again changes nothing.
 * With accrued flags passed in, an RNE op thus costs two stmxcsr and no ldmxcsr.
 *
 * The operands flow through the asm that reads (and maybe loads) MXCSR and the result into the
 * asm that reads it back, so the compiler cannot move the arithmetic outside that window. */
static inline uint64_t sse_exec(bool binary64, enum host_op op, uint64_t a, uint64_t b, uint64_t c,
                                unsigned rm, unsigned *flags)
{
    uint32_t before, after;
    /* *flags is read before MXCSR is stored: a load just after that store
     * can wait for it when the two addresses alias modulo 4 KiB on the host. */
    unsigned accrued = *flags;
    __asm__ volatile("stmxcsr %[before]" : [before] "=m"(before), "+r"(a), "+r"(b), "+r"(c), "+r"(accrued));
    uint32_t ignorable = MXCSR_DE | mxcsr_from_fflags(accrued);
    uint32_t wanted = mxcsr_mode[rm & 3] | (before & ignorable);
    if (before != wanted)
        __asm__ volatile("ldmxcsr %[wanted]" : "+r"(a), "+r"(b), "+r"(c) : [wanted] "m"(wanted));
    uint64_t r =
        binary64 ? f64_bits_of(apply_f64(op, a, b, c)) : f32_bits_of(apply_f32(op, a, b, c));
    __asm__ volatile("stmxcsr %[after]" : [after] "=m"(after) : "r"(r));
    if (rm != FP_RNE) { /* back to the default mode; changing only the rounding bits is cheap */
        uint32_t restore = MXCSR_DEFAULT | (after & MXCSR_FLAGS);
        __asm__ volatile("ldmxcsr %[restore]" : : [restore] "m"(restore), "r"(r));
    }
    *flags |= fflags_from_mxcsr(after);
    return r;
}

/* ----------------------------------------------------------------------- RMM
 * RMM differs from RNE only when the exact result lies exactly halfway between two neighbours
 * of the destination format; then it picks the one of larger magnitude, which is what rounding
 * away from zero (RUP for a positive result, RDN for a negative one) gives, with the same flags
 * RMM would raise (the tininess and overflow decisions round the same way). Such a midpoint has
 * at most p+1 significant bits, so it is exactly representable in a wider format: binary64 for
 * binary32 operations, the x87 80-bit format (64-bit significand, 15-bit exponent) for binary64
 * ones. Conversely, if the wide result is inexact, the exact one cannot be a midpoint. */

/* Whether the finite value w lies exactly halfway between two adjacent values of f. */
static bool is_midpoint(const struct fp_format *f, long double w)
{
    if (!isfinite(w) || w == 0)
        return false;
    int e;
    (void)frexpl(w, &e); /* 2^(e-1) <= |w| < 2^e */
    int quantum_exp = e - 1 - (int)f->frac_bits;
    int min_quantum_exp = 1 - exp_bias(f) - (int)f->frac_bits; /* subnormal spacing */
    if (quantum_exp < min_quantum_exp)
        quantum_exp = min_quantum_exp;
    long double units = ldexpl(fabsl(w), -quantum_exp); /* exact */
    return units - floorl(units) == 0.5L;
}

/* Computes op exactly-if-possible in the wider format. Returns true, with the value in *w, only
 * if that result is exact and is a midpoint of f. */
static bool exact_result_is_midpoint(const struct fp_format *f, enum host_op op, uint64_t a,
                                     uint64_t b, uint64_t c, long double *w)
{
    fenv_t saved;
    fegetenv(&saved);
    fesetenv(FE_DFL_ENV); /* x87 at 64-bit precision, RNE, flags clear */
    bool exact;
    if (op == H_FROM_F64) { /* the operand itself is the exact value */
        exact = true;
        *w = f64_value(a);
    } else if (!is_binary64(f)) {
        bool ints = op == H_FROM_I64 || op == H_FROM_U64;
        unsigned raised = 0;
        uint64_t r = sse_exec(true, op, ints ? a : widen_f32_bits(a), widen_f32_bits(b),
                              widen_f32_bits(c), FP_RNE, &raised);
        exact = !(raised & FFLAG_NX);
        *w = f64_value(r);
    } else {
        __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c) : : "memory");
        volatile long double result = apply_x87(op, a, b, c);
        exact = !fetestexcept(FE_INEXACT);
        *w = result;
    }
    bool midpoint = exact && is_midpoint(f, *w);
    fesetenv(&saved);
    return midpoint;
}

/* Host operation with RISC-V rounding, flags and NaN results. */
static inline uint64_t host_round(const struct fp_format *f, enum host_op op, uint64_t a,
                                  uint64_t b, uint64_t c, unsigned rm, unsigned *flags)
{
    bool binary64 = is_binary64(f);
    uint64_t r;
    if (host_round_quick(f, op, a, b, c, rm, flags, &r))
        return r;
    if (rm != FP_RMM) {
        r = sse_exec(binary64, op, a, b, c, rm, flags);
    } else {
        unsigned raised = 0; /* NX must be observed here, whatever *flags holds */
        long double w;
        r = sse_exec(binary64, op, a, b, c, FP_RNE, &raised);
        if ((raised & FFLAG_NX) && exact_result_is_midpoint(f, op, a, b, c, &w)) {
            raised = 0;
            r = sse_exec(binary64, op, a, b, c, w > 0 ? FP_RUP : FP_RDN, &raised);
        }
        *flags |= raised;
    }
    return is_nan(f, r) ? f->canonical_nan : r;
}

static uint64_t fused_multiply_add(const struct fp_format *f, uint64_t a, uint64_t b, uint64_t c,
                                   bool neg_prod, bool neg_addend, unsigned rm, unsigned *flags)
{
    if (neg_prod)
        a ^= sign_mask(f);
    if (neg_addend)
        c ^= sign_mask(f);
    /* RISC-V: inf*0 is invalid even when c is a quiet NaN (IEEE lets x86 stay quiet there). */
    if ((is_inf(f, a) && is_zero(f, b)) || (is_zero(f, a) && is_inf(f, b))) {
        *flags |= FFLAG_NV;
        return f->canonical_nan;
    }
    return host_round(f, H_FMA, a, b, c, rm, flags);
}

/* ------------------------------------------------------ bit-level operations */

/* Monotonic in the value, with +0 and -0 both mapping to 0 (NaNs excluded). */
static inline int64_t order_key(const struct fp_format *f, uint64_t x)
{
    int64_t magnitude = (int64_t)(x & ~sign_mask(f));
    return is_neg(f, x) ? -magnitude : magnitude;
}

static bool compare(const struct fp_format *f, fp_cmp_op op, uint64_t a, uint64_t b,
                    unsigned *flags)
{
    if (is_nan(f, a) || is_nan(f, b)) {
        if (op != FP_EQ || is_snan(f, a) || is_snan(f, b))
            *flags |= FFLAG_NV;
        return false;
    }
    int64_t ka = order_key(f, a), kb = order_key(f, b);
    switch (op) {
    case FP_EQ: return ka == kb;
    case FP_LT: return ka < kb;
    case FP_LE: return ka <= kb;
    }
    return false;
}

static uint64_t minmax(const struct fp_format *f, uint64_t a, uint64_t b, bool is_max,
                       unsigned *flags)
{
    if (is_snan(f, a) || is_snan(f, b))
        *flags |= FFLAG_NV;
    if (is_nan(f, a) && is_nan(f, b))
        return f->canonical_nan;
    if (is_nan(f, a))
        return b;
    if (is_nan(f, b))
        return a;
    int64_t ka = order_key(f, a), kb = order_key(f, b);
    bool a_below = ka < kb || (ka == kb && is_neg(f, a)); /* -0 < +0 */
    return a_below == is_max ? b : a;
}

static uint64_t classify(const struct fp_format *f, uint64_t x)
{
    /* Negative classes are bits 0..3 (inf, normal, subnormal, zero); positive ones mirror them
     * as bits 7..4. */
    unsigned exp = exp_of(f, x), k;
    if (exp == exp_all_ones(f)) {
        if (frac_of(f, x) != 0)
            return is_snan(f, x) ? 1u << 8 : 1u << 9;
        k = 0;
    } else if (exp != 0) {
        k = 1;
    } else {
        k = frac_of(f, x) ? 2 : 3;
    }
    return is_neg(f, x) ? 1u << k : 1u << (7 - k);
}

/* Whether rounding a magnitude whose discarded (non-zero) fraction compares with one half as
 * vs_half (<0, 0, >0) adds one unit to the truncated value. */
static bool round_increments(unsigned rm, bool neg, bool odd, int vs_half)
{
    switch (rm) {
    case FP_RNE: return vs_half > 0 || (vs_half == 0 && odd);
    case FP_RTZ: return false;
    case FP_RDN: return neg;
    case FP_RUP: return !neg;
    case FP_RMM: return vs_half >= 0;
    }
    return false;
}

/* Rounds the magnitude sig * 2^exp2 (sig < 2^53) to an integer. */
static uint64_t round_to_integer(uint64_t sig, int exp2, bool neg, unsigned rm, bool *inexact,
                                 bool *too_big)
{
    if (exp2 >= 0) {
        if (exp2 > 63 || (sig << exp2) >> exp2 != sig) {
            *too_big = true;
            return 0;
        }
        return sig << exp2;
    }
    unsigned shift = (unsigned)-exp2;
    uint64_t whole = 0, rest = sig != 0, half = 2; /* shift >= 64: a tiny non-zero rest */
    if (shift < 64) {
        whole = sig >> shift;
        rest = sig & ((UINT64_C(1) << shift) - 1);
        half = UINT64_C(1) << (shift - 1);
    }
    if (rest == 0)
        return whole;
    *inexact = true;
    int vs_half = rest < half ? -1 : rest > half;
    return whole + round_increments(rm, neg, whole & 1, vs_half);
}

static uint64_t to_int(const struct fp_format *f, uint64_t a, fp_int_kind kind, unsigned rm,
                       unsigned *flags)
{
    bool is_signed = kind == FP_INT_W || kind == FP_INT_L;
    bool is_32 = kind == FP_INT_W || kind == FP_INT_WU;
    uint64_t pos_limit = UINT64_MAX >> ((is_32 ? 32 : 0) + is_signed); /* largest magnitude, >= 0 */
    uint64_t neg_limit = is_signed ? pos_limit + 1 : 0;                /* largest magnitude, < 0 */
    bool neg = is_neg(f, a) && !is_nan(f, a); /* NaN saturates to the positive limit */
    bool inexact = false, too_big = false;
    uint64_t magnitude = 0, result;

    unsigned exp = exp_of(f, a);
    if (exp == exp_all_ones(f)) {
        too_big = true;
    } else {
        uint64_t sig = frac_of(f, a);
        if (exp != 0)
            sig |= UINT64_C(1) << f->frac_bits;
        else
            exp = 1; /* subnormals share the smallest normal exponent */
        magnitude = round_to_integer(sig, (int)exp - exp_bias(f) - (int)f->frac_bits, neg, rm,
                                     &inexact, &too_big);
    }
    if (too_big || magnitude > (neg ? neg_limit : pos_limit)) {
        /* Out of range: saturate, NV only (no NX). */
        *flags |= FFLAG_NV;
        result = neg ? -neg_limit : pos_limit;
    } else {
        if (inexact)
            *flags |= FFLAG_NX;
        result = neg ? -magnitude : magnitude;
    }
    return is_32 ? (uint64_t)(int64_t)(int32_t)(uint32_t)result : result;
}

static uint64_t from_int(const struct fp_format *f, uint64_t v, fp_int_kind kind, unsigned rm,
                         unsigned *flags)
{
    enum host_op op;
    uint64_t a = int_operand(v, kind, &op);
    return host_round(f, op, a, 0, 0, rm, flags);
}

/* ---------------------------------------------------------------- public API */

uint32_t f32_arith_full(fp_arith_op op, uint32_t a, uint32_t b, unsigned rm, unsigned *flags)
{
    return (uint32_t)host_round(&FMT32, (enum host_op)op, a, b, 0, rm, flags);
}

uint64_t f64_arith_full(fp_arith_op op, uint64_t a, uint64_t b, unsigned rm, unsigned *flags)
{
    return host_round(&FMT64, (enum host_op)op, a, b, 0, rm, flags);
}

uint32_t f32_sqrt(uint32_t a, unsigned rm, unsigned *flags)
{
    return (uint32_t)host_round(&FMT32, H_SQRT, a, 0, 0, rm, flags);
}

uint64_t f64_sqrt(uint64_t a, unsigned rm, unsigned *flags)
{
    return host_round(&FMT64, H_SQRT, a, 0, 0, rm, flags);
}

uint32_t f32_fma_full(uint32_t a, uint32_t b, uint32_t c, bool neg_prod, bool neg_addend, unsigned rm,
                 unsigned *flags)
{
    return (uint32_t)fused_multiply_add(&FMT32, a, b, c, neg_prod, neg_addend, rm, flags);
}

uint64_t f64_fma_full(uint64_t a, uint64_t b, uint64_t c, bool neg_prod, bool neg_addend, unsigned rm,
                 unsigned *flags)
{
    return fused_multiply_add(&FMT64, a, b, c, neg_prod, neg_addend, rm, flags);
}

uint32_t f32_minmax(uint32_t a, uint32_t b, bool is_max, unsigned *flags)
{
    return (uint32_t)minmax(&FMT32, a, b, is_max, flags);
}

uint64_t f64_minmax(uint64_t a, uint64_t b, bool is_max, unsigned *flags)
{
    return minmax(&FMT64, a, b, is_max, flags);
}

bool f32_compare(fp_cmp_op op, uint32_t a, uint32_t b, unsigned *flags)
{
    return compare(&FMT32, op, a, b, flags);
}

bool f64_compare(fp_cmp_op op, uint64_t a, uint64_t b, unsigned *flags)
{
    return compare(&FMT64, op, a, b, flags);
}

uint64_t f32_classify(uint32_t a) { return classify(&FMT32, a); }
uint64_t f64_classify(uint64_t a) { return classify(&FMT64, a); }

uint64_t f32_to_int(uint32_t a, fp_int_kind kind, unsigned rm, unsigned *flags)
{
    return to_int(&FMT32, a, kind, rm, flags);
}

uint64_t f64_to_int(uint64_t a, fp_int_kind kind, unsigned rm, unsigned *flags)
{
    return to_int(&FMT64, a, kind, rm, flags);
}

uint32_t f32_from_int_full(uint64_t v, fp_int_kind kind, unsigned rm, unsigned *flags)
{
    return (uint32_t)from_int(&FMT32, v, kind, rm, flags);
}

uint64_t f64_from_int_full(uint64_t v, fp_int_kind kind, unsigned rm, unsigned *flags)
{
    return from_int(&FMT64, v, kind, rm, flags);
}

uint64_t f32_to_f64(uint32_t a, unsigned *flags)
{
    if (is_nan(&FMT32, a)) {
        if (is_snan(&FMT32, a))
            *flags |= FFLAG_NV;
        return F64_CANONICAL_NAN;
    }
    return widen_f32_bits(a);
}

uint32_t f64_to_f32(uint64_t a, unsigned rm, unsigned *flags)
{
    return (uint32_t)host_round(&FMT32, H_FROM_F64, a, 0, 0, rm, flags);
}
