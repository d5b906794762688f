/* The wrong path: after a mispredicted branch, SonicBOOM's front end goes on
 * fetching the path it predicted, and the core executes it until the branch
 * resolves. Those instructions are decoded from guest memory and executed
 * on a speculative copy of the registers (lib/exec/exec_spec.h), and take fetch
 * bandwidth, ROB, issue-queue, load/store-queue and register entries and
 * issue ports; their loads access the TLBs and caches (pollution and
 * prefetching both). They never commit: when the branch resolves they are
 * squashed, and everything they held is given back: the rename state (the
 * ready times of the registers and dividers as the branch's dispatch left
 * them), the predictor's speculative history and return stack.
 *
 * The functional model stops after every control transfer (fetch.c), so
 * when the front end fetches the mispredicted branch the process is in the
 * state right after it: the wrong path starts from there. Its instructions
 * are decoded as they are fetched and executed as they dispatch (in order:
 * only what dispatches before the branch resolves needs its values). They
 * are numbered after the branch, in the window slots the correct path takes
 * again once they are squashed. */
#include "core.h"

#include <string.h>

void wrong_path_start(sim_core *c, const uop *b)
{
    /* Only from the state right after the branch (the functional model
     * has not run past it), and only while the process runs. */
    if (!c->cfg.wrong_path || c->avail != b->d.icount + 1 || c->proc->stop != RV_RUNNING) return;
    c->wp.on = true;
    c->wp.stopped = false;
    c->wp.branch = b->d.icount;
    c->wp.branches = 0;
    c->wp.bp = bpred_checkpoint(c->ua->bp);
    c->wp.packet = c->packet;
    c->wp.history = c->history;
    c->wp.fetch_pc = c->predictions[b->d.icount & c->win_mask].next_pc;
    rv_spec_start(&c->wp.spec, c->proc);
}

bool wrong_path_next(sim_core *c)
{
    if (c->fetch < c->avail) return true;
    if (c->wp.stopped || c->avail - c->head > c->win_mask) return false;
    const decoded *d = decode_cache_fetch(c->decoded, &c->proc->mem, c->wp.fetch_pc);
    if (!d) {
        c->wp.stopped = true; /* nothing the guest may execute there */
        return false;
    }
    uop *u = core_uop(c, c->avail);
    core_uop_clear(u);
    u->d = (rv_dyninst){.insn = d->insn, .icount = c->avail, .next_pc = d->pc + d->insn.len};
    u->ops = d->ops;
    u->wrong_path = true;
    u->stuck = !d->spec_runnable;
    c->wp.fetch_pc = u->d.next_pc; /* a control transfer's prediction moves it (fetch.c) */
    /* Nothing is fetched past an instruction that cannot execute, nor
     * past more conditional branches than the predictor can rewind. */
    if (u->stuck) c->wp.stopped = true;
    if (rv_ops[d->insn.op].cls == CLS_BRANCH && ++c->wp.branches == TAGE_REWIND_MAX - 1) c->wp.stopped = true;
    c->avail++;
    return true;
}

void wrong_path_execute(sim_core *c, uop *u)
{
    /* Its own outcome is not where it went: fetch followed the prediction. */
    rv_dyninst d = u->d;
    rv_spec_exec(&c->wp.spec, &u->d.insn, &d);
    u->d.mem_addr = d.mem_addr, u->d.mem_size = d.mem_size, u->d.mem_access = d.mem_access;
    u->stuck = c->wp.spec.stuck;
    u->executed = true;
}

void wrong_path_dispatched(sim_core *c, const uop *u)
{
    if (!c->wp.on || u->d.icount != c->wp.branch) return;
    memcpy(c->wp.reg_ready, c->reg_ready, sizeof c->reg_ready);
    memcpy(c->wp.div_free, c->div_free, sizeof c->div_free);
    memcpy(c->wp.fdiv_free, c->fdiv_free, sizeof c->fdiv_free);
}

uint64_t wrong_path_cutoff(const sim_core *c)
{
    if (!c->wp.on || c->wp.branch >= c->disp) return UINT64_MAX;
    return core_resolves_at(c, core_uop(c, c->wp.branch));
}

/* The probe's view of the wrong path past what the core dispatched, for
 * the instance consumers that read it (core_add_instance_probe's reads_ahead): what a
 * larger window would have dispatched before the branch resolved. It runs
 * the core's own wrong-path semantics on a copy of the wrong path's
 * registers and stores, and changes nothing the core simulates. */

/* Execute the wrong path's next instruction into d (its access, and where
 * it goes); false when it cannot (not runnable, or its access would
 * fault): it would wait there until squashed, and the probe goes no
 * further. */
static bool execute_ahead(rv_spec *spec, rv_dyninst *d)
{
    rv_spec_exec(spec, &d->insn, d);
    return !spec->stuck;
}

static void note_access(const sim_core *c, instance_record *r, const rv_dyninst *d, uint8_t kind)
{
    r->ahead = kind, r->ahead_access = d->mem_access, r->ahead_addr = d->mem_addr;
    if (d->mem_access == RV_MEM_LOAD) r->l1d_line = probe_l1d_line(c, d->mem_addr);
}

/* The fetched instructions the core did not dispatch (wp_ended's records
 * from `first` on): their accesses. An instruction at the head of dispatch
 * may have executed already (its access decided where it went). */
static bool execute_fetched(sim_core *c, rv_spec *spec, size_t first)
{
    for (size_t i = first; i < c->wp_ended.n; i++) {
        const uop *u = core_uop(c, c->wp_ended.r[i].seq);
        rv_dyninst d = u->d;
        if (u->stuck || (!u->executed && !execute_ahead(spec, &d))) return false;
        note_access(c, &c->wp_ended.r[i], &d, AHEAD_FETCHED);
    }
    return true;
}

static instance_record unfetched_record(const sim_core *c, const decoded *dc, const rv_dyninst *d)
{
    instance_record r = {.instance = c->instances + c->ahead.n, .seq = d->icount, .pc = dc->pc,
                         .abort_key = STK_FLUSHED_MISPREDICT, .cls = rv_ops[dc->insn.op].cls, .op = dc->insn.op,
                         .branch_tag = core_takes_branch_tag(rv_ops[dc->insn.op].cls, 0), /* never recoded: not fetched */
                         .dst = dc->ops.dst, .src = {dc->ops.src[0], dc->ops.src[1], dc->ops.src[2]},
                         .taken = d->taken, .load = d->mem_access == RV_MEM_LOAD, .mem_addr = d->mem_addr,
                         .sq_head_seq = UINT64_MAX, .sq_head_done = UINT64_MAX};
    note_access(c, &r, d, AHEAD_UNFETCHED);
    return r;
}

/* The rest of the path the core did not fetch, from where its fetch
 * stopped (an instruction decoded but not fetched yet is the first), as
 * far as a window of PROBE_AHEAD_MAX after the branch and the wrong
 * path's own limits (wrong_path_next) let it go. The predictor's
 * speculative state cannot run further without changing it: a control
 * transfer goes where it goes on the wrong path's registers. */
static void follow_unfetched(sim_core *c, rv_spec *spec)
{
    uint64_t pc = c->wp.fetch_pc;
    int branches = c->wp.branches;
    if (c->avail > c->fetch) {
        const uop *next = core_uop(c, c->fetch);
        pc = next->d.insn.pc;
        branches -= rv_ops[next->d.insn.op].cls == CLS_BRANCH;
    }
    for (uint64_t seq = c->fetch; seq - c->wp.branch <= PROBE_AHEAD_MAX; seq++) {
        const decoded *dc = decode_cache_fetch(c->decoded, &c->proc->mem, pc);
        if (!dc || !dc->spec_runnable) return;
        rv_dyninst d = {.insn = dc->insn, .icount = seq};
        if (!execute_ahead(spec, &d)) return;
        c->ahead.r[c->ahead.n] = unfetched_record(c, dc, &d);
        c->ahead.n++;
        pc = d.next_pc;
        if (rv_ops[dc->insn.op].cls == CLS_BRANCH && ++branches == TAGE_REWIND_MAX - 1) return;
    }
}

/* At the squash: the fetched records from `first` are those not
 * dispatched. */
static void record_ahead(sim_core *c, size_t first)
{
    rv_spec spec = c->wp.spec;
    c->ahead.branch = c->wp.branch;
    c->ahead.n = 0;
    if (execute_fetched(c, &spec, first) && (!c->wp.stopped || c->avail > c->fetch)) follow_unfetched(c, &spec);
}

/* The window and the predictor as if the branch had just been fetched on
 * the correct path. */
static void rewind_front_end(sim_core *c)
{
    uint64_t from = c->wp.branch + 1;
    uint64_t cap = (uint64_t)c->cfg.max_branches;
    while (c->br_tail > c->br_head && c->branches[(c->br_tail - 1) % cap] >= from) c->br_tail--;
    c->fetch = c->avail = from;
    if (c->disp > from) c->disp = from;
    c->dec.left = 0; /* what is left of the decode packet is on the wrong path */
    c->sfb_to = 0;
    bpred_rewind(c->ua->bp, &c->wp.bp);
    c->packet = c->wp.packet; /* the wrong path's FTQ entries are free again */
    c->history = c->wp.history;
    c->wp.on = false;
}

void wrong_path_squash(sim_core *c)
{
    uint64_t from = c->wp.branch + 1;
    uop *b = core_uop(c, c->wp.branch);
    probe_note_squash(c, from);
    c->wp_ended.branch = c->wp.branch;
    c->wp_ended.n = 0;
    unsigned issued = 0;
    /* Without instance probes only the dispatched ones need anything. */
    uint64_t end = c->ninstance_probes ? c->fetch : c->disp;
    for (uint64_t s = from; s < end; s++) {
        uop *u = core_uop(c, s);
        if (c->ninstance_probes) c->wp_ended.r[c->wp_ended.n++] = probe_instance_record(c, u, false, STK_FLUSHED_MISPREDICT);
        if (s >= c->disp) continue;
        issued += u->issue < c->now;
        core_unschedule(c, u);
    }
    uint64_t n = (uint64_t)c->cfg.stq_entries;
    while (c->stq_tail > c->stq_head && c->stq[(c->stq_tail - 1) % n].seq >= from) c->stq_tail--;
    memcpy(c->reg_ready, c->wp.reg_ready, sizeof c->reg_ready);
    memcpy(c->div_free, c->wp.div_free, sizeof c->div_free);
    memcpy(c->fdiv_free, c->wp.fdiv_free, sizeof c->fdiv_free);
    if (probe_reads_ahead(c)) record_ahead(c, (size_t)(c->disp - from));
    b->wp_fetched = (uint16_t)(c->fetch - from < UINT16_MAX ? c->fetch - from : UINT16_MAX);
    b->wp_issued = (uint16_t)issued;
    rewind_front_end(c);
}

void wrong_path_drop(sim_core *c)
{
    if (c->wp.on) rewind_front_end(c);
}
