/* icost's dependence graph (sim/whatif/depgraph.c) on hand-made instance
 * streams: the critical path of a dependence chain is its simulated time,
 * and two loads of one cache line share its fill (the paper's PP edge): the
 * second, which found the line in flight, misses in the sets that idealise
 * the first (and hits in those that idealise both), so each alone saves
 * nothing and the pair saves the miss (a parallel interaction). The front
 * end's queues bound how far fetch runs ahead of a full window (the FTQ's
 * packets, the outstanding branches), with bw idealised a fetch packet
 * still ends where its bytes do, an I-cache miss blocks the I-cache
 * until its packet arrives, and a line only the wrong path had brought
 * misses without it. Stores' writes that miss hold L1D MSHRs, and a miss
 * prefetches the next line, which a later load then shares. Issue-queue
 * entries: a store's is held until its data half issues, and an entry the
 * decode packet took in the same cycle is not counted again; with bw a
 * multiply or an auipc still has one port. A load forwarded from a store waits for the
 * store's data, whatever makes that late; a store whose write the probe
 * never showed misses if its line was not in the L1D as it committed. A
 * load that hit the L1D after a page walk takes the walk's time, and with
 * bmisp walks itself when only the wrong path had, or misses a line only a
 * squashed wrong-path load filled (its own walk, then the fill's memory
 * time, not the wrong-path load's walk again); where the set resolves the
 * branch sooner, its wrong path's late load, and the page it walked, are
 * gone. A write holds its MSHR for its fill
 * less its measured wait; each set gives MSHRs in its own order of asking.
 * The issue ports are the core's in every set: with bmisp, multiplies
 * brought together contend for theirs. The wrong path the core's window
 * held back (the probe's records past its dispatch, fetched or not)
 * dispatches with win, and its load brings a line the correct path then
 * hits; the baseline and a set that does not enlarge the window drop it,
 * and so does win where the front end, not the window, held it back
 * (and win goes on where the core's window had only slowed it). A
 * wrong path's ROB row takes what had reached decode when it formed: with
 * bw, a wrong path fetched a packet a cycle runs out of rows; past the
 * core's fetch it needs FTQ entries, which it never frees; it renames
 * into the registers the correct path frees, as the core's did, so a
 * larger window sends its late load sooner, and likewise waits for
 * issue-queue entries and forms its rows of what had arrived as the core
 * did; its fetch packets lose the core's bubbles, so with
 * bw its rows take fewer; its squashed miss holds an L1D MSHR past the
 * squash, which a correct-path miss then waits for; and its load on a chain
 * of operations issues no sooner with bw's faster dispatch. */
#include <criterion/criterion.h>

#include "../../sim/core/core.h"
#include "../../sim/whatif/depgraph.h"

enum { MISS = 100 };

static instance_record op(uint64_t n, uint64_t dispatched, uint64_t issued, uint64_t completed, uint64_t ended)
{
    return (instance_record){.instance = n, .seq = n, .pc = 0x1000 + 4 * n, .fetched = dispatched - 6,
                             .fetch_ready = dispatched - 1, .dispatched = dispatched, .ready = issued,
                             .issued = issued, .completed = completed, .ended = ended, .retired = true,
                             .cls = CLS_ALU, .dst = RV_REG_NONE, .src = {RV_REG_NONE, RV_REG_NONE, RV_REG_NONE},
                             .sq_head_seq = UINT64_MAX, .sq_head_done = UINT64_MAX};
}

static depgraph_result run_on(const uarch_config *core, const depgraph_config *cfg, const instance_record *r, int n)
{
    depgraph *g = depgraph_new(cfg, core);
    depgraph_begin(g);
    for (int i = 0; i < n; i++) depgraph_instance(g, &r[i]);
    depgraph_result out;
    depgraph_finish(g, &out);
    return out;
}

static depgraph_result run(const depgraph_config *cfg, const instance_record *r, int n)
{
    uarch_config core;
    uarch_config_defaults(&core);
    return run_on(&core, cfg, r, n);
}

/* The same without the next-line prefetcher: the test's misses are its own. */
static depgraph_result run_without_prefetch(const depgraph_config *cfg, const instance_record *r, int n)
{
    uarch_config core;
    uarch_config_defaults(&core);
    core.prefetch_next_line = false;
    return run_on(&core, cfg, r, n);
}

/* r[0..older), ending in a mispredicted branch, then its wrong path
 * (told after it, as the probe does), then r[older..n). */
static depgraph_result run_with_wrong_path(const uarch_config *core, const depgraph_config *cfg, const instance_record *r,
                                           int older, int n, const instance_record *wrong, int nwrong)
{
    depgraph *dg = depgraph_new(cfg, core);
    depgraph_begin(dg);
    for (int i = 0; i < older; i++) depgraph_instance(dg, &r[i]);
    for (int i = 0; i < nwrong; i++) depgraph_instance(dg, &wrong[i]);
    for (int i = older; i < n; i++) depgraph_instance(dg, &r[i]);
    depgraph_result g;
    depgraph_finish(dg, &g);
    return g;
}

/* The baseline and bmisp: r[0], a mispredicted branch, then its wrong
 * path, then r[1..n). */
static depgraph_result run_bmisp_with_wrong_path_on(const uarch_config *core, const instance_record *r, int n,
                                                    const instance_record *wrong, int nwrong)
{
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("bmisp")}};
    return run_with_wrong_path(core, &cfg, r, 1, n, wrong, nwrong);
}

static depgraph_result run_bmisp_with_wrong_path(const instance_record *r, int n, const instance_record *wrong, int nwrong)
{
    uarch_config core;
    uarch_config_defaults(&core);
    return run_bmisp_with_wrong_path_on(&core, r, n, wrong, nwrong);
}

Test(depgraph, a_dependence_chain_is_its_simulated_time)
{
    enum { N = 200 };
    instance_record r[N];
    for (int i = 0; i < N; i++) {
        r[i] = op((uint64_t)i, 10, 11 + (uint64_t)i, 12 + (uint64_t)i, 13 + (uint64_t)i);
        r[i].dst = 5;
        if (i) r[i].src[0] = 5;
    }
    depgraph_config cfg = {.nsets = 1};
    depgraph_result g = run(&cfg, r, N);
    cr_assert_eq(g.instructions, N);
    /* From the first dispatch to the last commit, as simulated. */
    cr_assert(g.cycles[0] >= N && g.cycles[0] <= N + 8, "%lu cycles", (unsigned long)g.cycles[0]);
}

Test(depgraph, loads_of_one_line_share_its_fill)
{
    /* Load a misses; load b, to the same line, issues a cycle later and
     * merges with a's fill; both feed nothing. */
    instance_record r[2] = {op(0, 10, 12, 12 + MISS, 13 + MISS), op(1, 10, 13, 12 + MISS, 13 + MISS)};
    for (int i = 0; i < 2; i++) {
        r[i].load = true, r[i].cls = CLS_LOAD, r[i].mem_level = MEM_DRAM;
        r[i].mem_addr = 0x8000 + 8 * (uint64_t)i;
    }
    r[1].ready = r[1].issued = 12; /* in the same cycle's other port */
    depgraph_config cfg = {.nsets = 4, .sets = {0, depgraph_load_bit(0), depgraph_load_bit(1),
                                                depgraph_load_bit(0) | depgraph_load_bit(1)},
                           .nloads = 2, .loads = {r[0].pc, r[1].pc}};
    depgraph_result g = run(&cfg, r, 2);
    uint64_t base = g.cycles[0];
    cr_assert(base > MISS, "%lu", (unsigned long)base);
    cr_assert(base - g.cycles[1] < 10, "a idealised: b misses instead (%lu of %lu)", (unsigned long)g.cycles[1],
              (unsigned long)base);
    cr_assert(base - g.cycles[2] < 10, "b idealised: a still misses (%lu of %lu)", (unsigned long)g.cycles[2],
              (unsigned long)base);
    cr_assert(base - g.cycles[3] > MISS - 10, "both: the miss is gone (%lu of %lu)", (unsigned long)g.cycles[3],
              (unsigned long)base);
}

/* n independent operations of `latency` cycles, one per fetch packet, pcs 4
 * bytes apart. */
static void long_ops(instance_record *r, int n, uint64_t latency)
{
    for (int i = 0; i < n; i++) {
        r[i] = op((uint64_t)i, 10 + (uint64_t)i, 11 + (uint64_t)i, 11 + (uint64_t)i + latency, 12 + (uint64_t)i + latency);
        r[i].packet = (uint32_t)i + 1;
    }
}

Test(depgraph, the_ftq_holds_a_packet_until_it_commits)
{
    /* With the window idealised (ROB rows for 256 one-instruction packets),
     * the FTQ's 40 packets are what bounds the operations in flight: 400
     * of them take some 10 x 100 cycles, not 400 + 100 (one fetch a cycle). */
    enum { N = 400, LATENCY = 100 };
    static instance_record r[N];
    long_ops(r, N, LATENCY);
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("win")}};
    depgraph_result g = run(&cfg, r, N);
    cr_assert(g.cycles[1] > 900, "%lu cycles with the window idealised", (unsigned long)g.cycles[1]);
    cr_assert(g.cycles[0] > g.cycles[1], "%lu cycles in the baseline", (unsigned long)g.cycles[0]);
}

/* Pairs of a 100-cycle operation and a branch on its result, four pairs a
 * packet; the branches hold branch tags or not (recoded short forward
 * branches do not). */
static depgraph_result branch_pairs(bool tags)
{
    enum { N = 400, LATENCY = 100 };
    static instance_record r[N];
    long_ops(r, N, LATENCY);
    for (int i = 0; i < N; i++) {
        r[i].packet = (uint32_t)i / 8 + 1;
        if (i % 2)
            r[i].cls = CLS_BRANCH, r[i].branch_tag = tags, r[i].src[0] = 5, r[i].completed = r[i].issued + 1,
            r[i].ended = r[i].completed + 1;
        else r[i].dst = 5;
    }
    depgraph_config cfg = {.nsets = 1};
    return run(&cfg, r, N);
}

Test(depgraph, unresolved_branches_hold_fetch)
{
    /* At most 20 branches unresolved (frontend.max_branches): 20 pairs
     * every 100-odd cycles, where the ROB would hold 64. Recoded ones take
     * no tag: the ROB's limit alone. */
    enum { PAIRS = 200, LATENCY = 100 };
    depgraph_result tagged = branch_pairs(true), recoded = branch_pairs(false);
    cr_assert(tagged.cycles[0] > (PAIRS / 20) * LATENCY, "%lu cycles", (unsigned long)tagged.cycles[0]);
    cr_assert(recoded.cycles[0] < (PAIRS / 20) * LATENCY, "%lu cycles without branch tags", (unsigned long)recoded.cycles[0]);
}

Test(depgraph, with_bmisp_multiplies_brought_together_contend_for_their_port)
{
    /* Groups of four independent multiplies and a mispredicted branch: in
     * the core each group is fetched after the last branch resolved, so
     * its multiplies never met another group's at the one multiply port.
     * With bmisp the groups dispatch back to back, and the multiplies
     * issue one a cycle: 4 cycles a group, not 5 / 4 (the decode width). */
    enum { GROUPS = 100, N = GROUPS * 5 };
    static instance_record r[N];
    for (int i = 0; i < N; i++) {
        uint64_t t = 20 + 20 * (uint64_t)(i / 5);
        r[i] = op((uint64_t)i, t, t + 1, t + 4, t + 5);
        r[i].fetched = t - 6, r[i].fetch_ready = t - 1, r[i].packet = (uint32_t)(i / 5) * 2 + (uint32_t)(i % 5 / 4) + 1;
        if (i % 5 < 4) r[i].cls = CLS_MUL, r[i].dst = (uint8_t)(5 + i % 5), r[i].ready = r[i].issued = t + 1 + (uint64_t)(i % 5);
        else r[i].cls = CLS_BRANCH, r[i].flags = UOP_MISPREDICT, r[i].completed = t + 2;
    }
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("bmisp")}};
    depgraph_result g = run(&cfg, r, N);
    cr_assert(g.cycles[1] >= 4 * GROUPS, "%lu cycles with bmisp, %lu in the baseline", (unsigned long)g.cycles[1],
              (unsigned long)g.cycles[0]);
}

Test(depgraph, an_ideal_fetch_packet_ends_with_its_bytes)
{
    /* A loop of 12 four-byte instructions from a line's start, the last a
     * taken branch: at the ideal fetch width (32-byte packets) two packets an
     * iteration, 6 instructions a cycle, under the ideal commit width's 8. */
    enum { BODY = 12, ITERATIONS = 100, N = BODY * ITERATIONS };
    static instance_record r[N];
    for (int i = 0; i < N; i++) {
        r[i] = op((uint64_t)i, 10 + (uint64_t)i / 4, 11 + (uint64_t)i / 4, 12 + (uint64_t)i / 4, 13 + (uint64_t)i / 4);
        r[i].pc = 0x1000 + 4 * (uint64_t)(i % BODY);
        r[i].packet = (uint32_t)i / 4 + 1; /* the core's 16-byte packets */
        if (i % BODY == BODY - 1) r[i].cls = CLS_BRANCH, r[i].taken = true;
    }
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("bw")}};
    depgraph_result g = run(&cfg, r, N);
    cr_assert(g.cycles[1] >= 2 * ITERATIONS, "%lu cycles with bw idealised", (unsigned long)g.cycles[1]);
    cr_assert(g.cycles[1] < g.cycles[0], "%lu cycles in the baseline", (unsigned long)g.cycles[0]);
}

Test(depgraph, an_icache_miss_blocks_the_next_packet)
{
    /* Three packets of four instructions, each missing the I-cache for
     * 100 cycles: the core fetches one after the other (some 300 cycles);
     * with imiss idealised none waits, the whole packet hits. */
    enum { N = 12, MISS_LATENCY = 100 };
    instance_record r[N];
    for (int i = 0; i < N; i++) {
        uint64_t p = (uint64_t)i / 4, fetched = 10 + p * (MISS_LATENCY + 1), arrived = fetched + MISS_LATENCY + 5;
        r[i] = op((uint64_t)i, arrived + 1, arrived + 2, arrived + 3, arrived + 4);
        r[i].fetched = fetched, r[i].fetch_ready = arrived, r[i].packet = (uint32_t)p + 1;
        if (i % 4 == 0) r[i].flags = UOP_L1I_MISS;
    }
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("imiss")}};
    depgraph_result g = run(&cfg, r, N);
    cr_assert(g.cycles[0] > 3 * MISS_LATENCY, "%lu cycles", (unsigned long)g.cycles[0]);
    cr_assert(g.cycles[1] < 30, "%lu cycles with imiss idealised", (unsigned long)g.cycles[1]);
}

/* r[0] a mispredicted branch resolved at 20; r[1..n) the correct path
 * after it, four a packet from cycle 24 on, at 0x10000 on. */
static void after_a_mispredict(instance_record *r, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t t = 24 + (uint64_t)i / 4;
        r[i] = op((uint64_t)i, t + 6, t + 7, t + 8, t + 9);
        r[i].fetched = t, r[i].fetch_ready = t + 5, r[i].packet = (uint32_t)i / 4 + 2;
        r[i].pc = 0x10000 + 4 * (uint64_t)i;
    }
    r[0] = op(0, 10, 11, 20, 21);
    r[0].cls = CLS_BRANCH, r[0].flags = UOP_MISPREDICT, r[0].packet = 1;
}

Test(depgraph, a_line_the_wrong_path_fetched_misses_without_it)
{
    /* A mispredicted branch; its wrong path misses the I-cache on line X
     * (100 cycles), then the correct path runs 400 instructions elsewhere
     * and reaches X, which hits. With bmisp there is no wrong path: X
     * misses, some 100 cycles more than the baseline. */
    enum { N = 1 + 400 + 4, MISS_LATENCY = 100 };
    static instance_record r[N];
    after_a_mispredict(r, N);
    for (int i = N - 4; i < N; i++) r[i].pc = 0x2000 + 4 * (uint64_t)(i - (N - 4));
    instance_record wrong = op(1, 16, 0, 0, 21);
    wrong.pc = 0x2000, wrong.fetched = 15, wrong.fetch_ready = 15 + MISS_LATENCY, wrong.flags = UOP_L1I_MISS;
    wrong.retired = false, wrong.abort_key = STK_FLUSHED_MISPREDICT, wrong.packet = 2;
    depgraph_result g = run_bmisp_with_wrong_path(r, N, &wrong, 1);
    cr_assert(g.cycles[1] > g.cycles[0] + MISS_LATENCY / 2, "%lu cycles with bmisp, %lu in the baseline",
              (unsigned long)g.cycles[1], (unsigned long)g.cycles[0]);
}

/* After a mispredicted branch, n - 1 operations ending in a correct-path
 * load of line X (0x40000) that hits the L1D. */
static void ending_in_a_hit_on_line_x(instance_record *r, int n)
{
    after_a_mispredict(r, n);
    instance_record *x = &r[n - 1];
    x->cls = CLS_LOAD, x->load = true, x->mem_addr = 0x40000, x->mem_level = MEM_L1;
    x->completed = x->issued + 4, x->ended = x->completed + 1;
    x->load_issue = x->issued, x->load_data = x->completed;
}

/* The wrong path's load of line X, dispatched at 16 (issued at `issued`,
 * 0: the record has none), its access at 17 and its data `latency` cycles
 * later; squashed. */
static instance_record squashed_load_of_line_x(uint64_t issued, uint64_t latency)
{
    instance_record w = op(1, 16, issued, 0, 21);
    w.pc = 0x2000, w.cls = CLS_LOAD, w.load = true, w.mem_addr = 0x40008, w.mem_level = MEM_DRAM;
    w.load_issue = 17, w.load_data = 17 + latency;
    w.retired = false, w.abort_key = STK_FLUSHED_MISPREDICT, w.packet = 2;
    return w;
}

Test(depgraph, a_line_a_squashed_wrong_path_load_fills_misses_without_it)
{
    /* A mispredicted branch; its wrong path's load of line X misses (the
     * core schedules its access at dispatch: data 100 cycles on) and is
     * squashed before the data comes, but the line's fill goes on. The
     * correct path runs 400 instructions and then finds X in the L1D. With
     * bmisp there is no wrong path: its load of X misses, some 100 cycles
     * more than the baseline. */
    enum { N = 1 + 400 + 1, MISS_LATENCY = 100 };
    static instance_record r[N];
    ending_in_a_hit_on_line_x(r, N);
    instance_record wrong = squashed_load_of_line_x(0, MISS_LATENCY);
    depgraph_result g = run_bmisp_with_wrong_path(r, N, &wrong, 1);
    cr_assert(g.cycles[1] > g.cycles[0] + MISS_LATENCY / 2, "%lu cycles with bmisp, %lu in the baseline",
              (unsigned long)g.cycles[1], (unsigned long)g.cycles[0]);
}

Test(depgraph, a_squashed_wrong_path_miss_holds_its_mshr)
{
    /* One L1D MSHR. A mispredicted branch; its wrong path's load of line X
     * misses (data at 117) and is squashed, but the fill goes on, holding
     * the MSHR; the correct path's load of another line misses after the
     * squash and waited for it in the core (its data at 217). The baseline
     * graph's load waits as the core's did; with bmisp there is no wrong
     * path, and it misses at once. */
    enum { N = 1 + 10 + 1, MISS_LATENCY = 100 };
    static instance_record r[N];
    after_a_mispredict(r, N);
    instance_record wrong = squashed_load_of_line_x(0, MISS_LATENCY), *z = &r[N - 1];
    z->cls = CLS_LOAD, z->load = true, z->mem_addr = 0x90000, z->mem_level = MEM_DRAM;
    z->mshr_wait = (uint32_t)(wrong.load_data - z->issued), z->completed = wrong.load_data + MISS_LATENCY;
    z->ended = z->completed + 1, z->load_issue = z->issued, z->load_data = z->completed;
    uarch_config core;
    uarch_config_defaults(&core);
    core.l1d_mshrs = 1, core.prefetch_next_line = false;
    depgraph_result g = run_bmisp_with_wrong_path_on(&core, r, N, &wrong, 1);
    cr_assert(g.cycles[0] + 5 >= z->ended, "the baseline: %lu cycles, the core's load ended at %lu",
              (unsigned long)g.cycles[0], (unsigned long)z->ended);
    cr_assert(g.cycles[1] + MISS_LATENCY / 2 < g.cycles[0], "%lu cycles with bmisp, %lu in the baseline",
              (unsigned long)g.cycles[1], (unsigned long)g.cycles[0]);
}

/* A store that commits at `committed`, to addr. */
static instance_record store(uint64_t n, uint64_t committed, uint64_t addr)
{
    instance_record r = op(n, committed - 5, committed - 4, committed - 3, committed);
    r.cls = CLS_STORE, r.mem_addr = addr, r.packet = (uint32_t)n + 1;
    return r;
}

Test(depgraph, store_misses_hold_mshrs)
{
    /* Stores four to a line, lines 128 bytes apart: each line's first
     * write misses for 150 cycles and the other three merge with it (the
     * probe shows each write done at the store queue's head). The core's
     * 8 MSHRs fill 8 lines at a time, 32 stores, its store queue's size.
     * With the window idealised (a store queue of 256) the MSHRs still
     * bound the writes: no faster. */
    enum { N = 4096, LATENCY = 150 };
    static instance_record r[N];
    uint64_t done[N];
    for (int i = 0; i < N; i++) {
        uint64_t committed = 20 + (uint64_t)i * LATENCY / 32;
        r[i] = store((uint64_t)i, committed, 0x100000 + 128 * (uint64_t)(i / 4) + 8 * (uint64_t)(i % 4));
        done[i] = i % 4 ? done[i - i % 4] : committed + 1 + LATENCY;
        if (i) r[i].sq_head_seq = (uint64_t)i - 1, r[i].sq_head_done = done[i - 1], r[i].sq_head_start = r[i - 1].ended;
    }
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("win")}};
    depgraph_result g = run_without_prefetch(&cfg, r, N);
    cr_assert(g.cycles[0] > (N / 32 - 1) * LATENCY, "%lu cycles", (unsigned long)g.cycles[0]);
    cr_assert(g.cycles[1] > g.cycles[0] * 85 / 100, "%lu cycles with the window idealised, %lu in the baseline",
              (unsigned long)g.cycles[1], (unsigned long)g.cycles[0]);
}

Test(depgraph, a_prefetched_line_misses_without_its_prefetch)
{
    /* Load a misses line L; load b, of line L + 1 and a 98-cycle chain
     * later, hits: the next-line prefetcher brought it. With a idealised
     * (it hits) nothing prefetches L + 1: b misses instead, and a alone
     * saves nothing; with both idealised the miss is gone. */
    enum { N = 100 };
    static instance_record r[N];
    for (int i = 0; i < N; i++) r[i] = op((uint64_t)i, 10 + (uint64_t)i / 4, 11 + (uint64_t)i / 4, 12 + (uint64_t)i / 4, 13 + MISS + (uint64_t)i / 4);
    r[0] = op(0, 10, 12, 12 + MISS, 13 + MISS);
    r[N - 1] = op(N - 1, 40, 200, 204, 205);
    r[0].mem_level = MEM_DRAM, r[0].mem_addr = 0x8000;
    r[N - 1].mem_level = MEM_L1, r[N - 1].mem_addr = 0x8040;
    for (int i = 0; i < N; i += N - 1) r[i].load = true, r[i].cls = CLS_LOAD;
    for (int i = 1; i < N - 1; i++) r[i].dst = 6, r[i].src[0] = i > 1 ? 6 : RV_REG_NONE;
    r[N - 1].src[0] = 6;
    depgraph_config cfg = {.nsets = 4, .sets = {0, depgraph_load_bit(0), depgraph_load_bit(1),
                                                depgraph_load_bit(0) | depgraph_load_bit(1)},
                           .nloads = 2, .loads = {r[0].pc, r[N - 1].pc}};
    depgraph_result g = run(&cfg, r, N);
    uint64_t base = g.cycles[0];
    cr_assert(g.cycles[1] + 10 > base, "a idealised: b misses (%lu of %lu)", (unsigned long)g.cycles[1],
              (unsigned long)base);
    cr_assert(base - g.cycles[3] > 10, "both: the miss is gone (%lu of %lu)", (unsigned long)g.cycles[3],
              (unsigned long)base);
}

/* r[0]: an operation of `latency` cycles writing register 5; the n - 1
 * after it dispatch four a cycle, take ep cycles and commit after it. */
static void behind_long_op(instance_record *r, int n, uint64_t latency, uint64_t ep)
{
    r[0] = op(0, 10, 11, 11 + latency, 12 + latency);
    r[0].dst = 5;
    for (int i = 1; i < n; i++) {
        uint64_t t = 10 + (uint64_t)i / 4;
        r[i] = op((uint64_t)i, t, t + 1, t + 1 + ep, latency + 20 + (uint64_t)i / 4);
        r[i].packet = (uint32_t)i / 4 + 1;
    }
}

Test(depgraph, a_store_holds_its_issue_queue_entry_until_its_data_issues)
{
    /* 30 stores whose data comes from a 200-cycle operation, their
     * addresses ready, then 28 loads (forwarded, 100 cycles each): each
     * store issues its address, then its data as a second half, and keeps
     * its memory-queue entry (24) until then (BOOM's issue slot), so the
     * last stores and the loads dispatch only once the data has come, and
     * the loads run after the wait, not under it. */
    enum { N = 59, LATENCY = 200 };
    static instance_record r[N];
    behind_long_op(r, N, LATENCY, 100);
    for (int i = 1; i < N; i++) r[i].ended = LATENCY + 120 + (uint64_t)i / 4; /* the loads run after the wait */
    for (int i = 1; i <= 30; i++) {
        r[i].cls = CLS_STORE, r[i].src[1] = 5, r[i].mem_addr = 0x9000 + 8 * (uint64_t)i;
        r[i].ready = r[i].issued2 = LATENCY + 11, r[i].completed = LATENCY + 12; /* its data's */
    }
    for (int i = 31; i < N; i++) r[i].cls = CLS_LOAD, r[i].load = true, r[i].flags = UOP_FORWARDED, r[i].mem_addr = 0x9000;
    depgraph_result g = run(&(depgraph_config){.nsets = 1}, r, N);
    cr_assert(g.cycles[0] > LATENCY + 100, "%lu cycles", (unsigned long)g.cycles[0]);
}

Test(depgraph, the_dispatcher_counts_the_entries_of_the_cycle_before)
{
    /* 38 operations wait for a 300-cycle one, the last three of them in
     * the decode packet of a 500-cycle operation, which takes slot 3: the
     * integer queue (40 entries) had 5 free as the cycle began, more than
     * 3, so it dispatches with them (their entries are not counted twice)
     * and finishes some 500 cycles on, not after the 300 first. */
    enum { N = 41, LATENCY = 300 };
    static instance_record r[N];
    behind_long_op(r, N, LATENCY, 1);
    for (int i = 1; i < N; i++) {
        if (i <= 38) r[i].src[0] = 5;
        else r[i].completed = r[i].issued + 500, r[i].ended = r[i].completed + 1;
    }
    depgraph_config cfg = {.nsets = 1};
    depgraph_result g = run(&cfg, r, N);
    cr_assert(g.cycles[0] < 560, "%lu cycles", (unsigned long)g.cycles[0]);
}

Test(depgraph, with_bw_a_multiply_still_has_one_port)
{
    /* 400 independent multiplies: one issue port has the multiplier, at any
     * issue width, so at least 400 cycles with bw idealised. */
    enum { N = 400 };
    static instance_record r[N];
    for (int i = 0; i < N; i++) {
        r[i] = op((uint64_t)i, 10 + (uint64_t)i, 11 + (uint64_t)i, 14 + (uint64_t)i, 15 + (uint64_t)i);
        r[i].cls = CLS_MUL, r[i].ready = 11 + (uint64_t)i / 4, r[i].packet = (uint32_t)i / 4 + 1;
    }
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("bw")}};
    depgraph_result g = run(&cfg, r, N);
    cr_assert(g.cycles[1] >= N, "%lu cycles with bw idealised", (unsigned long)g.cycles[1]);
}

Test(depgraph, with_bw_an_auipc_still_has_one_port)
{
    /* 400 independent auipcs: they run on the jump unit, which reads pcs,
     * on one issue port at any issue width: at least 400 cycles with bw
     * idealised. */
    enum { N = 400 };
    static instance_record r[N];
    for (int i = 0; i < N; i++) {
        r[i] = op((uint64_t)i, 10 + (uint64_t)i, 11 + (uint64_t)i, 12 + (uint64_t)i, 13 + (uint64_t)i);
        r[i].op = RV_OP_auipc, r[i].wake = 3, r[i].ready = 11 + (uint64_t)i / 4, r[i].packet = (uint32_t)i / 4 + 1;
    }
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("bw")}};
    depgraph_result g = run(&cfg, r, N);
    cr_assert(g.cycles[1] >= N, "%lu cycles with bw idealised", (unsigned long)g.cycles[1]);
}

Test(depgraph, a_forwarded_load_waits_for_its_stores_data)
{
    /* A load misses (100 cycles); a store writes its value to A; a load of
     * A takes it from the store queue, once it is there; a 100-cycle
     * operation uses it. With dmiss the first load hits: the store's data,
     * the forwarded load and the operation all come 100 cycles sooner. */
    enum { N = 4 };
    instance_record r[N] = {op(0, 10, 11, 11 + MISS, 12 + MISS), op(1, 10, 11, 12 + MISS, 13 + MISS),
                            op(2, 10, 12, 13 + MISS, 14 + MISS), op(3, 11, 13 + MISS, 13 + 2 * MISS, 14 + 2 * MISS)};
    r[0].cls = CLS_LOAD, r[0].load = true, r[0].mem_level = MEM_DRAM, r[0].mem_addr = 0x8000, r[0].dst = 5;
    r[1].cls = CLS_STORE, r[1].mem_addr = 0xa000, r[1].src[1] = 5, r[1].ready = 11 + MISS;
    r[2].cls = CLS_LOAD, r[2].load = true, r[2].flags = UOP_FORWARDED, r[2].mem_addr = 0xa000, r[2].dst = 6;
    r[3].src[0] = 6;
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("dmiss")}};
    depgraph_result g = run(&cfg, r, N);
    cr_assert(g.cycles[0] > 2 * MISS, "%lu cycles", (unsigned long)g.cycles[0]);
    cr_assert(g.cycles[0] - g.cycles[1] > MISS - 10, "%lu cycles with dmiss, %lu in the baseline",
              (unsigned long)g.cycles[1], (unsigned long)g.cycles[0]);
}

Test(depgraph, a_store_not_seen_misses_if_its_line_was_absent)
{
    /* As store_misses_hold_mshrs, but no write is ever seen at the store
     * queue's head: the probe tells that each line's first store found its
     * line absent as it committed, the others found it being filled. */
    enum { N = 4096, LATENCY = 150 };
    static instance_record r[N];
    for (int i = 0; i < N; i++) {
        r[i] = store((uint64_t)i, 20 + (uint64_t)i * LATENCY / 32, 0x100000 + 128 * (uint64_t)(i / 4) + 8 * (uint64_t)(i % 4));
        r[i].l1d_line = i % 4 ? L1D_FILLING : L1D_ABSENT;
    }
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("win")}};
    depgraph_result g = run_without_prefetch(&cfg, r, N);
    cr_assert(g.cycles[0] > (N / 32) * LATENCY, "%lu cycles", (unsigned long)g.cycles[0]);
    cr_assert(g.cycles[1] > g.cycles[0] * 85 / 100, "%lu cycles with the window idealised, %lu in the baseline",
              (unsigned long)g.cycles[1], (unsigned long)g.cycles[0]);
}

/* n loads, each on the one before (a chase), each hitting the L1D after a
 * page walk (4 + 60 cycles, then 4), pcs and pages of their own. */
static void walking_chase(instance_record *r, int n, uint64_t first)
{
    for (int i = 0; i < n; i++) {
        uint64_t t = 100 + 68 * (uint64_t)(first + (uint64_t)i);
        r[i] = op(first + (uint64_t)i, t, t + 1, t + 69, t + 70);
        r[i].cls = CLS_LOAD, r[i].load = true, r[i].mem_level = MEM_L1, r[i].dst = 5;
        r[i].mem_addr = 0x400000 + 4096 * (uint64_t)i, r[i].flags = UOP_DTLB_MISS | UOP_L2TLB_MISS;
        if (i) r[i].src[0] = 5;
    }
}

Test(depgraph, a_hit_after_a_page_walk_takes_the_walk)
{
    enum { N = 10 };
    instance_record r[N];
    walking_chase(r, N, 0);
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("dmiss")}};
    depgraph_result g = run(&cfg, r, N);
    cr_assert(g.cycles[0] > N * 60, "%lu cycles", (unsigned long)g.cycles[0]);
    cr_assert(g.cycles[1] > N * 60, "%lu cycles with dmiss (the walks stay)", (unsigned long)g.cycles[1]);
}

Test(depgraph, a_page_only_the_wrong_path_walked_is_walked_without_it)
{
    /* A mispredicted branch, whose wrong path walks the pages of a chase of
     * ten loads; the correct path's chase then finds them in the D-TLB.
     * With bmisp there is no wrong path: the chase walks them itself. */
    enum { N = 11 };
    instance_record r[N], wrong[N - 1];
    walking_chase(wrong, N - 1, 1);
    for (int i = 0; i < N - 1; i++) wrong[i].retired = false, wrong[i].abort_key = STK_FLUSHED_MISPREDICT;
    r[0] = op(0, 10, 11, 12, 13);
    r[0].cls = CLS_BRANCH, r[0].flags = UOP_MISPREDICT;
    walking_chase(r + 1, N - 1, 1);
    for (int i = 1; i < N; i++) r[i].flags = 0, r[i].completed = r[i].issued + 4, r[i].ended = r[i].completed + 1;
    depgraph_result g = run_bmisp_with_wrong_path(r, N, wrong, N - 1);
    cr_assert(g.cycles[1] > g.cycles[0] + (N - 1) * 40, "%lu cycles with bmisp, %lu in the baseline",
              (unsigned long)g.cycles[1], (unsigned long)g.cycles[0]);
}

Test(depgraph, a_line_and_page_only_the_wrong_path_brought_cost_a_walk_and_a_miss_without_it)
{
    /* A mispredicted branch; its wrong path's load walks its page (4 + 60
     * cycles) and misses the L1D (100 more), and is squashed. Long after,
     * the correct path's load of that line finds both the translation and
     * the line. With bmisp there is no wrong path: the load walks, then
     * misses, 160 cycles more than its hit (beyond what bmisp saves
     * without the wrong path's load), not the wrong-path access's walk and
     * fill on top of its own walk. */
    enum { N = 1 + 800 + 1, WALK = 64, MISS_LATENCY = 100 };
    static instance_record r[N];
    ending_in_a_hit_on_line_x(r, N);
    instance_record wrong = squashed_load_of_line_x(17, WALK + MISS_LATENCY);
    wrong.flags = UOP_DTLB_MISS | UOP_L2TLB_MISS;
    depgraph_result alone = run_bmisp_with_wrong_path(r, N, &wrong, 0), g = run_bmisp_with_wrong_path(r, N, &wrong, 1);
    int64_t more = (int64_t)(g.cycles[1] - g.cycles[0]) - (int64_t)(alone.cycles[1] - alone.cycles[0]);
    cr_assert(more > WALK + MISS_LATENCY - 10 && more < WALK + MISS_LATENCY,
              "%ld cycles more with bmisp (walk %d, miss %d)", (long)more, WALK, MISS_LATENCY);
}

/* A load that misses (100 cycles) and a mispredicted branch on it, whose
 * wrong path's load, `after` cycles after the branch's dispatch, walks the
 * page of the correct path's last load (which then hits the D-TLB);
 * between, 200 operations. The baseline and dmiss. */
static depgraph_result walked_late_on_the_wrong_path(uint64_t after)
{
    enum { N = 2 + 200 + 1 };
    static instance_record r[N];
    for (int i = 2; i < N; i++) {
        uint64_t t = 130 + (uint64_t)i / 4;
        r[i] = op((uint64_t)i, t + 6, t + 7, t + 8, t + 9);
        r[i].fetched = t, r[i].fetch_ready = t + 5, r[i].packet = (uint32_t)i / 4 + 2, r[i].pc = 0x10000 + 4 * (uint64_t)i;
    }
    r[0] = op(0, 10, 11, 111, 112);
    r[0].cls = CLS_LOAD, r[0].load = true, r[0].mem_level = MEM_DRAM, r[0].mem_addr = 0x80000, r[0].dst = 5;
    r[1] = op(1, 10, 111, 112, 113);
    r[1].cls = CLS_BRANCH, r[1].flags = UOP_MISPREDICT, r[1].src[0] = 5, r[1].pc = 0x1004;
    for (int i = 0; i < 2; i++) r[i].fetched = 4, r[i].fetch_ready = 9, r[i].packet = 1;
    instance_record *x = &r[N - 1];
    x->cls = CLS_LOAD, x->load = true, x->mem_addr = 0x400008, x->mem_level = MEM_L1;
    x->completed = x->issued + 4, x->ended = x->completed + 1, x->load_issue = x->issued, x->load_data = x->completed;
    instance_record wrong = op(2, 10 + after, 11 + after, 0, 113);
    wrong.pc = 0x2000, wrong.fetched = 5, wrong.fetch_ready = 10, wrong.packet = 2;
    wrong.cls = CLS_LOAD, wrong.load = true, wrong.mem_addr = 0x400000, wrong.mem_level = MEM_L1;
    wrong.flags = UOP_DTLB_MISS | UOP_L2TLB_MISS, wrong.load_issue = wrong.issued, wrong.load_data = wrong.issued + 68;
    wrong.retired = false, wrong.abort_key = STK_FLUSHED_MISPREDICT;
    uarch_config core;
    uarch_config_defaults(&core);
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("dmiss")}};
    depgraph *dg = depgraph_new(&cfg, &core);
    depgraph_begin(dg);
    depgraph_instance(dg, &r[0]);
    depgraph_instance(dg, &r[1]);
    depgraph_instance(dg, &wrong);
    for (int i = 2; i < N; i++) depgraph_instance(dg, &r[i]);
    depgraph_result g;
    depgraph_finish(dg, &g);
    return g;
}

Test(depgraph, a_wrong_path_ends_where_its_branch_resolves_in_the_set)
{
    /* With dmiss the branch's load hits: the branch resolves some 95
     * cycles sooner, before the wrong path's load 80 cycles on (the core
     * had 22 cycles to spare) dispatches, so the correct path's load walks
     * its page itself (64 cycles); one 2 cycles on still dispatches. The
     * baseline is the same either way. */
    depgraph_result late = walked_late_on_the_wrong_path(80), early = walked_late_on_the_wrong_path(2);
    cr_assert(late.cycles[0] + 2 >= early.cycles[0] && late.cycles[0] <= early.cycles[0] + 2, "%lu, %lu cycles",
              (unsigned long)late.cycles[0], (unsigned long)early.cycles[0]);
    cr_assert(late.cycles[1] > early.cycles[1] + 50, "with dmiss: %lu cycles, %lu with the early wrong-path load",
              (unsigned long)late.cycles[1], (unsigned long)early.cycles[1]);
}

/* Stores each to a line of its own, committed one every latency / 8
 * cycles (8 MSHRs, each line `latency` away), each seen at the store
 * queue's head writing from when the one before ended, for wait + latency
 * cycles, `wait` of them waiting for an MSHR (the probe's). */
static void stores_one_a_line(instance_record *r, int n, uint64_t latency, uint64_t wait)
{
    for (int i = 0; i < n; i++) {
        r[i] = store((uint64_t)i, 20 + (uint64_t)i * latency / 8, 0x100000 + 128 * (uint64_t)i);
        if (i)
            r[i].sq_head_seq = (uint64_t)i - 1, r[i].sq_head_done = r[i - 1].ended + wait + latency,
            r[i].sq_head_start = r[i - 1].ended, r[i].sq_head_wait = wait;
    }
}

Test(depgraph, a_store_miss_waits_for_mshrs_beyond_an_unloaded_dram_access)
{
    /* Stores each to a line of its own, the core's 8 MSHRs full: each write
     * seen done 700 cycles after its commit, of which an unloaded DRAM
     * access is 4 + 14 + 30 + 135 = 183 and the rest the wait for an MSHR
     * the probe shows. The graph's own MSHRs then give 8 lines every 183
     * cycles, as the core's did. */
    enum { N = 2048, DRAM = 183 };
    static instance_record r[N];
    stores_one_a_line(r, N, DRAM, 700 - DRAM);
    depgraph_config cfg = {.nsets = 1};
    depgraph_result g = run_without_prefetch(&cfg, r, N);
    cr_assert(g.cycles[0] < (uint64_t)N * DRAM / 8 * 102 / 100, "%lu cycles, %lu simulated", (unsigned long)g.cycles[0],
              (unsigned long)(r[N - 1].ended - 14));
}

Test(depgraph, a_store_that_waited_for_an_mshr_holds_it_for_its_fill_alone)
{
    /* Stores each to a line of its own that the LLC holds (4 + 14 + 30 =
     * 48 cycles), the core's 8 MSHRs full: each write seen done 150 cycles
     * after it began, 102 of them waiting for an MSHR (the probe's). The
     * graph's MSHRs then give 8 lines every 48 cycles, as the core's did,
     * not every 150 (nor every unloaded DRAM access's 183). */
    enum { N = 2048, LLC = 48, WAIT = 102 };
    static instance_record r[N];
    stores_one_a_line(r, N, LLC, WAIT);
    depgraph_config cfg = {.nsets = 1};
    depgraph_result g = run_without_prefetch(&cfg, r, N);
    cr_assert(g.cycles[0] < (uint64_t)N * LLC / 8 * 110 / 100, "%lu cycles, %lu simulated", (unsigned long)g.cycles[0],
              (unsigned long)(r[N - 1].ended - 14));
}

Test(depgraph, a_serialising_instruction_waits_for_an_empty_rob)
{
    /* A 10-cycle operation, then a serialising CSR access, which dispatches
     * in the cycle the operation commits (a wait of 0 after it), 50 times:
     * each pair takes the operation's 11 cycles, then the access's own 2. */
    enum { N = 100 };
    instance_record r[N];
    uint64_t t = 10;
    for (int i = 0; i < N; i += 2) {
        r[i] = op((uint64_t)i, t, t + 1, t + 11, t + 11);
        r[i + 1] = op((uint64_t)i + 1, t + 11, t + 12, t + 13, t + 13);
        r[i + 1].cls = CLS_CSR, r[i + 1].flags = UOP_SERIAL, r[i + 1].fetched = t - 6, r[i + 1].fetch_ready = t - 1;
        r[i].packet = r[i + 1].packet = (uint32_t)i + 1;
        t += 13;
    }
    depgraph_config cfg = {.nsets = 1};
    depgraph_result g = run(&cfg, r, N);
    cr_assert(g.cycles[0] + 5 >= r[N - 1].ended - 10, "%lu cycles, %lu simulated", (unsigned long)g.cycles[0],
              (unsigned long)(r[N - 1].ended - 10));
}

/* n loads at distinct addresses (lines 128 bytes apart from base), issued
 * at `issued`, each missing for `latency` cycles. */
static void misses(instance_record *r, int n, uint64_t first, uint64_t base, uint64_t issued, uint64_t latency)
{
    for (int i = 0; i < n; i++) {
        r[i] = op(first + (uint64_t)i, issued - 1, issued, issued + latency, issued + latency + 1);
        r[i].cls = CLS_LOAD, r[i].load = true, r[i].mem_level = MEM_DRAM, r[i].mem_addr = base + 128 * (uint64_t)i;
    }
}

Test(depgraph, a_load_asks_for_an_mshr_after_the_writes_begun_before_it)
{
    /* Eight stores miss (their lines absent as they commit), their writes
     * begun before a ninth miss, a load, dispatches (fetched late, after a
     * late fetch stage's redirect): it waits for an MSHR until a write is
     * done, as the core's L1D takes them in that order. */
    enum { N = 9, MISS_LATENCY = 183 };
    instance_record r[N];
    for (int i = 0; i < 8; i++) {
        r[i] = store((uint64_t)i, 20 + (uint64_t)i, 0x200000 + 128 * (uint64_t)i);
        r[i].l1d_line = L1D_ABSENT;
    }
    r[7].fe_bubbles = 1;
    misses(r + 8, 1, 8, 0x300000, 40, MISS_LATENCY);
    r[8].packet = 9;
    r[8].mshr_wait = 180, r[8].completed += 180, r[8].ended += 180;
    depgraph_result g = run_without_prefetch(&(depgraph_config){.nsets = 1}, r, N);
    cr_assert(g.cycles[0] > 2 * MISS_LATENCY, "%lu cycles", (unsigned long)g.cycles[0]);
}

Test(depgraph, with_the_window_idealised_a_load_asks_for_an_mshr_before_later_writes)
{
    /* A 300-cycle operation at the ROB's head, eight stores whose writes
     * miss (their lines absent as they commit), 150 independent operations
     * that fill the ROB, and a load that misses: in the core it dispatched
     * once the operation committed, after the writes began, and waited for
     * an MSHR until one was done. With the window idealised it dispatches
     * long before the stores commit, and the L1D gives it an MSHR first:
     * its miss is over before the operation commits. */
    enum { N = 1 + 8 + 150 + 1, LONG = 300, MISS_LATENCY = 183 };
    static instance_record r[N];
    r[0] = op(0, 10, 11, 11 + LONG, 12 + LONG);
    for (int i = 1; i <= 8; i++) {
        r[i] = store((uint64_t)i, 12 + LONG + (uint64_t)i, 0x200000 + 128 * (uint64_t)i);
        r[i].l1d_line = L1D_ABSENT, r[i].packet = 1; /* a packet of 8: the FTQ's 40 packets hold them all */
    }
    for (int i = 9; i < N - 1; i++) {
        uint64_t t = 11 + (uint64_t)i / 4;
        r[i] = op((uint64_t)i, t, t + 1, t + 2, 12 + LONG + 8 + (uint64_t)i / 4);
        r[i].packet = (uint32_t)i / 8 + 2;
    }
    misses(r + N - 1, 1, N - 1, 0x300000, 30 + LONG, MISS_LATENCY);
    r[N - 1].mshr_wait = MISS_LATENCY, r[N - 1].completed += MISS_LATENCY, r[N - 1].ended += MISS_LATENCY;
    r[N - 1].packet = N / 8 + 3;
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("win")}};
    depgraph_result g = run_without_prefetch(&cfg, r, N);
    cr_assert(g.cycles[0] > LONG + MISS_LATENCY, "%lu cycles", (unsigned long)g.cycles[0]);
    cr_assert(g.cycles[1] < LONG + MISS_LATENCY / 2, "%lu cycles with the window idealised", (unsigned long)g.cycles[1]);
}

Test(depgraph, a_miss_takes_its_mshr_once_translated)
{
    /* Eight misses hold the MSHRs 50 cycles; a ninth walks the page table
     * first (64 cycles), so finds an MSHR free and waits for none. */
    enum { N = 9, MISS_LATENCY = 100 };
    instance_record r[N];
    misses(r, 8, 0, 0x300000, 10, 50);
    misses(r + 8, 1, 8, 0x500000, 11, 64 + MISS_LATENCY);
    r[8].flags = UOP_DTLB_MISS | UOP_L2TLB_MISS;
    depgraph_result g = run_without_prefetch(&(depgraph_config){.nsets = 1}, r, N);
    cr_assert(g.cycles[0] < 11 + 64 + MISS_LATENCY + 10, "%lu cycles", (unsigned long)g.cycles[0]);
}

/* A load that misses (100 cycles) and a mispredicted branch on it; its
 * wrong path as the probe tells it past what the core dispatched (`wrong`,
 * at pcs 0x2000 on); then 20 correct-path operations and a load of line X
 * (0x40000) that missed the L1D in the core (100 cycles), last. The
 * baseline, shalu (no larger window) and win. */
static depgraph_result held_back(const instance_record *wrong, int nwrong)
{
    enum { N = 2 + 20 + 1 };
    static instance_record r[N];
    r[0] = op(0, 10, 11, 111, 112);
    r[0].cls = CLS_LOAD, r[0].load = true, r[0].mem_level = MEM_DRAM, r[0].mem_addr = 0x80000, r[0].dst = 5;
    r[1] = op(1, 10, 111, 112, 113);
    r[1].cls = CLS_BRANCH, r[1].flags = UOP_MISPREDICT, r[1].src[0] = 5, r[1].pc = 0x1004;
    for (int i = 0; i < 2; i++) r[i].fetched = 4, r[i].fetch_ready = 9, r[i].packet = 1;
    for (int i = 2; i < N; i++) {
        uint64_t t = 114 + (uint64_t)(i - 2) / 4;
        r[i] = op((uint64_t)i, t + 6, t + 7, t + 8, t + 9);
        r[i].fetched = t, r[i].fetch_ready = t + 5, r[i].packet = (uint32_t)(i - 2) / 4 + 3, r[i].pc = 0x10000 + 4 * (uint64_t)i;
    }
    instance_record *x = &r[N - 1];
    x->cls = CLS_LOAD, x->load = true, x->mem_addr = 0x40008, x->mem_level = MEM_DRAM;
    x->completed = x->issued + MISS, x->ended = x->completed + 1, x->load_issue = x->issued, x->load_data = x->completed;
    uarch_config core;
    uarch_config_defaults(&core);
    depgraph_config cfg = {.nsets = 3, .sets = {0, 1u << depgraph_class("shalu"), 1u << depgraph_class("win")}};
    depgraph *dg = depgraph_new(&cfg, &core);
    depgraph_begin(dg);
    depgraph_instance(dg, &r[0]);
    depgraph_instance(dg, &r[1]);
    for (int i = 0; i < nwrong; i++) depgraph_instance(dg, &wrong[i]);
    for (int i = 2; i < N; i++) depgraph_instance(dg, &r[i]);
    depgraph_result g;
    depgraph_finish(dg, &g);
    return g;
}

/* The wrong-path instruction w becomes a load of line X that misses (its
 * data MISS cycles after it issues, which it never gets: squashed). */
static void a_squashed_miss_of_line_x(instance_record *w)
{
    w->cls = CLS_LOAD, w->load = true, w->mem_addr = 0x40000, w->mem_level = MEM_DRAM, w->completed = 0;
    w->load_issue = w->issued, w->load_data = w->issued + MISS;
}

/* The probe's record of a wrong-path instruction the core did not
 * dispatch: fetched (reaching decode at `decoded`) or not; a load of
 * line X, or an operation. */
static instance_record not_dispatched(uint64_t n, enum probe_ahead kind, uint64_t decoded, bool load_of_x)
{
    instance_record w = op(n, 10, 0, 0, 113);
    w.dispatched = 0, w.pc = 0x2000 + 4 * (n - 2), w.retired = false, w.abort_key = STK_FLUSHED_MISPREDICT;
    w.ahead = (uint8_t)kind;
    w.fetched = kind == AHEAD_FETCHED ? decoded - 5 : 0, w.fetch_ready = kind == AHEAD_FETCHED ? decoded : 0;
    w.packet = kind == AHEAD_FETCHED ? 2 : 0;
    if (load_of_x) w.cls = CLS_LOAD, w.ahead_access = RV_MEM_LOAD, w.ahead_addr = 0x40000;
    if (load_of_x && kind == AHEAD_UNFETCHED) w.load = true, w.mem_addr = w.ahead_addr;
    return w;
}

static void assert_same(const depgraph_result *a, const depgraph_result *b, int k)
{
    cr_assert_eq(a->cycles[k], b->cycles[k], "set %d: %lu cycles, %lu without the records", k, (unsigned long)a->cycles[k],
                 (unsigned long)b->cycles[k]);
}

Test(depgraph, a_larger_window_dispatches_the_wrong_path_the_core_held_back)
{
    /* The wrong path's load of X waited at decode (at 12) while the branch
     * waited 100 cycles: the core's window held it back. With win it
     * dispatches and issues long before the branch resolves: its miss
     * brings X, and the correct path's load of X hits (it saves some 90
     * cycles). The baseline and shalu drop it, as the core did. */
    depgraph_result alone = held_back(NULL, 0);
    instance_record wrong = not_dispatched(2, AHEAD_FETCHED, 12, true);
    depgraph_result g = held_back(&wrong, 1);
    assert_same(&g, &alone, 0);
    assert_same(&g, &alone, 1);
    cr_assert(g.cycles[2] + MISS - 10 < alone.cycles[2], "win: %lu cycles, %lu without the wrong path's load",
              (unsigned long)g.cycles[2], (unsigned long)alone.cycles[2]);
}

Test(depgraph, the_unfetched_wrong_path_goes_on_where_the_window_held_it_back)
{
    /* Held back at decode: an operation, fetched; then the load of X,
     * which the core never fetched. With win both dispatch; the load
     * brings X. Had the operation reached decode only after the branch
     * resolved (the front end, not the window, held the wrong path
     * back), win would change nothing. */
    depgraph_result alone = held_back(NULL, 0);
    instance_record wrong[2] = {not_dispatched(2, AHEAD_FETCHED, 12, false), not_dispatched(3, AHEAD_UNFETCHED, 0, true)};
    depgraph_result g = held_back(wrong, 2);
    assert_same(&g, &alone, 0);
    assert_same(&g, &alone, 1);
    cr_assert(g.cycles[2] + MISS - 10 < alone.cycles[2], "win: %lu cycles, %lu without the wrong path's load",
              (unsigned long)g.cycles[2], (unsigned long)alone.cycles[2]);
    wrong[0] = not_dispatched(2, AHEAD_FETCHED, 120, false);
    g = held_back(wrong, 2);
    for (int k = 0; k < 3; k++) assert_same(&g, &alone, k);
}

Test(depgraph, a_wrong_path_row_takes_what_reached_decode_when_it_formed)
{
    /* A load that misses and a mispredicted branch on it; its wrong path,
     * fetch packets of one instruction a cycle (each after a taken
     * transfer, at any width), dispatched as they come: a ROB row each.
     * Its 18th loads line X, which the correct path then finds. With bw
     * (rows of 16: 8 in the ROB) the wrong path runs out of rows before
     * it gets there: the branch resolves first, and the correct path's
     * load of X misses. */
    enum { N = 2 + 20 + 1, NWRONG = 20 };
    static instance_record r[N], wrong[NWRONG];
    r[0] = op(0, 10, 11, 111, 112);
    r[0].cls = CLS_LOAD, r[0].load = true, r[0].mem_level = MEM_DRAM, r[0].mem_addr = 0x80000, r[0].dst = 5;
    r[1] = op(1, 10, 111, 112, 113);
    r[1].cls = CLS_BRANCH, r[1].flags = UOP_MISPREDICT, r[1].src[0] = 5, r[1].pc = 0x1004;
    for (int i = 0; i < 2; i++) r[i].fetched = 4, r[i].fetch_ready = 9, r[i].packet = 1;
    for (int i = 0; i < NWRONG; i++) {
        uint64_t t = 12 + (uint64_t)i;
        wrong[i] = op(2 + (uint64_t)i, t, t + 1, t + 2, 113);
        wrong[i].pc = 0x2000 + 64 * (uint64_t)i, wrong[i].fetched = t - 5, wrong[i].fetch_ready = t - 1;
        wrong[i].packet = 2 + (uint32_t)i, wrong[i].retired = false, wrong[i].abort_key = STK_FLUSHED_MISPREDICT;
    }
    instance_record *w = &wrong[17];
    a_squashed_miss_of_line_x(w);
    for (int i = 2; i < N; i++) {
        uint64_t t = 150 + (uint64_t)(i - 2) / 4;
        r[i] = op((uint64_t)i, t + 6, t + 7, t + 8, t + 9);
        r[i].fetched = t, r[i].fetch_ready = t + 5, r[i].packet = (uint32_t)(i - 2) / 4 + 30, r[i].pc = 0x10000 + 4 * (uint64_t)i;
    }
    instance_record *x = &r[N - 1];
    x->cls = CLS_LOAD, x->load = true, x->mem_addr = 0x40008, x->mem_level = MEM_L1;
    x->completed = x->issued + 4, x->ended = x->completed + 1, x->load_issue = x->issued, x->load_data = x->completed;
    uarch_config core;
    uarch_config_defaults(&core);
    core.prefetch_next_line = false;
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("bw")}};
    depgraph *dg = depgraph_new(&cfg, &core);
    depgraph_begin(dg);
    depgraph_instance(dg, &r[0]);
    depgraph_instance(dg, &r[1]);
    for (int i = 0; i < NWRONG; i++) depgraph_instance(dg, &wrong[i]);
    for (int i = 2; i < N; i++) depgraph_instance(dg, &r[i]);
    depgraph_result g;
    depgraph_finish(dg, &g);
    cr_assert(g.cycles[1] > g.cycles[0] + MISS / 2, "bw: %lu cycles, the baseline %lu", (unsigned long)g.cycles[1],
              (unsigned long)g.cycles[0]);
}

/* The held-back operation, then `ops` unfetched operations a fetch packet
 * each (each after a taken transfer), then the unfetched load of X. */
static depgraph_result unfetched_after(int ops)
{
    static instance_record wrong[64];
    wrong[0] = not_dispatched(2, AHEAD_FETCHED, 12, false);
    for (int i = 1; i <= ops + 1; i++) {
        wrong[i] = not_dispatched(2 + (uint64_t)i, AHEAD_UNFETCHED, 0, i == ops + 1);
        wrong[i].pc = 0x2000 + 64 * (uint64_t)i;
    }
    return held_back(wrong, ops + 2);
}

Test(depgraph, the_unfetched_wrong_path_needs_an_ftq_entry)
{
    /* Past the core's fetch, each packet takes an FTQ entry (40), which a
     * wrong path's never frees: 10 packets on, the load of X still brings
     * it with win; 45 on it is never fetched. */
    depgraph_result alone = held_back(NULL, 0), near = unfetched_after(10), far = unfetched_after(45);
    cr_assert(near.cycles[2] + MISS - 10 < alone.cycles[2], "win: %lu cycles, %lu without the wrong path",
              (unsigned long)near.cycles[2], (unsigned long)alone.cycles[2]);
    for (int k = 0; k < 3; k++) assert_same(&far, &alone, k);
}

Test(depgraph, a_larger_window_goes_on_where_the_cores_window_slowed_its_wrong_path)
{
    /* The core's window let one wrong-path operation in only as the branch
     * resolved (its dispatch at 112, fetched at 7), and held the load of X
     * back at decode: with win neither waits, and the load brings X as in
     * a_larger_window_dispatches_the_wrong_path_the_core_held_back. */
    depgraph_result alone = held_back(NULL, 0);
    instance_record wrong[2] = {op(2, 112, 0, 0, 113), not_dispatched(3, AHEAD_FETCHED, 12, true)};
    wrong[0].pc = 0x2000, wrong[0].fetched = 7, wrong[0].fetch_ready = 12, wrong[0].packet = 2;
    wrong[0].retired = false, wrong[0].abort_key = STK_FLUSHED_MISPREDICT;
    depgraph_result g = held_back(wrong, 2);
    assert_same(&g, &alone, 0);
    assert_same(&g, &alone, 1);
    cr_assert(g.cycles[2] + MISS - 10 < alone.cycles[2], "win: %lu cycles, %lu without the wrong path's load",
              (unsigned long)g.cycles[2], (unsigned long)alone.cycles[2]);
}

/* r[from..n): the correct path refetched from `at`, a fetch packet of four
 * a cycle, ending in a load of line X that merged with the fill of the
 * wrong path's load w. */
static void refetched_to_a_load_of_x(instance_record *r, int from, int n, uint64_t at, const instance_record *w)
{
    for (int i = from; i < n; i++) {
        uint64_t t = at + (uint64_t)(i - from) / 4;
        r[i] = op((uint64_t)i, t + 6, t + 7, t + 8, t + 9);
        r[i].fetched = t, r[i].fetch_ready = t + 5, r[i].packet = (uint32_t)(i - from) / 4 + 10, r[i].pc = 0x10000 + 4 * (uint64_t)i;
    }
    instance_record *x = &r[n - 1];
    x->cls = CLS_LOAD, x->load = true, x->mem_addr = 0x40008, x->mem_level = MEM_DRAM, x->dst = 7;
    x->completed = w->load_data, x->ended = x->completed + 1, x->load_issue = x->issued, x->load_data = x->completed;
}

/* The baseline and win over r[0..older), the wrong path, r[older..n). */
static depgraph_result run_win_with_wrong_path(uarch_config *core, const instance_record *r, int older, int n,
                                               const instance_record *wrong, int nwrong)
{
    core->prefetch_next_line = false;
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("win")}};
    return run_with_wrong_path(core, &cfg, r, older, n, wrong, nwrong);
}

static void assert_win_saves(const depgraph_result *g, uint64_t cycles)
{
    cr_assert(g->cycles[1] + cycles < g->cycles[0], "win: %lu cycles, the baseline %lu", (unsigned long)g->cycles[1],
              (unsigned long)g->cycles[0]);
}

/* Four long operations (done at 20, 40, 60, 80) and a load that misses
 * (100 cycles) before a mispredicted branch on it, with 8 integer
 * registers to rename into: the core's wrong path renames 3 operations at
 * once, 3 more as the long operations commit (20, 40, 60), and its load of
 * line X only at 80, once the fourth has. Then 20 correct-path operations
 * and a load of X that merged with the wrong path's fill (at 181). The
 * baseline and win (registers at their maximum). */
static depgraph_result renaming_wrong_path(void)
{
    enum { OLDER = 5, N = OLDER + 1 + 20 + 1, NWRONG = 7 };
    static instance_record r[N], wrong[NWRONG];
    for (int i = 0; i < OLDER - 1; i++) {
        r[i] = op((uint64_t)i, 10, 11, 20 * (uint64_t)(i + 1) - 1, 20 * (uint64_t)(i + 1));
        r[i].cls = CLS_MUL, r[i].dst = (uint8_t)(6 + i);
    }
    r[4] = op(4, 10, 11, 111, 112);
    r[4].cls = CLS_LOAD, r[4].load = true, r[4].mem_level = MEM_DRAM, r[4].mem_addr = 0x80000, r[4].dst = 5;
    r[5] = op(5, 11, 111, 112, 113);
    r[5].cls = CLS_BRANCH, r[5].flags = UOP_MISPREDICT, r[5].src[0] = 5;
    for (int i = 0; i <= OLDER; i++) r[i].fetched = 4, r[i].fetch_ready = 9, r[i].packet = 1 + (uint32_t)i / 4;
    static const uint64_t renamed[NWRONG] = {12, 12, 12, 20, 40, 60, 80};
    for (int i = 0; i < NWRONG; i++) {
        wrong[i] = op(OLDER + 1 + (uint64_t)i, renamed[i], renamed[i] + 1, renamed[i] + 2, 113);
        wrong[i].pc = 0x2000 + 4 * (uint64_t)i, wrong[i].fetched = 7, wrong[i].fetch_ready = 11;
        wrong[i].packet = 3 + (uint32_t)i / 4, wrong[i].dst = (uint8_t)(10 + i);
        wrong[i].retired = false, wrong[i].abort_key = STK_FLUSHED_MISPREDICT;
    }
    instance_record *w = &wrong[NWRONG - 1];
    a_squashed_miss_of_line_x(w);
    refetched_to_a_load_of_x(r, OLDER + 1, N, 114, w);
    uarch_config core;
    uarch_config_defaults(&core);
    core.int_phys_regs = 32 + 8;
    return run_win_with_wrong_path(&core, r, OLDER + 1, N, wrong, NWRONG);
}

Test(depgraph, the_wrong_path_renames_into_the_registers_the_correct_path_frees)
{
    /* The baseline graph's wrong path waits for registers as the core's
     * did, so its load of X goes at 80 there; with win it goes with the
     * first operations (some 65 cycles sooner), and the correct path's
     * load of X finds the line that much sooner. Without the wrong path's
     * registers the baseline graph would send the load at 13 too: win
     * would move nothing. */
    depgraph_result g = renaming_wrong_path();
    assert_win_saves(&g, 40);
}

/* With a 64-entry ROB: three long operations, a row each, done at 20,
 * 30 and 40; a load that misses (100 cycles) and a mispredicted branch on
 * it; its wrong path as the core dispatched it, 20 operations a fetch
 * packet each (after taken transfers), each followed by `bubbles` fetch
 * cycles a late fetch stage's redirect lost (the core fetched them 3
 * cycles apart), the 16th a load of line X (its data at 159); then the
 * correct path's load of X, which merged with that fill. The baseline and
 * bw (rows of 16: 4 in the ROB). */
static depgraph_result bubbled_wrong_path(uint8_t bubbles)
{
    enum { OLDER = 3, N = OLDER + 2 + 1, NWRONG = 20, X = 15 };
    static instance_record r[N], wrong[NWRONG];
    for (int i = 0; i < OLDER; i++) {
        r[i] = op((uint64_t)i, 10 + (uint64_t)i, 11 + (uint64_t)i, 20 + 10 * (uint64_t)i - 1, 20 + 10 * (uint64_t)i);
        r[i].cls = CLS_MUL, r[i].taken = true, r[i].packet = 1 + (uint32_t)i, r[i].pc = 0x1000 + 64 * (uint64_t)i;
        r[i].fetched = 3 + (uint64_t)i, r[i].fetch_ready = 8 + (uint64_t)i;
    }
    r[OLDER] = op(OLDER, 17, 18, 111, 112);
    r[OLDER].cls = CLS_LOAD, r[OLDER].load = true, r[OLDER].mem_level = MEM_DRAM, r[OLDER].mem_addr = 0x80000;
    r[OLDER].dst = 5, r[OLDER].pc = 0x3000, r[OLDER].packet = 10, r[OLDER].fetched = 10, r[OLDER].fetch_ready = 15;
    r[OLDER + 1] = op(OLDER + 1, 17, 111, 112, 113);
    r[OLDER + 1].cls = CLS_BRANCH, r[OLDER + 1].flags = UOP_MISPREDICT, r[OLDER + 1].src[0] = 5, r[OLDER + 1].pc = 0x3004;
    r[OLDER + 1].packet = 10, r[OLDER + 1].fetched = 10, r[OLDER + 1].fetch_ready = 15;
    for (int i = 0; i < NWRONG; i++) {
        uint64_t t = 11 + 3 * (uint64_t)i;
        wrong[i] = op(OLDER + 2 + (uint64_t)i, t + 2, t + 3, t + 4, 113);
        wrong[i].pc = 0x2000 + 64 * (uint64_t)i, wrong[i].fetched = t, wrong[i].fetch_ready = t + 1;
        wrong[i].packet = 11 + (uint32_t)i, wrong[i].fe_bubbles = bubbles;
        wrong[i].retired = false, wrong[i].abort_key = STK_FLUSHED_MISPREDICT;
    }
    instance_record *w = &wrong[X];
    a_squashed_miss_of_line_x(w);
    instance_record *x = &r[N - 1];
    *x = op(N - 1, 121, 122, w->load_data, w->load_data + 1);
    x->cls = CLS_LOAD, x->load = true, x->mem_addr = 0x40008, x->mem_level = MEM_DRAM, x->pc = 0x10000;
    x->fetched = 115, x->fetch_ready = 120, x->packet = 60, x->load_issue = x->issued, x->load_data = x->completed;
    uarch_config core;
    uarch_config_defaults(&core);
    core.prefetch_next_line = false, core.rob_entries = 64;
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("bw")}};
    depgraph *dg = depgraph_new(&cfg, &core);
    depgraph_begin(dg);
    for (int i = 0; i < OLDER + 2; i++) depgraph_instance(dg, &r[i]);
    for (int i = 0; i < NWRONG; i++) depgraph_instance(dg, &wrong[i]);
    depgraph_instance(dg, x);
    depgraph_result g;
    depgraph_finish(dg, &g);
    return g;
}

Test(depgraph, the_wrong_path_takes_the_cores_fetch_bubbles)
{
    /* With bw the wrong path waits for the older rows to commit, and each
     * row takes what had reached decode when it formed (as the row before
     * it dispatched): a packet a cycle, some 10 a row once the first has
     * waited, and the load of X dispatches in time; a packet every 3
     * cycles (the core's bubbles), 3 or 4 a row, and the wrong path runs
     * out of rows before it: the correct path's load of X misses itself.
     * The baseline is the core's either way. */
    depgraph_result plain = bubbled_wrong_path(0), bubbled = bubbled_wrong_path(2);
    assert_same(&plain, &bubbled, 0);
    cr_assert(bubbled.cycles[1] > plain.cycles[1] + MISS / 5, "bw: %lu cycles with the bubbles, %lu without",
              (unsigned long)bubbled.cycles[1], (unsigned long)plain.cycles[1]);
}

/* A decode width of 1 (a ROB row an instruction) and 8 integer issue-queue
 * entries: four long operations (done at 20, 40, 60, 80), an operation on
 * each (issuing then), a load that misses (100 cycles) and a mispredicted
 * branch on it. The core's wrong path: six operations on the load's
 * register (they wait in the queue until the squash), three at once and
 * one as each of the first three waiting operations issues, and its load
 * of line X only at 80, once the fourth has. Then 20 correct-path
 * operations and a load of X that merged with the wrong path's fill (at
 * 181). The baseline and win (the queues at their maximum). */
static depgraph_result queued_wrong_path(void)
{
    enum { LONG = 4, OLDER = 2 * LONG + 2, N = OLDER + 20 + 1, NWRONG = 7 };
    static instance_record r[N], wrong[NWRONG];
    for (int i = 0; i < LONG; i++) {
        uint64_t done = 20 * (uint64_t)(i + 1);
        r[i] = op((uint64_t)i, 10, 11, done - 1, done);
        r[i].cls = CLS_MUL, r[i].dst = (uint8_t)(6 + i);
        r[LONG + i] = op(LONG + (uint64_t)i, 10, done, done + 1, done + 2);
        r[LONG + i].src[0] = (uint8_t)(6 + i);
    }
    r[2 * LONG] = op(2 * LONG, 10, 11, 111, 112);
    r[2 * LONG].cls = CLS_LOAD, r[2 * LONG].load = true, r[2 * LONG].mem_level = MEM_DRAM, r[2 * LONG].mem_addr = 0x80000;
    r[2 * LONG].dst = 5;
    r[2 * LONG + 1] = op(2 * LONG + 1, 11, 111, 112, 113);
    r[2 * LONG + 1].cls = CLS_BRANCH, r[2 * LONG + 1].flags = UOP_MISPREDICT, r[2 * LONG + 1].src[0] = 5;
    for (int i = 0; i < OLDER; i++) r[i].fetched = 4, r[i].fetch_ready = 9, r[i].packet = 1 + (uint32_t)i / 4;
    static const uint64_t queued[NWRONG] = {12, 12, 12, 20, 40, 60, 80};
    for (int i = 0; i < NWRONG; i++) {
        wrong[i] = op(OLDER + (uint64_t)i, queued[i], 0, 0, 113);
        wrong[i].pc = 0x2000 + 4 * (uint64_t)i, wrong[i].fetched = 7, wrong[i].fetch_ready = 11;
        wrong[i].packet = 4 + (uint32_t)i / 4, wrong[i].dst = (uint8_t)(10 + i), wrong[i].src[0] = 5;
        wrong[i].retired = false, wrong[i].abort_key = STK_FLUSHED_MISPREDICT;
    }
    instance_record *w = &wrong[NWRONG - 1];
    w->cls = CLS_LOAD, w->load = true, w->mem_addr = 0x40000, w->mem_level = MEM_DRAM, w->src[0] = RV_REG_NONE;
    w->ready = w->issued = 81, w->load_issue = w->issued, w->load_data = w->issued + MISS;
    refetched_to_a_load_of_x(r, OLDER, N, 114, w);
    uarch_config core;
    uarch_config_defaults(&core);
    core.decode_width = 1, core.commit_width = 1, core.iq_int_entries = 8, core.iq_int_issue = 4;
    return run_win_with_wrong_path(&core, r, OLDER, N, wrong, NWRONG);
}

Test(depgraph, the_wrong_path_waits_for_issue_queue_entries)
{
    /* The baseline graph's wrong path waits for the integer queue as the
     * core's did, so its load of X goes at about 80 there; with win it goes
     * with the first operations (some 60 cycles sooner), and the correct
     * path's load of X finds the line there when it gets to it (some 35
     * cycles sooner). Without the wrong path's queue entries the baseline
     * graph would send the load at once too: win would move nothing. */
    depgraph_result g = queued_wrong_path();
    assert_win_saves(&g, 25);
}

/* A 16-entry ROB (4 rows of 4): a long operation alone in its row (done at
 * 60), then a row of another (done at 109) and a mispredicted branch on
 * it. The core's wrong path arrives an instruction a cycle (a fetch packet
 * each), so each forms a row of its own: two operations take the last two
 * rows, and its load of line X waits for the first row to commit (60).
 * Then the correct path's operations and a load of X that merged with that
 * fill (at 161). The baseline and win. */
static depgraph_result paced_wrong_path(void)
{
    enum { OLDER = 3, N = OLDER + 8 + 1, NWRONG = 3 };
    static instance_record r[N], wrong[NWRONG];
    r[0] = op(0, 10, 11, 59, 60);
    r[0].cls = CLS_MUL, r[0].fetched = 4, r[0].fetch_ready = 9, r[0].packet = 1;
    r[1] = op(1, 10, 11, 109, 110);
    r[1].cls = CLS_MUL, r[1].dst = 5;
    r[2] = op(2, 10, 109, 110, 111);
    r[2].cls = CLS_BRANCH, r[2].flags = UOP_MISPREDICT, r[2].src[0] = 5;
    for (int i = 1; i < OLDER; i++) r[i].fetched = 5, r[i].fetch_ready = 10, r[i].packet = 2;
    static const uint64_t dispatched[NWRONG] = {12, 13, 60};
    for (int i = 0; i < NWRONG; i++) {
        wrong[i] = op(OLDER + (uint64_t)i, dispatched[i], dispatched[i] + 1, dispatched[i] + 2, 111);
        wrong[i].pc = 0x2000 + 64 * (uint64_t)i, wrong[i].fetched = 7 + (uint64_t)i, wrong[i].fetch_ready = 12 + (uint64_t)i;
        wrong[i].packet = 3 + (uint32_t)i, wrong[i].taken = true;
        wrong[i].retired = false, wrong[i].abort_key = STK_FLUSHED_MISPREDICT;
    }
    instance_record *w = &wrong[NWRONG - 1];
    a_squashed_miss_of_line_x(w);
    refetched_to_a_load_of_x(r, OLDER, N, 112, w);
    uarch_config core;
    uarch_config_defaults(&core);
    core.rob_entries = 16;
    return run_win_with_wrong_path(&core, r, OLDER, N, wrong, NWRONG);
}

Test(depgraph, a_wrong_path_row_forms_of_what_had_arrived)
{
    /* The baseline graph's wrong path forms its rows as the core's did, a
     * row an instruction, so its load of X waits for the first row there
     * too (at 60); with win it goes at once (some 45 cycles sooner), and
     * the correct path's load of X finds the line when it gets to it.
     * A row formed a cycle late would take the next instruction too, and
     * the baseline graph would send the load at once: win would move
     * nothing. */
    depgraph_result g = paced_wrong_path();
    assert_win_saves(&g, 25);
}

/* A decode width of 1: a load that misses (data at 111) and a mispredicted
 * branch on it. The core dispatches its wrong path an instruction a cycle
 * (with bw, a fetch packet's worth at once): a chain of 15 multiplies (3
 * cycles each), each on the one before, and a load of line X on the last,
 * issued at 58 and missing; then the correct path's load of X, which
 * merged with that fill. Sets: the baseline and bw. */
static depgraph_result chained_wrong_path(void)
{
    enum { OLDER = 2, N = OLDER + 1, NWRONG = 16, LAT = 3 };
    static instance_record r[N], wrong[NWRONG];
    r[0] = op(0, 10, 11, 111, 112);
    r[0].cls = CLS_LOAD, r[0].load = true, r[0].mem_level = MEM_DRAM, r[0].mem_addr = 0x80000, r[0].dst = 5;
    r[1] = op(1, 11, 111, 112, 113);
    r[1].cls = CLS_BRANCH, r[1].flags = UOP_MISPREDICT, r[1].src[0] = 5;
    for (int i = 0; i < OLDER; i++) r[i].fetched = 4, r[i].fetch_ready = 9, r[i].packet = 1;
    uint64_t ready = 0;
    for (int i = 0; i < NWRONG; i++) {
        uint64_t d = 12 + (uint64_t)i, issued = d + 1 > ready ? d + 1 : ready;
        wrong[i] = op(OLDER + (uint64_t)i, d, issued, issued + LAT, 113);
        wrong[i].cls = CLS_MUL, wrong[i].dst = (uint8_t)(10 + i), wrong[i].src[0] = i ? (uint8_t)(9 + i) : RV_REG_NONE;
        wrong[i].pc = 0x2000 + 4 * (uint64_t)i, wrong[i].fetched = 7, wrong[i].fetch_ready = 11;
        wrong[i].packet = 4 + (uint32_t)i / 4, wrong[i].retired = false, wrong[i].abort_key = STK_FLUSHED_MISPREDICT;
        ready = issued + LAT;
    }
    instance_record *w = &wrong[NWRONG - 1];
    a_squashed_miss_of_line_x(w);
    refetched_to_a_load_of_x(r, OLDER, N, 114, w);
    uarch_config core;
    uarch_config_defaults(&core);
    core.decode_width = 1, core.commit_width = 1, core.prefetch_next_line = false;
    depgraph_config cfg = {.nsets = 2, .sets = {0, 1u << depgraph_class("bw")}};
    return run_with_wrong_path(&core, &cfg, r, OLDER, N, wrong, NWRONG);
}

Test(depgraph, a_wrong_path_load_on_a_chain_issues_no_sooner_with_bw)
{
    /* With bw the wrong path dispatches some 15 cycles sooner, but its
     * load waits for the multiplies' chain as in the core: the line comes
     * when it came there, and so does the correct path's load of X (152
     * cycles against the baseline's 154). Moved as its dispatch moves, the
     * fill came 16 cycles sooner (138). */
    depgraph_result g = chained_wrong_path();
    cr_assert(g.cycles[0] + 10 >= 159, "the baseline: %lu cycles, the core's load of X ended at 159",
              (unsigned long)g.cycles[0]);
    cr_assert(g.cycles[1] + 3 >= g.cycles[0], "bw: %lu cycles, the baseline %lu", (unsigned long)g.cycles[1],
              (unsigned long)g.cycles[0]);
}
