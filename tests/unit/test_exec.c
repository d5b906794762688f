/* Instruction semantics through the real execution paths: every program
 * runs with rv_step (stepping path) and with rv_run (fast path over decoded
 * blocks) twice, translated to host code and interpreted, on identical fresh
 * processes, and the final states must be identical before the expected
 * values are checked.
 *
 * The instruction words were produced with the GNU cross assembler
 * (riscv64-linux-gnu-as -march=rv64gc, `.option norvc` unless the mnemonic is
 * an explicit c.*); the source line is the comment next to each word. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "code.h"
#include "exec/exec.h"
#include "proc.h"

#define W(w) (uint16_t)((uint32_t)(w) & 0xffff), (uint16_t)((uint32_t)(w) >> 16)
#define H(h) (uint16_t)(h)
#define NHALF(a) (sizeof(a) / sizeof(a)[0])

enum {
    PAGE = 4096,
    CODE = 0x10000,     /* 2 pages, R|X (R|W|X when asked) */
    DATA = 0x20000,     /* 2 pages, R|W */
    RO = 0x40000,       /* 1 page, R */
    UNMAPPED = 0x50000, /* nothing */
};

/* ------------------------------------------------------------- harness */

static void vm_init(rv_proc *p, const uint16_t *code, size_t nhalf, unsigned code_prot)
{
    rv_proc_clear(p);
    cr_assert(mem_init(&p->mem), "mem_init failed");
    cr_assert_eq(mem_map(&p->mem, CODE, 2 * PAGE, code_prot, VMA_ANON, -1, 0, NULL, "code"), 0);
    cr_assert_eq(mem_map(&p->mem, DATA, 2 * PAGE, GP_R | GP_W, VMA_ANON, -1, 0, NULL, "data"), 0);
    cr_assert_eq(mem_map(&p->mem, RO, PAGE, GP_R, VMA_ANON, -1, 0, NULL, "ro"), 0);
    cr_assert_leq(nhalf * 2, 2 * PAGE);
    mem_lift_protection(&p->mem, CODE, nhalf * 2); /* the host protects the code as the guest does */
    memcpy(mem_host(&p->mem, CODE), code, nhalf * 2);
    mem_restore_protection(&p->mem, CODE, nhalf * 2);
    p->code = code_new();
    rv_code_flush(p); /* as a run starts: translations of the kind the mappings allow (host-checked loads) */
    p->cpu.pc = p->cpu.block_pc = CODE;
}

static void vm_free(rv_proc *p)
{
    rv_proc_destroy(p);
}

static uint64_t peek64(rv_proc *p, uint64_t a)
{
    uint64_t v;
    memcpy(&v, mem_host(&p->mem, a), 8);
    return v;
}

static uint32_t peek32(rv_proc *p, uint64_t a)
{
    uint32_t v;
    memcpy(&v, mem_host(&p->mem, a), 4);
    return v;
}

/* Writes where the guest may not, too (as a loader does). */
static void poke(rv_proc *p, uint64_t a, const void *v, size_t n)
{
    mem_lift_protection(&p->mem, a, n);
    memcpy(mem_host(&p->mem, a), v, n);
    mem_restore_protection(&p->mem, a, n);
}
static void poke64(rv_proc *p, uint64_t a, uint64_t v) { poke(p, a, &v, 8); }
static void poke32(rv_proc *p, uint64_t a, uint32_t v) { poke(p, a, &v, 4); }

/* Step until the process stops; returns the number of retired steps. */
static uint64_t step_all(rv_proc *p)
{
    rv_dyninst d;
    uint64_t n = 0;
    while (rv_step(p, &d)) {
        n++;
        cr_assert_lt(n, 1000000, "runaway program");
    }
    return n;
}

/* The same program in three processes: s runs with rv_step, r with rv_run
 * (translated), i with rv_run interpreted. */
typedef struct pair {
    rv_proc s, r, i;
} pair;

#define BOTH(pr, p) \
    for (rv_proc *p = &(pr)->s; p; p = (p == &(pr)->s ? &(pr)->r : p == &(pr)->r ? &(pr)->i : NULL))

static pair *pair_new_prot(const uint16_t *code, size_t nhalf, unsigned prot)
{
    pair *pr = calloc(1, sizeof *pr);
    cr_assert_not_null(pr);
    vm_init(&pr->s, code, nhalf, prot);
    vm_init(&pr->r, code, nhalf, prot);
    vm_init(&pr->i, code, nhalf, prot);
    pr->i.exec_mode = RV_EXEC_INTERPRET;
    return pr;
}

static pair *pair_new(const uint16_t *code, size_t nhalf)
{
    return pair_new_prot(code, nhalf, GP_R | GP_X);
}

static void pair_free(pair *pr)
{
    vm_free(&pr->s);
    vm_free(&pr->r);
    vm_free(&pr->i);
    free(pr);
}

static void check_same(rv_proc *a, rv_proc *b)
{
    for (int i = 0; i < 32; i++)
        cr_expect_eq(a->cpu.x[i], b->cpu.x[i], "x%d: step %#llx, run %#llx", i, (unsigned long long)a->cpu.x[i],
                     (unsigned long long)b->cpu.x[i]);
    for (int i = 0; i < 32; i++)
        cr_expect_eq(a->cpu.f[i], b->cpu.f[i], "f%d: step %#llx, run %#llx", i, (unsigned long long)a->cpu.f[i],
                     (unsigned long long)b->cpu.f[i]);
    cr_expect_eq(a->cpu.pc, b->cpu.pc, "pc: step %#llx, run %#llx", (unsigned long long)a->cpu.pc,
                 (unsigned long long)b->cpu.pc);
    cr_expect_eq(a->cpu.icount, b->cpu.icount, "icount: step %llu, run %llu", (unsigned long long)a->cpu.icount,
                 (unsigned long long)b->cpu.icount);
    cr_expect_eq(a->cpu.fflags, b->cpu.fflags);
    cr_expect_eq(a->cpu.frm, b->cpu.frm);
    cr_expect_eq(a->stop, b->stop);
    cr_expect_eq(a->signal, b->signal);
    cr_expect_eq(a->exit_status, b->exit_status);
    cr_expect_str_eq(a->message, b->message);
    cr_expect(memcmp(mem_host(&a->mem, DATA), mem_host(&b->mem, DATA), 2 * PAGE) == 0, "data pages differ");
    cr_expect(memcmp(mem_host(&a->mem, CODE), mem_host(&b->mem, CODE), 2 * PAGE) == 0, "code pages differ");
}

/* Run both to their stop and check that they agree. */
static void pair_run(pair *pr)
{
    uint64_t start = pr->s.cpu.icount;
    uint64_t n = step_all(&pr->s);
    cr_expect_eq(pr->s.cpu.icount, start + n, "stepping: icount does not count the steps");
    cr_expect_eq(rv_run(&pr->r, UINT64_MAX, NULL, NULL), RV_RUN_STOPPED);
    check_same(&pr->s, &pr->r);
    cr_expect_eq(rv_run(&pr->i, UINT64_MAX, NULL, NULL), RV_RUN_STOPPED);
    check_same(&pr->s, &pr->i);
}

#define XEQ(pr, reg, val)                                                                                          \
    cr_expect_eq((pr)->s.cpu.x[reg], (uint64_t)(val), "x%d = %#llx, expected %#llx", (reg),                    \
                 (unsigned long long)(pr)->s.cpu.x[reg], (unsigned long long)(uint64_t)(val))
#define FEQ(pr, reg, val)                                                                                          \
    cr_expect_eq((pr)->s.cpu.f[reg], (uint64_t)(val), "f%d = %#llx, expected %#llx", (reg),                    \
                 (unsigned long long)(pr)->s.cpu.f[reg], (unsigned long long)(uint64_t)(val))

/* Stopped at an ebreak (SIGTRAP) located at `pc` after `icount` retired. */
static void expect_trap_at(pair *pr, uint64_t pc, uint64_t icount)
{
    cr_expect_eq(pr->s.stop, RV_STOP_SIGNAL);
    cr_expect_eq(pr->s.signal, SIGTRAP, "signal %d: %s", pr->s.signal, pr->s.message);
    cr_expect_eq(pr->s.cpu.pc, pc, "pc %#llx, expected %#llx", (unsigned long long)pr->s.cpu.pc,
                 (unsigned long long)pc);
    cr_expect_eq(pr->s.cpu.icount, icount, "icount %llu, expected %llu", (unsigned long long)pr->s.cpu.icount,
                 (unsigned long long)icount);
}

#define SEXT32(v) ((uint64_t)(int64_t)(int32_t)(uint32_t)(v))

/* ------------------------------------------------------------------ M */

Test(exec, m_extension_corners)
{
    static const uint16_t prog[] = {
        W(0x027e4533), /* div   x10, x28, x7 */
        W(0x027e55b3), /* divu  x11, x28, x7 */
        W(0x027e6633), /* rem   x12, x28, x7 */
        W(0x027e76b3), /* remu  x13, x28, x7 */
        W(0x0262c733), /* div   x14, x5, x6 */
        W(0x0262e7b3), /* rem   x15, x5, x6 */
        W(0x03de4833), /* div   x16, x28, x29 */
        W(0x03de68b3), /* rem   x17, x28, x29 */
        W(0x026f493b), /* divw  x18, x30, x6 */
        W(0x026f69bb), /* remw  x19, x30, x6 */
        W(0x027fca3b), /* divw  x20, x31, x7 */
        W(0x027feabb), /* remw  x21, x31, x7 */
        W(0x027fdb3b), /* divuw x22, x31, x7 */
        W(0x027ffbbb), /* remuw x23, x31, x7 */
        W(0x03d48c3b), /* mulw  x24, x9, x29 */
        W(0x02631cb3), /* mulh  x25, x6, x6 */
        W(0x02633d33), /* mulhu x26, x6, x6 */
        W(0x02632db3), /* mulhsu x27, x6, x6 */
        W(0x025290b3), /* mulh  x1, x5, x5 */
        W(0x026281b3), /* mul   x3, x5, x6 */
        W(0x03dfd23b), /* divuw x4, x31, x29 */
        W(0x03d2d433), /* divu  x8, x5, x29 */
        W(0x03de64bb), /* remw  x9, x28, x29 */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    BOTH(pr, p) {
        p->cpu.x[5] = (uint64_t)INT64_MIN;
        p->cpu.x[6] = UINT64_MAX; /* -1 */
        p->cpu.x[7] = 0;
        p->cpu.x[28] = (uint64_t)-7;
        p->cpu.x[29] = 2;
        p->cpu.x[30] = 0x80000000u; /* INT32_MIN in the low word, upper word zero */
        p->cpu.x[31] = UINT64_C(0x123456789abcdef0);
        p->cpu.x[9] = 0xffffffffu;
    }
    pair_run(pr);
    expect_trap_at(pr, CODE + 23 * 4, 23);
    XEQ(pr, 10, UINT64_MAX);                 /* div by zero: -1 */
    XEQ(pr, 11, UINT64_MAX);                 /* divu by zero: all ones */
    XEQ(pr, 12, (uint64_t)-7);               /* rem by zero: the dividend */
    XEQ(pr, 13, (uint64_t)-7);               /* remu by zero: the dividend */
    XEQ(pr, 14, (uint64_t)INT64_MIN);        /* overflow: the dividend */
    XEQ(pr, 15, 0);                          /* overflow: remainder 0 */
    XEQ(pr, 16, (uint64_t)-3);               /* truncating division */
    XEQ(pr, 17, (uint64_t)-1);               /* remainder has the dividend's sign */
    XEQ(pr, 18, UINT64_C(0xffffffff80000000)); /* divw INT32_MIN / -1 */
    XEQ(pr, 19, 0);                          /* remw INT32_MIN % -1 */
    XEQ(pr, 20, UINT64_MAX);                 /* divw by zero */
    XEQ(pr, 21, UINT64_C(0xffffffff9abcdef0)); /* remw by zero: sext(low word) */
    XEQ(pr, 22, UINT64_MAX);                 /* divuw by zero */
    XEQ(pr, 23, UINT64_C(0xffffffff9abcdef0)); /* remuw by zero: sext(low word) */
    XEQ(pr, 24, (uint64_t)-2);               /* mulw 0xffffffff * 2: sign-extended */
    XEQ(pr, 25, 0);                          /* mulh -1 * -1 */
    XEQ(pr, 26, UINT64_C(0xfffffffffffffffe)); /* mulhu max * max */
    XEQ(pr, 27, UINT64_MAX);                 /* mulhsu -1 * (2^64-1) */
    XEQ(pr, 1, UINT64_C(0x4000000000000000)); /* mulh INT64_MIN^2 */
    XEQ(pr, 3, (uint64_t)INT64_MIN);         /* mul wraps */
    XEQ(pr, 4, 0x4d5e6f78);                  /* divuw: unsigned low words, positive result */
    XEQ(pr, 8, UINT64_C(0x4000000000000000)); /* divu INT64_MIN / 2 */
    XEQ(pr, 9, (uint64_t)-1);                /* remw -7 % 2 */
    pair_free(pr);
}

/* ---------------------------------------------------- shifts, compares, U */

Test(exec, shifts_compares_and_upper_immediates)
{
    static const uint16_t prog[] = {
        W(0x80000217), /* auipc x4, 0x80000 */
        W(0x00729533), /* sll   x10, x5, x7 */
        W(0x007555b3), /* srl   x11, x10, x7 */
        W(0x40755633), /* sra   x12, x10, x7 */
        W(0x03f29693), /* slli  x13, x5, 63 */
        W(0x03f6d713), /* srli  x14, x13, 63 */
        W(0x43f6d793), /* srai  x15, x13, 63 */
        W(0x0072983b), /* sllw  x16, x5, x7 */
        W(0x000358bb), /* srlw  x17, x6, x0 */
        W(0x01f3591b), /* srliw x18, x6, 31 */
        W(0x41f3599b), /* sraiw x19, x6, 31 */
        W(0x01f29a1b), /* slliw x20, x5, 31 */
        W(0x40735abb), /* sraw  x21, x6, x7 */
        W(0x0076db3b), /* srlw  x22, x13, x7 */
        W(0xfff2bb93), /* sltiu x23, x5, -1 */
        W(0xfff63c13), /* sltiu x24, x12, -1 */
        W(0x00062c93), /* slti  x25, x12, 0 */
        W(0x00503d33), /* sltu  x26, x0, x5 */
        W(0x0056adb3), /* slt   x27, x13, x5 */
        W(0x800000b7), /* lui   x1, 0x80000 */
        W(0x7ffff1b7), /* lui   x3, 0x7ffff */
        W(0xfff3041b), /* addiw x8, x6, -1 */
        W(0x7ff1849b), /* addiw x9, x3, 2047 */
        W(0x00630e3b), /* addw  x28, x6, x6 */
        W(0x40600ebb), /* subw  x29, x0, x6 */
        W(0x80000f13), /* addi  x30, x0, -2048 */
        W(0x7ff64f93), /* xori  x31, x12, 2047 */
        W(0xfff57113), /* andi  x2, x10, -1 */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    BOTH(pr, p) {
        p->cpu.x[5] = 1;
        p->cpu.x[6] = 0x80000000u;
        p->cpu.x[7] = 127; /* only the low 6 (5 for W forms) bits count */
    }
    pair_run(pr);
    expect_trap_at(pr, CODE + 28 * 4, 28);
    XEQ(pr, 4, CODE + UINT64_C(0xffffffff80000000));
    XEQ(pr, 10, UINT64_C(0x8000000000000000));
    XEQ(pr, 11, 1);
    XEQ(pr, 12, UINT64_MAX);
    XEQ(pr, 13, UINT64_C(0x8000000000000000));
    XEQ(pr, 14, 1);
    XEQ(pr, 15, UINT64_MAX);
    XEQ(pr, 16, UINT64_C(0xffffffff80000000));
    XEQ(pr, 17, UINT64_C(0xffffffff80000000)); /* srlw by 0 still sign-extends the word */
    XEQ(pr, 18, 1);
    XEQ(pr, 19, UINT64_MAX);
    XEQ(pr, 20, UINT64_C(0xffffffff80000000));
    XEQ(pr, 21, UINT64_MAX);
    XEQ(pr, 22, 0);
    XEQ(pr, 23, 1); /* sltiu x, -1: compares against UINT64_MAX */
    XEQ(pr, 24, 0);
    XEQ(pr, 25, 1);
    XEQ(pr, 26, 1);
    XEQ(pr, 27, 1);
    XEQ(pr, 1, UINT64_C(0xffffffff80000000));
    XEQ(pr, 3, 0x7ffff000);
    XEQ(pr, 8, 0x7fffffff);
    XEQ(pr, 9, 0x7ffff7ff);
    XEQ(pr, 28, 0);
    XEQ(pr, 29, UINT64_C(0xffffffff80000000));
    XEQ(pr, 30, (uint64_t)-2048);
    XEQ(pr, 31, UINT64_C(0xfffffffffffff800));
    XEQ(pr, 2, UINT64_C(0x8000000000000000));
    pair_free(pr);
}

/* ------------------------------------------------------- loads and stores */

Test(exec, loads_extend_and_misaligned_accesses_work)
{
    static const uint16_t prog[] = {
        W(0x00050283), /* lb   x5, 0(x10) */
        W(0x00054303), /* lbu  x6, 0(x10) */
        W(0x00051383), /* lh   x7, 0(x10) */
        W(0x00055603), /* lhu  x12, 0(x10) */
        W(0x00052683), /* lw   x13, 0(x10) */
        W(0x00056703), /* lwu  x14, 0(x10) */
        W(0x00053783), /* ld   x15, 0(x10) */
        W(0x00452803), /* lw   x16, 4(x10) */
        W(0x00153883), /* ld   x17, 1(x10) */
        W(0x00351903), /* lh   x18, 3(x10) */
        W(0x7fe5a983), /* lw   x19, 2046(x11) */
        W(0x7ff5da03), /* lhu  x20, 2047(x11) */
        W(0xfff58a83), /* lb   x21, -1(x11) */
        W(0x7ef5bca3), /* sd   x15, 2041(x11) */
        W(0x7f95bb03), /* ld   x22, 2041(x11) */
        W(0x110520a3), /* sw   x16, 0x101(x10) */
        W(0x10156b83), /* lwu  x23, 0x101(x10) */
        W(0x20f511a3), /* sh   x15, 0x203(x10) */
        W(0x20f50323), /* sb   x15, 0x206(x10) */
        W(0x20053c03), /* ld   x24, 0x200(x10) */
        W(0x00100073), /* ebreak */
    };
    /* Reference bytes, and the values computed from them on the host. */
    uint8_t img[2 * PAGE];
    for (size_t i = 0; i < sizeof img; i++)
        img[i] = (uint8_t)(i * 37 + 11);
    static const uint8_t head[16] = {0x80, 0xff, 0x00, 0x80, 0x01, 0x00, 0x00, 0x80,
                                     0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x91};
    memcpy(img, head, sizeof head);
    pair *pr = pair_new(prog, NHALF(prog));
    BOTH(pr, p) {
        memcpy(mem_host(&p->mem, DATA), img, sizeof img);
        p->cpu.x[10] = DATA;
        p->cpu.x[11] = DATA + 0x800;
    }
    pair_run(pr);
    expect_trap_at(pr, CODE + 20 * 4, 20);
    uint64_t u64;
    uint32_t u32;
    uint16_t u16;
    XEQ(pr, 5, UINT64_C(0xffffffffffffff80));
    XEQ(pr, 6, 0x80);
    XEQ(pr, 7, UINT64_C(0xffffffffffffff80));
    XEQ(pr, 12, 0xff80);
    XEQ(pr, 13, UINT64_C(0xffffffff8000ff80));
    XEQ(pr, 14, 0x8000ff80);
    XEQ(pr, 15, UINT64_C(0x800000018000ff80));
    XEQ(pr, 16, UINT64_C(0xffffffff80000001));
    memcpy(&u64, img + 1, 8);
    XEQ(pr, 17, u64); /* misaligned ld */
    memcpy(&u16, img + 3, 2);
    XEQ(pr, 18, (uint64_t)(int64_t)(int16_t)u16);
    memcpy(&u32, img + 0xffe, 4); /* crosses into the second page */
    XEQ(pr, 19, SEXT32(u32));
    memcpy(&u16, img + 0xfff, 2);
    XEQ(pr, 20, u16);
    XEQ(pr, 21, (uint64_t)(int64_t)(int8_t)img[0x7ff]);
    XEQ(pr, 22, UINT64_C(0x800000018000ff80)); /* misaligned sd/ld across the page boundary */
    XEQ(pr, 23, 0x80000001);
    /* sh 0x203 and sb 0x206 inside the doubleword at 0x200 */
    memcpy(&u64, img + 0x200, 8);
    uint8_t b[8];
    memcpy(b, &u64, 8);
    b[3] = 0x80, b[4] = 0xff, b[6] = 0x80;
    memcpy(&u64, b, 8);
    XEQ(pr, 24, u64);
    cr_expect_eq(peek64(&pr->s, DATA + 0xff9), UINT64_C(0x800000018000ff80));
    pair_free(pr);
}

/* A program: addi t0,x0,1 ; addi t1,x0,2 ; <insn> ; addi t2,x0,3 ; ebreak */
static pair *fault_pair(uint32_t insn)
{
    uint16_t prog[] = {
        W(0x00100293), /* addi t0, x0, 1 */
        W(0x00200313), /* addi t1, x0, 2 */
        W(insn),
        W(0x00300393), /* addi t2, x0, 3 */
        W(0x00100073), /* ebreak */
    };
    return pair_new(prog, NHALF(prog));
}

/* Stopped by `sig` at the third instruction, with two retired. */
static void expect_fault(pair *pr, int sig, const char *msg_part)
{
    cr_expect_eq(pr->s.stop, RV_STOP_SIGNAL);
    cr_expect_eq(pr->s.signal, sig, "signal %d, expected %d (%s)", pr->s.signal, sig, pr->s.message);
    cr_expect_eq(pr->s.exit_status, 128 + sig);
    cr_expect_eq(pr->s.cpu.icount, 2, "icount %llu", (unsigned long long)pr->s.cpu.icount);
    cr_expect_eq(pr->s.cpu.pc, CODE + 8);
    XEQ(pr, 5, 1);
    XEQ(pr, 6, 2);
    XEQ(pr, 7, 0); /* nothing after the fault ran */
    if (msg_part)
        cr_expect(strstr(pr->s.message, msg_part) != NULL, "message \"%s\" lacks \"%s\"", pr->s.message, msg_part);
}

Test(exec, misaligned_atomics_raise_sigbus)
{
    static const struct { uint32_t insn; uint64_t addr; const char *what; } cases[] = {
        {0x0055a52f, DATA + 2, "amoadd.w at +2"},
        {0x0055a52f, DATA + 1, "amoadd.w at +1"},
        {0x0055b52f, DATA + 4, "amoadd.d at +4"},
        {0x1005a52f, DATA + 2, "lr.w at +2"},
        {0x1005b52f, DATA + 4, "lr.d at +4"},
        {0x1855b52f, DATA + 12, "sc.d at +12"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pair *pr = fault_pair(cases[i].insn);
        BOTH(pr, p) {
            p->cpu.x[11] = cases[i].addr;
            poke64(p, DATA, UINT64_C(0x1111111111111111));
            poke64(p, DATA + 8, UINT64_C(0x2222222222222222));
            poke64(p, DATA + 16, UINT64_C(0x3333333333333333));
        }
        pair_run(pr);
        cr_expect_eq(pr->s.signal, SIGBUS, "%s: signal %d", cases[i].what, pr->s.signal);
        expect_fault(pr, SIGBUS, "misaligned");
        XEQ(pr, 10, 0);
        cr_expect_eq(peek64(&pr->s, DATA), UINT64_C(0x1111111111111111), "%s wrote memory", cases[i].what);
        cr_expect_eq(peek64(&pr->s, DATA + 8), UINT64_C(0x2222222222222222), "%s wrote memory", cases[i].what);
        pair_free(pr);
    }
}

Test(exec, aligned_word_atomic_on_odd_word_is_fine)
{
    pair *pr = fault_pair(0x0055a52f); /* amoadd.w a0, t0, (a1) */
    BOTH(pr, p) {
        p->cpu.x[11] = DATA + 4;
        poke32(p, DATA + 4, 41);
    }
    pair_run(pr);
    expect_trap_at(pr, CODE + 16, 4);
    XEQ(pr, 10, 41);
    cr_expect_eq(peek32(&pr->s, DATA + 4), 42);
    pair_free(pr);
}

Test(exec, load_from_unmapped_memory_is_sigsegv)
{
    pair *pr = fault_pair(0x0005b503); /* ld a0, 0(a1) */
    BOTH(pr, p) p->cpu.x[11] = UNMAPPED + 8;
    pair_run(pr);
    expect_fault(pr, SIGSEGV, "unmapped");
    cr_expect(strstr(pr->s.message, "0x50008") != NULL, "%s", pr->s.message);
    XEQ(pr, 10, 0);
    pair_free(pr);
}

Test(exec, load_crossing_into_unmapped_page_is_sigsegv)
{
    pair *pr = fault_pair(0x0005b503); /* ld a0, 0(a1) */
    BOTH(pr, p) p->cpu.x[11] = DATA + 2 * PAGE - 4;
    pair_run(pr);
    expect_fault(pr, SIGSEGV, "unmapped");
    /* at its first byte the guest may not read, as Linux and qemu-riscv64 report it */
    cr_expect(strstr(pr->s.message, "0x22000") != NULL, "%s", pr->s.message);
    pair_free(pr);
}

Test(exec, store_to_read_only_page_is_sigsegv)
{
    static const uint32_t stores[] = {0x0055b023 /* sd t0, 0(a1) */, 0x0055a023 /* sw t0, 0(a1) */};
    for (size_t i = 0; i < 2; i++) {
        pair *pr = fault_pair(stores[i]);
        BOTH(pr, p) {
            p->cpu.x[11] = RO + 16;
            poke64(p, RO + 16, 0x77);
        }
        pair_run(pr);
        expect_fault(pr, SIGSEGV, "read-only");
        cr_expect_eq(peek64(&pr->s, RO + 16), 0x77, "the store happened");
        pair_free(pr);
    }
}

Test(exec, load_from_read_only_page_works)
{
    pair *pr = fault_pair(0x0005b503); /* ld a0, 0(a1) */
    BOTH(pr, p) {
        p->cpu.x[11] = RO + 24;
        poke64(p, RO + 24, UINT64_C(0xfeedface));
    }
    pair_run(pr);
    expect_trap_at(pr, CODE + 16, 4);
    XEQ(pr, 10, 0xfeedface);
    pair_free(pr);
}

Test(exec, amo_on_read_only_page_is_sigsegv_and_changes_nothing)
{
    pair *pr = fault_pair(0x0055b52f); /* amoadd.d a0, t0, (a1) */
    BOTH(pr, p) {
        p->cpu.x[11] = RO;
        poke64(p, RO, 5);
    }
    pair_run(pr);
    expect_fault(pr, SIGSEGV, NULL);
    XEQ(pr, 10, 0);
    cr_expect_eq(peek64(&pr->s, RO), 5);
    pair_free(pr);
}

Test(exec, fetch_from_unmapped_or_non_executable_memory_is_sigsegv)
{
    static const uint64_t targets[] = {UNMAPPED, DATA + 64};
    static const char *const words[] = {"unmapped", "non-executable"};
    for (int i = 0; i < 2; i++) {
        pair *pr = fault_pair(0x00058067); /* jalr x0, 0(a1) */
        BOTH(pr, p) p->cpu.x[11] = targets[i];
        pair_run(pr);
        cr_expect_eq(pr->s.stop, RV_STOP_SIGNAL);
        cr_expect_eq(pr->s.signal, SIGSEGV);
        cr_expect_eq(pr->s.cpu.icount, 3, "the jump retired");
        cr_expect_eq(pr->s.cpu.pc, targets[i]);
        cr_expect(strstr(pr->s.message, "fetch") && strstr(pr->s.message, words[i]), "%s", pr->s.message);
        pair_free(pr);
    }
}

Test(exec, illegal_instruction_is_sigill)
{
    static const uint32_t bad[] = {
        0x00000000,  /* all-zero halfword (then another) */
        0xffffffff,  /* 48-bit-or-longer prefix */
        0x022180d7,  /* vadd.vv v1, v2, v3 */
        0x10500073,  /* wfi */
        0x7c002573,  /* csrrs a0, 0x7c0, x0: unknown CSR */
        0xc0029073,  /* csrrw x0, cycle, t0: read-only CSR */
        0xc000f073,  /* csrrci x0, cycle, 1: writes a read-only CSR */
        0xc0205073,  /* csrrwi x0, instret, 0: csrrwi always writes */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pair *pr = fault_pair(bad[i]);
        pair_run(pr);
        cr_expect_eq(pr->s.signal, SIGILL, "%#x: signal %d (%s)", bad[i], pr->s.signal, pr->s.message);
        expect_fault(pr, SIGILL, "illegal instruction");
        pair_free(pr);
    }
}

Test(exec, reading_counters_with_x0_source_does_not_write)
{
    /* csrrs/csrrc with rs1 = x0 and csrrsi/csrrci with zimm 0 only read: legal on read-only CSRs */
    pair *pr = fault_pair(0xc0003873); /* csrrc a6, cycle, x0 */
    pair_run(pr);
    expect_trap_at(pr, CODE + 16, 4);
    XEQ(pr, 16, 2);
    pair_free(pr);
}

/* ------------------------------------------------------------------- A */

Test(exec, lr_sc_success_and_failure)
{
    static const uint16_t prog[] = {
        W(0x1004252f), /* lr.w   a0, (s0) */
        W(0x185425af), /* sc.w   a1, t0, (s0) */
        W(0x1864262f), /* sc.w   a2, t1, (s0) */
        W(0x1004b6af), /* lr.d   a3, (s1) */
        W(0x0074b023), /* sd     t2, 0(s1) */
        W(0x1854b72f), /* sc.d   a4, t0, (s1) */
        W(0x1004b7af), /* lr.d   a5, (s1) */
        W(0x1859382f), /* sc.d   a6, t0, (s2) */
        W(0x1854b8af), /* sc.d   a7, t0, (s1) */
        W(0x1004be2f), /* lr.d   t3, (s1) */
        W(0x1854beaf), /* sc.d   t4, t0, (s1) */
        W(0x1609af2f), /* lr.w.aqrl t5, (s3) */
        W(0x1a69afaf), /* sc.w.rl t6, t1, (s3) */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    BOTH(pr, p) {
        p->cpu.x[8] = DATA;       /* s0 */
        p->cpu.x[9] = DATA + 8;   /* s1 */
        p->cpu.x[18] = DATA + 16; /* s2 */
        p->cpu.x[19] = DATA + 32; /* s3 */
        p->cpu.x[5] = UINT64_C(0xaaaaaaaa00001234);
        p->cpu.x[6] = UINT64_C(0xbbbbbbbb00005678);
        p->cpu.x[7] = 0x5555;
        poke64(p, DATA, UINT64_C(0xcccccccc80000005));
        poke64(p, DATA + 8, 0x99);
        poke64(p, DATA + 16, 0x16);
        poke64(p, DATA + 32, UINT64_C(0xdddddddd00000032));
    }
    pair_run(pr);
    expect_trap_at(pr, CODE + 13 * 4, 13);
    XEQ(pr, 10, UINT64_C(0xffffffff80000005)); /* lr.w sign-extends */
    XEQ(pr, 11, 0);                            /* sc.w after lr.w: success */
    XEQ(pr, 12, 1);                            /* sc.w without a reservation: failure */
    cr_expect_eq(peek64(&pr->s, DATA), UINT64_C(0xcccccccc00001234), "sc.w wrote 4 bytes of t0 only once");
    XEQ(pr, 13, 0x99);
    XEQ(pr, 14, 1); /* the reserved value changed: failure */
    XEQ(pr, 15, 0x5555);
    XEQ(pr, 16, 1); /* another address: failure */
    cr_expect_eq(peek64(&pr->s, DATA + 16), 0x16);
    XEQ(pr, 17, 1); /* the failed sc cleared the reservation */
    XEQ(pr, 28, 0x5555);
    XEQ(pr, 29, 0); /* success */
    cr_expect_eq(peek64(&pr->s, DATA + 8), UINT64_C(0xaaaaaaaa00001234));
    XEQ(pr, 30, 0x32);
    XEQ(pr, 31, 0);
    cr_expect_eq(peek64(&pr->s, DATA + 32), UINT64_C(0xdddddddd00005678));
    cr_expect(!pr->s.cpu.has_reservation && !pr->r.cpu.has_reservation, "sc must clear the reservation");
    pair_free(pr);
}

/* The AMO operations written independently of the emulator. */
static uint64_t amo_ref(int op, uint64_t old, uint64_t src, bool word)
{
    if (word) {
        uint32_t o = (uint32_t)old, s = (uint32_t)src, r = 0;
        switch (op) {
        case 0: r = s; break;
        case 1: r = o + s; break;
        case 2: r = o ^ s; break;
        case 3: r = o & s; break;
        case 4: r = o | s; break;
        case 5: r = (int32_t)o <= (int32_t)s ? o : s; break;
        case 6: r = (int32_t)o >= (int32_t)s ? o : s; break;
        case 7: r = o <= s ? o : s; break;
        case 8: r = o >= s ? o : s; break;
        }
        return r;
    }
    switch (op) {
    case 0: return src;
    case 1: return old + src;
    case 2: return old ^ src;
    case 3: return old & src;
    case 4: return old | src;
    case 5: return (int64_t)old <= (int64_t)src ? old : src;
    case 6: return (int64_t)old >= (int64_t)src ? old : src;
    case 7: return old <= src ? old : src;
    default: return old >= src ? old : src;
    }
}

Test(exec, every_amo_result)
{
    static const uint16_t prog[] = {
        W(0x0865262f), /* amoswap.w x12, x6, (x10) */
        W(0x01050593), /* addi x11, x10, 16 */
        W(0x0065a6af), /* amoadd.w  x13, x6, (x11) */
        W(0x02050593), /* addi x11, x10, 32 */
        W(0x2065a72f), /* amoxor.w  x14, x6, (x11) */
        W(0x03050593), /* addi x11, x10, 48 */
        W(0x6065a7af), /* amoand.w  x15, x6, (x11) */
        W(0x04050593), /* addi x11, x10, 64 */
        W(0x4065a82f), /* amoor.w   x16, x6, (x11) */
        W(0x05050593), /* addi x11, x10, 80 */
        W(0x8065a8af), /* amomin.w  x17, x6, (x11) */
        W(0x06050593), /* addi x11, x10, 96 */
        W(0xa065a92f), /* amomax.w  x18, x6, (x11) */
        W(0x07050593), /* addi x11, x10, 112 */
        W(0xc065a9af), /* amominu.w x19, x6, (x11) */
        W(0x08050593), /* addi x11, x10, 128 */
        W(0xe065aa2f), /* amomaxu.w x20, x6, (x11) */
        W(0x09050593), /* addi x11, x10, 144 */
        W(0x0875baaf), /* amoswap.d x21, x7, (x11) */
        W(0x0a050593), /* addi x11, x10, 160 */
        W(0x0075bb2f), /* amoadd.d  x22, x7, (x11) */
        W(0x0b050593), /* addi x11, x10, 176 */
        W(0x2075bbaf), /* amoxor.d  x23, x7, (x11) */
        W(0x0c050593), /* addi x11, x10, 192 */
        W(0x6075bc2f), /* amoand.d  x24, x7, (x11) */
        W(0x0d050593), /* addi x11, x10, 208 */
        W(0x4075bcaf), /* amoor.d   x25, x7, (x11) */
        W(0x0e050593), /* addi x11, x10, 224 */
        W(0x8075bd2f), /* amomin.d  x26, x7, (x11) */
        W(0x0f050593), /* addi x11, x10, 240 */
        W(0xa075bdaf), /* amomax.d  x27, x7, (x11) */
        W(0x10050593), /* addi x11, x10, 256 */
        W(0xc075be2f), /* amominu.d x28, x7, (x11) */
        W(0x11050593), /* addi x11, x10, 272 */
        W(0xe075beaf), /* amomaxu.d x29, x7, (x11) */
        W(0x00100073), /* ebreak */
    };
    /* Two operand sets: old negative/src positive, then the reverse. */
    static const uint64_t olds_w[2] = {UINT64_C(0xaaaaaaaa80000001), UINT64_C(0xaaaaaaaa7ffffffe)};
    static const uint64_t srcs_w[2] = {UINT64_C(0xdeadbeef7ffffffe), UINT64_C(0x0000000080000001)};
    static const uint64_t olds_d[2] = {UINT64_C(0x8000000000000001), UINT64_C(0x7ffffffffffffffe)};
    static const uint64_t srcs_d[2] = {UINT64_C(0x7ffffffffffffffe), UINT64_C(0x8000000000000001)};
    for (int set = 0; set < 2; set++) {
        pair *pr = pair_new(prog, NHALF(prog));
        BOTH(pr, p) {
            p->cpu.x[10] = DATA;
            p->cpu.x[6] = srcs_w[set];
            p->cpu.x[7] = srcs_d[set];
            for (int i = 0; i < 9; i++)
                poke64(p, DATA + 16 * i, olds_w[set]);
            for (int i = 9; i < 18; i++)
                poke64(p, DATA + 16 * i, olds_d[set]);
        }
        pair_run(pr);
        expect_trap_at(pr, CODE + 35 * 4, 35);
        for (int i = 0; i < 18; i++) {
            bool word = i < 9;
            uint64_t old = word ? olds_w[set] : olds_d[set], src = word ? srcs_w[set] : srcs_d[set];
            uint64_t mem = peek64(&pr->s, DATA + 16 * i);
            uint64_t want = word ? (old & UINT64_C(0xffffffff00000000)) | amo_ref(i % 9, old, src, true)
                                 : amo_ref(i % 9, old, src, false);
            cr_expect_eq(mem, want, "set %d amo #%d: memory %#llx, expected %#llx", set, i,
                         (unsigned long long)mem, (unsigned long long)want);
            XEQ(pr, 12 + i, word ? SEXT32(old) : old);
        }
        pair_free(pr);
    }
}

/* ------------------------------------------------------------------- x0 */

Test(exec, x0_stays_zero)
{
    static const uint16_t prog[] = {
        W(0x00500013), /* addi x0, x0, 5 */
        W(0x00000533), /* add  a0, x0, x0 */
        W(0x12345037), /* lui  x0, 0x12345 */
        W(0x00100593), /* addi a1, x0, 1 */
        W(0x00043003), /* ld   x0, 0(s0) */
        W(0x00000633), /* add  a2, x0, x0 */
        W(0x0040006f), /* jal  x0, .+4 */
        H(0x400d),     /* c.li x0, 3 */
        W(0xc0202073), /* csrrs x0, instret, x0 */
        W(0x0054302f), /* amoadd.d x0, t0, (s0) */
        W(0xe2008053), /* fmv.x.d x0, f1 */
        H(0x8016),     /* c.mv x0, t0 */
        W(0x00001017), /* auipc x0, 1 */
        W(0x000006b3), /* add a3, x0, x0 */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    BOTH(pr, p) {
        p->cpu.x[8] = DATA;
        p->cpu.x[5] = 0x10;
        p->cpu.f[1] = UINT64_C(0x1234567887654321);
        poke64(p, DATA, 0x1000);
    }
    pair_run(pr);
    expect_trap_at(pr, CODE + 0x34, 14);
    XEQ(pr, 0, 0);
    XEQ(pr, 10, 0);
    XEQ(pr, 11, 1);
    XEQ(pr, 12, 0);
    XEQ(pr, 13, 0);
    cr_expect_eq(peek64(&pr->s, DATA), 0x1010, "the amo with rd = x0 still updates memory");
    cr_expect_eq(pr->r.cpu.x[0], 0);
    pair_free(pr);
}

/* ------------------------------------------------------------ jumps */

Test(exec, jalr_clears_bit0_and_handles_rd_equal_rs1)
{
    static const uint16_t prog[] = {
        /* start: */
        W(0x00000517), /* auipc a0, 0 */
        W(0x01550513), /* addi  a0, a0, 21 */
        W(0x000500e7), /* jalr  ra, 0(a0) */
        W(0x06300593), /* addi  a1, x0, 99 */
        W(0x00100073), /* ebreak */
        /* target: (CODE+20) */
        W(0x00700613), /* addi  a2, x0, 7 */
        /* l2: */
        W(0x00000697), /* auipc a3, 0 */
        W(0x00c68693), /* addi  a3, a3, 12 */
        W(0x000686e7), /* jalr  a3, 0(a3) */
        /* l3: (CODE+36) */
        W(0x00100713), /* addi  a4, x0, 1 */
        /* l4: */
        W(0x00000797), /* auipc a5, 0 */
        W(0x00a78793), /* addi  a5, a5, 10 */
        H(0x9782),     /* c.jalr a5  (CODE+48) */
        /* l5: (CODE+50) */
        H(0x0705),     /* c.addi a4, 1 */
        W(0x00000317), /* auipc t1, 0  (CODE+52) */
        /* l6: */
        W(0x01430313), /* addi t1, t1, 20 */
        W(0xffd302e7), /* jalr t0, -3(t1)  (CODE+60) */
        W(0x06200593), /* addi a1, x0, 98 */
        /* l7: (CODE+68) */
        W(0x00500813), /* addi a6, x0, 5 */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    pair_run(pr);
    expect_trap_at(pr, CODE + 72, 16);
    XEQ(pr, 1, CODE + 50); /* c.jalr links pc + 2 */
    XEQ(pr, 11, 0);        /* both skipped instructions stayed skipped */
    XEQ(pr, 12, 7);
    XEQ(pr, 13, CODE + 36); /* rd == rs1: link written after the target was taken */
    XEQ(pr, 14, 2);
    XEQ(pr, 5, CODE + 64);
    XEQ(pr, 16, 5);
    pair_free(pr);
}

Test(exec, branch_outcomes_in_both_paths)
{
    static const uint16_t prog[] = {
        W(0x00b50463), /* beq  a0, a1, 1f */
        W(0x0014e493), /* ori  s1, s1, 1 */
        W(0x00b51463), /* bne  a0, a1, 1f */
        W(0x0024e493), /* ori  s1, s1, 2 */
        W(0x00b54463), /* blt  a0, a1, 1f */
        W(0x0044e493), /* ori  s1, s1, 4 */
        W(0x00b55463), /* bge  a0, a1, 1f */
        W(0x0084e493), /* ori  s1, s1, 8 */
        W(0x00b56463), /* bltu a0, a1, 1f */
        W(0x0104e493), /* ori  s1, s1, 16 */
        W(0x00b57463), /* bgeu a0, a1, 1f */
        W(0x0204e493), /* ori  s1, s1, 32 */
        W(0x00d60463), /* beq  a2, a3, 1f */
        W(0x0404e493), /* ori  s1, s1, 64 */
        W(0x00d61463), /* bne  a2, a3, 1f */
        W(0x0804e493), /* ori  s1, s1, 128 */
        W(0x00d65463), /* bge  a2, a3, 1f */
        W(0x1004e493), /* ori  s1, s1, 256 */
        W(0x00d64463), /* blt  a2, a3, 1f */
        W(0x2004e493), /* ori  s1, s1, 512 */
        H(0xc319),     /* c.beqz a4, 1f */
        W(0x4004e493), /* ori  s1, s1, 1024 */
        H(0xe319),     /* c.bnez a4, 1f */
        W(0x7ff4e493), /* ori  s1, s1, 2047 */
        W(0x00100073), /* ebreak */
    };
    static const int64_t vals[][5] = {
        {-1, 1, 5, 5, 0}, {1, -1, 5, 6, 3}, {7, 7, -8, 2, -1}, {INT64_MIN, INT64_MAX, 0, 0, 1},
    };
    for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
        const int64_t *v = vals[k];
        uint64_t a = (uint64_t)v[0], b = (uint64_t)v[1], c = (uint64_t)v[2], d = (uint64_t)v[3];
        bool taken[12] = {a == b, a != b, v[0] < v[1], v[0] >= v[1], a < b, a >= b,
                          c == d, c != d, v[2] >= v[3], v[2] < v[3], v[4] == 0, v[4] != 0};
        static const uint64_t bitv[12] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2047};
        uint64_t want = 0;
        int retired = 12; /* the branches, plus each ori that was not skipped */
        for (int i = 0; i < 12; i++)
            if (!taken[i]) {
                want |= bitv[i];
                retired++;
            }
        pair *pr = pair_new(prog, NHALF(prog));
        BOTH(pr, p) {
            for (int i = 0; i < 5; i++)
                p->cpu.x[10 + i] = (uint64_t)v[i];
        }
        pair_run(pr);
        expect_trap_at(pr, CODE + 92, (uint64_t)retired);
        XEQ(pr, 9, want);
        pair_free(pr);
    }
}

Test(exec, compressed_program)
{
    static const uint16_t prog[] = {
        H(0x4515), /* c.li a0, 5 */
        H(0x157d), /* c.addi a0, -1 */
        H(0x85aa), /* c.mv a1, a0 */
        H(0x95aa), /* c.add a1, a0 */
        H(0x058e), /* c.slli a1, 3 */
        H(0x713d), /* c.addi16sp sp, -32 */
        H(0xe42e), /* c.sdsp a1, 8(sp) */
        H(0x6622), /* c.ldsp a2, 8(sp) */
        H(0x0800), /* c.addi4spn s0, sp, 16 */
        H(0xc048), /* c.sw a0, 4(s0) */
        H(0x4054), /* c.lw a3, 4(s0) */
        H(0x777d), /* c.lui a4, 0xfffff */
        H(0x8711), /* c.srai a4, 4 */
        H(0x87ba), /* c.mv a5, a4 */
        H(0x8b7d), /* c.andi a4, 31 */
        H(0x8d0d), /* c.sub a0, a1 */
        H(0xa011), /* c.j 1f */
        H(0x47a5), /* c.li a5, 9 */
        /* 1: */
        H(0xc311), /* c.beqz a4, 1f */
        H(0x479d), /* c.li a5, 7 */
        /* 1: */
        H(0xe111), /* c.bnez a0, 1f */
        H(0x4799), /* c.li a5, 6 */
        /* 1: */
        H(0x64c1), /* c.lui s1, 0x10 */
        H(0x34fd), /* c.addiw s1, -1 */
        H(0x9ca5), /* c.addw s1, s1 */
        H(0x9d05), /* c.subw a0, s1 */
        H(0x8285), /* c.srli a3, 1 */
        H(0x8ea9), /* c.xor a3, a0 */
        H(0x8ec1), /* c.or a3, s0 */
        H(0x8ee1), /* c.and a3, s0 */
        H(0x600c), /* c.ld a1, 0(s0) */
        H(0x9002), /* c.ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    BOTH(pr, p) p->cpu.x[2] = DATA + 256;
    pair_run(pr);
    expect_trap_at(pr, CODE + 31 * 2, 28);
    uint64_t a0 = (uint64_t)(-60 - 0x1fffe);
    uint64_t s0 = DATA + 240;
    XEQ(pr, 2, DATA + 224);
    XEQ(pr, 12, 64);
    XEQ(pr, 8, s0);
    XEQ(pr, 14, 0);
    XEQ(pr, 15, (uint64_t)-256);
    XEQ(pr, 9, 0x1fffe);
    XEQ(pr, 10, a0);
    XEQ(pr, 13, ((2 ^ a0) | s0) & s0);
    XEQ(pr, 11, UINT64_C(4) << 32);
    cr_expect_eq(peek64(&pr->s, DATA + 232), 64);
    pair_free(pr);
}

Test(exec, ecall_exit_stops_with_status)
{
    static const uint16_t prog[] = {
        W(0x05d00893), /* addi a7, x0, 93 */
        W(0x00300513), /* addi a0, x0, 3 */
        W(0x00000073), /* ecall */
        W(0x00400513), /* addi a0, x0, 4 */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    pair_run(pr);
    cr_expect_eq(pr->s.stop, RV_STOP_EXIT);
    cr_expect_eq(pr->s.exit_status, 3);
    cr_expect_eq(pr->s.cpu.icount, 3, "ecall retires");
    cr_expect_eq(pr->s.cpu.pc, CODE + 12);
    pair_free(pr);
}

/* ------------------------------------------------- dynamic records (step) */

Test(exec, step_records_branch_outcomes)
{
    static const struct { const char *name; uint32_t funct3; } br[] = {
        {"beq", 0}, {"bne", 1}, {"blt", 4}, {"bge", 5}, {"bltu", 6}, {"bgeu", 7},
    };
    static const int64_t pairs[][2] = {{-1, 1}, {5, 5}, {1, -1}, {0, INT64_MIN}};
    for (size_t i = 0; i < 6; i++)
        for (size_t k = 0; k < 4; k++) {
            /* bXX a0, a1, +16 : imm[4:1] = 1000 -> bit 11 */
            uint32_t w = 0x63 | br[i].funct3 << 12 | 10u << 15 | 11u << 20 | 0x800;
            uint16_t prog[] = {W(w), W(0x00100073), W(0x00100073), W(0x00100073), W(0x00100073)};
            rv_proc p;
            vm_init(&p, prog, NHALF(prog), GP_R | GP_X);
            p.cpu.x[10] = (uint64_t)pairs[k][0];
            p.cpu.x[11] = (uint64_t)pairs[k][1];
            int64_t a = pairs[k][0], b = pairs[k][1];
            uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
            bool want[] = {a == b, a != b, 0, 0, a < b, a >= b, ua < ub, ua >= ub};
            bool t = want[br[i].funct3];
            rv_dyninst d;
            memset(&d, 0xa5, sizeof d);
            cr_assert(rv_step(&p, &d));
            cr_expect_eq(d.taken, t, "%s %lld, %lld", br[i].name, (long long)a, (long long)b);
            cr_expect_eq(d.next_pc, t ? CODE + 16 : CODE + 4, "%s next_pc", br[i].name);
            cr_expect_eq(p.cpu.pc, d.next_pc);
            cr_expect_eq(d.insn.pc, CODE);
            cr_expect_eq(d.icount, 0);
            cr_expect_eq(d.mem_access, 0);
            cr_expect_eq(d.insn.op, RV_OP_beq + i, "op");
            vm_free(&p);
        }
}

Test(exec, step_records_memory_accesses)
{
    static const uint16_t prog[] = {
        W(0x00442503), /* lw a0, 4(s0) */
        W(0x00b43423), /* sd a1, 8(s0) */
        W(0x00b4262f), /* amoadd.w a2, a1, (s0) */
        W(0x1004b6af), /* lr.d a3, (s1) */
        W(0x18b4b72f), /* sc.d a4, a1, (s1) */
        W(0x18b4b7af), /* sc.d a5, a1, (s1) */
        W(0x01843087), /* fld f1, 24(s0) */
        W(0x02142027), /* fsw f1, 32(s0) */
        W(0x00344803), /* lbu a6, 3(s0) */
        W(0x03041423), /* sh a6, 40(s0) */
        H(0x4048),     /* c.lw a0, 4(s0) */
        H(0xe42e),     /* c.sdsp a1, 8(sp) */
        W(0x00b508b3), /* add a7, a0, a1 */
        W(0x0040006f), /* jal x0, .+4 */
        H(0xb800),     /* c.fsd f8, 48(s0) */
        W(0x00100073), /* ebreak */
    };
    static const struct { uint64_t addr; uint8_t size, access; bool taken; uint8_t len; } want[] = {
        {DATA + 4, 4, RV_MEM_LOAD, false, 4},
        {DATA + 8, 8, RV_MEM_STORE, false, 4},
        {DATA, 4, RV_MEM_LOAD | RV_MEM_STORE, false, 4},
        {DATA + 16, 8, RV_MEM_LOAD, false, 4},
        {DATA + 16, 8, RV_MEM_STORE, false, 4}, /* success: stores (the check may also load) */
        {DATA + 16, 8, 0, false, 4},            /* failure: does not store */
        {DATA + 24, 8, RV_MEM_LOAD, false, 4},
        {DATA + 32, 4, RV_MEM_STORE, false, 4},
        {DATA + 3, 1, RV_MEM_LOAD, false, 4},
        {DATA + 40, 2, RV_MEM_STORE, false, 4},
        {DATA + 4, 4, RV_MEM_LOAD, false, 2},
        {DATA + 72, 8, RV_MEM_STORE, false, 2},
        {0, 0, 0, false, 4},
        {0, 0, 0, true, 4},
        {DATA + 48, 8, RV_MEM_STORE, false, 2},
    };
    rv_proc p;
    vm_init(&p, prog, NHALF(prog), GP_R | GP_X);
    p.cpu.x[8] = DATA;
    p.cpu.x[9] = DATA + 16;
    p.cpu.x[2] = DATA + 64;
    p.cpu.x[11] = 7;
    uint64_t pc = CODE;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        rv_dyninst d;
        memset(&d, 0xa5, sizeof d);
        cr_assert(rv_step(&p, &d), "step %zu stopped: %s", i, p.message);
        cr_expect_eq(d.insn.pc, pc, "step %zu pc", i);
        cr_expect_eq(d.insn.len, want[i].len, "step %zu len", i);
        cr_expect_eq(d.icount, i, "step %zu icount", i);
        cr_expect_eq(d.taken, want[i].taken, "step %zu taken", i);
        cr_expect_eq(d.next_pc, pc + want[i].len, "step %zu next_pc", i);
        if (want[i].access & RV_MEM_STORE) {
            cr_expect(d.mem_access & RV_MEM_STORE, "step %zu: no store recorded", i);
        } else {
            cr_expect(!(d.mem_access & RV_MEM_STORE), "step %zu: store recorded", i);
        }
        if (want[i].access & RV_MEM_LOAD)
            cr_expect(d.mem_access & RV_MEM_LOAD, "step %zu: no load recorded", i);
        if (want[i].access == RV_MEM_STORE && i != 4)
            cr_expect_eq(d.mem_access, RV_MEM_STORE, "step %zu: a plain store is not a load", i);
        if (want[i].access == RV_MEM_LOAD)
            cr_expect_eq(d.mem_access, RV_MEM_LOAD, "step %zu: a plain load is not a store", i);
        if (want[i].size) {
            cr_expect_eq(d.mem_addr, want[i].addr, "step %zu mem_addr %#llx", i, (unsigned long long)d.mem_addr);
            cr_expect_eq(d.mem_size, want[i].size, "step %zu mem_size %u", i, d.mem_size);
        } else {
            cr_expect_eq(d.mem_access, 0, "step %zu: no memory access", i);
            cr_expect_eq(d.mem_size, 0, "step %zu", i);
        }
        pc += want[i].len;
    }
    cr_expect_eq(p.cpu.x[14], 0, "sc.d succeeded");
    cr_expect_eq(p.cpu.x[15], 1, "second sc.d failed");
    rv_dyninst d;
    cr_expect(!rv_step(&p, &d));
    cr_expect_eq(p.signal, SIGTRAP);
    cr_expect(!rv_step(&p, &d), "a stopped process does not step");
    vm_free(&p);
}

/* ----------------------------------------------------------------- CSRs */

static const uint16_t csr_prog[] = {
    W(0x00100513), /* addi a0, x0, 1 */
    W(0x00200513), /* addi a0, x0, 2 */
    W(0xc02025f3), /* csrrs a1, instret, x0 */
    W(0x00300513), /* addi a0, x0, 3 */
    W(0xc0002673), /* csrrs a2, cycle, x0 */
    W(0xc01026f3), /* csrrs a3, time, x0 */
    W(0xc0202773), /* csrrs a4, instret, x0 */
    W(0xc02067f3), /* csrrsi a5, instret, 0 */
    W(0xc0003873), /* csrrc a6, cycle, x0 */
    W(0x00100073), /* ebreak */
};

static void check_csr_results(pair *pr, uint64_t base)
{
    XEQ(pr, 11, base + 2);
    XEQ(pr, 12, base + 4);
    XEQ(pr, 13, (base + 5) / (1000000000 / RV_TIMEBASE_HZ));
    XEQ(pr, 14, base + 6);
    XEQ(pr, 15, base + 7);
    XEQ(pr, 16, base + 8);
}

Test(exec, counters_equal_retired_count_mid_block)
{
    pair *pr = pair_new(csr_prog, NHALF(csr_prog));
    BOTH(pr, p) p->cpu.icount = 12345;
    pair_run(pr);
    expect_trap_at(pr, CODE + 36, 12345 + 9);
    check_csr_results(pr, 12345);
    pair_free(pr);
}

Test(exec, counters_equal_retired_count_across_limits)
{
    /* rv_run stopping and resuming inside the block must not disturb the counts */
    static const uint64_t limits[] = {1, 3, 4, 5, 6, 7, 9};
    for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
        pair *pr = pair_new(csr_prog, NHALF(csr_prog));
        BOTH(pr, p) p->cpu.icount = 1000;
        step_all(&pr->s);
        cr_expect_eq(rv_run(&pr->r, 1000 + limits[k], NULL, NULL), RV_RUN_LIMIT);
        cr_expect_eq(pr->r.cpu.icount, 1000 + limits[k]);
        cr_expect_eq(pr->r.cpu.pc, CODE + 4 * limits[k]);
        cr_expect_eq(rv_run(&pr->r, UINT64_MAX, NULL, NULL), RV_RUN_STOPPED);
        check_same(&pr->s, &pr->r);
        check_csr_results(pr, 1000);
        pair_free(pr);
    }
}

/* ------------------------------------------------------------- F state */

Test(exec, fflags_accrue_and_fcsr_views)
{
    static const uint16_t prog[] = {
        W(0x18208253), /* fdiv.s f4, f1, f2, rne */
        W(0x00102573), /* csrrs a0, fflags, x0 */
        W(0x183082d3), /* fdiv.s f5, f1, f3, rne */
        W(0x001025f3), /* csrrs a1, fflags, x0 */
        W(0x00302673), /* csrrs a2, fcsr, x0 */
        W(0x001056f3), /* csrrwi a3, fflags, 0 */
        W(0x00108353), /* fadd.s f6, f1, f1, rne */
        W(0x00102773), /* csrrs a4, fflags, x0 */
        W(0x0021d073), /* csrrwi x0, frm, 3 */
        W(0x003027f3), /* csrrs a5, fcsr, x0 */
        W(0x0080f3d3), /* fadd.s f7, f1, f8 */
        W(0x008084d3), /* fadd.s f9, f1, f8, rne */
        W(0x00301873), /* csrrw a6, fcsr, x0 */
        W(0x002028f3), /* csrrs a7, frm, x0 */
        W(0x5a058553), /* fsqrt.d f10, f11, rne */
        W(0x001ff973), /* csrrci s2, fflags, 0x1f */
        W(0xfff00293), /* addi t0, x0, -1 */
        W(0x00329073), /* csrrw x0, fcsr, t0 */
        W(0x00302373), /* csrrs t1, fcsr, x0 */
        W(0x002023f3), /* csrrs t2, frm, x0 */
        W(0x0032be73), /* csrrc t3, fcsr, t0 */
        W(0x0012eef3), /* csrrsi t4, fflags, 5 */
        W(0x00302f73), /* csrrs t5, fcsr, x0 */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    BOTH(pr, p) {
        p->cpu.f[1] = UINT64_C(0xffffffff3f800000); /* 1.0f */
        p->cpu.f[2] = UINT64_C(0xffffffff40400000); /* 3.0f */
        p->cpu.f[3] = UINT64_C(0xffffffff00000000); /* 0.0f */
        p->cpu.f[8] = UINT64_C(0xffffffff33800000); /* 2^-24: half an ulp of 1.0f */
        p->cpu.f[11] = UINT64_C(0xbff0000000000000); /* -1.0 */
    }
    pair_run(pr);
    expect_trap_at(pr, CODE + 23 * 4, 23);
    XEQ(pr, 10, 0x01); /* NX */
    XEQ(pr, 11, 0x09); /* NX | DZ accrued */
    XEQ(pr, 12, 0x09);
    XEQ(pr, 13, 0x09);
    XEQ(pr, 14, 0x00);
    XEQ(pr, 15, 0x60); /* frm = RUP in fcsr[7:5] */
    FEQ(pr, 7, UINT64_C(0xffffffff3f800001)); /* dynamic: rounded up */
    FEQ(pr, 9, UINT64_C(0xffffffff3f800000)); /* static rne: tie to even */
    FEQ(pr, 5, UINT64_C(0xffffffff7f800000)); /* 1/0 = +inf */
    XEQ(pr, 16, 0x61);
    XEQ(pr, 17, 0);
    FEQ(pr, 10, UINT64_C(0x7ff8000000000000)); /* sqrt(-1): canonical NaN */
    XEQ(pr, 18, 0x10);                         /* NV */
    XEQ(pr, 6, 0xff);                          /* fcsr keeps 8 bits */
    XEQ(pr, 7, 7);
    XEQ(pr, 28, 0xff);
    XEQ(pr, 29, 0);
    XEQ(pr, 30, 5);
    cr_expect_eq(pr->s.cpu.fflags, 5);
    cr_expect_eq(pr->s.cpu.frm, 0);
    pair_free(pr);
}

Test(exec, invalid_frm_with_dynamic_rounding_is_sigill)
{
    static const uint16_t prog[] = {
        W(0x003100d3), /* fadd.s f1, f2, f3, rne */
        W(0x00317253), /* fadd.s f4, f2, f3 */
        W(0x00100513), /* addi a0, x0, 1 */
        W(0x00100073), /* ebreak */
    };
    for (uint32_t frm = 5; frm <= 7; frm++) {
        pair *pr = pair_new(prog, NHALF(prog));
        BOTH(pr, p) {
            p->cpu.frm = frm;
            p->cpu.f[2] = UINT64_C(0xffffffff3f800000);
            p->cpu.f[3] = UINT64_C(0xffffffff3f800000);
        }
        pair_run(pr);
        cr_expect_eq(pr->s.stop, RV_STOP_SIGNAL);
        cr_expect_eq(pr->s.signal, SIGILL, "frm %u: signal %d", frm, pr->s.signal);
        cr_expect_eq(pr->s.cpu.icount, 1, "the static-rm fadd retired, the dynamic one did not");
        cr_expect_eq(pr->s.cpu.pc, CODE + 4);
        FEQ(pr, 1, UINT64_C(0xffffffff40000000));
        FEQ(pr, 4, 0);
        XEQ(pr, 10, 0);
        cr_expect(strstr(pr->s.message, "frm") != NULL, "%s", pr->s.message);
        pair_free(pr);
    }
}

Test(exec, nan_boxing)
{
    static const uint16_t prog[] = {
        W(0x002081d3), /* fadd.s f3, f1, f2, rne */
        W(0x00102573), /* csrrs a0, fflags, x0 */
        W(0x00042207), /* flw f4, 0(s0) */
        W(0xe00205d3), /* fmv.x.w a1, f4 */
        W(0xe0008653), /* fmv.x.w a2, f1 */
        W(0xf00682d3), /* fmv.w.x f5, a3 */
        W(0x00142427), /* fsw f1, 8(s0) */
        W(0x20108353), /* fsgnj.s f6, f1, f1 */
        W(0x01043387), /* fld f7, 16(s0) */
        W(0xe2038753), /* fmv.x.d a4, f7 */
        W(0x40138453), /* fcvt.s.d f8, f7, rne */
        W(0xe00097d3), /* fclass.s a5, f1 */
        W(0xa020a853), /* feq.s a6, f1, f2 */
        W(0x001028f3), /* csrrs a7, fflags, x0 */
        W(0x00443c27), /* fsd f4, 24(s0) */
        W(0x202114d3), /* fsgnjn.s f9, f2, f2 */
        W(0x42008553), /* fcvt.d.s f10, f1 */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    BOTH(pr, p) {
        p->cpu.f[1] = UINT64_C(0x000000003f800000); /* 1.0f NOT properly boxed */
        p->cpu.f[2] = UINT64_C(0xffffffff3f800000); /* 1.0f boxed */
        p->cpu.x[8] = DATA;
        p->cpu.x[13] = UINT64_C(0x123456789abcdef0);
        poke64(p, DATA, UINT64_C(0x55555555bf800000));
        poke64(p, DATA + 8, UINT64_C(0xaaaaaaaaaaaaaaaa));
        poke64(p, DATA + 16, UINT64_C(0x4000000000000000)); /* 2.0 */
    }
    pair_run(pr);
    expect_trap_at(pr, CODE + 17 * 4, 17);
    FEQ(pr, 3, UINT64_C(0xffffffff7fc00000)); /* improperly boxed input reads as the canonical NaN */
    XEQ(pr, 10, 0);                            /* quiet NaN + 1: no flags */
    FEQ(pr, 4, UINT64_C(0xffffffffbf800000)); /* flw boxes */
    XEQ(pr, 11, UINT64_C(0xffffffffbf800000)); /* fmv.x.w sign-extends */
    XEQ(pr, 12, 0x3f800000);                   /* fmv.x.w moves raw bits, no unboxing */
    FEQ(pr, 5, UINT64_C(0xffffffff9abcdef0)); /* fmv.w.x boxes */
    cr_expect_eq(peek64(&pr->s, DATA + 8), UINT64_C(0xaaaaaaaa3f800000), "fsw stores the raw low word");
    FEQ(pr, 6, UINT64_C(0xffffffff7fc00000));
    XEQ(pr, 14, UINT64_C(0x4000000000000000));
    FEQ(pr, 8, UINT64_C(0xffffffff40000000));
    XEQ(pr, 15, 1 << 9); /* quiet NaN */
    XEQ(pr, 16, 0);
    XEQ(pr, 17, 0);
    cr_expect_eq(peek64(&pr->s, DATA + 24), UINT64_C(0xffffffffbf800000), "fsd stores all 64 bits");
    FEQ(pr, 9, UINT64_C(0xffffffffbf800000));
    FEQ(pr, 10, UINT64_C(0x7ff8000000000000));
    pair_free(pr);
}

/* --------------------------------------------------------- code changes */

Test(exec, fence_i_makes_modified_code_visible)
{
    static const uint16_t prog[] = {
        /* start: */
        W(0x00100613), /* addi a2, x0, 1   (patched into addi a2, x0, 2) */
        W(0x00069a63), /* bnez a3, done */
        W(0x00100693), /* addi a3, x0, 1 */
        W(0x00b52023), /* sw a1, 0(a0) */
        W(0x0000100f), /* fence.i */
        W(0xfedff06f), /* jal x0, start */
        /* done: */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new_prot(prog, NHALF(prog), GP_R | GP_W | GP_X);
    BOTH(pr, p) {
        p->cpu.x[10] = CODE;
        p->cpu.x[11] = 0x00200613; /* addi a2, x0, 2 */
    }
    pair_run(pr);
    expect_trap_at(pr, CODE + 24, 8);
    XEQ(pr, 12, 2);
    pair_free(pr);
}

Test(exec, host_side_code_change_with_mprotect_is_seen)
{
    static const uint16_t prog[] = {
        W(0x00100613), /* addi a2, x0, 1 */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    pair_run(pr);
    XEQ(pr, 12, 1);
    BOTH(pr, p) {
        poke32(p, CODE, 0x00200613); /* addi a2, x0, 2 */
        cr_assert_eq(mem_protect(&p->mem, CODE, PAGE, GP_R | GP_X), 0);
        p->stop = RV_RUNNING;
        p->cpu.pc = p->cpu.block_pc = CODE;
    }
    pair_run(pr);
    XEQ(pr, 12, 2);
    expect_trap_at(pr, CODE + 4, 2);
    pair_free(pr);
}

/* ------------------------------------------------------ run limits, hook */

typedef struct hook_log {
    int n;
    struct { uint64_t pc, start; uint32_t first, executed, block_n; } e[64];
} hook_log;

static void log_hook(void *ctx, rv_block *b, uint32_t first, uint64_t start, uint32_t executed)
{
    hook_log *l = ctx;
    cr_assert_lt(l->n, 64);
    l->e[l->n].pc = b->pc;
    l->e[l->n].start = start;
    l->e[l->n].first = first;
    l->e[l->n].executed = executed;
    l->e[l->n].block_n = b->n;
    l->n++;
}

static const uint16_t limit_prog[] = {
    W(0x00150513), W(0x00150513), W(0x00150513), W(0x00150513), W(0x00150513), /* addi a0, a0, 1 (x5) */
    W(0x00150513), W(0x00150513), W(0x00150513), W(0x00150513), W(0x00150513), /* addi a0, a0, 1 (x5) */
    W(0x00100073),                                                               /* ebreak */
};

Test(exec, run_stops_exactly_at_limit_inside_a_block)
{
    rv_proc p;
    hook_log log = {0};
    vm_init(&p, limit_prog, NHALF(limit_prog), GP_R | GP_X);
    cr_expect_eq(rv_run(&p, 4, log_hook, &log), RV_RUN_LIMIT);
    cr_expect_eq(p.cpu.icount, 4);
    cr_expect_eq(p.cpu.pc, CODE + 16);
    cr_expect_eq(p.cpu.x[10], 4);
    cr_expect_eq(p.stop, RV_RUNNING);
    cr_assert_eq(log.n, 1);
    cr_expect_eq(log.e[0].pc, CODE);
    cr_expect_eq(log.e[0].start, 0);
    cr_expect_eq(log.e[0].first, 0);
    cr_expect_eq(log.e[0].executed, 4);

    /* already at the limit: nothing runs, no hook call */
    cr_expect_eq(rv_run(&p, 4, log_hook, &log), RV_RUN_LIMIT);
    cr_expect_eq(p.cpu.icount, 4);
    cr_expect_eq(log.n, 1);

    cr_expect_eq(rv_run(&p, 10, log_hook, &log), RV_RUN_LIMIT);
    cr_expect_eq(p.cpu.icount, 10);
    cr_expect_eq(p.cpu.pc, CODE + 40);
    cr_expect_eq(p.cpu.x[10], 10);
    cr_assert_eq(log.n, 2);
    cr_expect_eq(log.e[1].start, 4);
    cr_expect_eq(log.e[1].first, 4, "resumed inside the block at its 5th instruction");
    cr_expect_eq(log.e[1].executed, 6);

    cr_expect_eq(rv_run(&p, UINT64_MAX, log_hook, &log), RV_RUN_STOPPED);
    cr_expect_eq(p.stop, RV_STOP_SIGNAL);
    cr_expect_eq(p.signal, SIGTRAP);
    cr_expect_eq(p.cpu.icount, 10);
    cr_expect_eq(p.cpu.pc, CODE + 40);
    uint64_t total = 0;
    for (int i = 0; i < log.n; i++) {
        cr_expect_gt(log.e[i].executed, 0, "hook called for an empty execution");
        total += log.e[i].executed;
    }
    cr_expect_eq(total, 10, "the hook saw %llu instructions", (unsigned long long)total);
    vm_free(&p);
}

Test(exec, run_limit_every_position_matches_stepping)
{
    for (uint64_t lim = 0; lim <= 10; lim++) {
        rv_proc p, q;
        vm_init(&p, limit_prog, NHALF(limit_prog), GP_R | GP_X);
        vm_init(&q, limit_prog, NHALF(limit_prog), GP_R | GP_X);
        cr_expect_eq(rv_run(&p, lim, NULL, NULL), RV_RUN_LIMIT, "limit %llu", (unsigned long long)lim);
        rv_dyninst d;
        for (uint64_t i = 0; i < lim; i++)
            cr_assert(rv_step(&q, &d));
        check_same(&p, &q);
        cr_expect_eq(p.cpu.icount, lim);
        vm_free(&p);
        vm_free(&q);
    }
}

static const uint16_t hook_prog[] = {
    W(0x00500293), /* addi t0, x0, 5 */
    /* loop: (CODE+4) */
    W(0xfff28293), /* addi t0, t0, -1 */
    W(0x00150513), /* addi a0, a0, 1 */
    W(0xfe029ce3), /* bnez t0, loop */
    W(0x00100073), /* ebreak */
};

Test(exec, block_hook_receives_exact_counts)
{
    rv_proc p;
    hook_log log = {0};
    vm_init(&p, hook_prog, NHALF(hook_prog), GP_R | GP_X);
    cr_expect_eq(rv_run(&p, UINT64_MAX, log_hook, &log), RV_RUN_STOPPED);
    cr_expect_eq(p.signal, SIGTRAP);
    cr_expect_eq(p.cpu.icount, 16);
    cr_expect_eq(p.cpu.x[10], 5);
    cr_assert_eq(log.n, 5, "%d hook calls", log.n);
    cr_expect_eq(log.e[0].pc, CODE);
    cr_expect_eq(log.e[0].start, 0);
    cr_expect_eq(log.e[0].first, 0);
    cr_expect_eq(log.e[0].executed, 4);
    cr_expect_eq(log.e[0].block_n, 4);
    for (int i = 1; i < 5; i++) {
        cr_expect_eq(log.e[i].pc, CODE + 4);
        cr_expect_eq(log.e[i].start, 4 + 3 * (uint64_t)(i - 1));
        cr_expect_eq(log.e[i].executed, 3);
        cr_expect_eq(log.e[i].block_n, 3);
    }
    vm_free(&p);
}

Test(exec, block_hook_with_limit_on_block_boundary_and_inside)
{
    rv_proc p;
    hook_log log = {0};
    vm_init(&p, hook_prog, NHALF(hook_prog), GP_R | GP_X);
    cr_expect_eq(rv_run(&p, 4, log_hook, &log), RV_RUN_LIMIT);
    cr_expect_eq(p.cpu.pc, CODE + 4);
    cr_expect_eq(rv_run(&p, 9, log_hook, &log), RV_RUN_LIMIT);
    cr_expect_eq(p.cpu.pc, CODE + 12, "pc %#llx", (unsigned long long)p.cpu.pc);
    cr_expect_eq(p.cpu.x[5], 2);
    cr_expect_eq(p.cpu.x[10], 3);
    cr_expect_eq(rv_run(&p, UINT64_MAX, log_hook, &log), RV_RUN_STOPPED);
    cr_expect_eq(p.cpu.icount, 16);
    uint64_t total = 0, expect_start = 0;
    for (int i = 0; i < log.n; i++) {
        cr_expect_eq(log.e[i].start, expect_start, "hook %d start", i);
        expect_start += log.e[i].executed;
        total += log.e[i].executed;
    }
    cr_expect_eq(total, 16);
    cr_expect_eq(log.e[0].executed, 4);
    cr_expect_eq(log.e[1].executed, 3);
    cr_expect_eq(log.e[2].executed, 2); /* stopped inside the loop block */
    vm_free(&p);
}

Test(exec, block_hook_on_fault_counts_retired_prefix)
{
    uint16_t prog[] = {
        W(0x00100293), /* addi t0, x0, 1 */
        W(0x00200313), /* addi t1, x0, 2 */
        W(0x0005b503), /* ld a0, 0(a1) */
        W(0x00300393), /* addi t2, x0, 3 */
        W(0x00100073), /* ebreak */
    };
    rv_proc p;
    hook_log log = {0};
    vm_init(&p, prog, NHALF(prog), GP_R | GP_X);
    p.cpu.x[11] = UNMAPPED;
    cr_expect_eq(rv_run(&p, UINT64_MAX, log_hook, &log), RV_RUN_STOPPED);
    cr_expect_eq(p.signal, SIGSEGV);
    cr_expect_eq(p.cpu.icount, 2);
    cr_expect_eq(p.cpu.pc, CODE + 8);
    cr_assert_eq(log.n, 1);
    cr_expect_eq(log.e[0].start, 0);
    cr_expect_eq(log.e[0].executed, 2);
    cr_expect_eq(log.e[0].block_n, 5);
    vm_free(&p);
}

/* A run stopped by its limit exactly at a block boundary, then resumed, must see
 * the same blocks as an uninterrupted run (proc.h: block_pc "== pc at a block
 * boundary, so a resumed run sees the same blocks as an uninterrupted one").
 * Regression: the early-return limit path once left block_pc at an earlier
 * stop's block, and the resumed run re-entered that block at position 1. */
Test(exec, resume_after_limit_on_block_boundary_sees_the_same_blocks)
{
    rv_proc p;
    hook_log whole = {0}, chunked = {0};
    vm_init(&p, hook_prog, NHALF(hook_prog), GP_R | GP_X);
    rv_run(&p, UINT64_MAX, log_hook, &whole);
    vm_free(&p);

    vm_init(&p, hook_prog, NHALF(hook_prog), GP_R | GP_X);
    cr_expect_eq(rv_run(&p, 2, log_hook, &chunked), RV_RUN_LIMIT); /* inside the first block */
    cr_expect_eq(rv_run(&p, 4, log_hook, &chunked), RV_RUN_LIMIT); /* its end: a block boundary */
    cr_expect_eq(p.cpu.pc, CODE + 4);
    cr_expect_eq(p.cpu.block_pc, p.cpu.pc, "stopped at a block boundary: block_pc %#llx, pc %#llx",
                 (unsigned long long)p.cpu.block_pc, (unsigned long long)p.cpu.pc);
    cr_expect_eq(rv_run(&p, UINT64_MAX, log_hook, &chunked), RV_RUN_STOPPED);
    cr_expect_eq(p.cpu.icount, 16);
    /* chunked = whole, with the first block split in two pieces */
    cr_assert_eq(chunked.n, whole.n + 1);
    for (int i = 2; i < chunked.n; i++) {
        cr_expect_eq(chunked.e[i].pc, whole.e[i - 1].pc, "hook %d: block %#llx, uninterrupted %#llx", i,
                     (unsigned long long)chunked.e[i].pc, (unsigned long long)whole.e[i - 1].pc);
        cr_expect_eq(chunked.e[i].start, whole.e[i - 1].start);
        cr_expect_eq(chunked.e[i].executed, whole.e[i - 1].executed);
    }
    vm_free(&p);
}

Test(exec, fault_after_resuming_inside_a_block)
{
    uint16_t prog[] = {
        W(0x00100293), /* addi t0, x0, 1 */
        W(0x00200313), /* addi t1, x0, 2 */
        W(0x0005b503), /* ld a0, 0(a1) */
        W(0x00300393), /* addi t2, x0, 3 */
        W(0x00100073), /* ebreak */
    };
    rv_proc p;
    hook_log log = {0};
    vm_init(&p, prog, NHALF(prog), GP_R | GP_X);
    p.cpu.x[11] = UNMAPPED;
    cr_expect_eq(rv_run(&p, 1, log_hook, &log), RV_RUN_LIMIT);
    cr_expect_eq(rv_run(&p, UINT64_MAX, log_hook, &log), RV_RUN_STOPPED);
    cr_expect_eq(p.signal, SIGSEGV);
    cr_expect_eq(p.cpu.icount, 2);
    cr_expect_eq(p.cpu.pc, CODE + 8);
    cr_assert_eq(log.n, 2);
    cr_expect_eq(log.e[0].start, 0);
    cr_expect_eq(log.e[0].executed, 1);
    cr_expect_eq(log.e[1].start, 1, "the resumed piece starts where the first stopped");
    cr_expect_eq(log.e[1].executed, 1, "only the instruction before the fault retired");
    vm_free(&p);
}

Test(exec, instruction_straddling_into_an_unmapped_page_is_a_fetch_fault)
{
    /* c.nop at the end of the code region, then a 4-byte instruction whose upper half
     * would be on the next (unmapped) page */
    uint16_t prog[2 * PAGE / 2];
    memset(prog, 0, sizeof prog);
    const uint16_t head[] = {
        W(0x00002537), /* lui a0, 0x2 */
        W(0xffc50513), /* addi a0, a0, -4 */
        W(0x00a30333), /* add t1, t1, a0 */
        W(0x00030067), /* jalr x0, 0(t1) */
    };
    memcpy(prog, head, sizeof head);
    prog[NHALF(prog) - 2] = 0x0001; /* c.nop at CODE + 0x1ffc */
    prog[NHALF(prog) - 1] = 0x0513; /* low half of a 32-bit addi at CODE + 0x1ffe */
    pair *pr = pair_new(prog, NHALF(prog));
    BOTH(pr, p) p->cpu.x[6] = CODE;
    pair_run(pr);
    cr_expect_eq(pr->s.stop, RV_STOP_SIGNAL);
    cr_expect_eq(pr->s.signal, SIGSEGV, "%s", pr->s.message);
    cr_expect_eq(pr->s.cpu.pc, CODE + 0x1ffe);
    cr_expect_eq(pr->s.cpu.icount, 5);
    pair_free(pr);
}

Test(exec, code_made_non_executable_after_caching_faults)
{
    static const uint16_t prog[] = {
        W(0x00100613), /* addi a2, x0, 1 */
        W(0x00100073), /* ebreak */
    };
    pair *pr = pair_new(prog, NHALF(prog));
    pair_run(pr); /* decodes and caches the code */
    BOTH(pr, p) {
        cr_assert_eq(mem_protect(&p->mem, CODE, PAGE, GP_R), 0);
        p->stop = RV_RUNNING;
        p->cpu.pc = p->cpu.block_pc = CODE;
    }
    pair_run(pr);
    cr_expect_eq(pr->s.signal, SIGSEGV, "%s", pr->s.message);
    cr_expect(strstr(pr->s.message, "non-executable") != NULL, "%s", pr->s.message);
    cr_expect_eq(pr->s.cpu.pc, CODE);
    cr_expect_eq(pr->s.cpu.icount, 1, "nothing more retired");
    pair_free(pr);
}

Test(exec, long_straight_line_code_is_split_into_blocks)
{
    enum { N = 150 };
    uint16_t prog[2 * (N + 1)];
    for (int i = 0; i < N; i++) {
        prog[2 * i] = 0x0513; /* addi a0, a0, 1 = 0x00150513 */
        prog[2 * i + 1] = 0x0015;
    }
    prog[2 * N] = 0x0073; /* ebreak = 0x00100073 */
    prog[2 * N + 1] = 0x0010;
    rv_proc p;
    hook_log log = {0};
    vm_init(&p, prog, NHALF(prog), GP_R | GP_X);
    cr_expect_eq(rv_run(&p, UINT64_MAX, log_hook, &log), RV_RUN_STOPPED);
    cr_expect_eq(p.signal, SIGTRAP);
    cr_expect_eq(p.cpu.icount, N);
    cr_expect_eq(p.cpu.x[10], N);
    cr_expect_eq(p.cpu.pc, CODE + 4 * N);
    uint64_t total = 0;
    for (int i = 0; i < log.n; i++) {
        cr_expect_leq(log.e[i].block_n, RV_BLOCK_MAX_INSNS);
        cr_expect_eq(log.e[i].pc, CODE + 4 * total, "blocks follow each other");
        total += log.e[i].executed;
    }
    cr_expect_eq(total, N);
    cr_expect_geq(log.n, (N + RV_BLOCK_MAX_INSNS - 1) / RV_BLOCK_MAX_INSNS);
    vm_free(&p);
    pair *pr = pair_new(prog, NHALF(prog));
    pair_run(pr);
    XEQ(pr, 10, N);
    pair_free(pr);
}
