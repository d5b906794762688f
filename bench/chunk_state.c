/* chunk_state: what a chunk's start state gets wrong (issue 38). For each
 * chunk boundary B of a program (or one), with a detailed warm-up of W and
 * chunks of C instructions, it takes the micro-architectural state (caches, TLBs,
 * predictors, as uarch_save stores it) at B - W twice: from a detailed run
 * from the program's start (the serial run's) and from functional warming
 * from the start (the chunk checkpoint's). It prints how their caches
 * differ (at one B), then simulates the chunk [B, B + C) from B - W (W in detail
 * first) with each part of the state taken from the serial run or from
 * warming, and prints the chunk's cycles and events against the serial
 * run's own: which part's difference costs how many cycles.
 *
 * Usage: chunk_state C W B|0 PARTS... -- PROGRAM [ARGS...]
 *   B      the one boundary to simulate and show the state differences at
 *          (0: every multiple of C before the program's end, as sim --full
 *          --chunk-insts C cuts it, and the whole run's CPI difference)
 *   PARTS  each a '+'-joined set of parts taken from the serial run (the
 *          rest from warming): l1i, l1d, l2, llc, tlb, and bp or its parts
 *          (part_names below), or NAME@A-B: bytes [A, B) of part NAME;
 *          or 'none' or 'all'.
 * Environment: CHUNK_STATE_LINES=1 lists the lines in one state only,
 * CHUNK_STATE_BYTES=PART the bytes of a part that differ, CHUNK_STATE_DUMP=F
 * writes every line of both states to F (all three at boundary B only), and
 * CHUNK_STATE_SET=SEC.KEY=V changes the configuration (as sim --set).
 * Built by bench/chunk_state.sh against build/rel's libraries. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "guest_cli.h"
#include "uarch/tage.h"
#include "uarch/uarch.h"
#include "util.h"

/* The predictor's parts in bpred_save's order: its geometry, TAGE's tagged
 * tables, its base table, its global history (with its head), its
 * usefulness-reset tick, its allocation clock, the BIM, the BTB, the
 * RAS (with its top, count and the fetch bank's state) and the loop
 * predictor. */
enum part { P_L1I, P_L1D, P_L2, P_LLC, P_TLB, P_BP_GEOMETRY, P_TAGE, P_TAGE_BASE, P_HIST, P_TICK, P_CLOCK, P_BIM, P_BTB,
            P_RAS, P_LOOP, NPARTS };
static const char *const part_names[NPARTS] = {"l1i",  "l1d", "l2",  "llc", "tlb", "bpgeom", "tage", "tagebase",
                                               "hist", "tick", "clock", "bim", "btb", "ras",    "loop"};
enum { P_BP = P_BP_GEOMETRY }; /* "bp": every part from P_BP on */
enum { NLEVELS = 4, LINE_RECORD = 9 /* a tag and a flags byte */ };

/* Where each part lies in a saved state: [begin, end) byte offsets. */
typedef struct layout {
    size_t begin[NPARTS], end[NPARTS];
    uint64_t sets[NLEVELS], ways[NLEVELS];
    unsigned line_shift;
} layout;

static uint64_t u64_at(const ustate *s, size_t at)
{
    uint64_t v;
    memcpy(&v, s->data + at, sizeof v);
    return v;
}

/* The parts of state s (uarch_save's layout: magic, digest, memsys (magic,
 * line shift, the levels' geometry, their lines), tlbs, predictor). */
static layout layout_of(const uarch_config *cfg, ustate *s)
{
    layout l;
    l.line_shift = (unsigned)u64_at(s, 16 + 8); /* after the memsys state's magic */
    size_t at = 16 + 16;
    for (int i = 0; i < NLEVELS; i++, at += 16) l.sets[i] = u64_at(s, at), l.ways[i] = u64_at(s, at + 8);
    for (int i = 0; i < NLEVELS; i++) {
        l.begin[i] = at;
        at += l.sets[i] * l.ways[i] * LINE_RECORD;
        l.end[i] = at;
    }
    tlbs *t = tlbs_new(cfg);
    s->pos = at;
    if (!tlbs_restore(t, s)) die("chunk_state: cannot read the TLBs' state");
    tlbs_free(t);
    l.begin[P_TLB] = at, l.end[P_TLB] = s->pos;
    /* sizes as bpred.c, tage.c and loop.c lay them out (a TAGE entry is 4
     * bytes, a BTB entry 16); the loop predictor takes the rest */
    size_t tage_entries = 0;
    for (int i = 0; i < cfg->bp_tage_tables; i++) {
        int log_entries, tag_bits;
        tage_table_geometry(cfg, i, &log_entries, &tag_bits);
        tage_entries += (size_t)1 << log_entries;
    }
    size_t ring = 1;
    while (ring <= (size_t)cfg->bp_tage_max_hist + TAGE_MAX_PUSHES) ring <<= 1;
    const size_t size[NPARTS] = {[P_BP_GEOMETRY] = 15 * 8, [P_TAGE] = tage_entries * 4,
                                 [P_TAGE_BASE] = (size_t)1 << cfg->bp_bimodal_log_entries, [P_HIST] = ring + 8,
                                 [P_TICK] = 8, [P_CLOCK] = 8, [P_BIM] = (size_t)1 << cfg->bp_bim_log_entries,
                                 [P_BTB] = (size_t)cfg->bp_btb_entries * 16, [P_RAS] = (size_t)cfg->bp_ras_entries * 8 + 32};
    at = s->pos;
    for (int p = P_BP; p < P_LOOP; p++) l.begin[p] = at, at += size[p], l.end[p] = at;
    l.begin[P_LOOP] = at, l.end[P_LOOP] = s->len;
    if (at > s->len) die("chunk_state: the predictor's state is shorter than its parts");
    s->pos = 0;
    return l;
}

/* A state with the parts in `from_serial` (a bit per part) from serial, the rest from warm. */
static ustate compose(const ustate *serial, const ustate *warm, const layout *l, unsigned from_serial)
{
    ustate out = {0};
    ustate_put(&out, warm->data, l->begin[0]);
    for (int p = 0; p < NPARTS; p++) {
        const ustate *src = from_serial >> p & 1 ? serial : warm;
        ustate_put(&out, src->data + l->begin[p], l->end[p] - l->begin[p]);
    }
    return out;
}

/* ------------------------------------------------------- the two states */

typedef struct run_args {
    int argc;
    char **argv;
    guest_args guest;
    uarch_config cfg;
} run_args;

static void start(const run_args *a, rv_proc *p)
{
    rv_elf_info info;
    guest_cli_start(p, &info, &a->guest, a->argc, a->argv);
    guest_cli_redirect_output(p, "none");
}

/* The serial run: its state at every boundary's B - W, and its counters
 * over every chunk (from boundary k to the next, the last to the end), and
 * over the whole run. */
static void serial_run(const run_args *a, const uint64_t *B, int n, uint64_t W, ustate *state, counters *chunk,
                       counters *whole)
{
    rv_proc p;
    start(a, &p);
    uarch ua;
    uarch_init(&ua, &a->cfg);
    sim_core *c = core_new(&a->cfg, &ua, &p);
    counters mark = c->ctr, zero = c->ctr;
    for (int k = 0; k <= n; k++) {
        if (k < n) {
            core_run(c, B[k] - W);
            uarch_save(&ua, &state[k]);
        }
        core_run(c, k < n ? B[k] : UINT64_MAX);
        if (k > 0) counters_sub(&chunk[k - 1], &c->ctr, &mark);
        mark = c->ctr;
    }
    counters_sub(whole, &c->ctr, &zero);
    core_free(c);
    uarch_destroy(&ua);
    rv_proc_destroy(&p);
}

/* Functional warming from the start to every B - W: the chunk checkpoints' states. */
static void warm_run(const run_args *a, const uint64_t *B, int n, uint64_t W, ustate *state)
{
    rv_proc p;
    start(a, &p);
    uarch ua;
    uarch_init(&ua, &a->cfg);
    for (int k = 0; k < n; k++) {
        uarch_warm_run(&ua, &p, B[k] - W);
        uarch_save(&ua, &state[k]);
    }
    uarch_destroy(&ua);
    rv_proc_destroy(&p);
}

/* The chunk from state s at B - W, as sim runs it: W in detail, then [B, end) measured. */
static void chunk_run(const run_args *a, ustate *s, uint64_t B, uint64_t W, uint64_t end, counters *chunk)
{
    rv_proc p;
    start(a, &p);
    rv_run(&p, B - W, NULL, NULL);
    uarch ua;
    uarch_init(&ua, &a->cfg);
    char err[256];
    s->pos = 0;
    if (!uarch_restore(&ua, s, err, sizeof err)) die("chunk_state: %s", err);
    sim_core *c = core_new(&a->cfg, &ua, &p);
    core_run(c, B);
    core_close_cycle(c);
    core_reset_attribution(c);
    counters begin = c->ctr;
    core_run(c, end);
    core_close_cycle(c);
    counters_sub(chunk, &c->ctr, &begin);
    core_free(c);
    uarch_destroy(&ua);
    rv_proc_destroy(&p);
}

/* ------------------------------------------------------- cache differences */

static bool show_lines; /* CHUNK_STATE_LINES set: every line in one state only */

/* How level i's lines differ between the two states. */
static void diff_level(const ustate *a, const ustate *b, const layout *l, int i)
{
    uint64_t only_a = 0, only_b = 0, dirty = 0, prefetched = 0, reordered = 0, lines = 0, dirty_a = 0, dirty_b = 0;
    for (uint64_t set = 0; set < l->sets[i]; set++) {
        size_t first = l->begin[i] + set * l->ways[i] * LINE_RECORD;
        bool same_order = true;
        for (uint64_t w = 0; w < l->ways[i]; w++) {
            size_t at = first + w * LINE_RECORD;
            uint64_t tag = u64_at(a, at);
            uint8_t fa = a->data[at + 8];
            same_order &= tag == u64_at(b, at);
            if (tag == UINT64_MAX) continue;
            lines++;
            dirty_a += fa & CACHE_DIRTY;
            bool found = false;
            for (uint64_t v = 0; v < l->ways[i] && !found; v++) {
                size_t bt = first + v * LINE_RECORD;
                if (u64_at(b, bt) != tag) continue;
                found = true;
                uint8_t fb = b->data[bt + 8];
                dirty += (fa ^ fb) & CACHE_DIRTY;
                prefetched += ((fa ^ fb) & CACHE_PREFETCHED) != 0;
            }
            only_a += !found;
            if (!found && show_lines)
                printf("only in a: %s set %" PRIu64 " place %" PRIu64 " line %#" PRIx64 " flags %u\n", part_names[i], set,
                       w, tag << l->line_shift, fa);
        }
        for (uint64_t v = 0; v < l->ways[i]; v++) {
            size_t bt = first + v * LINE_RECORD;
            uint64_t tag = u64_at(b, bt);
            if (tag == UINT64_MAX) continue;
            dirty_b += b->data[bt + 8] & CACHE_DIRTY;
            bool found = false;
            for (uint64_t w = 0; w < l->ways[i] && !found; w++) found = u64_at(a, first + w * LINE_RECORD) == tag;
            only_b += !found;
            if (!found && show_lines)
                printf("only in b: %s set %" PRIu64 " place %" PRIu64 " line %#" PRIx64 " flags %u\n", part_names[i], set,
                       v, tag << l->line_shift, b->data[bt + 8]);
        }
        reordered += !same_order;
    }
    printf("| %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64
           " | %" PRIu64 " |\n",
           part_names[i], lines, only_a, only_b, dirty_a, dirty_b, dirty, prefetched, reordered);
}

/* ---------------------------------------------------------------- report */

static unsigned parse_parts(const char *spec)
{
    if (!strcmp(spec, "none")) return 0;
    if (!strcmp(spec, "all")) return (1u << NPARTS) - 1;
    unsigned mask = 0;
    char *copy = strdup(spec), *save = NULL;
    for (char *t = strtok_r(copy, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        int p = 0;
        if (strchr(t, '@')) continue; /* a byte range: copy_ranges */
        while (p < NPARTS && strcmp(t, part_names[p])) p++;
        if (!strcmp(t, "bp")) mask |= ((1u << NPARTS) - 1) & ~((1u << P_BP) - 1);
        else if (p == NPARTS) die("chunk_state: unknown part %s", t);
        else mask |= 1u << p;
    }
    free(copy);
    return mask;
}

/* The terms NAME@A-B of spec: bytes [A, B) of part NAME from serial into s. */
static void copy_ranges(const char *spec, ustate *s, const ustate *serial, const layout *l)
{
    char *copy = strdup(spec), *save = NULL;
    for (char *t = strtok_r(copy, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        char *at = strchr(t, '@');
        if (!at) continue;
        *at = 0;
        size_t a = 0, b = 0;
        int p = 0;
        while (p < NPARTS && strcmp(t, part_names[p])) p++;
        if (p == NPARTS || sscanf(at + 1, "%zu-%zu", &a, &b) != 2 || a > b || l->begin[p] + b > l->end[p])
            die("chunk_state: bad range %s@%s", t, at + 1);
        memcpy(s->data + l->begin[p] + a, serial->data + l->begin[p] + a, b - a);
    }
    free(copy);
}

static const int shown_events[] = {EV_L1D_MISSES, EV_L2_MISSES, EV_LLC_MISSES, EV_BRANCH_MISPREDICTS, EV_DTLB_MISSES};
static const int shown_stack[] = {STK_STALLED_LOAD_DRAM, STK_STALLED_LOAD_LLC, STK_STALLED_LOAD_L2, STK_FLUSHED_MISPREDICT};
enum { NSHOWN_EVENTS = sizeof shown_events / sizeof *shown_events, NSHOWN_STACK = sizeof shown_stack / sizeof *shown_stack };

static void header(void)
{
    printf("| from the serial run | cycles | CPI diff %%");
    for (int i = 0; i < NSHOWN_EVENTS; i++) printf(" | %s", event_key_names[shown_events[i]]);
    for (int i = 0; i < NSHOWN_STACK; i++) printf(" | %s", stack_key_names[shown_stack[i]]);
    printf(" |\n|---|--:|--:");
    for (int i = 0; i < NSHOWN_EVENTS + NSHOWN_STACK; i++) printf("|--:");
    printf("|\n");
}

static void row(const char *name, const counters *c, const counters *serial)
{
    double diff = 100.0 * ((double)c->cycles - (double)serial->cycles) / (double)serial->cycles;
    printf("| %s | %" PRIu64 " | %+.4f", name, c->cycles, diff);
    for (int i = 0; i < NSHOWN_EVENTS; i++) printf(" | %" PRIu64, c->events[shown_events[i]]);
    for (int i = 0; i < NSHOWN_STACK; i++) printf(" | %" PRIu64, c->stack[shown_stack[i]]);
    printf(" |\n");
}

/* Every line of both states (CHUNK_STATE_DUMP=FILE): state, level, line address, flags. */
static void dump_lines(const ustate *a, const ustate *b, const layout *l, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) die("chunk_state: cannot write %s", path);
    for (int who = 0; who < 2; who++)
        for (int i = 0; i < NLEVELS; i++)
            for (size_t at = l->begin[i]; at < l->end[i]; at += LINE_RECORD) {
                const ustate *s = who ? b : a;
                uint64_t tag = u64_at(s, at);
                if (tag != UINT64_MAX)
                    fprintf(f, "%c %s %#" PRIx64 " %u\n", who ? 'b' : 'a', part_names[i], tag << l->line_shift,
                            s->data[at + 8]);
            }
    fclose(f);
}

/* The lines, flags and bytes in which state a (the serial run's) and b (warming's) differ. */
static void diff_states(const ustate *a, const ustate *b, const layout *l, uint64_t at)
{
    if (getenv("CHUNK_STATE_DUMP")) dump_lines(a, b, l, getenv("CHUNK_STATE_DUMP"));
    printf("## State at %" PRIu64 " (B - W): the serial run's (a) against warming's (b)\n\n", at);
    printf("| level | lines (a) | only in a | only in b | dirty (a) | dirty (b) | dirty differs | prefetch mark "
           "differs | sets in another order |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (int i = 0; i < NLEVELS; i++) diff_level(a, b, l, i);
    if (a->len != b->len) die("chunk_state: the two states differ in length");
    printf("\nBytes that differ:");
    for (int p = P_TLB; p < NPARTS; p++) {
        size_t differ = 0;
        for (size_t i = l->begin[p]; i < l->end[p]; i++) differ += a->data[i] != b->data[i];
        printf(" %s %zu of %zu;", part_names[p], differ, l->end[p] - l->begin[p]);
    }
    printf("\n\n");
    const char *show = getenv("CHUNK_STATE_BYTES"); /* a part whose differing bytes to list */
    for (int p = P_TLB; show && p < NPARTS; p++)
        for (size_t i = l->begin[p]; !strcmp(show, part_names[p]) && i < l->end[p]; i++)
            if (a->data[i] != b->data[i])
                printf("%s byte %zu: serial %d, warming %d\n", part_names[p], i - l->begin[p], (int8_t)a->data[i],
                       (int8_t)b->data[i]);
}

int main(int argc, char **argv)
{
    int dash = 1;
    while (dash < argc && strcmp(argv[dash], "--")) dash++;
    if (dash < 4 || dash + 1 >= argc) {
        fprintf(stderr, "usage: chunk_state C W B|0 PARTS... -- PROGRAM [ARGS...]\n");
        return 2;
    }
    uint64_t C = strtoull(argv[1], NULL, 0), W = strtoull(argv[2], NULL, 0), only = strtoull(argv[3], NULL, 0);
    if (W > C || !C) die("chunk_state: W > C");
    run_args a = {.argc = argc - dash - 1, .argv = argv + dash + 1};
    uarch_config_defaults(&a.cfg);
    const char *set = getenv("CHUNK_STATE_SET"); /* one SEC.KEY=V, as sim --set */
    char err[256];
    if (set && uarch_config_set(&a.cfg, set, err, sizeof err)) die("chunk_state: %s", err);
    show_lines = getenv("CHUNK_STATE_LINES") != NULL;

    /* the program's length: a functional run */
    rv_proc p;
    start(&a, &p);
    rv_run(&p, UINT64_MAX, NULL, NULL);
    uint64_t insts = p.cpu.icount;
    rv_proc_destroy(&p);
    int n = 0;
    uint64_t *B = malloc((insts / C + 1) * sizeof *B);
    for (uint64_t b = C; b < insts; b += C) B[n++] = b;
    ustate *serial = calloc((size_t)n + 1, sizeof *serial), *warm = calloc((size_t)n + 1, sizeof *warm);
    counters *serial_chunk = calloc((size_t)n + 1, sizeof *serial_chunk), whole;
    serial_run(&a, B, n, W, serial, serial_chunk, &whole);
    warm_run(&a, B, n, W, warm);

    int nspecs = dash - 4;
    double *sum = calloc((size_t)nspecs + 1, sizeof *sum);
    printf("# %s: chunks of %" PRIu64 ", warm-up %" PRIu64 ", %" PRIu64 " instructions, %" PRIu64 " cycles\n\n",
           a.argv[0], C, W, whole.instructions, whole.cycles);
    for (int k = 0; k < n; k++) {
        if (only && B[k] != only) continue;
        uint64_t end = k + 1 < n ? B[k + 1] : UINT64_MAX;
        layout l = layout_of(&a.cfg, &serial[k]);
        if (only) diff_states(&serial[k], &warm[k], &l, B[k] - W);
        printf("## The chunk at %" PRIu64 " from %" PRIu64 ", parts of the state from the serial run, the rest from "
               "warming\n\n",
               B[k], B[k] - W);
        header();
        row("(the serial run itself)", &serial_chunk[k], &serial_chunk[k]);
        for (int i = 0; i < nspecs; i++) {
            const char *spec = argv[4 + i];
            ustate s = compose(&serial[k], &warm[k], &l, parse_parts(spec));
            copy_ranges(spec, &s, &serial[k], &l);
            counters chunk;
            chunk_run(&a, &s, B[k], W, end, &chunk);
            row(spec, &chunk, &serial_chunk[k]);
            sum[i] += (double)chunk.cycles - (double)serial_chunk[k].cycles;
            fflush(stdout);
            ustate_free(&s);
        }
        printf("\n");
    }
    printf("## The %s CPI difference (chunks' cycles against the serial run's)\n\n| from the serial run | CPI "
           "diff %% |\n|---|--:|\n",
           only ? "one chunk's share of the whole run's" : "whole run's");
    for (int i = 0; i < nspecs; i++) printf("| %s | %+.4f |\n", argv[4 + i], 100.0 * sum[i] / (double)whole.cycles);
    for (int k = 0; k < n; k++) ustate_free(&serial[k]), ustate_free(&warm[k]);
    free(serial), free(warm), free(serial_chunk), free(sum), free(B);
    return 0;
}
