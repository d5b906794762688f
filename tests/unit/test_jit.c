/* The translator's debugging mode (--jit-check, lib/jit/check.c): it agrees
 * with correct host code and stops at the first difference of a wrong one.
 * (That translated code equals the interpreters is tested in test_exec.c and
 * tests/e2e/jit_differential.sh.) */
#include <criterion/criterion.h>
#include <string.h>

#include "code.h"
#include "jit/check.h"

enum { CODE = 0x10000, DATA = 0x20000 };

/* Host code keeps the instruction count in r15 (lib/jit/stencils.c); the
 * fake translations below do too. */
register uint64_t jit_icount __asm__("r15");

/* addi x5, x0, 7; sd x5, 0(x6); addi x5, x5, 1; jal x0, 0 (to itself) */
static const uint32_t program[] = {0x00700293, 0x00533023, 0x00128293, 0x0000006f};

static rv_block *load(rv_proc *p, const uint32_t *words, size_t bytes, uint32_t n)
{
    rv_proc_clear(p);
    cr_assert(mem_init(&p->mem));
    cr_assert_eq(mem_map(&p->mem, CODE, 4096, GP_R | GP_X, VMA_ANON, -1, 0, NULL, "code"), 0);
    cr_assert_eq(mem_map(&p->mem, DATA, 4096, GP_R | GP_W, VMA_ANON, -1, 0, NULL, "data"), 0);
    mem_lift_protection(&p->mem, CODE, bytes); /* the host protects the code as the guest does */
    memcpy(mem_host(&p->mem, CODE), words, bytes);
    mem_restore_protection(&p->mem, CODE, bytes);
    p->code = code_new();
    p->code_changes_seen = p->mem.code_changes;
    p->cpu.pc = p->cpu.block_pc = CODE;
    p->cpu.x[6] = DATA;
    p->exec_mode = RV_EXEC_CHECK;
    rv_block *b = code_block(p, CODE);
    cr_assert_eq(b->n, n);
    cr_assert_not_null(code_host(p, b), "the block was not translated");
    return b;
}

static rv_block *setup(rv_proc *p)
{
    return load(p, program, sizeof program, 4);
}

/* What the block does, but x5 ends one too high. */
static void wrong_register(rv_proc *p, uint64_t *x)
{
    x[5] = 9;
    memcpy(mem_host(&p->mem, DATA), &(uint64_t){7}, 8);
    jit_icount += 4;
    p->cpu.pc = CODE + 12;
}

/* Right registers, wrong store. */
static void wrong_store(rv_proc *p, uint64_t *x)
{
    x[5] = 8;
    memcpy(mem_host(&p->mem, DATA), &(uint64_t){6}, 8);
    jit_icount += 4;
    p->cpu.pc = CODE + 12;
}

Test(jit_check, agrees_with_the_translation)
{
    rv_proc p;
    rv_block *b = setup(&p);
    void (*host)(rv_proc *, uint64_t *) = code_host(&p, b);
    cr_assert_not_null(host, "the block was not translated");
    cr_assert_eq(jit_check_block(&p, b, host), 4);
    cr_expect_eq(p.cpu.x[5], 8);
    cr_expect_eq(p.cpu.icount, 4);
    cr_expect_eq(p.cpu.pc, CODE + 12);
    uint64_t stored;
    memcpy(&stored, mem_host(&p.mem, DATA), 8);
    cr_expect_eq(stored, 7);
    rv_proc_destroy(&p);
}

Test(jit_check, stops_at_a_wrong_register, .exit_code = 1)
{
    rv_proc p;
    rv_block *b = setup(&p);
    jit_check_block(&p, b, wrong_register);
}

Test(jit_check, stops_at_a_wrong_store, .exit_code = 1)
{
    rv_proc p;
    rv_block *b = setup(&p);
    jit_check_block(&p, b, wrong_store);
}

/* A conditional branch reaches the exit not placed after it by one jump
 * (jit.c's fuse_branch): its code holds a jcc rel32 (0f 8x), and no jcc
 * rel8 leaps over a jmp (e9). */
Test(jit_translate, fuses_a_branch_with_its_jump)
{
    static const uint32_t branch[] = {0x00700293, 0x00628463}; /* addi x5, x0, 7; beq x5, x6, 8 */
    rv_proc p;
    rv_block *b = load(&p, branch, sizeof branch, 2);
    const uint8_t *code;
    void (*host)(rv_proc *, uint64_t *) = code_host(&p, b);
    memcpy(&code, &host, sizeof code);
    bool rel32 = false;
    for (const uint8_t *c = code; c + 2 < b->jit_exit; c++) {
        rel32 |= c[0] == 0x0f && (c[1] & 0xf0) == 0x80;
        cr_expect(!((c[0] & 0xf0) == 0x70 && c[2] == 0xe9 && c + 2 + (int8_t)c[1] >= b->jit_exit),
                  "a short jcc over a jmp at +%td", c - code);
    }
    cr_expect(rel32, "no jcc rel32 in the branch's code");
    cr_expect_eq(jit_check_block(&p, b, host), 2);
    cr_expect_eq(p.cpu.pc, CODE + 8);
    rv_proc_destroy(&p);
}
