/* RISC-V side of the FPU differential test (runs under qemu-riscv64).
 *
 * stdin, one case per line:   OP RM A [B [C]]      (OP a mnemonic such as fmadd.d, RM 0..4 a
 * static rounding mode, 5..9 the dynamic mode with frm = RM-5; operands in hex: binary32/64 bit
 * patterns or integers). stdout, one line per case:  RESULT FLAGS  (hex; binary32 results as
 * their 32 bits, integer results as the full 64-bit rd). Unknown ops print "?". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Runs one asm with the rounding mode spliced in as a literal; ARGS starts with ':'. */
#define ASM_RM(rm, TEXT, ...)                                                   \
    do {                                                                        \
        switch (rm) {                                                           \
        case 0: __asm__ volatile(TEXT ", rne" __VA_ARGS__); break;              \
        case 1: __asm__ volatile(TEXT ", rtz" __VA_ARGS__); break;              \
        case 2: __asm__ volatile(TEXT ", rdn" __VA_ARGS__); break;              \
        case 3: __asm__ volatile(TEXT ", rup" __VA_ARGS__); break;              \
        case 4: __asm__ volatile(TEXT ", rmm" __VA_ARGS__); break;              \
        default: __asm__ volatile(TEXT ", dyn" __VA_ARGS__); break;             \
        }                                                                       \
    } while (0)

static float f32v(uint64_t b) { uint32_t w = (uint32_t)b; float f; memcpy(&f, &w, 4); return f; }
static double f64v(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static uint64_t f32b(float f) { uint32_t w; memcpy(&w, &f, 4); return w; }
static uint64_t f64b(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

/* Each OP_* macro tries one mnemonic: s/d is the operand precision of the C variables. */
#define IS(name) (strcmp(op, name) == 0)
#define FR3(name, P, T, B)                                                          \
    else if (IS(name)) { T x = P(a), y = P(b), z;                                   \
        ASM_RM(rm, name " %0, %1, %2", : "=f"(z) : "f"(x), "f"(y)); res = B(z); }
#define FR2(name, P, T, B)                                                          \
    else if (IS(name)) { T x = P(a), z;                                             \
        ASM_RM(rm, name " %0, %1", : "=f"(z) : "f"(x)); res = B(z); }
#define FR4(name, P, T, B)                                                          \
    else if (IS(name)) { T x = P(a), y = P(b), w = P(c), z;                         \
        ASM_RM(rm, name " %0, %1, %2, %3", : "=f"(z) : "f"(x), "f"(y), "f"(w)); res = B(z); }
#define FNORM3(name, P, T, B) /* no rounding mode */                                \
    else if (IS(name)) { T x = P(a), y = P(b), z;                                   \
        __asm__ volatile(name " %0, %1, %2" : "=f"(z) : "f"(x), "f"(y)); res = B(z); }
#define XF2(name, P, T) /* float operands, integer result, no rm */                 \
    else if (IS(name)) { T x = P(a), y = P(b); long z;                              \
        __asm__ volatile(name " %0, %1, %2" : "=r"(z) : "f"(x), "f"(y)); res = (uint64_t)z; }
#define XF1(name, P, T)                                                             \
    else if (IS(name)) { T x = P(a); long z;                                        \
        __asm__ volatile(name " %0, %1" : "=r"(z) : "f"(x)); res = (uint64_t)z; }
#define XF1RM(name, P, T)                                                           \
    else if (IS(name)) { T x = P(a); long z;                                        \
        ASM_RM(rm, name " %0, %1", : "=r"(z) : "f"(x)); res = (uint64_t)z; }
#define FX1RM(name, T, B)                                                           \
    else if (IS(name)) { long x = (long)a; T z;                                     \
        ASM_RM(rm, name " %0, %1", : "=f"(z) : "r"(x)); res = B(z); }
#define FX1(name, T, B)                                                             \
    else if (IS(name)) { long x = (long)a; T z;                                     \
        __asm__ volatile(name " %0, %1" : "=f"(z) : "r"(x)); res = B(z); }
/* Operations common to both precisions; S is the suffix, P/T/B the C value helpers. */
#define BOTH_PRECISIONS(S, P, T, B)                                                   \
    FR3("fadd." S, P, T, B) FR3("fsub." S, P, T, B) FR3("fmul." S, P, T, B)          \
    FR3("fdiv." S, P, T, B) FR2("fsqrt." S, P, T, B)                                  \
    FR4("fmadd." S, P, T, B) FR4("fmsub." S, P, T, B)                                 \
    FR4("fnmsub." S, P, T, B) FR4("fnmadd." S, P, T, B)                               \
    FNORM3("fmin." S, P, T, B) FNORM3("fmax." S, P, T, B)                             \
    XF2("feq." S, P, T) XF2("flt." S, P, T) XF2("fle." S, P, T) XF1("fclass." S, P, T) \
    XF1RM("fcvt.w." S, P, T) XF1RM("fcvt.wu." S, P, T)                                \
    XF1RM("fcvt.l." S, P, T) XF1RM("fcvt.lu." S, P, T)                                \
    FX1RM("fcvt." S ".l", T, B) FX1RM("fcvt." S ".lu", T, B)

static int run(const char *op, unsigned rm, uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
    uint64_t res = 0;
    if (0) {}
    BOTH_PRECISIONS("s", f32v, float, f32b)
    BOTH_PRECISIONS("d", f64v, double, f64b)
    FX1RM("fcvt.s.w", float, f32b) FX1RM("fcvt.s.wu", float, f32b)
    FX1("fcvt.d.w", double, f64b) FX1("fcvt.d.wu", double, f64b) /* exact: no rm operand */
    else if (IS("fcvt.s.d")) { double x = f64v(a); float z;
        ASM_RM(rm, "fcvt.s.d %0, %1", : "=f"(z) : "f"(x)); res = f32b(z); }
    else if (IS("fcvt.d.s")) { float x = f32v(a); double z;
        __asm__ volatile("fcvt.d.s %0, %1" : "=f"(z) : "f"(x)); res = f64b(z); }
    else return -1;
    *out = res;
    return 0;
}

int main(void)
{
    char line[256], op[32];
    while (fgets(line, sizeof line, stdin)) {
        unsigned rm;
        unsigned long long a = 0, b = 0, c = 0;
        if (sscanf(line, "%31s %u %llx %llx %llx", op, &rm, &a, &b, &c) < 3) {
            puts("?");
            continue;
        }
        if (rm >= 5) {
            unsigned long frm = rm - 5;
            __asm__ volatile("fsrm %0" : : "r"(frm));
        }
        unsigned long flags;
        uint64_t res;
        __asm__ volatile("fsflags zero");
        int bad = run(op, rm, a, b, c, &res);
        __asm__ volatile("frflags %0" : "=r"(flags));
        if (bad)
            puts("?");
        else
            printf("%016llx %02lx\n", (unsigned long long)res, flags);
    }
    return 0;
}
