#include "report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "outfile.h"
#include "report_inclusive.h"
#include "report_pics.h"
#include "report_sampled.h"
#include "util.h"

static int by_pc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void block_ids_load(block_ids *b, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) die("--bbmap %s: cannot open", path);
    size_t cap = 0;
    char line[4096];
    uint64_t (*pairs)[2] = NULL;
    unsigned lineno = 0;
    *b = (block_ids){0};
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        unsigned long long id, pc;
        if (sscanf(line, "%llu 0x%llx", &id, &pc) != 2) die("%s:%u: expected 'id start_pc ...'", path, lineno);
        if (b->n == cap && !(pairs = realloc(pairs, (cap = cap ? cap * 2 : 1024) * sizeof *pairs)))
            die("out of memory");
        pairs[b->n][0] = pc, pairs[b->n][1] = id;
        b->n++;
    }
    fclose(f);
    qsort(pairs, b->n, sizeof *pairs, by_pc);
    b->pcs = malloc((b->n + 1) * sizeof *b->pcs);
    b->ids = malloc((b->n + 1) * sizeof *b->ids);
    if (!b->pcs || !b->ids) die("out of memory");
    for (size_t i = 0; i < b->n; i++) b->pcs[i] = pairs[i][0], b->ids[i] = (uint32_t)pairs[i][1];
    free(pairs);
}

void block_ids_free(block_ids *b)
{
    free(b->pcs);
    free(b->ids);
    *b = (block_ids){0};
}

static long long block_id(const block_ids *b, uint64_t pc)
{
    if (!b || !b->n) return -1;
    const uint64_t *hit = bsearch(&pc, b->pcs, b->n, sizeof *b->pcs, by_pc);
    return hit ? (long long)b->ids[hit - b->pcs] : -1;
}

/* Exact units printed as cycles. */
json_t *cycles_json(uint64_t units, uint32_t per_cycle)
{
    if (units % per_cycle == 0) return json_integer((json_int_t)(units / per_cycle));
    return json_real((double)units / per_cycle);
}

static json_t *hex(uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "0x%" PRIx64, v);
    return json_string(buf);
}

static void add_cost_fields(json_t *o, const cost *c, uint32_t units)
{
    json_object_set_new(o, "commits", json_integer((json_int_t)c->commits));
    json_object_set_new(o, "cycles", cycles_json(cost_total(c), units));
    for (int s = 0; s < ST_COUNT; s++) json_object_set_new(o, commit_state_names[s], cycles_json(c->units[s], units));
}

static void disasm_cost(const cost *c, char *buf, size_t size)
{
    rv_insn in;
    rv_decode(&in, c->key, (uint16_t)c->bits, (uint16_t)(c->bits >> 16));
    rv_disasm(&in, buf, size);
}

json_t *pcs_list_json(const cost *pcs, size_t npcs, uint32_t units, const report_ctx *x)
{
    json_t *a = json_array();
    size_t n = x->top && x->top < npcs ? x->top : npcs;
    for (size_t i = 0; i < n; i++) {
        const cost *c = &pcs[i];
        char sym[256], dis[96];
        symtab_describe(x->syms, c->key, sym, sizeof sym);
        disasm_cost(c, dis, sizeof dis);
        json_t *o = json_pack("{s:o, s:s, s:s}", "pc", hex(c->key), "symbol", sym, "disasm", dis);
        add_cost_fields(o, c, units);
        json_array_append_new(a, o);
    }
    return a;
}

json_t *blocks_list_json(const cost *blocks, size_t nblocks, uint32_t units, const report_ctx *x)
{
    json_t *a = json_array();
    size_t n = x->top && x->top < nblocks ? x->top : nblocks;
    for (size_t i = 0; i < n; i++) {
        const cost *c = &blocks[i];
        char sym[256];
        symtab_describe(x->syms, c->key, sym, sizeof sym);
        long long id = block_id(x->blocks, c->key);
        json_t *o = json_pack("{s:o, s:o, s:s}", "pc", hex(c->key), "bbv_id", id < 0 ? json_null() : json_integer(id),
                              "symbol", sym);
        add_cost_fields(o, c, units);
        json_array_append_new(a, o);
    }
    return a;
}

/* The golden blocks: dynamic blocks as bbv forms them, with executions. */
static json_t *blocks_json(const sim_result *r, const report_ctx *x)
{
    json_t *a = blocks_list_json(r->blocks, r->nblocks, r->units, x);
    for (size_t i = 0; i < json_array_size(a); i++)
        json_object_set_new(json_array_get(a, i), "executions", json_integer((json_int_t)r->blocks[i].execs));
    return a;
}

/* Functions: the pc costs summed by containing symbol. */
json_t *functions_list_json(const cost *pcs, size_t npcs, uint32_t units, const report_ctx *x)
{
    symbolizer sym = {.syms = x->syms};
    size_t n;
    cost *sorted = profile_rollup(&sym, GRAN_FUNCTION, pcs, npcs, &n);
    json_t *a = json_array();
    for (size_t i = 0; i < n && (!x->top || i < x->top); i++) {
        const rv_symbol *s = sorted[i].key == 1 ? NULL : symtab_find(x->syms, sorted[i].key);
        json_t *o = json_pack("{s:s}", "name", s ? s->name : "[unknown]");
        add_cost_fields(o, &sorted[i], units);
        json_array_append_new(a, o);
    }
    free(sorted);
    return a;
}

static json_t *stack_json(const counters *c)
{
    json_t *o = json_object();
    for (int i = 0; i < STK_COUNT; i++) json_object_set_new(o, stack_key_names[i], json_integer((json_int_t)c->stack[i]));
    return o;
}

static void state_totals(const counters *c, uint64_t out[ST_COUNT])
{
    memset(out, 0, ST_COUNT * sizeof *out);
    for (int i = 0; i < STK_COUNT; i++) out[stack_key_state[i]] += c->stack[i];
}

json_t *result_json(const sim_result *r, const report_ctx *x)
{
    const counters *c = &r->c;
    json_t *o = json_object();
    json_object_set_new(o, "program", r->program ? json_string(r->program) : json_null());
    json_object_set_new(o, "checkpoint", r->checkpoint ? json_string(r->checkpoint) : json_null());
    json_object_set_new(o, "region", r->has_region ? ckpt_region_json(&r->region) : json_null());
    json_object_set_new(o, "warmup", json_pack("{s:s, s:I, s:I}", "strategy", warmup_mode_names[r->warmup],
                                               "instructions", (json_int_t)r->warmup_insts, "cycles",
                                               (json_int_t)r->warmup_cycles));
    if (r->message && !r->pcs) {
        json_object_set_new(o, "error", json_string(r->message));
        return o;
    }
    json_object_set_new(o, "start", json_integer((json_int_t)r->start));
    json_object_set_new(o, "instructions", json_integer((json_int_t)c->instructions));
    json_object_set_new(o, "cycles", json_integer((json_int_t)c->cycles));
    json_object_set_new(o, "cpi", json_real(c->instructions ? (double)c->cycles / (double)c->instructions : 0));
    json_object_set_new(o, "ipc", json_real(c->cycles ? (double)c->instructions / (double)c->cycles : 0));
    json_object_set_new(o, "stack", stack_json(c));
    uint64_t st[ST_COUNT];
    state_totals(c, st);
    json_t *states = json_object();
    for (int s = 0; s < ST_COUNT; s++) json_object_set_new(states, commit_state_names[s], json_integer((json_int_t)st[s]));
    json_object_set_new(o, "states", states);
    json_t *ev = json_object();
    for (int i = 0; i < EV_COUNT; i++) json_object_set_new(ev, event_key_names[i], json_integer((json_int_t)c->events[i]));
    json_object_set_new(o, "events", ev);
    json_object_set_new(o, "stopped_by", json_string(r->stopped_by));
    if (!strcmp(r->stopped_by, "exit")) json_object_set_new(o, "exit_status", json_integer(r->exit_status));
    if (r->message) json_object_set_new(o, "message", json_string(r->message));
    json_object_set_new(o, "seconds", json_real(r->seconds));
    json_object_set_new(o, "mips", json_real(r->seconds > 0 ? (double)c->instructions / r->seconds / 1e6 : 0));
    json_object_set_new(o, "profile", json_pack("{s:b, s:o, s:o, s:o}", "complete", !x->top || x->top >= r->npcs, "instructions",
                                                pcs_list_json(r->pcs, r->npcs, r->units, x), "blocks",
                                                blocks_json(r, x), "functions",
                                                functions_list_json(r->pcs, r->npcs, r->units, x)));
    symbolizer sym;
    symbolizer_init(&sym, x->syms, r->blocks, r->nblocks);
    if (r->calls) json_object_set_new(json_object_get(o, "profile"), "inclusive", inclusive_json(r, &sym, x->top));
    if (r->pics) json_object_set_new(o, "pics", golden_pics_json(r, x, &sym));
    if (r->nsampled) json_object_set_new(o, "sampled", sampled_json(r, x, &sym));
    if (r->nsampled > 1) json_object_set_new(o, "sample_sweep", sample_sweep_json(r, &sym));
    if (r->profileme)
        json_object_set_new(o, "profileme", profileme_json(r->profileme, r->pcs, r->npcs, r->units, x->syms, x->top));
    symbolizer_free(&sym);
    return o;
}

void result_summary(FILE *f, const sim_result *r, const report_ctx *x)
{
    (void)x;
    const counters *c = &r->c;
    if (r->checkpoint) fprintf(f, "\n Region of %s", r->checkpoint);
    else fprintf(f, "\n Full run of %s", r->program ? r->program : "?");
    if (r->message && !r->pcs) {
        fprintf(f, ": %s\n", r->message);
        return;
    }
    fprintf(f, " (warm-up: %s, %" PRIu64 " instructions)\n\n", warmup_mode_names[r->warmup], r->warmup_insts);
    double cyc = (double)(c->cycles ? c->cycles : 1);
    fprintf(f, " %16" PRIu64 "  instructions\n", c->instructions);
    fprintf(f, " %16" PRIu64 "  cycles            # %.3f CPI, %.3f IPC\n", c->cycles,
            c->instructions ? (double)c->cycles / (double)c->instructions : 0, (double)c->instructions / cyc);
    uint64_t st[ST_COUNT];
    state_totals(c, st);
    for (int s = 0; s < ST_COUNT; s++)
        fprintf(f, " %16" PRIu64 "  %-16s  # %5.1f%%\n", st[s], commit_state_names[s], 100.0 * (double)st[s] / cyc);
    fprintf(f, "\n Cycle stack:\n");
    for (int i = 0; i < STK_COUNT; i++)
        if (c->stack[i])
            fprintf(f, " %16" PRIu64 "  %-20s  # %5.1f%%\n", c->stack[i], stack_key_names[i],
                    100.0 * (double)c->stack[i] / cyc);
    double ki = (double)(c->instructions ? c->instructions : 1) / 1000.0;
    fprintf(f, "\n Events (per 1000 instructions):\n");
    for (int i = 0; i < EV_COUNT; i++)
        if (c->events[i])
            fprintf(f, " %16" PRIu64 "  %-20s  # %8.3f\n", c->events[i], event_key_names[i], (double)c->events[i] / ki);
    if (r->seconds > 0)
        fprintf(f, "\n %10.2f seconds, %.2f simulated MIPS\n", r->seconds, (double)c->instructions / r->seconds / 1e6);
}

void profile_csv(const char *path, const sim_result *r, const report_ctx *x)
{
    outfile *o = outfile_open(path);
    outfile_printf(o, "pc,symbol,disasm,commits,cycles,computing,stalled,flushed,drained\n");
    for (size_t i = 0; i < r->npcs; i++) {
        const cost *c = &r->pcs[i];
        char sym[256], dis[96];
        symtab_describe(x->syms, c->key, sym, sizeof sym);
        disasm_cost(c, dis, sizeof dis);
        outfile_printf(o, "0x%" PRIx64 ",%s,\"%s\",%" PRIu64 ",%.6f", c->key, sym, dis, c->commits,
                       (double)cost_total(c) / r->units);
        for (int s = 0; s < ST_COUNT; s++) outfile_printf(o, ",%.6f", (double)c->units[s] / r->units);
        outfile_printf(o, "\n");
    }
    outfile_commit(o);
}
