#include "jit/check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code.h"
#include "exec/exec_common.h"
#include "util.h"

void jit_check_log_store(rv_proc *p, uint64_t addr, unsigned bytes)
{
    rv_undo *u = p->undo;
    if (u->n == sizeof u->w / sizeof *u->w)
        die("jit-check: too many stores in one block");
    u->w[u->n].addr = addr;
    u->w[u->n].bytes = bytes;
    u->w[u->n].old = 0;
    memcpy(&u->w[u->n].old, mem_host(&p->mem, addr), bytes);
    u->n++;
}

static noreturn void differ(const rv_block *b, const char *what, uint64_t translated, uint64_t interpreted)
{
    die("jit-check: block at 0x%" PRIx64 " (%u instructions): %s is 0x%" PRIx64 " translated, 0x%" PRIx64
        " interpreted",
        b->pc, b->n, what, translated, interpreted);
}

static void compare_cpu(const rv_block *b, const rv_cpu *t, const rv_cpu *i)
{
    char what[32];
    for (int r = 1; r < 32; r++)
        if (t->x[r] != i->x[r]) {
            snprintf(what, sizeof what, "x%d", r);
            differ(b, what, t->x[r], i->x[r]);
        }
    for (int r = 0; r < 32; r++)
        if (t->f[r] != i->f[r]) {
            snprintf(what, sizeof what, "f%d", r);
            differ(b, what, t->f[r], i->f[r]);
        }
    if (t->pc != i->pc) differ(b, "the next pc", t->pc, i->pc);
    if (t->icount != i->icount) differ(b, "the instruction count", t->icount, i->icount);
    if (t->fflags != i->fflags) differ(b, "fflags", t->fflags, i->fflags);
    if (t->frm != i->frm) differ(b, "frm", t->frm, i->frm);
    if (t->has_reservation != i->has_reservation || (i->has_reservation && t->reservation != i->reservation))
        differ(b, "the LR reservation", t->has_reservation ? t->reservation : 0,
               i->has_reservation ? i->reservation : 0);
}

uint32_t jit_check_block(rv_proc *p, rv_block *b, rv_jit_code host)
{
    /* on the stack: processes may run on several threads (sim's regions) */
    rv_undo undo;
    rv_dyninst d[RV_BLOCK_MAX_INSNS];
    rv_cpu before = p->cpu;
    before.pc = b->pc;
    p->cpu.pc = b->pc;
    undo.n = 0;
    p->undo = &undo;
    size_t done = code_step(p, d, b->n, false);
    p->undo = NULL;
    if (done < b->n || p->stop != RV_RUNNING) {
        /* the caller warms what ran of b, as after step_partial */
        if (p->trace)
            trace_stepped(p, b, 0, d, done);
        return (uint32_t)done;
    }
    rv_cpu interpreted = p->cpu;
    /* what the interpreter stored, then memory as it was */
    uint64_t stored[sizeof undo.w / sizeof *undo.w];
    for (size_t k = 0; k < undo.n; k++) {
        stored[k] = 0;
        memcpy(&stored[k], mem_host(&p->mem, undo.w[k].addr), undo.w[k].bytes);
    }
    for (size_t k = undo.n; k-- > 0;)
        memcpy(mem_host(&p->mem, undo.w[k].addr), &undo.w[k].old, undo.w[k].bytes);
    p->cpu = before;
    code_run(p, host);
    rv_cpu translated = p->cpu;
    translated.block_pc = interpreted.block_pc;
    compare_cpu(b, &translated, &interpreted);
    for (size_t k = 0; k < undo.n; k++) {
        uint64_t now = 0;
        memcpy(&now, mem_host(&p->mem, undo.w[k].addr), undo.w[k].bytes);
        if (now != stored[k]) {
            char what[48];
            snprintf(what, sizeof what, "memory at 0x%" PRIx64, undo.w[k].addr);
            differ(b, what, now, stored[k]);
        }
    }
    return b->n;
}
