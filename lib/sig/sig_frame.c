/* The RISC-V Linux signal frame (arch/riscv/kernel/signal.c): what a
 * handler finds on its stack, and what rt_sigreturn puts back.
 *
 *   struct rt_sigframe { siginfo_t info; struct ucontext uc; }   1088 bytes
 *   ucontext: uc_flags, uc_link, uc_stack (sp, flags, size), uc_sigmask,
 *             120 bytes reserved, then at 176 the sigcontext (16-aligned):
 *             32 words pc, x1..x31, then the FP state: f0..f31, fcsr, and
 *             the extension header area (zero: no vector state). */
#include <string.h>

#include "loader.h"
#include "proc.h"
#include "sig/sig.h"

enum {
    FRAME_INFO = 0,
    FRAME_UC = 128,
    UC_STACK = FRAME_UC + 16,
    UC_SIGMASK = FRAME_UC + 40,
    UC_REGS = FRAME_UC + 176,
    UC_FREGS = UC_REGS + 32 * 8,
    UC_FCSR = UC_FREGS + 32 * 8,
    FRAME_SIZE = FRAME_UC + 176 + 256 + 528,
};
_Static_assert(FRAME_SIZE == 1088 && FRAME_SIZE % 16 == 0, "rt_sigframe layout");

static const uint64_t unblockable = UINT64_C(1) << (9 - 1) | UINT64_C(1) << (19 - 1); /* SIGKILL, SIGSTOP */

/* The return address of every handler: li a7, 139 (rt_sigreturn); ecall.
 * The same two instructions as the kernel's vDSO, which unwinders look for. */
static bool trampoline(rv_proc *p, uint64_t *addr)
{
    static const uint32_t code[2] = {0x08b00893, 0x00000073};
    const rv_vma *v = mem_find_vma(&p->mem, RV_SIGRETURN_PAGE);
    if (!v) {
        if (mem_map(&p->mem, RV_SIGRETURN_PAGE, GUEST_PAGE_SIZE, GP_R | GP_X, VMA_ANON, -1, 0, NULL, "[vdso]"))
            return false;
        mem_lift_protection(&p->mem, RV_SIGRETURN_PAGE, GUEST_PAGE_SIZE);
        memcpy(mem_host(&p->mem, RV_SIGRETURN_PAGE), code, sizeof code);
        mem_restore_protection(&p->mem, RV_SIGRETURN_PAGE, GUEST_PAGE_SIZE);
    } else if (!v->label || strcmp(v->label, "[vdso]") != 0) {
        return false; /* the program mapped something else there */
    }
    *addr = RV_SIGRETURN_PAGE;
    return true;
}

static void put(uint8_t *frame, size_t at, const void *v, size_t n)
{
    memcpy(frame + at, v, n);
}

bool sig_frame_push(rv_proc *p, int sig, const rv_siginfo *info, uint64_t saved_mask)
{
    rv_sigstate *s = &p->os.sig;
    rv_cpu *c = &p->cpu;
    uint64_t sp = c->x[2], ret;
    const rv_sigaction *act = &s->action[sig];
    /* On the alternate stack and about to overflow it: no frame. */
    if (sig_altstack_flags(s, sp) == G_SS_ONSTACK && sig_altstack_flags(s, sp - FRAME_SIZE) != G_SS_ONSTACK)
        return false;
    if ((act->flags & G_SA_ONSTACK) && sig_altstack_flags(s, sp) == 0)
        sp = s->ss_sp + s->ss_size;
    uint64_t frame_addr = (sp - FRAME_SIZE) & ~UINT64_C(15);
    if (!mem_ok(&p->mem, frame_addr, FRAME_SIZE, GP_W) || !trampoline(p, &ret))
        return false;

    uint8_t frame[FRAME_SIZE];
    memset(frame, 0, sizeof frame);
    put(frame, FRAME_INFO, info, sizeof *info);
    uint32_t ss_flags = s->ss_flags;
    put(frame, UC_STACK, &s->ss_sp, 8);
    put(frame, UC_STACK + 8, &ss_flags, 4);
    put(frame, UC_STACK + 16, &s->ss_size, 8);
    put(frame, UC_SIGMASK, &saved_mask, 8);
    put(frame, UC_REGS, &c->pc, 8);
    put(frame, UC_REGS + 8, &c->x[1], 31 * 8);
    put(frame, UC_FREGS, c->f, 32 * 8);
    uint32_t fcsr = c->frm << 5 | c->fflags;
    put(frame, UC_FCSR, &fcsr, 4);
    mem_write(&p->mem, frame_addr, frame, sizeof frame);

    if (s->ss_flags & G_SS_AUTODISARM)
        s->ss_sp = s->ss_size = 0, s->ss_flags = G_SS_DISABLE;
    c->x[1] = ret;
    c->x[2] = frame_addr;
    c->x[10] = (uint64_t)sig;
    c->x[11] = frame_addr + FRAME_INFO;
    c->x[12] = frame_addr + FRAME_UC;
    c->pc = act->handler;
    c->has_reservation = false; /* a trap breaks LR/SC */
    return true;
}

bool sig_frame_pop(rv_proc *p, uint64_t *a0)
{
    rv_cpu *c = &p->cpu;
    uint64_t frame_addr = c->x[2];
    uint8_t frame[FRAME_SIZE];
    if (!mem_read(&p->mem, frame, frame_addr, sizeof frame))
        return false;
    uint64_t mask, ss_sp, ss_size;
    uint32_t ss_flags, fcsr;
    memcpy(&mask, frame + UC_SIGMASK, 8);
    memcpy(&c->pc, frame + UC_REGS, 8);
    memcpy(&c->x[1], frame + UC_REGS + 8, 31 * 8);
    memcpy(c->f, frame + UC_FREGS, 32 * 8);
    memcpy(&fcsr, frame + UC_FCSR, 4);
    c->frm = (fcsr >> 5) & 7;
    c->fflags = fcsr & 0x1f;
    c->has_reservation = false;
    p->os.sig.blocked = mask & ~unblockable;
    memcpy(&ss_sp, frame + UC_STACK, 8);
    memcpy(&ss_flags, frame + UC_STACK + 8, 4);
    memcpy(&ss_size, frame + UC_STACK + 16, 8);
    /* As the kernel's restore_altstack: a refused change is not an error. */
    sig_altstack_set(&p->os.sig, c->x[2], ss_sp, ss_flags, ss_size);
    *a0 = c->x[10];
    return true;
}
