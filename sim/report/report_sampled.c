#include "report_sampled.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "report_pics.h"
#include "sampling_quality.h"
#include "util.h"

const char *const category_names[CAT_COUNT] = {
#define C(id, name) #name,
    CATEGORY_KEYS(C)
#undef C
};

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const cost *)a)->key, y = ((const cost *)b)->key;
    return (x > y) - (x < y);
}

cost *golden_by_pc(const cost *golden, size_t n)
{
    cost *g = malloc((n ? n : 1) * sizeof *g);
    if (!g) die("out of memory");
    memcpy(g, golden, n * sizeof *g);
    qsort(g, n, sizeof *g, by_key);
    return g;
}

uint32_t bits_of(const cost *by_pc, size_t n, uint64_t pc)
{
    cost k = {.key = pc};
    const cost *hit = n ? bsearch(&k, by_pc, n, sizeof k, by_key) : NULL;
    return hit ? hit->bits : 0;
}

/* notes/tip.md §3.1: stalls split by the blamed instruction's type, flushes
 * into branch mispredicts and the rest. */
static enum category category_of(int state, uint64_t pc, uint32_t bits)
{
    if (state == ST_COMPUTING) return CAT_EXECUTION;
    if (state == ST_DRAINED) return CAT_FRONT_END;
    rv_insn in;
    rv_decode(&in, pc, (uint16_t)bits, (uint16_t)(bits >> 16));
    unsigned cls = rv_ops[in.op].cls;
    if (state == ST_FLUSHED) return rv_ops[in.op].flags & RVF_CTRL ? CAT_FLUSH_MISPREDICT : CAT_FLUSH_MISC;
    if (cls == CLS_LOAD || cls == CLS_FLOAD) return CAT_STALL_LOAD;
    if (cls == CLS_STORE || cls == CLS_FSTORE || cls == CLS_AMO) return CAT_STALL_STORE;
    return CAT_STALL_ALU;
}

void profile_categories(const cost *pcs, size_t n, const cost *golden, size_t ngolden, uint64_t out[CAT_COUNT])
{
    memset(out, 0, CAT_COUNT * sizeof *out);
    cost *g = golden_by_pc(golden, ngolden);
    for (size_t i = 0; i < n; i++) {
        uint64_t pc = pics_pc(pcs[i].key);
        uint32_t bits = pcs[i].bits ? pcs[i].bits : bits_of(g, ngolden, pc);
        for (int s = 0; s < ST_COUNT; s++)
            if (pcs[i].units[s]) out[category_of(s, pc, bits)] += pcs[i].units[s];
    }
    free(g);
}

void sampled_errors(const sim_result *r, const symbolizer *sym, const sampled_profile *p, double err[GRAN_COUNT])
{
    /* Event-based schemes against the golden PICS projected on their events. */
    const cost *ref = p->events ? r->pics : r->pcs;
    size_t nref = p->events ? r->npics : r->npcs;
    for (int g = 0; g < GRAN_COUNT; g++)
        err[g] = profile_error(sym, (enum granularity)g, p->events, ref, nref, p->pcs, p->npcs);
}

static uint64_t profile_units(const cost *pcs, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += cost_total(&pcs[i]);
    return s;
}

static json_t *categories_json(const cost *pcs, size_t n, const sim_result *r)
{
    uint64_t cat[CAT_COUNT];
    profile_categories(pcs, n, r->pcs, r->npcs, cat);
    json_t *o = json_object();
    for (int i = 0; i < CAT_COUNT; i++) json_object_set_new(o, category_names[i], cycles_json(cat[i], r->units));
    return o;
}

/* Time profiles at instruction, block and function level; cycle stacks
 * also at application level. */
static json_t *errors_json(const double err[GRAN_COUNT], bool stacks)
{
    json_t *o = json_object();
    for (int g = 0; g < (stacks ? GRAN_COUNT : GRAN_APPLICATION); g++)
        json_object_set_new(o, granularity_names[g], json_real(err[g]));
    return o;
}

static json_t *events_json(uint16_t mask)
{
    json_t *a = json_array();
    for (int e = 0; e < PSV_NEVENTS; e++)
        if (mask & (1u << e)) json_array_append_new(a, json_string(psv_event_names[e]));
    return a;
}

/* An event-based scheme's profile: its stacks per instruction and function. */
static json_t *stacks_profile_json(const sampled_profile *p, const sim_result *r, const report_ctx *x,
                                   const symbolizer *sym)
{
    return json_pack("{s:b, s:o, s:o, s:o}", "complete", !x->top || x->top >= p->npcs, "events", events_json(p->events),
                     "instructions", pics_stacks_json(p->pcs, p->npcs, p->events, GRAN_INSTRUCTION, sym, r, r->units, x),
                     "functions", pics_stacks_json(p->pcs, p->npcs, p->events, GRAN_FUNCTION, sym, r, r->units, x));
}

static json_t *config_json(const sampler_config *c)
{
    return json_pack("{s:I, s:o, s:b, s:I}", "period", (json_int_t)c->period, "hz",
                     c->hz > 0 ? json_real(c->hz) : json_null(), "random", c->random, "seed", (json_int_t)c->seed);
}

json_t *sampled_json(const sim_result *r, const report_ctx *x, const symbolizer *sym)
{
    const sampled_run *run = &r->sampled[0];
    json_t *o = config_json(&run->cfg);
    sampling_quality q;
    sampling_quality_of(r, sym, 0, &q);
    json_object_set_new(o, "quality", sampling_quality_json(&q));
    json_object_set_new(o, "golden", json_pack("{s:o}", "categories", categories_json(r->pcs, r->npcs, r)));
    cost *g = golden_by_pc(r->pcs, r->npcs);
    for (int i = 0; i < run->nprofs; i++) {
        const sampled_profile *p = &run->profs[i];
        double err[GRAN_COUNT];
        sampled_errors(r, sym, p, err);
        if (p->events) {
            json_object_set_new(o, p->name,
                                json_pack("{s:I, s:I, s:o, s:o, s:o, s:o}", "samples", (json_int_t)p->samples, "dropped",
                                          (json_int_t)p->dropped, "sampled_cycles",
                                          cycles_json(profile_units(p->pcs, p->npcs), r->units), "error",
                                          errors_json(err, true), "categories", categories_json(p->pcs, p->npcs, r),
                                          "profile", stacks_profile_json(p, r, x, sym)));
            continue;
        }
        cost *pcs = malloc((p->npcs ? p->npcs : 1) * sizeof *pcs);
        if (!pcs) die("out of memory");
        memcpy(pcs, p->pcs, p->npcs * sizeof *pcs);
        for (size_t k = 0; k < p->npcs; k++) pcs[k].bits = bits_of(g, r->npcs, pcs[k].key);
        size_t nblocks;
        cost *blocks = profile_rollup(sym, GRAN_BLOCK, pcs, p->npcs, &nblocks);
        json_t *prof = json_pack("{s:b, s:o, s:o, s:o}", "complete", !x->top || x->top >= p->npcs, "instructions",
                                 pcs_list_json(pcs, p->npcs, r->units, x), "blocks",
                                 blocks_list_json(blocks, nblocks, r->units, x), "functions",
                                 functions_list_json(pcs, p->npcs, r->units, x));
        json_object_set_new(o, p->name,
                            json_pack("{s:I, s:I, s:o, s:o, s:o, s:o}", "samples", (json_int_t)p->samples, "dropped",
                                      (json_int_t)p->dropped, "sampled_cycles",
                                      cycles_json(profile_units(p->pcs, p->npcs), r->units), "error", errors_json(err, false),
                                      "categories", categories_json(pcs, p->npcs, r), "profile", prof));
        free(blocks);
        free(pcs);
    }
    free(g);
    return o;
}

json_t *sample_sweep_json(const sim_result *r, const symbolizer *sym)
{
    json_t *a = json_array();
    for (int k = 1; k < r->nsampled; k++) {
        const sampled_run *run = &r->sampled[k];
        json_t *o = config_json(&run->cfg);
        sampling_quality q;
        sampling_quality_of(r, sym, k, &q);
        json_object_set_new(o, "quality", sampling_quality_json(&q));
        for (int i = 0; i < run->nprofs; i++) {
            double err[GRAN_COUNT];
            sampled_errors(r, sym, &run->profs[i], err);
            json_object_set_new(o, run->profs[i].name,
                                json_pack("{s:I, s:I, s:o}", "samples", (json_int_t)run->profs[i].samples, "dropped",
                                          (json_int_t)run->profs[i].dropped, "error",
                                          errors_json(err, run->profs[i].events)));
        }
        json_array_append_new(a, o);
    }
    return a;
}

static double share_at(const cost *pcs, size_t n, uint64_t pc)
{
    uint64_t at = 0, total = 0;
    for (size_t i = 0; i < n; i++) {
        total += cost_total(&pcs[i]);
        if (pics_pc(pcs[i].key) == pc) at += cost_total(&pcs[i]);
    }
    return total ? 100.0 * (double)at / (double)total : 0;
}

/* perf report in a few lines: the hottest instructions by golden time,
 * beside the first few profilers' shares. */
static void hottest_summary(FILE *f, const sim_result *r, const symbolizer *sym)
{
    const sampled_run *run = &r->sampled[0];
    int shown = run->nprofs < 3 ? run->nprofs : 3;
    fprintf(f, "\n Hottest instructions (share of the time):\n %7s", "golden");
    for (int i = 0; i < shown; i++) fprintf(f, " %7s", run->profs[i].name);
    fprintf(f, "  instruction\n");
    for (size_t k = 0; k < r->npcs && k < 10; k++) {
        char name[256], dis[96];
        rv_insn in;
        uint32_t bits = r->pcs[k].bits;
        rv_decode(&in, r->pcs[k].key, (uint16_t)bits, (uint16_t)(bits >> 16));
        rv_disasm(&in, dis, sizeof dis);
        fprintf(f, " %6.2f%%", share_at(r->pcs, r->npcs, r->pcs[k].key));
        for (int i = 0; i < shown; i++) fprintf(f, " %6.2f%%", share_at(run->profs[i].pcs, run->profs[i].npcs, r->pcs[k].key));
        fprintf(f, "  %s  %s\n", symtab_describe(sym->syms, r->pcs[k].key, name, sizeof name), dis);
    }
}

void sampled_summary(FILE *f, const sim_result *r, const symbolizer *sym)
{
    if (!r->nsampled) return;
    const sampled_run *run = &r->sampled[0];
    fprintf(f, "\n Sampled profiles (every %" PRIu64 " cycles, %s), error against the golden attribution\n"
               " (cycle stacks for the event-based schemes: tea, nci-tea, tea-dispatch, ibs, spe, ris):\n",
            run->cfg.period, run->cfg.random ? "random in each period" : "periodic");
    fprintf(f, " %-12s %8s %8s  %11s %8s %9s\n", "profiler", "samples", "dropped", "instruction", "block", "function");
    for (int i = 0; i < run->nprofs; i++) {
        double err[GRAN_COUNT];
        sampled_errors(r, sym, &run->profs[i], err);
        fprintf(f, " %-12s %8" PRIu64 " %8" PRIu64 "  %10.2f%% %7.2f%% %8.2f%%\n", run->profs[i].name,
                run->profs[i].samples, run->profs[i].dropped, 100 * err[GRAN_INSTRUCTION], 100 * err[GRAN_BLOCK],
                100 * err[GRAN_FUNCTION]);
    }
    sampling_quality q;
    sampling_quality_of(r, sym, 0, &q);
    char notes[1024];
    sampling_quality_notes(notes, sizeof notes, " ", &q);
    fputs(notes, f);
    if (r->nsampled > 1) {
        fprintf(f, "\n Instruction-level error against sampling frequency:\n %-12s", "profiler");
        for (int k = 1; k < r->nsampled; k++)
            fprintf(f, " %7.0fHz%c", r->sampled[k].cfg.hz, r->sampled[k].cfg.random ? 'r' : 'p');
        fprintf(f, "\n");
        for (int i = 0; i < run->nprofs; i++) {
            fprintf(f, " %-12s", run->profs[i].name);
            for (int k = 1; k < r->nsampled; k++) {
                double err[GRAN_COUNT];
                sampled_errors(r, sym, &r->sampled[k].profs[i], err);
                fprintf(f, " %9.2f%%", 100 * err[GRAN_INSTRUCTION]);
            }
            fprintf(f, "\n");
        }
        fprintf(f, " (p: periodic, r: random within each period)\n");
    }
    hottest_summary(f, r, sym);
}

void sampled_csv_header(outfile *o)
{
    outfile_printf(o, "result,checkpoint,hz,period,random,seed,profiler,samples,dropped,error_instruction,"
                      "error_block,error_function,error_application\n");
}

void sampled_csv_rows(outfile *o, const sim_result *r, size_t index, const symbolizer *sym)
{
    for (int k = 0; k < r->nsampled; k++) {
        const sampled_run *run = &r->sampled[k];
        for (int i = 0; i < run->nprofs; i++) {
            double err[GRAN_COUNT];
            sampled_errors(r, sym, &run->profs[i], err);
            outfile_printf(o, "%zu,%s,%g,%" PRIu64 ",%d,%" PRIu64 ",%s,%" PRIu64 ",%" PRIu64 ",%.6f,%.6f,%.6f,%.6f\n",
                           index, r->checkpoint ? r->checkpoint : "", run->cfg.hz, run->cfg.period, run->cfg.random,
                           run->cfg.seed, run->profs[i].name, run->profs[i].samples, run->profs[i].dropped,
                           err[GRAN_INSTRUCTION], err[GRAN_BLOCK], err[GRAN_FUNCTION], err[GRAN_APPLICATION]);
        }
    }
}
