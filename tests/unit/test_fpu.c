/* Known-answer tests for lib/fpu.c. Every expected bit pattern is derived by hand (the
 * derivation is in the comment next to it), never by the host's FP unit. */
#include <criterion/criterion.h>
#include <fenv.h>
#include <xmmintrin.h>

#include "fpu.h"

enum { NX = FFLAG_NX, UF = FFLAG_UF, OF = FFLAG_OF, DZ = FFLAG_DZ, NV = FFLAG_NV };

/* binary32 */
#define S_ONE 0x3f800000u
#define S_TWO 0x40000000u
#define S_THREE 0x40400000u
#define S_HALF 0x3f000000u
#define S_M_ONE 0xbf800000u
#define S_PZERO 0x00000000u
#define S_NZERO 0x80000000u
#define S_PINF 0x7f800000u
#define S_NINF 0xff800000u
#define S_QNAN 0x7fc00000u
#define S_SNAN 0x7f800001u
#define S_MAX 0x7f7fffffu
#define S_MIN_NORMAL 0x00800000u
#define S_MIN_SUB 0x00000001u
/* binary64 */
#define D_ONE UINT64_C(0x3ff0000000000000)
#define D_TWO UINT64_C(0x4000000000000000)
#define D_THREE UINT64_C(0x4008000000000000)
#define D_HALF UINT64_C(0x3fe0000000000000)
#define D_M_ONE UINT64_C(0xbff0000000000000)
#define D_PZERO UINT64_C(0)
#define D_NZERO UINT64_C(0x8000000000000000)
#define D_PINF UINT64_C(0x7ff0000000000000)
#define D_NINF UINT64_C(0xfff0000000000000)
#define D_QNAN UINT64_C(0x7ff8000000000000)
#define D_SNAN UINT64_C(0x7ff0000000000001)
#define D_MAX UINT64_C(0x7fefffffffffffff)
#define D_MIN_NORMAL UINT64_C(0x0010000000000000)

static void expect(const char *call, int rm, uint64_t got, unsigned got_flags, uint64_t want,
                   unsigned want_flags)
{
    cr_assert(got == want && got_flags == want_flags,
              "%s [rm %d]: got %#llx flags %#x, want %#llx flags %#x", call, rm,
              (unsigned long long)got, got_flags, (unsigned long long)want, want_flags);
}

/* CALL may use `&fl`; its value and the exact set of flags it raises are checked. */
#define CHECK(CALL, WANT, WANT_FLAGS)                                \
    do {                                                             \
        unsigned fl = 0;                                             \
        uint64_t got_ = (CALL);                                      \
        expect(#CALL, -1, got_, fl, (WANT), (WANT_FLAGS));           \
    } while (0)

/* CALL may use `rm` and `&fl`; WANT and FLAGS list the answers for RNE, RTZ, RDN, RUP, RMM. */
#define CHECK_MODES(CALL, WANT, FLAGS)                               \
    do {                                                             \
        const uint64_t *want_ = (WANT);                              \
        const unsigned *flags_ = (FLAGS);                            \
        for (unsigned rm = FP_RNE; rm <= FP_RMM; rm++) {             \
            unsigned fl = 0;                                         \
            uint64_t got_ = (CALL);                                  \
            expect(#CALL, (int)rm, got_, fl, want_[rm], flags_[rm]); \
        }                                                            \
    } while (0)
#define V(...) ((const uint64_t[5]){__VA_ARGS__})
#define FL(...) ((const unsigned[5]){__VA_ARGS__})
#define ALL(f) FL(f, f, f, f, f)
#define ALLV(v) V(v, v, v, v, v)

/* --------------------------------------------------------------- arithmetic */

Test(fpu, add_f32_rounding_modes)
{
    /* 1 + 2^-24: exactly halfway between 1 (even) and 1+2^-23 (0x3f800001). */
    CHECK_MODES(f32_arith(FP_ADD, S_ONE, 0x33800000, rm, &fl),
                V(S_ONE, S_ONE, S_ONE, 0x3f800001, 0x3f800001), ALL(NX));
    /* (1+2^-23) + 2^-24: halfway between 0x3f800001 (odd) and 0x3f800002: RNE = RMM. */
    CHECK_MODES(f32_arith(FP_ADD, 0x3f800001, 0x33800000, rm, &fl),
                V(0x3f800002, 0x3f800001, 0x3f800001, 0x3f800002, 0x3f800002), ALL(NX));
    /* 1 + 3*2^-25 = 1 + 0.75 ulp: no tie, nearest is up. */
    CHECK_MODES(f32_arith(FP_ADD, S_ONE, 0x33c00000, rm, &fl),
                V(0x3f800001, S_ONE, S_ONE, 0x3f800001, 0x3f800001), ALL(NX));
    /* -1 - 2^-24: the mirror image; RDN and RMM go away from zero. */
    CHECK_MODES(f32_arith(FP_ADD, S_M_ONE, 0xb3800000, rm, &fl),
                V(S_M_ONE, S_M_ONE, 0xbf800001, S_M_ONE, 0xbf800001), ALL(NX));
    /* 1 - 2^-25: halfway between 1-2^-24 (0x3f7fffff, odd) and 1 (even, larger). */
    CHECK_MODES(f32_arith(FP_SUB, S_ONE, 0x33000000, rm, &fl),
                V(S_ONE, 0x3f7fffff, 0x3f7fffff, S_ONE, S_ONE), ALL(NX));
    /* Exact: 1 + 2 = 3. */
    CHECK_MODES(f32_arith(FP_ADD, S_ONE, S_TWO, rm, &fl), ALLV(S_THREE), ALL(0));
}

Test(fpu, add_f64_rounding_modes)
{
    /* 1 + 2^-53 (0x3ca0...): halfway between 1 and 1+2^-52. */
    CHECK_MODES(f64_arith(FP_ADD, D_ONE, 0x3ca0000000000000, rm, &fl),
                V(D_ONE, D_ONE, D_ONE, 0x3ff0000000000001, 0x3ff0000000000001), ALL(NX));
    /* (1+2^-52) + 2^-53: halfway between ...01 (odd) and ...02. */
    CHECK_MODES(f64_arith(FP_ADD, 0x3ff0000000000001, 0x3ca0000000000000, rm, &fl),
                V(0x3ff0000000000002, 0x3ff0000000000001, 0x3ff0000000000001, 0x3ff0000000000002,
                  0x3ff0000000000002), ALL(NX));
    /* -1 - 2^-53 */
    CHECK_MODES(f64_arith(FP_SUB, D_M_ONE, 0x3ca0000000000000, rm, &fl),
                V(D_M_ONE, D_M_ONE, 0xbff0000000000001, D_M_ONE, 0xbff0000000000001), ALL(NX));
}

Test(fpu, exact_zero_sign)
{
    /* x - x is +0, except -0 when rounding down. */
    CHECK_MODES(f32_arith(FP_SUB, S_ONE, S_ONE, rm, &fl), V(0, 0, S_NZERO, 0, 0), ALL(0));
    CHECK_MODES(f64_arith(FP_ADD, D_ONE, D_M_ONE, rm, &fl), V(0, 0, D_NZERO, 0, 0), ALL(0));
    CHECK_MODES(f32_arith(FP_ADD, S_PZERO, S_NZERO, rm, &fl), V(0, 0, S_NZERO, 0, 0), ALL(0));
    CHECK_MODES(f32_arith(FP_ADD, S_NZERO, S_NZERO, rm, &fl), ALLV(S_NZERO), ALL(0));
    CHECK_MODES(f32_fma(S_ONE, S_ONE, S_M_ONE, false, false, rm, &fl),
                V(0, 0, S_NZERO, 0, 0), ALL(0));
}

Test(fpu, mul_rounding_modes)
{
    /* (1+2^-12)^2 = 1 + 2^-11 + 2^-24: halfway between 0x3f801000 (even) and 0x3f801001. */
    CHECK_MODES(f32_arith(FP_MUL, 0x3f800800, 0x3f800800, rm, &fl),
                V(0x3f801000, 0x3f801000, 0x3f801000, 0x3f801001, 0x3f801001), ALL(NX));
    /* (1+2^-26)(1+2^-27) = 1 + 2^-26 + 2^-27 + 2^-53: halfway above 0x3ff0000006000000. */
    CHECK_MODES(f64_arith(FP_MUL, 0x3ff0000004000000, 0x3ff0000002000000, rm, &fl),
                V(0x3ff0000006000000, 0x3ff0000006000000, 0x3ff0000006000000, 0x3ff0000006000001,
                  0x3ff0000006000001), ALL(NX));
    /* The same, negative. */
    CHECK_MODES(f64_arith(FP_MUL, 0xbff0000004000000, 0x3ff0000002000000, rm, &fl),
                V(0xbff0000006000000, 0xbff0000006000000, 0xbff0000006000001, 0xbff0000006000000,
                  0xbff0000006000001), ALL(NX));
    CHECK_MODES(f32_arith(FP_MUL, S_TWO, S_THREE, rm, &fl), ALLV(0x40c00000), ALL(0)); /* 6 */
}

Test(fpu, div_rounding_modes)
{
    /* 1/3 = 1.010101...b * 2^-2; the bits after binary32's 23 are 1010... (> half):
     * truncated 0x3eaaaaaa, nearest 0x3eaaaaab. */
    CHECK_MODES(f32_arith(FP_DIV, S_ONE, S_THREE, rm, &fl),
                V(0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab, 0x3eaaaaab), ALL(NX));
    CHECK_MODES(f32_arith(FP_DIV, S_M_ONE, S_THREE, rm, &fl),
                V(0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab), ALL(NX));
    /* In binary64 the bits after the 52 are 0101... (< half): nearest is the truncation. */
    CHECK_MODES(f64_arith(FP_DIV, D_ONE, D_THREE, rm, &fl),
                V(0x3fd5555555555555, 0x3fd5555555555555, 0x3fd5555555555555, 0x3fd5555555555556,
                  0x3fd5555555555555), ALL(NX));
    CHECK_MODES(f64_arith(FP_DIV, D_TWO, D_THREE, rm, &fl),
                V(0x3fe5555555555555, 0x3fe5555555555555, 0x3fe5555555555555, 0x3fe5555555555556,
                  0x3fe5555555555555), ALL(NX));
    /* Smallest subnormal / 2 = 2^-150: halfway between 0 and 2^-149, tiny: UF. */
    CHECK_MODES(f32_arith(FP_DIV, S_MIN_SUB, S_TWO, rm, &fl), V(0, 0, 0, 1, 1), ALL(UF | NX));
    CHECK_MODES(f64_arith(FP_DIV, 1, D_TWO, rm, &fl), V(0, 0, 0, 1, 1), ALL(UF | NX));
}

Test(fpu, sqrt_rounding_modes)
{
    /* sqrt(2) = 0x1.6a09e667f3bcc908b...: binary32 keeps 0x3504f3 and the next bit is 0;
     * binary64 keeps 0x6a09e667f3bcc and the rest 1001... is above half. */
    CHECK_MODES(f32_sqrt(S_TWO, rm, &fl),
                V(0x3fb504f3, 0x3fb504f3, 0x3fb504f3, 0x3fb504f4, 0x3fb504f3), ALL(NX));
    CHECK_MODES(f64_sqrt(D_TWO, rm, &fl),
                V(0x3ff6a09e667f3bcd, 0x3ff6a09e667f3bcc, 0x3ff6a09e667f3bcc, 0x3ff6a09e667f3bcd,
                  0x3ff6a09e667f3bcd), ALL(NX));
    CHECK_MODES(f32_sqrt(0x40800000, rm, &fl), ALLV(S_TWO), ALL(0)); /* sqrt(4) */
    CHECK(f32_sqrt(S_NZERO, FP_RNE, &fl), S_NZERO, 0);
    CHECK(f64_sqrt(D_PINF, FP_RNE, &fl), D_PINF, 0);
    CHECK(f32_sqrt(S_M_ONE, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f64_sqrt(D_M_ONE, FP_RTZ, &fl), D_QNAN, NV);
    CHECK(f64_sqrt(D_NINF, FP_RNE, &fl), D_QNAN, NV);
}

/* ---------------------------------------------------------------------- fma */

Test(fpu, fma_single_rounding)
{
    /* (1+2^-12)^2 - 1 = 2^-11 + 2^-24 exactly (a separate multiply would lose the 2^-24). */
    CHECK_MODES(f32_fma(0x3f800800, 0x3f800800, S_M_ONE, false, false, rm, &fl),
                ALLV(0x3a000400), ALL(0));
    /* (1+2^-12)^2 + 2^-40: just above the midpoint 1 + 2^-11 + 2^-24. */
    CHECK_MODES(f32_fma(0x3f800800, 0x3f800800, 0x2b800000, false, false, rm, &fl),
                V(0x3f801001, 0x3f801000, 0x3f801000, 0x3f801001, 0x3f801001), ALL(NX));
    /* (1+2^-12)^2 - 2^-40: just below it. */
    CHECK_MODES(f32_fma(0x3f800800, 0x3f800800, 0xab800000, false, false, rm, &fl),
                V(0x3f801000, 0x3f801000, 0x3f801000, 0x3f801001, 0x3f801000), ALL(NX));
    /* (1+2^-12)^2 + 0: the midpoint itself. */
    CHECK_MODES(f32_fma(0x3f800800, 0x3f800800, S_PZERO, false, false, rm, &fl),
                V(0x3f801000, 0x3f801000, 0x3f801000, 0x3f801001, 0x3f801001), ALL(NX));

    /* binary64: (1+2^-27)^2 - 1 = 2^-26 (1 + 2^-28) exactly. */
    CHECK_MODES(f64_fma(0x3ff0000002000000, 0x3ff0000002000000, D_M_ONE, false, false, rm, &fl),
                ALLV(0x3e50000001000000), ALL(0));
    /* (1+2^-26)(1+2^-27) is a midpoint; +-2^-80 moves it off, +0 leaves it there. */
    CHECK_MODES(f64_fma(0x3ff0000004000000, 0x3ff0000002000000,
                    0x3af0000000000000, false, false, rm, &fl),
                V(0x3ff0000006000001, 0x3ff0000006000000, 0x3ff0000006000000, 0x3ff0000006000001,
                  0x3ff0000006000001), ALL(NX));
    CHECK_MODES(f64_fma(0x3ff0000004000000, 0x3ff0000002000000,
                    0xbaf0000000000000, false, false, rm, &fl),
                V(0x3ff0000006000000, 0x3ff0000006000000, 0x3ff0000006000000, 0x3ff0000006000001,
                  0x3ff0000006000000), ALL(NX));
    CHECK_MODES(f64_fma(0x3ff0000004000000, 0x3ff0000002000000, D_PZERO, false, false, rm, &fl),
                V(0x3ff0000006000000, 0x3ff0000006000000, 0x3ff0000006000000, 0x3ff0000006000001,
                  0x3ff0000006000001), ALL(NX));
}

Test(fpu, fma_sign_variants)
{
    /* a = b = 1+2^-12, c = 1: a*b = 1 + 2^-11 + 2^-24. */
    const uint32_t a = 0x3f800800;
    /* fmadd: 2 + 2^-11 + 2^-24; the ulp at 2 is 2^-22, so 2^-24 is a quarter ulp. */
    CHECK_MODES(f32_fma(a, a, S_ONE, false, false, rm, &fl),
                V(0x40000800, 0x40000800, 0x40000800, 0x40000801, 0x40000800), ALL(NX));
    /* fmsub: a*b - 1 = 2^-11 + 2^-24, exact. */
    CHECK(f32_fma(a, a, S_ONE, false, true, FP_RNE, &fl), 0x3a000400, 0);
    /* fnmsub: -(a*b) + 1. */
    CHECK(f32_fma(a, a, S_ONE, true, false, FP_RNE, &fl), 0xba000400, 0);
    /* fnmadd: -(a*b) - 1. */
    CHECK_MODES(f32_fma(a, a, S_ONE, true, true, rm, &fl),
                V(0xc0000800, 0xc0000800, 0xc0000801, 0xc0000800, 0xc0000800), ALL(NX));
    /* binary64: 2*3 + 1, 2*3 - 1, -(2*3) + 1, -(2*3) - 1. */
    CHECK(f64_fma(D_TWO, D_THREE, D_ONE, false, false, FP_RNE, &fl), 0x401c000000000000, 0);
    CHECK(f64_fma(D_TWO, D_THREE, D_ONE, false, true, FP_RNE, &fl), 0x4014000000000000, 0);
    CHECK(f64_fma(D_TWO, D_THREE, D_ONE, true, false, FP_RNE, &fl), 0xc014000000000000, 0);
    CHECK(f64_fma(D_TWO, D_THREE, D_ONE, true, true, FP_RNE, &fl), 0xc01c000000000000, 0);
    /* fnmadd(0, 0, 0) = -0 - 0 = -0; fmadd(0, 0, -0) = +0 + -0 = +0 (RNE). */
    CHECK(f64_fma(D_PZERO, D_PZERO, D_PZERO, true, true, FP_RNE, &fl), D_NZERO, 0);
    CHECK(f64_fma(D_PZERO, D_PZERO, D_NZERO, false, false, FP_RNE, &fl), D_PZERO, 0);
}

/* -------------------------------------------------------------------- flags */

Test(fpu, underflow_detected_after_rounding)
{
    /* (1-2^-23) * 2^-126(1+2^-23) = 2^-126 (1 - 2^-46): below the smallest normal, but rounding
     * to 24 bits with an unbounded exponent gives 2^-126 in RNE/RUP/RMM: not tiny, no UF.
     * RTZ/RDN give 2^-126 - 2^-150 (tiny) and the largest subnormal. */
    CHECK_MODES(f32_arith(FP_MUL, 0x3f7ffffe, 0x00800001, rm, &fl),
                V(S_MIN_NORMAL, 0x007fffff, 0x007fffff, S_MIN_NORMAL, S_MIN_NORMAL),
                FL(NX, UF | NX, UF | NX, NX, NX));
    CHECK_MODES(f64_arith(FP_MUL, 0x3feffffffffffffe, 0x0010000000000001, rm, &fl),
                V(D_MIN_NORMAL, 0x000fffffffffffff, 0x000fffffffffffff, D_MIN_NORMAL, D_MIN_NORMAL),
                FL(NX, UF | NX, UF | NX, NX, NX));
    /* (1-2^-24) * 2^-126 = 2^-126 - 2^-150 has 24 bits: tiny even after rounding, so UF in
     * every mode, although RNE/RUP/RMM deliver the smallest normal. */
    CHECK_MODES(f32_arith(FP_MUL, 0x3f7fffff, S_MIN_NORMAL, rm, &fl),
                V(S_MIN_NORMAL, 0x007fffff, 0x007fffff, S_MIN_NORMAL, S_MIN_NORMAL), ALL(UF | NX));
    CHECK_MODES(f64_arith(FP_MUL, 0x3fefffffffffffff, D_MIN_NORMAL, rm, &fl),
                V(D_MIN_NORMAL, 0x000fffffffffffff, 0x000fffffffffffff, D_MIN_NORMAL, D_MIN_NORMAL),
                ALL(UF | NX));
}

Test(fpu, underflow_subnormal_results)
{
    /* 2^-149 * 0.5: halfway between 0 and 2^-149. */
    CHECK_MODES(f32_arith(FP_MUL, S_MIN_SUB, S_HALF, rm, &fl), V(0, 0, 0, 1, 1), ALL(UF | NX));
    CHECK_MODES(f32_arith(FP_MUL, 0x80000001, S_HALF, rm, &fl),
                V(S_NZERO, S_NZERO, 0x80000001, S_NZERO, 0x80000001), ALL(UF | NX));
    CHECK_MODES(f64_arith(FP_MUL, 1, D_HALF, rm, &fl), V(0, 0, 0, 1, 1), ALL(UF | NX));
    /* An exact subnormal result is not an underflow: 2^-126 * 0.5 = 2^-127. */
    CHECK_MODES(f32_arith(FP_MUL, S_MIN_NORMAL, S_HALF, rm, &fl), ALLV(0x00400000), ALL(0));
    CHECK_MODES(f64_arith(FP_DIV, D_MIN_NORMAL, D_TWO, rm, &fl), ALLV(0x0008000000000000), ALL(0));
}

Test(fpu, overflow_by_rounding_mode)
{
    /* max + max: infinity when rounding away, the largest finite value when towards zero. */
    CHECK_MODES(f32_arith(FP_ADD, S_MAX, S_MAX, rm, &fl),
                V(S_PINF, S_MAX, S_MAX, S_PINF, S_PINF), ALL(OF | NX));
    CHECK_MODES(f32_arith(FP_ADD, 0xff7fffff, 0xff7fffff, rm, &fl),
                V(S_NINF, 0xff7fffff, S_NINF, 0xff7fffff, S_NINF), ALL(OF | NX));
    CHECK_MODES(f64_arith(FP_MUL, D_MAX, D_TWO, rm, &fl),
                V(D_PINF, D_MAX, D_MAX, D_PINF, D_PINF), ALL(OF | NX));
    CHECK_MODES(f64_fma(D_MAX, D_TWO, D_M_ONE, true, false, rm, &fl),
                V(D_NINF, 0xffefffffffffffff, D_NINF, 0xffefffffffffffff, D_NINF), ALL(OF | NX));
}

Test(fpu, divide_by_zero)
{
    CHECK(f32_arith(FP_DIV, S_ONE, S_PZERO, FP_RNE, &fl), S_PINF, DZ);
    CHECK(f32_arith(FP_DIV, S_ONE, S_NZERO, FP_RTZ, &fl), S_NINF, DZ);
    CHECK(f32_arith(FP_DIV, S_M_ONE, S_PZERO, FP_RMM, &fl), S_NINF, DZ);
    CHECK(f64_arith(FP_DIV, D_ONE, D_PZERO, FP_RDN, &fl), D_PINF, DZ);
    CHECK(f64_arith(FP_DIV, D_M_ONE, D_NZERO, FP_RNE, &fl), D_PINF, DZ);
    /* inf / 0 is an exact infinity, 0 / 0 is invalid. */
    CHECK(f32_arith(FP_DIV, S_PINF, S_PZERO, FP_RNE, &fl), S_PINF, 0);
    CHECK(f32_arith(FP_DIV, S_PZERO, S_PZERO, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f64_arith(FP_DIV, D_PZERO, D_NZERO, FP_RNE, &fl), D_QNAN, NV);
}

Test(fpu, invalid_operations)
{
    CHECK(f32_arith(FP_SUB, S_PINF, S_PINF, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f32_arith(FP_ADD, S_PINF, S_NINF, FP_RUP, &fl), S_QNAN, NV);
    CHECK(f64_arith(FP_ADD, D_NINF, D_PINF, FP_RNE, &fl), D_QNAN, NV);
    CHECK(f32_arith(FP_MUL, S_PZERO, S_NINF, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f64_arith(FP_MUL, D_PINF, D_NZERO, FP_RMM, &fl), D_QNAN, NV);
    CHECK(f32_arith(FP_DIV, S_PINF, S_NINF, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f64_arith(FP_DIV, D_PINF, D_PINF, FP_RNE, &fl), D_QNAN, NV);
    /* inf - inf inside fma, and inf * 0 even with a quiet NaN addend (RISC-V requires NV). */
    CHECK(f32_fma(S_PINF, S_ONE, S_NINF, false, false, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f32_fma(S_PINF, S_PZERO, S_QNAN, false, false, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f64_fma(D_NZERO, D_PINF, D_QNAN, true, true, FP_RNE, &fl), D_QNAN, NV);
    CHECK(f64_fma(D_PINF, D_PZERO, D_ONE, false, false, FP_RNE, &fl), D_QNAN, NV);
    /* Signalling NaN operands. */
    CHECK(f32_arith(FP_ADD, S_SNAN, S_ONE, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f32_arith(FP_MUL, S_ONE, 0xff800001, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f64_arith(FP_DIV, D_ONE, D_SNAN, FP_RNE, &fl), D_QNAN, NV);
    CHECK(f64_arith(FP_SUB, 0x7ff4000000000000, D_QNAN, FP_RNE, &fl), D_QNAN, NV);
    CHECK(f32_sqrt(S_SNAN, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f64_sqrt(D_SNAN, FP_RNE, &fl), D_QNAN, NV);
    CHECK(f32_fma(S_ONE, S_ONE, S_SNAN, false, false, FP_RNE, &fl), S_QNAN, NV);
    CHECK(f64_fma(D_SNAN, D_PZERO, D_PINF, false, false, FP_RNE, &fl), D_QNAN, NV);
}

Test(fpu, nan_results_are_canonical)
{
    /* Quiet NaN operands propagate no payload and raise nothing. */
    CHECK(f32_arith(FP_ADD, 0x7fc12345, S_ONE, FP_RNE, &fl), S_QNAN, 0);
    CHECK(f32_arith(FP_MUL, S_ONE, 0xffc00000, FP_RNE, &fl), S_QNAN, 0);
    CHECK(f64_arith(FP_ADD, 0xfff8000000000123, D_ONE, FP_RDN, &fl), D_QNAN, 0);
    CHECK(f64_sqrt(0xfff8000000000000, FP_RNE, &fl), D_QNAN, 0);
    CHECK(f32_fma(S_QNAN, S_ONE, S_ONE, false, false, FP_RMM, &fl), S_QNAN, 0);
    CHECK(f64_fma(D_ONE, D_ONE, 0xfff8000000000001, true, true, FP_RNE, &fl), D_QNAN, 0);
}

Test(fpu, flags_accrue)
{
    unsigned fl = NX;
    cr_assert_eq(f32_arith(FP_DIV, S_ONE, S_PZERO, FP_RNE, &fl), S_PINF);
    cr_assert_eq(fl, NX | DZ);
    (void)f64_sqrt(D_M_ONE, FP_RNE, &fl);
    cr_assert_eq(fl, NX | DZ | NV);
}

/* The host SSE rounding control (MXCSR.RC), 0 = nearest-even. */
static unsigned sse_rounding(void) { return (_mm_getcsr() >> 13) & 3; }

Test(fpu, host_rounding_mode_restored)
{
    unsigned fl = 0;
    (void)f32_arith(FP_DIV, S_ONE, S_THREE, FP_RUP, &fl);
    cr_assert_eq(sse_rounding(), 0);
    (void)f64_arith(FP_ADD, D_ONE, 0x3ca0000000000000, FP_RMM, &fl);
    cr_assert_eq(sse_rounding(), 0);
    (void)f64_fma(D_MAX, D_TWO, D_ONE, false, false, FP_RDN, &fl);
    cr_assert_eq(sse_rounding(), 0);
    (void)f32_from_int(UINT64_MAX, FP_INT_LU, FP_RTZ, &fl);
    cr_assert_eq(sse_rounding(), 0);
    /* A caller's own rounding mode is not used, and the default comes back. */
    cr_assert_eq(fesetround(FE_UPWARD), 0);
    fl = 0;
    uint32_t r = f32_arith(FP_ADD, S_ONE, 0x33800000, FP_RNE, &fl);
    unsigned mode = sse_rounding();
    fesetround(FE_TONEAREST);
    cr_assert_eq(r, S_ONE);
    cr_assert_eq(fl, NX);
    cr_assert_eq(mode, 0);
}

Test(fpu, stale_host_flags_do_not_leak)
{
    /* Host status flags left set (by us or anyone) must not show up as guest flags... */
    feraiseexcept(FE_ALL_EXCEPT);
    CHECK(f32_arith(FP_ADD, S_ONE, S_TWO, FP_RNE, &fl), S_THREE, 0);
    feraiseexcept(FE_ALL_EXCEPT);
    CHECK(f64_arith(FP_MUL, D_TWO, D_THREE, FP_RTZ, &fl), 0x4018000000000000, 0);
    feraiseexcept(FE_ALL_EXCEPT);
    CHECK(f64_fma(D_TWO, D_THREE, D_ONE, false, false, FP_RMM, &fl), 0x401c000000000000, 0);
    /* ...nor hide new ones when the caller's flags already hold others. */
    feraiseexcept(FE_INEXACT);
    unsigned fl = NX;
    cr_assert_eq(f32_arith(FP_MUL, S_MIN_SUB, S_HALF, FP_RNE, &fl), 0);
    cr_assert_eq(fl, NX | UF);
    feraiseexcept(FE_ALL_EXCEPT);
    fl = NX | UF | OF | DZ;
    cr_assert_eq(f64_sqrt(D_M_ONE, FP_RNE, &fl), D_QNAN);
    cr_assert_eq(fl, NX | UF | OF | DZ | NV);
    feclearexcept(FE_ALL_EXCEPT);
}

/* ------------------------------------------------------ min/max, compare, class */

Test(fpu, minmax_f32)
{
    CHECK(f32_minmax(S_ONE, S_TWO, false, &fl), S_ONE, 0);
    CHECK(f32_minmax(S_ONE, S_TWO, true, &fl), S_TWO, 0);
    CHECK(f32_minmax(0xc0000000, S_M_ONE, false, &fl), 0xc0000000, 0); /* min(-2, -1) */
    CHECK(f32_minmax(0xc0000000, S_M_ONE, true, &fl), S_M_ONE, 0);
    /* -0 < +0, in either operand order. */
    CHECK(f32_minmax(S_NZERO, S_PZERO, false, &fl), S_NZERO, 0);
    CHECK(f32_minmax(S_PZERO, S_NZERO, false, &fl), S_NZERO, 0);
    CHECK(f32_minmax(S_NZERO, S_PZERO, true, &fl), S_PZERO, 0);
    CHECK(f32_minmax(S_PZERO, S_NZERO, true, &fl), S_PZERO, 0);
    CHECK(f32_minmax(S_MIN_SUB, S_NZERO, false, &fl), S_NZERO, 0);
    /* One NaN: the other operand; NV only if a NaN is signalling. */
    CHECK(f32_minmax(0x7fc00001, S_ONE, false, &fl), S_ONE, 0);
    CHECK(f32_minmax(S_ONE, 0xffc00000, true, &fl), S_ONE, 0);
    CHECK(f32_minmax(S_NINF, S_QNAN, true, &fl), S_NINF, 0);
    CHECK(f32_minmax(S_SNAN, S_ONE, false, &fl), S_ONE, NV);
    CHECK(f32_minmax(S_ONE, S_SNAN, true, &fl), S_ONE, NV);
    /* Two NaNs: the canonical NaN. */
    CHECK(f32_minmax(S_QNAN, S_QNAN, false, &fl), S_QNAN, 0);
    CHECK(f32_minmax(0x7fc12345, 0xffc00000, true, &fl), S_QNAN, 0);
    CHECK(f32_minmax(S_SNAN, S_QNAN, false, &fl), S_QNAN, NV);
}

Test(fpu, minmax_f64)
{
    CHECK(f64_minmax(D_ONE, D_TWO, false, &fl), D_ONE, 0);
    CHECK(f64_minmax(D_ONE, D_TWO, true, &fl), D_TWO, 0);
    CHECK(f64_minmax(D_PZERO, D_NZERO, false, &fl), D_NZERO, 0);
    CHECK(f64_minmax(D_NZERO, D_PZERO, true, &fl), D_PZERO, 0);
    CHECK(f64_minmax(D_NINF, D_M_ONE, false, &fl), D_NINF, 0);
    CHECK(f64_minmax(D_QNAN, D_M_ONE, true, &fl), D_M_ONE, 0);
    CHECK(f64_minmax(D_M_ONE, D_SNAN, false, &fl), D_M_ONE, NV);
    CHECK(f64_minmax(0xfff8000000000005, D_SNAN, true, &fl), D_QNAN, NV);
    CHECK(f64_minmax(0xfff8000000000005, D_QNAN, false, &fl), D_QNAN, 0);
}

Test(fpu, compare)
{
    CHECK(f32_compare(FP_EQ, S_ONE, S_ONE, &fl), 1, 0);
    CHECK(f32_compare(FP_EQ, S_PZERO, S_NZERO, &fl), 1, 0);
    CHECK(f32_compare(FP_LT, S_NZERO, S_PZERO, &fl), 0, 0);
    CHECK(f32_compare(FP_LE, S_NZERO, S_PZERO, &fl), 1, 0);
    CHECK(f32_compare(FP_LT, S_ONE, S_TWO, &fl), 1, 0);
    CHECK(f32_compare(FP_LT, S_TWO, S_ONE, &fl), 0, 0);
    CHECK(f32_compare(FP_LE, S_TWO, S_TWO, &fl), 1, 0);
    CHECK(f32_compare(FP_LT, 0xc0000000, S_M_ONE, &fl), 1, 0); /* -2 < -1 */
    CHECK(f32_compare(FP_LT, S_NINF, 0xff7fffff, &fl), 1, 0);
    CHECK(f32_compare(FP_LE, S_PINF, S_MAX, &fl), 0, 0);
    /* feq is quiet on quiet NaNs; flt/fle signal on any NaN. */
    CHECK(f32_compare(FP_EQ, S_QNAN, S_ONE, &fl), 0, 0);
    CHECK(f32_compare(FP_EQ, S_QNAN, S_QNAN, &fl), 0, 0);
    CHECK(f32_compare(FP_EQ, S_ONE, S_SNAN, &fl), 0, NV);
    CHECK(f32_compare(FP_LT, S_QNAN, S_ONE, &fl), 0, NV);
    CHECK(f32_compare(FP_LE, S_ONE, S_QNAN, &fl), 0, NV);
    CHECK(f64_compare(FP_EQ, D_NZERO, D_PZERO, &fl), 1, 0);
    CHECK(f64_compare(FP_LT, D_M_ONE, D_ONE, &fl), 1, 0);
    CHECK(f64_compare(FP_LE, D_ONE, D_M_ONE, &fl), 0, 0);
    CHECK(f64_compare(FP_LT, 0x8000000000000001, D_PZERO, &fl), 1, 0);
    CHECK(f64_compare(FP_EQ, D_QNAN, D_QNAN, &fl), 0, 0);
    CHECK(f64_compare(FP_EQ, D_SNAN, D_ONE, &fl), 0, NV);
    CHECK(f64_compare(FP_LE, D_QNAN, D_ONE, &fl), 0, NV);
    CHECK(f64_compare(FP_LT, D_ONE, D_SNAN, &fl), 0, NV);
}

Test(fpu, classify_f32)
{
    cr_assert_eq(f32_classify(S_NINF), 1u << 0);
    cr_assert_eq(f32_classify(S_M_ONE), 1u << 1);
    cr_assert_eq(f32_classify(0xff7fffff), 1u << 1);
    cr_assert_eq(f32_classify(0x80000001), 1u << 2);
    cr_assert_eq(f32_classify(0x807fffff), 1u << 2);
    cr_assert_eq(f32_classify(S_NZERO), 1u << 3);
    cr_assert_eq(f32_classify(S_PZERO), 1u << 4);
    cr_assert_eq(f32_classify(S_MIN_SUB), 1u << 5);
    cr_assert_eq(f32_classify(S_MIN_NORMAL), 1u << 6);
    cr_assert_eq(f32_classify(S_PINF), 1u << 7);
    cr_assert_eq(f32_classify(S_SNAN), 1u << 8);
    cr_assert_eq(f32_classify(0xffbfffff), 1u << 8);
    cr_assert_eq(f32_classify(S_QNAN), 1u << 9);
    cr_assert_eq(f32_classify(0xffc00001), 1u << 9);
}

Test(fpu, classify_f64)
{
    cr_assert_eq(f64_classify(D_NINF), 1u << 0);
    cr_assert_eq(f64_classify(D_M_ONE), 1u << 1);
    cr_assert_eq(f64_classify(0x800fffffffffffff), 1u << 2);
    cr_assert_eq(f64_classify(D_NZERO), 1u << 3);
    cr_assert_eq(f64_classify(D_PZERO), 1u << 4);
    cr_assert_eq(f64_classify(1), 1u << 5);
    cr_assert_eq(f64_classify(D_MAX), 1u << 6);
    cr_assert_eq(f64_classify(D_PINF), 1u << 7);
    cr_assert_eq(f64_classify(D_SNAN), 1u << 8);
    cr_assert_eq(f64_classify(0x7ff7ffffffffffff), 1u << 8);
    cr_assert_eq(f64_classify(D_QNAN), 1u << 9);
    cr_assert_eq(f64_classify(0xfff8000000000000), 1u << 9);
}

/* -------------------------------------------------------- float -> integer */

#define SEXT32(x) ((uint64_t)(int64_t)(int32_t)(uint32_t)(x))
#define INT32_MIN_X SEXT32(0x80000000)
#define ALL_ONES UINT64_MAX

Test(fpu, fcvt_w)
{
    /* NaN -> largest positive; infinities and out-of-range values saturate; NV, never NX. */
    CHECK_MODES(f32_to_int(S_QNAN, FP_INT_W, rm, &fl), ALLV(0x7fffffff), ALL(NV));
    CHECK_MODES(f64_to_int(0xfff8000000000000, FP_INT_W, rm, &fl), ALLV(0x7fffffff), ALL(NV));
    CHECK(f32_to_int(S_SNAN, FP_INT_W, FP_RNE, &fl), 0x7fffffff, NV);
    CHECK(f32_to_int(S_PINF, FP_INT_W, FP_RNE, &fl), 0x7fffffff, NV);
    CHECK(f64_to_int(D_NINF, FP_INT_W, FP_RNE, &fl), INT32_MIN_X, NV);
    /* binary32 neighbours of 2^31: 0x4effffff = 2^31 - 128 fits, 2^31 does not;
     * -2^31 fits, the next value down does not. */
    CHECK_MODES(f32_to_int(0x4effffff, FP_INT_W, rm, &fl), ALLV(0x7fffff80), ALL(0));
    CHECK_MODES(f32_to_int(0x4f000000, FP_INT_W, rm, &fl), ALLV(0x7fffffff), ALL(NV));
    CHECK_MODES(f32_to_int(0xcf000000, FP_INT_W, rm, &fl), ALLV(INT32_MIN_X), ALL(0));
    CHECK_MODES(f32_to_int(0xcf000001, FP_INT_W, rm, &fl), ALLV(INT32_MIN_X), ALL(NV));
    /* binary64 2^31 - 0.5 (0x41dfffffffe00000): halfway between 2^31-1 (odd) and 2^31. */
    CHECK_MODES(f64_to_int(0x41dfffffffe00000, FP_INT_W, rm, &fl), ALLV(0x7fffffff),
                FL(NV, NX, NX, NV, NV));
    CHECK_MODES(f64_to_int(0x41dfffffffc00000, FP_INT_W, rm, &fl), ALLV(0x7fffffff), ALL(0));
    /* -2^31 - 0.5 (0xc1e0000000100000): halfway between -2^31 (even) and -2^31-1. */
    CHECK_MODES(f64_to_int(0xc1e0000000100000, FP_INT_W, rm, &fl), ALLV(INT32_MIN_X),
                FL(NX, NX, NV, NX, NV));
    CHECK_MODES(f64_to_int(0xc1e0000000200000, FP_INT_W, rm, &fl), ALLV(INT32_MIN_X), ALL(NV));
    /* Halves: 2.5, -2.5, 1.5, -0.5. */
    CHECK_MODES(f32_to_int(0x40200000, FP_INT_W, rm, &fl), V(2, 2, 2, 3, 3), ALL(NX));
    CHECK_MODES(f64_to_int(0xc004000000000000, FP_INT_W, rm, &fl),
                V(SEXT32(-2), SEXT32(-2), SEXT32(-3), SEXT32(-2), SEXT32(-3)), ALL(NX));
    CHECK_MODES(f32_to_int(0x3fc00000, FP_INT_W, rm, &fl), V(2, 1, 1, 2, 2), ALL(NX));
    CHECK_MODES(f32_to_int(0xbf000000, FP_INT_W, rm, &fl), V(0, 0, ALL_ONES, 0, ALL_ONES), ALL(NX));
    /* Subnormals. */
    CHECK_MODES(f32_to_int(S_MIN_SUB, FP_INT_W, rm, &fl), V(0, 0, 0, 1, 0), ALL(NX));
    CHECK_MODES(f64_to_int(0x8000000000000001, FP_INT_W, rm, &fl),
                V(0, 0, ALL_ONES, 0, 0), ALL(NX));
    CHECK(f32_to_int(S_NZERO, FP_INT_W, FP_RDN, &fl), 0, 0);
    CHECK(f64_to_int(D_M_ONE, FP_INT_W, FP_RNE, &fl), ALL_ONES, 0);
}

Test(fpu, fcvt_wu)
{
    /* Results are sign-extended from 32 bits: 0xffffffff lands as all ones. */
    CHECK_MODES(f32_to_int(S_QNAN, FP_INT_WU, rm, &fl), ALLV(ALL_ONES), ALL(NV));
    CHECK(f64_to_int(D_SNAN, FP_INT_WU, FP_RNE, &fl), ALL_ONES, NV);
    CHECK(f32_to_int(S_PINF, FP_INT_WU, FP_RNE, &fl), ALL_ONES, NV);
    CHECK(f64_to_int(D_NINF, FP_INT_WU, FP_RNE, &fl), 0, NV);
    CHECK_MODES(f32_to_int(0x4f7fffff, FP_INT_WU, rm, &fl), ALLV(SEXT32(0xffffff00)), ALL(0));
    CHECK_MODES(f32_to_int(0x4f800000, FP_INT_WU, rm, &fl), ALLV(ALL_ONES), ALL(NV));
    CHECK_MODES(f64_to_int(0x41e0000000000000, FP_INT_WU, rm, &fl),
                ALLV(SEXT32(0x80000000)), ALL(0));
    CHECK_MODES(f64_to_int(0x41efffffffe00000, FP_INT_WU, rm, &fl), ALLV(ALL_ONES), ALL(0));
    /* 2^32 - 0.5: halfway between 2^32-1 (odd) and 2^32. */
    CHECK_MODES(f64_to_int(0x41effffffff00000, FP_INT_WU, rm, &fl), ALLV(ALL_ONES),
                FL(NV, NX, NX, NV, NV));
    /* Negative inputs: 0 with NX if they round to 0, 0 with NV if they round to -1 or below. */
    CHECK_MODES(f32_to_int(0xbf000000, FP_INT_WU, rm, &fl),
                ALLV(0), FL(NX, NX, NV, NX, NV)); /* -0.5 */
    CHECK_MODES(f32_to_int(0xbe99999a, FP_INT_WU, rm, &fl),
                ALLV(0), FL(NX, NX, NV, NX, NX)); /* -0.3 */
    CHECK_MODES(f64_to_int(0xbfd3333333333333, FP_INT_WU, rm, &fl),
                ALLV(0), FL(NX, NX, NV, NX, NX));
    CHECK_MODES(f64_to_int(D_M_ONE, FP_INT_WU, rm, &fl), ALLV(0), ALL(NV));
    CHECK_MODES(f32_to_int(S_NZERO, FP_INT_WU, rm, &fl), ALLV(0), ALL(0));
    CHECK_MODES(f32_to_int(0x40200000, FP_INT_WU, rm, &fl), V(2, 2, 2, 3, 3), ALL(NX));
}

Test(fpu, fcvt_l)
{
    CHECK_MODES(f64_to_int(D_QNAN, FP_INT_L, rm, &fl), ALLV(INT64_MAX), ALL(NV));
    CHECK(f32_to_int(0xff800001, FP_INT_L, FP_RNE, &fl), INT64_MAX, NV);
    CHECK(f32_to_int(S_PINF, FP_INT_L, FP_RNE, &fl), INT64_MAX, NV);
    CHECK(f64_to_int(D_NINF, FP_INT_L, FP_RNE, &fl), 0x8000000000000000, NV);
    /* 2^63 does not fit; the binary64 below it (2^63 - 1024) and -2^63 do. */
    CHECK_MODES(f64_to_int(0x43e0000000000000, FP_INT_L, rm, &fl), ALLV(INT64_MAX), ALL(NV));
    CHECK_MODES(f64_to_int(0x43dfffffffffffff, FP_INT_L, rm, &fl),
                ALLV(0x7ffffffffffffc00), ALL(0));
    CHECK_MODES(f64_to_int(0xc3e0000000000000, FP_INT_L, rm, &fl),
                ALLV(0x8000000000000000), ALL(0));
    CHECK_MODES(f64_to_int(0xc3e0000000000001, FP_INT_L, rm, &fl),
                ALLV(0x8000000000000000), ALL(NV));
    CHECK_MODES(f32_to_int(0x5f000000, FP_INT_L, rm, &fl), ALLV(INT64_MAX), ALL(NV));
    CHECK_MODES(f32_to_int(0x5effffff, FP_INT_L, rm, &fl), ALLV(0x7fffff8000000000), ALL(0));
    CHECK_MODES(f32_to_int(0xdf000000, FP_INT_L, rm, &fl), ALLV(0x8000000000000000), ALL(0));
    CHECK_MODES(f64_to_int(0x4004000000000000, FP_INT_L, rm, &fl), V(2, 2, 2, 3, 3), ALL(NX));
    CHECK_MODES(f32_to_int(0xc0200000, FP_INT_L, rm, &fl),
                V(-UINT64_C(2), -UINT64_C(2), -UINT64_C(3), -UINT64_C(2), -UINT64_C(3)), ALL(NX));
    /* 2^52 + 0.5 is not a binary64; 2^52 + 1 is exact: 0x4330000000000001. */
    CHECK(f64_to_int(0x4330000000000001, FP_INT_L, FP_RTZ, &fl), 0x10000000000001, 0);
}

Test(fpu, fcvt_lu)
{
    CHECK_MODES(f64_to_int(D_QNAN, FP_INT_LU, rm, &fl), ALLV(ALL_ONES), ALL(NV));
    CHECK(f32_to_int(S_SNAN, FP_INT_LU, FP_RNE, &fl), ALL_ONES, NV);
    CHECK(f32_to_int(S_NINF, FP_INT_LU, FP_RNE, &fl), 0, NV);
    CHECK_MODES(f64_to_int(0x43f0000000000000, FP_INT_LU, rm, &fl), ALLV(ALL_ONES), ALL(NV));
    CHECK_MODES(f64_to_int(0x43efffffffffffff, FP_INT_LU, rm, &fl),
                ALLV(0xfffffffffffff800), ALL(0));
    CHECK_MODES(f64_to_int(0x43e0000000000000, FP_INT_LU, rm, &fl),
                ALLV(0x8000000000000000), ALL(0));
    CHECK_MODES(f32_to_int(0x5f800000, FP_INT_LU, rm, &fl), ALLV(ALL_ONES), ALL(NV));
    CHECK_MODES(f32_to_int(0x5f7fffff, FP_INT_LU, rm, &fl), ALLV(0xffffff0000000000), ALL(0));
    CHECK_MODES(f64_to_int(0xbfe0000000000000, FP_INT_LU, rm, &fl),
                ALLV(0), FL(NX, NX, NV, NX, NV));
    CHECK_MODES(f32_to_int(0xbe99999a, FP_INT_LU, rm, &fl), ALLV(0), FL(NX, NX, NV, NX, NX));
    CHECK_MODES(f32_to_int(S_M_ONE, FP_INT_LU, rm, &fl), ALLV(0), ALL(NV));
    CHECK_MODES(f64_to_int(D_NZERO, FP_INT_LU, rm, &fl), ALLV(0), ALL(0));
}

/* -------------------------------------------------------- integer -> float */

Test(fpu, int_to_f32)
{
    /* 2^24 + 1: halfway between 2^24 (0x4b800000, even) and 2^24 + 2. */
    CHECK_MODES(f32_from_int((1u << 24) + 1, FP_INT_W, rm, &fl),
                V(0x4b800000, 0x4b800000, 0x4b800000, 0x4b800001, 0x4b800001), ALL(NX));
    /* 2^24 + 3: halfway between 2^24 + 2 (odd) and 2^24 + 4. */
    CHECK_MODES(f32_from_int((1u << 24) + 3, FP_INT_L, rm, &fl),
                V(0x4b800002, 0x4b800001, 0x4b800001, 0x4b800002, 0x4b800002), ALL(NX));
    /* -(2^24 + 1) as a 32-bit value. */
    CHECK_MODES(f32_from_int((uint32_t)-((1 << 24) + 1), FP_INT_W, rm, &fl),
                V(0xcb800000, 0xcb800000, 0xcb800001, 0xcb800000, 0xcb800001), ALL(NX));
    /* UINT64_MAX = 2^64 - 1: between 2^64 - 2^40 (0x5f7fffff) and 2^64. */
    CHECK_MODES(f32_from_int(UINT64_MAX, FP_INT_LU, rm, &fl),
                V(0x5f800000, 0x5f7fffff, 0x5f7fffff, 0x5f800000, 0x5f800000), ALL(NX));
    CHECK_MODES(f32_from_int(UINT64_MAX, FP_INT_L, rm, &fl), ALLV(S_M_ONE), ALL(0));
    CHECK_MODES(f32_from_int(0x8000000000000000, FP_INT_L, rm, &fl), ALLV(0xdf000000), ALL(0));
    CHECK_MODES(f32_from_int(0x8000000000000000, FP_INT_LU, rm, &fl), ALLV(0x5f000000), ALL(0));
    /* W and WU read only the low 32 bits. */
    CHECK_MODES(f32_from_int(0x12345678ffffffff, FP_INT_W, rm, &fl), ALLV(S_M_ONE), ALL(0));
    CHECK_MODES(f32_from_int(0x12345678ffffffff, FP_INT_WU, rm, &fl),
                V(0x4f800000, 0x4f7fffff, 0x4f7fffff, 0x4f800000, 0x4f800000), ALL(NX));
    CHECK(f32_from_int(0, FP_INT_W, FP_RDN, &fl), S_PZERO, 0);
}

Test(fpu, int_to_f64)
{
    /* 2^53 + 1: halfway between 2^53 (0x4340000000000000) and 2^53 + 2. */
    CHECK_MODES(f64_from_int((UINT64_C(1) << 53) + 1, FP_INT_L, rm, &fl),
                V(0x4340000000000000, 0x4340000000000000, 0x4340000000000000, 0x4340000000000001,
                  0x4340000000000001), ALL(NX));
    CHECK_MODES(f64_from_int(-((UINT64_C(1) << 53) + 1), FP_INT_L, rm, &fl),
                V(0xc340000000000000, 0xc340000000000000, 0xc340000000000001, 0xc340000000000000,
                  0xc340000000000001), ALL(NX));
    CHECK_MODES(f64_from_int((UINT64_C(1) << 53) + 1, FP_INT_LU, rm, &fl),
                V(0x4340000000000000, 0x4340000000000000, 0x4340000000000000, 0x4340000000000001,
                  0x4340000000000001), ALL(NX));
    /* INT64_MIN is exact; INT64_MAX = 2^63 - 1 lies between 2^63 - 1024 and 2^63. */
    CHECK_MODES(f64_from_int(0x8000000000000000, FP_INT_L, rm, &fl),
                ALLV(0xc3e0000000000000), ALL(0));
    CHECK_MODES(f64_from_int(INT64_MAX, FP_INT_L, rm, &fl),
                V(0x43e0000000000000, 0x43dfffffffffffff, 0x43dfffffffffffff, 0x43e0000000000000,
                  0x43e0000000000000), ALL(NX));
    CHECK_MODES(f64_from_int(UINT64_MAX, FP_INT_LU, rm, &fl),
                V(0x43f0000000000000, 0x43efffffffffffff, 0x43efffffffffffff, 0x43f0000000000000,
                  0x43f0000000000000), ALL(NX));
    /* 32-bit sources are always exact in binary64. */
    CHECK_MODES(f64_from_int(0xffffffff00000005, FP_INT_W, rm, &fl),
                ALLV(0x4014000000000000), ALL(0));
    CHECK_MODES(f64_from_int(0x80000000, FP_INT_W, rm, &fl), ALLV(0xc1e0000000000000), ALL(0));
    CHECK_MODES(f64_from_int(0xffffffff80000000, FP_INT_WU, rm, &fl),
                ALLV(0x41e0000000000000), ALL(0));
    CHECK_MODES(f64_from_int(0xffffffff, FP_INT_WU, rm, &fl), ALLV(0x41efffffffe00000), ALL(0));
}

/* --------------------------------------------------------- float <-> float */

Test(fpu, f64_to_f32)
{
    /* 1 + 2^-24: a binary32 midpoint. */
    CHECK_MODES(f64_to_f32(0x3ff0000010000000, rm, &fl),
                V(S_ONE, S_ONE, S_ONE, 0x3f800001, 0x3f800001), ALL(NX));
    CHECK_MODES(f64_to_f32(0xbff0000010000000, rm, &fl),
                V(S_M_ONE, S_M_ONE, 0xbf800001, S_M_ONE, 0xbf800001), ALL(NX));
    CHECK_MODES(f64_to_f32(D_THREE, rm, &fl), ALLV(S_THREE), ALL(0));
    /* Overflow: 2^128. */
    CHECK_MODES(f64_to_f32(0x47f0000000000000, rm, &fl),
                V(S_PINF, S_MAX, S_MAX, S_PINF, S_PINF), ALL(OF | NX));
    CHECK_MODES(f64_to_f32(0xc7f0000000000000, rm, &fl),
                V(S_NINF, 0xff7fffff, S_NINF, 0xff7fffff, S_NINF), ALL(OF | NX));
    /* 2^128 - 2^103, halfway between max and 2^128: overflow only when rounding up. */
    CHECK_MODES(f64_to_f32(0x47effffff0000000, rm, &fl),
                V(S_PINF, S_MAX, S_MAX, S_PINF, S_PINF), FL(OF | NX, NX, NX, OF | NX, OF | NX));
    /* Subnormal results: 1.5 * 2^-149 (between 2^-149 and 2^-148), 2^-150, 2^-149 (exact). */
    CHECK_MODES(f64_to_f32(0x36a8000000000000, rm, &fl), V(2, 1, 1, 2, 2), ALL(UF | NX));
    CHECK_MODES(f64_to_f32(0x3690000000000000, rm, &fl), V(0, 0, 0, 1, 1), ALL(UF | NX));
    CHECK_MODES(f64_to_f32(0x36a0000000000000, rm, &fl), ALLV(S_MIN_SUB), ALL(0));
    CHECK_MODES(f64_to_f32(1, rm, &fl), V(0, 0, 0, 1, 0), ALL(UF | NX)); /* 2^-1074 */
    /* NaNs. */
    CHECK_MODES(f64_to_f32(D_SNAN, rm, &fl), ALLV(S_QNAN), ALL(NV));
    CHECK(f64_to_f32(0xfff8000000000123, FP_RNE, &fl), S_QNAN, 0);
    CHECK(f64_to_f32(D_NINF, FP_RTZ, &fl), S_NINF, 0);
    CHECK(f64_to_f32(D_NZERO, FP_RUP, &fl), S_NZERO, 0);
}

Test(fpu, f32_to_f64)
{
    CHECK(f32_to_f64(S_ONE, &fl), D_ONE, 0);
    CHECK(f32_to_f64(S_NZERO, &fl), D_NZERO, 0);
    CHECK(f32_to_f64(S_NINF, &fl), D_NINF, 0);
    CHECK(f32_to_f64(S_MAX, &fl), 0x47efffffe0000000, 0);
    CHECK(f32_to_f64(S_MIN_SUB, &fl), 0x36a0000000000000, 0);      /* 2^-149 */
    CHECK(f32_to_f64(0x807fffff, &fl), 0xb80fffffc0000000, 0);     /* -(2^-126 - 2^-149) */
    CHECK(f32_to_f64(S_MIN_NORMAL, &fl), 0x3810000000000000, 0);   /* 2^-126 */
    CHECK(f32_to_f64(S_SNAN, &fl), D_QNAN, NV);
    CHECK(f32_to_f64(0xffbfffff, &fl), D_QNAN, NV);
    CHECK(f32_to_f64(0xffc00001, &fl), D_QNAN, 0);
}
