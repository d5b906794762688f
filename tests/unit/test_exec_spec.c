/* The wrong path's execution (lib/exec/exec_spec.c): isa/semantics.def on
 * registers of its own, loads through its own stores, nothing the guest can
 * see changed, and what cannot run ahead stuck. */
#include <criterion/criterion.h>
#include <string.h>

#include "decode.h"
#include "exec/exec_spec.h"
#include "proc.h"

enum { PAGE = 4096, DATA = 0x20000, RO = 0x40000, UNMAPPED = 0x50000, PC = 0x10000 };
enum { A0 = 10, A1 = 11, A2 = 12, A3 = 13 };

static rv_proc proc;
static rv_spec spec;

static void setup(void)
{
    rv_proc_clear(&proc);
    cr_assert(mem_init(&proc.mem));
    cr_assert_eq(mem_map(&proc.mem, DATA, PAGE, GP_R | GP_W, VMA_ANON, -1, 0, NULL, "data"), 0);
    cr_assert_eq(mem_map(&proc.mem, RO, PAGE, GP_R, VMA_ANON, -1, 0, NULL, "ro"), 0);
    uint64_t v = 0x1122334455667788ull;
    memcpy(mem_host(&proc.mem, DATA), &v, 8);
    proc.cpu.x[A1] = DATA;
    proc.cpu.x[A2] = 0xabcdef;
    rv_spec_start(&spec, &proc);
}

static void teardown(void) { rv_proc_destroy(&proc); }

/* Execute one instruction word on the wrong path. */
static rv_dyninst run(uint32_t word)
{
    rv_insn in;
    rv_decode(&in, PC, (uint16_t)word, (uint16_t)(word >> 16));
    rv_dyninst d = {.insn = in};
    rv_spec_exec(&spec, &in, &d);
    return d;
}

TestSuite(exec_spec, .init = setup, .fini = teardown);

Test(exec_spec, loads_read_guest_memory_and_the_wrong_paths_own_stores)
{
    rv_dyninst d = run(0x0005b503); /* ld a0, 0(a1) */
    cr_expect(!spec.stuck);
    cr_expect_eq(spec.cpu.x[A0], 0x1122334455667788ull);
    cr_expect(d.mem_access == RV_MEM_LOAD && d.mem_addr == DATA && d.mem_size == 8);
    d = run(0x00c5b023); /* sd a2, 0(a1) */
    cr_expect(!spec.stuck && d.mem_access == RV_MEM_STORE && d.mem_addr == DATA);
    run(0x0005b683); /* ld a3, 0(a1) */
    cr_expect_eq(spec.cpu.x[A3], 0xabcdef, "the wrong path's store, forwarded");
    uint64_t guest;
    memcpy(&guest, mem_host(&proc.mem, DATA), 8);
    cr_expect_eq(guest, 0x1122334455667788ull, "guest memory untouched");
    cr_expect_eq(proc.cpu.x[A0], 0, "guest registers untouched");
    cr_expect_eq(proc.cpu.x[A3], 0);
}

Test(exec_spec, a_partial_store_merges_into_a_wider_load)
{
    run(0x00c58023); /* sb a2, 0(a1): 0xef */
    run(0x0005b503); /* ld a0, 0(a1) */
    cr_expect_eq(spec.cpu.x[A0], 0x11223344556677efull);
}

Test(exec_spec, faulting_accesses_are_stuck)
{
    spec.cpu.x[A1] = UNMAPPED;
    run(0x0005b503); /* ld a0, 0(a1) */
    cr_expect(spec.stuck, "load from an unmapped page");
    spec.cpu.x[A1] = RO;
    run(0x0005b503);
    cr_expect(!spec.stuck, "a read-only page reads");
    run(0x00c5b023); /* sd a2, 0(a1) */
    cr_expect(spec.stuck, "store to a read-only page");
    spec.cpu.x[A1] = DATA + 1;
    run(0x00c5b52f); /* amoadd.d a0, a2, (a1) */
    cr_expect(spec.stuck, "atomics never run ahead");
}

Test(exec_spec, what_cannot_run_ahead_is_stuck_and_changes_nothing)
{
    static const uint32_t words[] = {0x00000073 /* ecall */, 0x00159573 /* csrrw a0, fflags, a1 */,
                                     0x0000100f /* fence.i */, 0x00c5b52f /* amoadd.d a0, a2, (a1) */};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        rv_insn in;
        rv_decode(&in, PC, (uint16_t)words[i], (uint16_t)(words[i] >> 16));
        cr_expect(!rv_spec_runnable(&in), "word %#x", words[i]);
        run(words[i]);
        cr_expect(spec.stuck, "word %#x", words[i]);
        cr_expect_eq(spec.cpu.x[A0], 0, "word %#x wrote a0", words[i]);
    }
    cr_expect_eq(spec.nstores, 0);
}

Test(exec_spec, branches_and_arithmetic_use_its_registers)
{
    run(0x00150513); /* addi a0, a0, 1 */
    cr_expect_eq(spec.cpu.x[A0], 1);
    rv_dyninst d = run(0x00a50863); /* beq a0, a0, 16 */
    cr_expect(d.taken && d.next_pc == PC + 16);
    d = run(0x00b50863); /* beq a0, a1, 16 */
    cr_expect(!d.taken && d.next_pc == PC + 4);
}
