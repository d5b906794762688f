/* Translated loads and stores whose page check the host does
 * (rv_jit_kind.host_checks): an access the guest may not make faults on the
 * host, and this SIGSEGV handler makes it the guest's fault, as the
 * access's own check would have: the count is the block's start (r15 holds
 * it while translated code runs), the address the instruction's (rs1 +
 * imm: nothing of a load or store is visible before its access but the
 * trace entry the software check also leaves, and x86 leaves no part of a
 * faulting store behind).
 *
 * Why that is exact: the host protects the guest's reservation as the guest
 * does (mem.c): unmapped pages not at all, mapped ones readable, and
 * writable where the guest may write; while p->mem.readable_iff_mapped
 * holds, the guest may read every mapped page. The bounds test keeps the
 * access inside the reservation. A fault anywhere else (not in translated
 * code, not a noted access, not in the reservation) is the emulator's own:
 * the previous handling is put back and the fault repeats under it. */
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
        bool store;
        const rv_insn *in = at < GUEST_VA_SIZE ? jit_host_access_at(running.j, pc, &bytes, &store) : NULL;
        if (in) {
            p->cpu.icount = (uint64_t)uc->uc_mcontext.gregs[REG_R15];
            uint64_t addr = p->cpu.x[in->rs1] + (uint64_t)in->imm;
            (store ? rv_fault_store : rv_fault_load)(p, in, addr, bytes); /* leaves through p->trap */
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
