#include "bbv_profile.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static void *xrealloc(void *p, size_t size)
{
    void *r = realloc(p, size);
    if (!r)
        die("out of memory");
    return r;
}

static void schedule(bbv_profile *bp)
{
    bp->next_event = bp->next_progress;
    for (int i = 0; i < bp->nseries; i++)
        if (bp->series[i].next_boundary < bp->next_event)
            bp->next_event = bp->series[i].next_boundary;
}

void bbv_profile_init(bbv_profile *bp, const uint64_t *sizes, outfile *const *outs, int n)
{
    memset(bp, 0, sizeof *bp);
    bp->nseries = n;
    for (int i = 0; i < n; i++) {
        bp->series[i].size = sizes[i];
        bp->series[i].next_boundary = sizes[i];
        bp->series[i].out = outs[i];
    }
    bp->table_mask = (1u << 12) - 1;
    bp->id_of_pc = xrealloc(NULL, (size_t)(bp->table_mask + 1) * 2 * sizeof(uint64_t));
    memset(bp->id_of_pc, 0, (size_t)(bp->table_mask + 1) * 2 * sizeof(uint64_t));
    bp->next_progress = UINT64_MAX;
    schedule(bp);
}

void bbv_profile_rebase(bbv_profile *bp, uint64_t start)
{
    for (int i = 0; i < bp->nseries; i++)
        bp->series[i].next_boundary = start + bp->series[i].size;
    bp->retired = start;
    schedule(bp);
}

void bbv_profile_on_progress(bbv_profile *bp, void (*fn)(void *ctx, uint64_t retired), void *ctx)
{
    bp->on_progress = fn;
    bp->progress_ctx = ctx;
    bp->next_progress = bp->retired + (UINT64_C(1) << 26);
    schedule(bp);
}

static uint32_t slot_of(uint64_t pc, uint32_t mask)
{
    return (uint32_t)((pc * UINT64_C(0x9e3779b97f4a7c15)) >> 40) & mask;
}

static void table_insert(uint64_t *table, uint32_t mask, uint64_t pc, uint32_t id)
{
    uint32_t s = slot_of(pc, mask);
    while (table[2 * s + 1])
        s = (s + 1) & mask;
    table[2 * s] = pc;
    table[2 * s + 1] = id;
}

static void grow_table(bbv_profile *bp)
{
    uint32_t mask = bp->table_mask * 2 + 1;
    uint64_t *t = calloc((size_t)(mask + 1) * 2, sizeof *t);
    if (!t)
        die("out of memory");
    for (uint32_t i = 0; i < bp->nblocks; i++)
        table_insert(t, mask, bp->blocks[i].pc, i + 1);
    free(bp->id_of_pc);
    bp->id_of_pc = t;
    bp->table_mask = mask;
}

static uint32_t find(const bbv_profile *bp, uint64_t pc)
{
    for (uint32_t s = slot_of(pc, bp->table_mask);; s = (s + 1) & bp->table_mask) {
        uint64_t id = bp->id_of_pc[2 * s + 1];
        if (!id)
            return 0;
        if (bp->id_of_pc[2 * s] == pc)
            return (uint32_t)id;
    }
}

/* The block's id, keyed by start pc so that it survives re-decoding. */
static uint32_t block_id(bbv_profile *bp, uint64_t pc, uint32_t len)
{
    uint32_t found = find(bp, pc);
    if (found)
        return found;
    if (bp->nblocks == bp->cap) {
        bp->cap = bp->cap ? bp->cap * 2 : 4096;
        bp->blocks = xrealloc(bp->blocks, bp->cap * sizeof *bp->blocks);
        for (int i = 0; i < bp->nseries; i++) {
            bbv_series *s = &bp->series[i];
            s->counts = xrealloc(s->counts, ((size_t)bp->cap + 1) * sizeof *s->counts);
            memset(s->counts + bp->nblocks + 1, 0, (bp->cap - bp->nblocks) * sizeof *s->counts);
            s->touched = xrealloc(s->touched, bp->cap * sizeof *s->touched);
        }
    }
    uint32_t id = ++bp->nblocks;
    bp->blocks[id - 1] = (bbv_block_info){pc, len};
    if (2 * bp->nblocks > bp->table_mask)
        grow_table(bp);
    table_insert(bp->id_of_pc, bp->table_mask, pc, id);
    return id;
}

static inline void add(bbv_series *s, uint32_t id, uint64_t count)
{
    if (!count)
        return;
    if (!s->counts[id])
        s->touched[s->ntouched++] = id;
    s->counts[id] += count;
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* One SimPoint line "T:id:count :id:count ..." for the current interval. */
static void emit(bbv_series *s)
{
    qsort(s->touched, s->ntouched, sizeof *s->touched, by_id);
    if (s->out) {
        outfile_write(s->out, "T", 1);
        for (uint32_t i = 0; i < s->ntouched; i++) {
            uint32_t id = s->touched[i];
            outfile_printf(s->out, ":%u:%llu ", id, (unsigned long long)s->counts[id]);
        }
        outfile_write(s->out, "\n", 1);
    }
    for (uint32_t i = 0; i < s->ntouched; i++)
        s->counts[s->touched[i]] = 0;
    s->ntouched = 0;
}

static void add_all(bbv_profile *bp, uint32_t id, uint64_t count)
{
    for (int i = 0; i < bp->nseries; i++)
        add(&bp->series[i], id, count);
}

static uint32_t id_of(bbv_profile *bp, rv_block *b)
{
    if (!b->profile_id)
        b->profile_id = block_id(bp, b->pc, b->n);
    return b->profile_id;
}

/* Whole executions since the last drain (rv_count_blocks visitor). */
static void count_whole(void *ctx, rv_block *b, uint64_t execs)
{
    bbv_profile *bp = ctx;
    add_all(bp, id_of(bp, b), execs * b->n);
}

/* Part of a block (the rv_run hook, which then sees only partial executions). */
static void count_part(void *ctx, rv_block *b, uint32_t first, uint64_t start, uint32_t executed)
{
    (void)first, (void)start;
    bbv_profile *bp = ctx;
    add_all(bp, id_of(bp, b), executed);
}

/* Every block, for the client, then counted: whole executions as the run
 * would count them. */
static void count_every(void *ctx, rv_block *b, uint32_t first, uint64_t start, uint32_t executed)
{
    bbv_profile *bp = ctx;
    bp->client.block(bp->client.ctx, b, first, start, executed);
    if (first == 0 && executed == b->n)
        rv_count_whole(bp->proc, b);
    else
        count_part(ctx, b, first, start, executed);
}

void bbv_profile_attach(bbv_profile *bp, const bbv_client *c)
{
    bp->client = *c;
}

static void close_interval(bbv_profile *bp, int i)
{
    emit(&bp->series[i]);
    if (bp->client.closed)
        bp->client.closed(bp->client.ctx, i, bp->series[i].written, bp->retired);
}

/* Close the intervals that end at the current count; report progress. */
static void handle_events(bbv_profile *bp)
{
    for (int i = 0; i < bp->nseries; i++) {
        bbv_series *s = &bp->series[i];
        if (bp->retired == s->next_boundary) {
            close_interval(bp, i);
            s->written++;
            s->next_boundary += s->size;
        }
    }
    if (bp->retired >= bp->next_progress) {
        bp->on_progress(bp->progress_ctx, bp->retired);
        bp->next_progress = bp->retired + (UINT64_C(1) << 26);
    }
    schedule(bp);
}

enum rv_run_result bbv_profile_run(bbv_profile *bp, rv_proc *p, uint64_t limit)
{
    enum rv_run_result r;
    bool hooked = bp->client.block != NULL;
    bp->retired = p->cpu.icount;
    bp->proc = p;
    if (hooked)
        rv_count_blocks_hooked(p, count_whole, bp);
    else
        rv_count_blocks(p, count_whole, bp);
    do {
        r = rv_run(p, bp->next_event < limit ? bp->next_event : limit, hooked ? count_every : count_part, bp);
        rv_drain_counts(p);
        bp->retired = p->cpu.icount;
        if (bp->retired >= bp->next_event)
            handle_events(bp);
    } while (r == RV_RUN_LIMIT && p->cpu.icount < limit);
    rv_count_blocks(p, NULL, NULL);
    return r;
}

void bbv_profile_finish(bbv_profile *bp, bool drop_partial)
{
    for (int i = 0; i < bp->nseries; i++) {
        bbv_series *s = &bp->series[i];
        uint64_t partial = bp->retired - (s->next_boundary - s->size);
        if (partial == 0 || drop_partial)
            continue;
        if (s->out)
            outfile_printf(s->out, "# partial interval: %llu instructions\n", (unsigned long long)partial);
        close_interval(bp, i);
    }
}

void bbv_profile_free(bbv_profile *bp)
{
    for (int i = 0; i < bp->nseries; i++) {
        free(bp->series[i].counts);
        free(bp->series[i].touched);
    }
    free(bp->blocks);
    free(bp->id_of_pc);
    memset(bp, 0, sizeof *bp);
}
