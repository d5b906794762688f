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
    p->trap_idx = in->idx;
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
