/* Translated loads whose page check the host does (rv_jit_kind.host_loads):
 * a load the guest may not do faults on the host, and this SIGSEGV handler
 * makes it the guest's fault, as the load's own check would have: the count
 * is the block's start (r15 holds it while translated code runs), the
 * address the instruction's (rs1 + imm: nothing of a load is visible before
 * its access but the trace entry the software check also leaves).
 *
 * Why that is exact: while p->mem.readable_iff_mapped holds, the host's
 * reservation of the guest space is accessible exactly where the guest has
 * pages and the guest may read every one of them; the load's bounds test
 * keeps its access inside the reservation. A fault anywhere else (not in
 * translated code, not a noted load, not in the reservation) is the
 * emulator's own: the previous handling is put back and the fault repeats
 * under it. */
#include "jit/host_fault.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

#include "proc.h"

static _Thread_local struct {
    rv_proc *p;
    const rv_jit *j;
    uintptr_t code, size;
} running;

static struct sigaction previous;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void on_segv(int sig, siginfo_t *si, void *context)
{
    (void)sig;
    const ucontext_t *uc = context;
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    rv_proc *p = running.p;
    if (p && pc - running.code < running.size) { /* the running code: p and j are live */
        uintptr_t at = (uintptr_t)si->si_addr - (uintptr_t)p->mem.base;
        unsigned bytes;
        const rv_insn *in = at < GUEST_VA_SIZE ? jit_host_load_at(running.j, pc, &bytes) : NULL;
        if (in) {
            p->cpu.icount = (uint64_t)uc->uc_mcontext.gregs[REG_R15];
            rv_fault_load(p, in, p->cpu.x[in->rs1] + (uint64_t)in->imm, bytes); /* leaves through p->trap */
        }
    }
    sigaction(SIGSEGV, &previous, NULL);
}

static void install(void)
{
    struct sigaction sa = {.sa_sigaction = on_segv};
    sigemptyset(&sa.sa_mask);
    /* SA_NODEFER: the handler leaves by longjmp, which would otherwise leave
     * SIGSEGV blocked. */
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, &previous);
}

void host_fault_install(void)
{
    pthread_once(&installed, install);
}

void host_fault_running(rv_proc *p, const rv_jit *j, const void *code, size_t size)
{
    running.p = p;
    running.j = j;
    running.code = (uintptr_t)code;
    running.size = size;
}
