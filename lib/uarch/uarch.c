#include "uarch/uarch.h"

#include <stdio.h>
#include <stdlib.h>

#include "uarch/warm_thread.h"
#include "util.h"

void uarch_init(uarch *u, const uarch_config *c)
{
    u->cfg = *c;
    u->mem = memsys_new(c);
    u->tlb = tlbs_new(c);
    u->bp = bpred_new(c);
    u->fetch_block = UINT64_MAX;
    u->fetch_bytes = 2u * (unsigned)c->fetch_width;
    bool power_of_two = (u->fetch_bytes & (u->fetch_bytes - 1)) == 0;
    u->fetch_shift = power_of_two ? __builtin_ctz(u->fetch_bytes) : -1;
    u->line_shift = (unsigned)__builtin_ctz((unsigned)c->line_bytes); /* a power of two: memsys_new checked */
    u->fetch_in_lines = u->fetch_shift >= 2 && u->fetch_bytes <= (unsigned)c->line_bytes;
}

void uarch_destroy(uarch *u)
{
    memsys_free(u->mem);
    tlbs_free(u->tlb);
    bpred_free(u->bp);
    *u = (uarch){0};
}

static inline uint64_t fetch_block_of(int shift, unsigned bytes, uint64_t pc)
{
    return shift >= 0 ? pc >> shift : pc / bytes;
}

static inline void warm_data(uarch *u, unsigned mem_access, uint64_t mem_addr)
{
    if (mem_access & RV_MEM_STORE)
        memsys_warm_store(u->mem, mem_addr);
    else
        memsys_warm_load(u->mem, mem_addr);
}

/* Where the detailed core's front end goes when it mispredicts conditional
 * branch `in`: the way the branch did not go (memsys_warm_wrong_path). No
 * line when that is the branch's own line, which the front end has just
 * fetched. */
static inline bool wrong_path_line(const rv_insn *in, bool taken, unsigned line_shift, uint64_t *addr)
{
    if (rv_ops[in->op].cls != CLS_BRANCH) return false;
    *addr = taken ? in->pc + in->len : in->pc + (uint64_t)in->imm;
    return *addr >> line_shift != in->pc >> line_shift;
}

static inline void warm_control(uarch *u, const rv_insn *in, bool taken, uint64_t next_pc)
{
    bpred_predict_update(u->bp, in, taken, next_pc);
    if (taken) u->fetch_block = UINT64_MAX; /* a taken transfer starts a new fetch block */
}

/* One executed instruction: its memory access (RV_MEM_* bits, 0 for none)
 * and, for control flow, whether it was taken and where it went. */
static inline void warm_insn(uarch *u, const rv_insn *in, unsigned mem_access, uint64_t mem_addr, bool taken,
                             uint64_t next_pc)
{
    /* The front end reads whole fetch blocks: one I-TLB and I-cache access
     * per block entered, as the detailed core makes them. */
    uint64_t block = fetch_block_of(u->fetch_shift, u->fetch_bytes, in->pc);
    if (block != u->fetch_block) {
        u->fetch_block = block;
        tlbs_warm(u->tlb, true, in->pc);
        memsys_warm_ifetch(u->mem, in->pc);
    }
    if (mem_access) {
        tlbs_warm(u->tlb, false, mem_addr);
        warm_data(u, mem_access, mem_addr);
    }
    if (rv_ops[in->op].flags & RVF_CTRL) warm_control(u, in, taken, next_pc);
    uint64_t wrong;
    if (wrong_path_line(in, taken, u->line_shift, &wrong)) memsys_warm_wrong_path(u->mem, wrong);
}

void uarch_warm(uarch *u, const rv_dyninst *d)
{
    warm_insn(u, &d->insn, d->mem_access, d->mem_addr, d->taken, d->next_pc);
}

/* What a block's trace notes for its instruction at position i (RV_MEM_*
 * bits, 0 for none; an atomic notes a load and a store), *addr the address;
 * *k walks the trace in order and ends past i's entries. */
static inline unsigned trace_access(const rv_trace *t, uint32_t *k, uint32_t i, uint64_t *addr)
{
    unsigned access = 0;
    for (; *k < t->n && t->e[*k].idx <= i; ++*k)
        if (t->e[*k].idx == i)
            access |= t->e[*k].kind, *addr = t->e[*k].addr;
    return access;
}

/* Whether control transfer `in`, a block's last instruction, was taken. */
static inline bool trace_taken(const rv_trace *t, const rv_insn *in)
{
    return rv_ops[in->op].cls == CLS_BRANCH ? t->taken : true;
}

/* Warming from the fast path: blocks (translated or interpreted) with the
 * memory accesses they noted, warmed as warm_insn would warm each of their
 * instructions. Only this warmer touches the model meanwhile, so a
 * translation of the page of the previous one in the same TLB, or an L1
 * access that the L1's view (memsys_mru_view, which only this warmer's
 * requests change) knows to be a repeat, changes nothing but an access
 * count: those are counted here, without a call into the model, and added
 * when the model is brought up to date (uarch_warmer_sync). The rest is
 * gathered in batches (warm_batch) and learnt from a batch at a time, in
 * the stages and orders the warming thread learns in (warm_thread.h): on
 * the thread, or here when there is none (learn_own). A batch at a time
 * rather than each as it comes, each part of the model's code and tables
 * stays in the host's caches for a batch: on one CPU, warming pointer
 * chasing took 8% less CPU time over 4 KB, 13% over 64 KB, 3% over 1 MB
 * (but 2% more over 16 MB, as with a fourth of the batch). */
struct uarch_warmer {
    uarch *u;
    rv_proc *p;
    rv_trace trace;
    /* the thread of the model (NULL: none, it learns here), what is
     * gathered for it, and what is known of the L1s it has */
    warm_thread *thread;
    warm_batch batch;
    memsys_mru_view iview, dview;
    /* the run's last fetch's line and translations (UINT64_MAX: none yet) */
    uint64_t iline, ipage, dpage;
    /* Repeats: of the L1I, of the I-TLB, of both (fetches in the line of
     * the last), of the D-TLB, and of the L1D (loads, stores). No two are
     * added to together: GCC made that one 16-byte addition, whose load
     * waited for the scalar stores of one of them (no store forwarding) */
    uint64_t iline_repeats, ipage_repeats, fetch_repeats, dpage_repeats, data_repeats[2];
    /* without a thread, the batch's arrays, and what its requests of the
     * L1s need below them */
    struct own_batch {
        bp_event branch[WARM_BATCH];
        uint64_t page[WARM_BATCH], request[WARM_BATCH];
        uint64_t below[WARM_BATCH * MEMSYS_BELOW_PER_REQUEST];
    } * own;
};

/* Without a thread: learn from the batch gathered so far as the thread
 * would (warm_thread.c's stages, in order), and empty it. */
static void learn_own(uarch_warmer *w)
{
    uarch *u = w->u;
    warm_batch *b = &w->batch;
    memsys_log below = {.event = w->own->below, .plain = true};
    memsys_warm_requests(u->mem, b->request, b->nrequest, &below);
    memsys_warm_below(u->mem, below.event, below.n);
    tlbs_warm_pages(u->tlb, b->page, b->npage);
    bpred_warm_events(u->bp, b->branch, b->nbranch);
    b->nbranch = b->npage = b->nrequest = 0;
}

/* After an addition to the batch: once a part is full, hand it over to
 * the thread, or learn from it here. */
static inline void batch_added(uarch_warmer *w, int n)
{
    if (n < WARM_BATCH) return;
    if (w->thread)
        warm_thread_submit(w->thread, &w->batch);
    else
        learn_own(w);
}

static inline void warm_tlb(uarch_warmer *w, bool instr, uint64_t vaddr)
{
    warm_batch_put_page(&w->batch, warm_page(instr, vaddr));
    batch_added(w, w->batch.npage);
}

/* Whether an access (a store: write) to addr would only count in its L1
 * (instr: the L1I), as far as this warmer knows. */
static inline bool l1_repeat(uarch_warmer *w, bool instr, uint64_t addr, bool write)
{
    return memsys_mru_view_is_repeat(instr ? &w->iview : &w->dview, addr, write);
}

/* An access to the L1s that l1_repeat does not know to be a repeat. */
static inline void l1_request(uarch_warmer *w, enum memsys_request_kind kind, uint64_t addr)
{
    if (kind != MEMSYS_WRONG_PATH) /* below the L1s only */
        memsys_mru_view_note(kind == MEMSYS_FETCH ? &w->iview : &w->dview, addr, kind == MEMSYS_STORE);
    warm_batch_put_request(&w->batch, memsys_warm_request(kind, addr));
    batch_added(w, w->batch.nrequest);
}

static inline void run_fetch(uarch_warmer *w, uint64_t pc)
{
    uint64_t page = pc >> TLB_PAGE_SHIFT;
    w->iline = pc >> w->u->line_shift;
    if (page == w->ipage) {
        w->ipage_repeats++;
    } else {
        w->ipage = page;
        warm_tlb(w, true, pc);
    }
    if (l1_repeat(w, true, pc, false))
        w->iline_repeats++;
    else
        l1_request(w, MEMSYS_FETCH, pc);
}

/* Always inlined: GCC called it, once per data access noted (pointer chasing
 * over 64 KB spent some 4% more CPU time warming so). */
__attribute__((always_inline)) static inline void run_data(uarch_warmer *w, unsigned access, uint64_t addr)
{
    uint64_t page = addr >> TLB_PAGE_SHIFT;
    if (page == w->dpage) {
        w->dpage_repeats++;
    } else {
        w->dpage = page;
        warm_tlb(w, false, addr);
    }
    bool store = access & RV_MEM_STORE;
    if (l1_repeat(w, false, addr, store)) {
        w->data_repeats[store]++;
    } else {
        l1_request(w, store ? MEMSYS_STORE : MEMSYS_LOAD, addr);
    }
}

/* Positions [first, end) of b, instruction by instruction. */
static void warm_insns(uarch_warmer *w, const rv_block *b, uint32_t first, uint32_t end)
{
    uarch *u = w->u;
    const rv_trace *t = &w->trace;
    uint32_t k = 0, n = t->n;
    uint32_t next = n ? t->e[0].idx : UINT32_MAX; /* the instruction of the next access noted */
    uint64_t current = u->fetch_block;
    const int shift = u->fetch_shift; /* locals: the calls below could change u, for all the compiler knows */
    const unsigned bytes = u->fetch_bytes;
    for (uint32_t i = first; i < end; i++) {
        uint64_t pc = b->insns[i].pc, block = fetch_block_of(shift, bytes, pc);
        if (block != current) {
            current = block;
            run_fetch(w, pc);
        }
        if (next <= i) {
            uint64_t addr = 0;
            unsigned access = trace_access(t, &k, i, &addr);
            next = k < n ? t->e[k].idx : UINT32_MAX;
            if (access) run_data(w, access, addr);
        }
    }
    u->fetch_block = current;
}

/* Fetch blocks [from, to] (pc >> fetch_shift) in order, when fetch blocks
 * lie within cache lines: a fetch from the line of the run's last fetch
 * hits that line and page, the most recent of the L1I and the I-TLB (no
 * data access touches those), and is a repeat; so only the first fetch
 * block of each other line is warmed. Returns the fetch block after to. */
static inline uint64_t run_fetches(uarch_warmer *w, uint64_t from, uint64_t to)
{
    const int shift = w->u->fetch_shift, per_line = (int)w->u->line_shift - shift;
    const uint64_t in_line = ((uint64_t)1 << per_line) - 1; /* fetch blocks a line holds, - 1 */
    while (from <= to) {
        uint64_t last = (from | in_line) < to ? from | in_line : to, n = last - from + 1; /* from's line's */
        if (from >> per_line != w->iline) {
            run_fetch(w, from << shift);
            n--;
        }
        w->fetch_repeats += n;
        from = last + 1;
    }
    return from;
}

/* The same, access by access, when fetch blocks are aligned within cache
 * lines and at least 4 bytes (u->fetch_in_lines): then a straight-line
 * block enters every fetch block from its first instruction's to its
 * last's, each at the first instruction in it, whose line and page are the
 * fetch block's own. So only the accesses noted and the ends need a pc,
 * the fetch blocks entered before an access warmed before it. */
static void warm_accesses(uarch_warmer *w, const rv_block *b, uint32_t first, uint32_t end)
{
    uarch *u = w->u;
    const rv_trace *t = &w->trace;
    const int shift = u->fetch_shift;
    uint64_t entered = b->insns[first].pc >> shift, last = b->insns[end - 1].pc >> shift;
    uint64_t to_enter = entered == u->fetch_block ? entered + 1 : entered; /* the next fetch block to warm */
    for (uint32_t k = 0; k < t->n;) {
        uint32_t i = t->e[k].idx;
        uint64_t addr = 0;
        unsigned access = trace_access(t, &k, i, &addr);
        if (i < first || i >= end) continue;
        to_enter = run_fetches(w, to_enter, b->insns[i].pc >> shift);
        run_data(w, access, addr);
    }
    run_fetches(w, to_enter, last);
    u->fetch_block = last;
}

void uarch_warmer_block(void *ctx, rv_block *b, uint32_t first, uint64_t start, uint32_t executed)
{
    (void)start;
    uarch_warmer *w = ctx;
    uarch *u = w->u;
    uint32_t end = first + executed;
    if (u->fetch_in_lines)
        warm_accesses(w, b, first, end);
    else
        warm_insns(w, b, first, end);
    /* A control transfer ends its block (decode_block), so only the last
     * instruction run can be one, and then the block ran whole. */
    const rv_insn *last = &b->insns[end - 1];
    if (!(rv_ops[last->op].flags & RVF_CTRL)) return;
    bool taken = trace_taken(&w->trace, last);
    bp_event e;
    if (bpred_event(last, taken, w->p->cpu.pc, &e)) {
        warm_batch_put_branch(&w->batch, &e);
        batch_added(w, w->batch.nbranch);
    }
    if (taken) u->fetch_block = UINT64_MAX; /* as warm_control */
    uint64_t wrong;
    if (wrong_path_line(last, taken, u->line_shift, &wrong)) l1_request(w, MEMSYS_WRONG_PATH, wrong);
}

uarch_warmer *uarch_warmer_new(uarch *u, rv_proc *p, bool thread)
{
    uarch_warmer *w = malloc(sizeof *w);
    if (!w) die("out of memory");
    *w = (uarch_warmer){.u = u, .p = p, .iline = UINT64_MAX, .ipage = UINT64_MAX, .dpage = UINT64_MAX};
    if (thread) w->thread = warm_thread_start(u->bp, u->tlb, u->mem, &w->batch);
    if (!w->thread) {
        w->own = malloc(sizeof *w->own);
        if (!w->own) die("out of memory");
        w->batch = (warm_batch){.branch = w->own->branch, .page = w->own->page, .request = w->own->request, .plain = true};
    }
    memsys_mru_view_init(u->mem, true, &w->iview);
    memsys_mru_view_init(u->mem, false, &w->dview);
    p->trace = &w->trace;
    return w;
}

/* Once the thread (if any) has done all it was handed: the predictor's
 * pending branches trained, and the hits counted here added to the model's
 * access counts. */
static void catch_up(uarch_warmer *w)
{
    uarch *u = w->u;
    if (!w->thread) learn_own(w);
    bpred_warm_flush(u->bp);
    memsys_warm_ifetch_repeated(u->mem, w->iline_repeats + w->fetch_repeats);
    tlbs_warm_repeated(u->tlb, true, w->ipage_repeats + w->fetch_repeats);
    tlbs_warm_repeated(u->tlb, false, w->dpage_repeats);
    memsys_warm_data_repeated(u->mem, w->data_repeats[0], w->data_repeats[1]);
    w->iline_repeats = w->ipage_repeats = w->fetch_repeats = w->dpage_repeats = 0;
    w->data_repeats[0] = w->data_repeats[1] = 0;
}

void uarch_warmer_sync(uarch_warmer *w)
{
    if (w->thread) warm_thread_drain(w->thread, &w->batch);
    catch_up(w);
}

void uarch_warmer_free(uarch_warmer *w)
{
    if (!w) return;
    if (w->thread) warm_thread_stop(w->thread, &w->batch);
    catch_up(w);
    w->p->trace = NULL;
    free(w->iview.mru);
    free(w->dview.mru);
    free(w->own);
    free(w);
}

/* Runs this long hand the model to a thread of its own (warm_thread.h). */
enum { WARM_THREAD_MIN_INSNS = 1 << 20 };

uint64_t uarch_warm_run(uarch *u, rv_proc *p, uint64_t limit)
{
    uint64_t start = p->cpu.icount;
    if (p->cpu.icount < limit) {
        uarch_warmer *w = uarch_warmer_new(u, p, limit - p->cpu.icount >= WARM_THREAD_MIN_INSNS);
        rv_run(p, limit, uarch_warmer_block, w);
        uarch_warmer_free(w);
    }
    return p->cpu.icount - start;
}

enum { UARCH_STATE_MAGIC = 0x5541524348563031ull }; /* "UARCHV01" */

void uarch_save(const uarch *u, ustate *s)
{
    ustate_put_u64(s, UARCH_STATE_MAGIC);
    ustate_put_u64(s, uarch_state_digest(&u->cfg));
    memsys_save(u->mem, s);
    tlbs_save(u->tlb, s);
    bpred_save(u->bp, s);
}

bool uarch_restore(uarch *u, ustate *s, char *err, size_t errlen)
{
    if (ustate_get_u64(s) != UARCH_STATE_MAGIC || s->bad) {
        snprintf(err, errlen, "warm state is not micro-architectural state of this version");
        return false;
    }
    uint64_t digest = ustate_get_u64(s);
    if (digest != uarch_state_digest(&u->cfg)) {
        snprintf(err, errlen,
                 "warm state was saved under a different cache, TLB or predictor geometry (digest %016llx, this one %016llx)",
                 (unsigned long long)digest, (unsigned long long)uarch_state_digest(&u->cfg));
        return false;
    }
    if (!memsys_restore(u->mem, s) || !tlbs_restore(u->tlb, s) || !bpred_restore(u->bp, s) || s->bad) {
        snprintf(err, errlen, "warm state is damaged or does not match the configuration's geometry");
        return false;
    }
    return true;
}
