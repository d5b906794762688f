#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proc.h"

static void describe(rv_proc *p, int signal, const char *fmt, va_list ap)
{
    p->stop = RV_STOP_SIGNAL;
    p->signal = signal;
    p->exit_status = 128 + signal;
    vsnprintf(p->message, sizeof p->message, fmt, ap);
}

_Noreturn void rv_trap(rv_proc *p, const rv_insn *in, int signal, int code, uint64_t addr, const char *fmt, ...)
{
    p->cpu.pc = in->pc;
    p->trap_insn = in;
    if (sig_take_fault(p, signal, code, addr))
        longjmp(*p->trap, 1);
    va_list ap;
    va_start(ap, fmt);
    describe(p, signal, fmt, ap);
    va_end(ap);
    char dis[64] = "", where[128];
    if (in->len) /* a fetch fault has no instruction to show */
        rv_disasm(in, dis, sizeof dis);
    snprintf(where, sizeof where, " at pc 0x%llx%s%s%s", (unsigned long long)in->pc, *dis ? " (" : "", dis,
             *dis ? ")" : "");
    strncat(p->message, where, sizeof p->message - strlen(p->message) - 1);
    longjmp(*p->trap, 1);
}

/* The first byte of an access the guest may not make with prot: a
 * misaligned access that crosses into such a page faults there, as Linux
 * (and qemu-riscv64) report it. */
static uint64_t first_denied(const rv_mem *m, uint64_t addr, unsigned bytes, unsigned prot)
{
    for (unsigned k = 0; k < bytes; k++)
        if (!mem_ok(m, addr + k, 1, prot))
            return addr + k;
    return addr;
}

/* An access past the end of the file a shared mapping maps: SIGBUS, as on Linux. */
static void fault_past_eof(rv_proc *p, const rv_insn *in, uint64_t addr, unsigned bytes, const char *access)
{
    if (addr < GUEST_VA_SIZE && (p->mem.perm[addr >> GUEST_PAGE_SHIFT] & GP_PAST_EOF))
        rv_trap(p, in, SIGBUS, G_BUS_ADRERR, addr,
                "bus error: %u-byte %s 0x%llx, past the end of the file mapped there", bytes, access,
                (unsigned long long)addr);
}

void rv_fault_load(rv_proc *p, const rv_insn *in, uint64_t addr, unsigned bytes)
{
    addr = first_denied(&p->mem, addr, bytes, GP_R);
    fault_past_eof(p, in, addr, bytes, "load from");
    bool mapped = mem_ok(&p->mem, addr, 1, 0) && mem_find_vma(&p->mem, addr);
    rv_trap(p, in, SIGSEGV, mapped ? G_SEGV_ACCERR : G_SEGV_MAPERR, addr,
            "segmentation fault: %u-byte load from %s address 0x%llx", bytes, mapped ? "protected" : "unmapped",
            (unsigned long long)addr);
}

void rv_fault_store(rv_proc *p, const rv_insn *in, uint64_t addr, unsigned bytes)
{
    addr = first_denied(&p->mem, addr, bytes, GP_W);
    fault_past_eof(p, in, addr, bytes, "store to");
    bool mapped = mem_find_vma(&p->mem, addr) != NULL;
    rv_trap(p, in, SIGSEGV, mapped ? G_SEGV_ACCERR : G_SEGV_MAPERR, addr,
            "segmentation fault: %u-byte store to %s address 0x%llx", bytes, mapped ? "read-only" : "unmapped",
            (unsigned long long)addr);
}

void rv_fault_misaligned(rv_proc *p, const rv_insn *in, uint64_t addr)
{
    rv_trap(p, in, SIGBUS, G_BUS_ADRALN, addr, "bus error: misaligned atomic access to 0x%llx", (unsigned long long)addr);
}

void rv_fault_rounding_mode(rv_proc *p, const rv_insn *in, unsigned rm)
{
    rv_trap(p, in, SIGILL, G_ILL_ILLOPC, in->pc, "illegal instruction: dynamic rounding mode with invalid frm %u", rm);
}

void rv_fault_csr(rv_proc *p, const rv_insn *in, unsigned csr, bool write)
{
    if (write)
        rv_trap(p, in, SIGILL, G_ILL_ILLOPC, in->pc, "illegal instruction: write to read-only CSR 0x%03x", csr);
    rv_trap(p, in, SIGILL, G_ILL_ILLOPC, in->pc, "illegal instruction: unsupported CSR 0x%03x", csr);
}

void rv_fault_illegal(rv_proc *p, const rv_insn *in, const char *why)
{
    rv_trap(p, in, SIGILL, G_ILL_ILLOPC, in->pc, "illegal instruction: %s", why);
}

void rv_fault_breakpoint(rv_proc *p, const rv_insn *in)
{
    rv_trap(p, in, SIGTRAP, G_TRAP_BRKPT, in->pc, "breakpoint (ebreak)");
}

void rv_kill(rv_proc *p, int signal, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    describe(p, signal, fmt, ap);
    va_end(ap);
}

void rv_exit(rv_proc *p, int code)
{
    p->stop = RV_STOP_EXIT;
    p->exit_status = code & 0xff;
}
