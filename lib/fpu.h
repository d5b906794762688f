/* IEEE-754 binary32/binary64 arithmetic with RISC-V semantics: all five rounding
 * modes, fflags accrual, canonical NaN results, saturating conversions.
 * Values travel as raw bit patterns; NaN boxing is the caller's business. */
#ifndef RV_FPU_H
#define RV_FPU_H

#include <stdbool.h>
#include <stdint.h>

enum fp_rm { FP_RNE = 0, FP_RTZ = 1, FP_RDN = 2, FP_RUP = 3, FP_RMM = 4 };

/* fflags bits, as in the fcsr. */
enum {
    FFLAG_NX = 1 << 0, /* inexact */
    FFLAG_UF = 1 << 1, /* underflow (tininess detected after rounding) */
    FFLAG_OF = 1 << 2, /* overflow */
    FFLAG_DZ = 1 << 3, /* divide by zero */
    FFLAG_NV = 1 << 4, /* invalid */
};

#define F32_CANONICAL_NAN UINT32_C(0x7fc00000)
#define F64_CANONICAL_NAN UINT64_C(0x7ff8000000000000)

typedef enum { FP_ADD, FP_SUB, FP_MUL, FP_DIV } fp_arith_op;
typedef enum { FP_EQ, FP_LT, FP_LE } fp_cmp_op;
/* Integer side of a conversion: fcvt.{w,wu,l,lu}. */
typedef enum { FP_INT_W, FP_INT_WU, FP_INT_L, FP_INT_LU } fp_int_kind;

/* Every function ORs the exception flags it raises into *flags.
 * rm is an already-resolved static rounding mode (0..4). */
static inline uint32_t f32_arith(fp_arith_op op, uint32_t a, uint32_t b, unsigned rm, unsigned *flags);
static inline uint64_t f64_arith(fp_arith_op op, uint64_t a, uint64_t b, unsigned rm, unsigned *flags);
uint32_t f32_sqrt(uint32_t a, unsigned rm, unsigned *flags);
uint64_t f64_sqrt(uint64_t a, unsigned rm, unsigned *flags);

/* Fused (a*b)+c with one rounding. neg_prod negates the product, neg_addend
 * negates c: fmadd(0,0) fmsub(0,1) fnmsub(1,0) fnmadd(1,1). */
static inline uint32_t f32_fma(uint32_t a, uint32_t b, uint32_t c, bool neg_prod, bool neg_addend,
                               unsigned rm, unsigned *flags);
static inline uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, bool neg_prod, bool neg_addend,
                               unsigned rm, unsigned *flags);

/* fmin/fmax (IEEE 754-2019 minimumNumber/maximumNumber, -0 < +0; NV on sNaN). */
uint32_t f32_minmax(uint32_t a, uint32_t b, bool is_max, unsigned *flags);
uint64_t f64_minmax(uint64_t a, uint64_t b, bool is_max, unsigned *flags);

/* feq is quiet (NV only for sNaN); flt/fle signal NV on any NaN. */
bool f32_compare(fp_cmp_op op, uint32_t a, uint32_t b, unsigned *flags);
bool f64_compare(fp_cmp_op op, uint64_t a, uint64_t b, unsigned *flags);

/* fclass: the 10-bit one-hot mask. */
uint64_t f32_classify(uint32_t a);
uint64_t f64_classify(uint64_t a);

/* Float to integer, saturating (NaN gives the largest positive value), NV on
 * out-of-range, NX on inexact. The result is what lands in rd: the 32-bit
 * kinds are sign-extended to 64 bits, as RV64 specifies for fcvt.w[u]. */
uint64_t f32_to_int(uint32_t a, fp_int_kind kind, unsigned rm, unsigned *flags);
uint64_t f64_to_int(uint64_t a, fp_int_kind kind, unsigned rm, unsigned *flags);

/* Integer (low 32 bits of v for the W kinds) to float. */
static inline uint32_t f32_from_int(uint64_t v, fp_int_kind kind, unsigned rm, unsigned *flags);
static inline uint64_t f64_from_int(uint64_t v, fp_int_kind kind, unsigned rm, unsigned *flags);

uint64_t f32_to_f64(uint32_t a, unsigned *flags);
uint32_t f64_to_f32(uint64_t a, unsigned rm, unsigned *flags);

/* The arithmetic, fma and int-to-float functions above are inline: the common case (see host_round_quick()
 * in fpu_quick.h) is decided where the instruction runs, and the rest is left
 * to these. */
uint32_t f32_arith_full(fp_arith_op op, uint32_t a, uint32_t b, unsigned rm, unsigned *flags);
uint64_t f64_arith_full(fp_arith_op op, uint64_t a, uint64_t b, unsigned rm, unsigned *flags);
uint32_t f32_fma_full(uint32_t a, uint32_t b, uint32_t c, bool neg_prod, bool neg_addend, unsigned rm,
                      unsigned *flags);
uint64_t f64_fma_full(uint64_t a, uint64_t b, uint64_t c, bool neg_prod, bool neg_addend, unsigned rm,
                      unsigned *flags);
uint32_t f32_from_int_full(uint64_t v, fp_int_kind kind, unsigned rm, unsigned *flags);
uint64_t f64_from_int_full(uint64_t v, fp_int_kind kind, unsigned rm, unsigned *flags);

#include "fpu_quick.h"

static inline __attribute__((always_inline)) uint32_t f32_arith(fp_arith_op op, uint32_t a, uint32_t b, unsigned rm, unsigned *flags)
{
    uint64_t r;
    if (host_round_quick(&FMT32, (enum host_op)op, a, b, 0, rm, flags, &r))
        return (uint32_t)r;
    return f32_arith_full(op, a, b, rm, flags);
}

static inline __attribute__((always_inline)) uint64_t f64_arith(fp_arith_op op, uint64_t a, uint64_t b, unsigned rm, unsigned *flags)
{
    uint64_t r;
    if (host_round_quick(&FMT64, (enum host_op)op, a, b, 0, rm, flags, &r))
        return r;
    return f64_arith_full(op, a, b, rm, flags);
}

/* Operands that are normal or zero exclude fma(inf, 0, c), the one case the
 * full path treats before rounding. */
static inline __attribute__((always_inline)) uint32_t f32_fma(uint32_t a, uint32_t b, uint32_t c, bool neg_prod, bool neg_addend,
                               unsigned rm, unsigned *flags)
{
    uint64_t r, sign = sign_mask(&FMT32);
    if (host_round_quick(&FMT32, H_FMA, neg_prod ? a ^ sign : a, b, neg_addend ? c ^ sign : c, rm, flags, &r))
        return (uint32_t)r;
    return f32_fma_full(a, b, c, neg_prod, neg_addend, rm, flags);
}

static inline __attribute__((always_inline)) uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, bool neg_prod, bool neg_addend,
                               unsigned rm, unsigned *flags)
{
    uint64_t r, sign = sign_mask(&FMT64);
    if (host_round_quick(&FMT64, H_FMA, neg_prod ? a ^ sign : a, b, neg_addend ? c ^ sign : c, rm, flags, &r))
        return r;
    return f64_fma_full(a, b, c, neg_prod, neg_addend, rm, flags);
}

static inline __attribute__((always_inline)) uint32_t f32_from_int(uint64_t v, fp_int_kind kind, unsigned rm,
                                                                  unsigned *flags)
{
    enum host_op op;
    uint64_t r, a = int_operand(v, kind, &op);
    if (host_round_quick(&FMT32, op, a, 0, 0, rm, flags, &r))
        return (uint32_t)r;
    return f32_from_int_full(v, kind, rm, flags);
}

static inline __attribute__((always_inline)) uint64_t f64_from_int(uint64_t v, fp_int_kind kind, unsigned rm,
                                                                  unsigned *flags)
{
    enum host_op op;
    uint64_t r, a = int_operand(v, kind, &op);
    if (host_round_quick(&FMT64, op, a, 0, 0, rm, flags, &r))
        return r;
    return f64_from_int_full(v, kind, rm, flags);
}

#endif
