#include "report_md.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "outfile.h"
#include "report_inclusive.h"
#include "report_pics.h"
#include "report_sampled.h"
#include "report_whole.h"
#include "sampling_quality.h"
#include "source_text.h"
#include "srcline.h"
#include "util.h"

/* A profile rolled up to one granularity, for lookups by unit. */
typedef struct rolled {
    const char *name;
    cost_table by_unit;
    uint64_t total;
} rolled;

static void roll(rolled *d, const char *name, const symbolizer *sym, enum granularity g, const cost *pcs, size_t n)
{
    size_t m;
    cost *units = profile_rollup(sym, g, pcs, n, &m);
    *d = (rolled){.name = name};
    for (size_t i = 0; i < m; i++) {
        *cost_at(&d->by_unit, units[i].key) = units[i];
        d->total += cost_total(&units[i]);
    }
    free(units);
}

static double share_of(rolled *d, uint64_t unit)
{
    return d->total ? 100.0 * (double)cost_total(cost_at(&d->by_unit, unit)) / (double)d->total : 0;
}

/* The golden attribution and every time profile of r at granularity g:
 * the golden one first. Returns the count. */
static int roll_all(rolled *out, const sim_result *r, const symbolizer *sym, enum granularity g)
{
    int n = 0;
    roll(&out[n++], "golden", sym, g, r->pcs, r->npcs);
    for (int i = 0; r->nsampled && i < r->sampled[0].nprofs; i++) {
        const sampled_profile *p = &r->sampled[0].profs[i];
        roll(&out[n++], p->name, sym, g, p->pcs, p->npcs);
    }
    return n;
}

static void free_rolled(rolled *d, int n)
{
    for (int i = 0; i < n; i++) cost_table_free(&d[i].by_unit);
}

static void disasm_at(const cost *by_pc, size_t n, uint64_t pc, char *buf, size_t size)
{
    uint32_t bits = bits_of(by_pc, n, pc);
    rv_insn in;
    rv_decode(&in, pc, (uint16_t)bits, (uint16_t)(bits >> 16));
    rv_disasm(&in, buf, size);
}

static void unit_name(const symbolizer *sym, enum granularity g, uint64_t unit, char *buf, size_t size)
{
    if (g == GRAN_FUNCTION) {
        const rv_symbol *s = unit == 1 || !sym->syms ? NULL : symtab_find(sym->syms, unit);
        snprintf(buf, size, "%s", s ? s->name : "[unknown]");
    } else {
        symtab_describe(sym->syms, unit, buf, size);
    }
}

static void state_split(outfile *o, const cost *c)
{
    uint64_t t = cost_total(c);
    for (int s = 0; s < ST_COUNT; s++) outfile_printf(o, " %.0f |", t ? 100.0 * (double)c->units[s] / (double)t : 0.0);
}

/* perf report: the hottest units by golden time (cycles, in `cycles`'
 * unit, and share), every profile's share. */
static void hottest(outfile *o, const sim_result *r, const symbolizer *sym, enum granularity g, size_t rows,
                    const cost *by_pc, const char *cycles)
{
    rolled d[32];
    int n = roll_all(d, r, sym, g);
    size_t m;
    cost *units = profile_rollup(sym, g, r->pcs, r->npcs, &m);
    outfile_printf(o, "\n### Hottest %s\n\n| %s | %s | golden %% | C %% | S %% | F %% | D %% |",
                   g == GRAN_FUNCTION ? "functions" : "instructions", g == GRAN_FUNCTION ? "function" : "instruction",
                   cycles);
    for (int i = 1; i < n; i++) outfile_printf(o, " %s %% |", d[i].name);
    outfile_printf(o, "\n|---|---:|---:|---:|---:|---:|---:|");
    for (int i = 1; i < n; i++) outfile_printf(o, "---:|");
    outfile_printf(o, "\n");
    for (size_t k = 0; k < m && k < rows; k++) {
        char name[256], dis[96] = "";
        unit_name(sym, g, units[k].key, name, sizeof name);
        if (g == GRAN_INSTRUCTION) disasm_at(by_pc, r->npcs, units[k].key, dis, sizeof dis);
        outfile_printf(o, "| `%s`%s%s%s | %.1f | %.2f |", name, *dis ? " `" : "", dis, *dis ? "`" : "",
                       (double)cost_total(&units[k]) / r->units, share_of(&d[0], units[k].key));
        state_split(o, &units[k]);
        for (int i = 1; i < n; i++) outfile_printf(o, " %.2f |", share_of(&d[i], units[k].key));
        outfile_printf(o, "\n");
    }
    outfile_printf(o, "\nC/S/F/D: the golden time's split into the commit states: computing (instructions commit), "
                      "stalled (the oldest instruction is not done), flushed (refilling after a flush) and drained "
                      "(the ROB is empty: the front end supplies nothing); golden %%: the share of all cycles; a "
                      "profiler's %%: the share of its own samples' cycles.\n");
    free(units);
    free_rolled(d, n);
}

static void errors_table(outfile *o, const sim_result *r, const symbolizer *sym, const char *period)
{
    const sampled_run *run = &r->sampled[0];
    outfile_printf(o, "\n### Profile error against the golden attribution\n\n%s; cycle-stack error for the "
                      "event-based schemes.\n\n"
                      "| profiler | models | samples | dropped | instruction | block | function |\n"
                      "|---|---|---:|---:|---:|---:|---:|\n",
                   period);
    for (int i = 0; i < run->nprofs; i++) {
        double err[GRAN_COUNT];
        sampled_errors(r, sym, &run->profs[i], err);
        outfile_printf(o, "| %s | %s | %" PRIu64 " | %" PRIu64 " | %.2f%% | %.2f%% | %.2f%% |\n", run->profs[i].name,
                       profiler_policy_find(run->profs[i].name)->hardware, run->profs[i].samples,
                       run->profs[i].dropped, 100 * err[GRAN_INSTRUCTION], 100 * err[GRAN_BLOCK],
                       100 * err[GRAN_FUNCTION]);
    }
    sampling_quality q;
    sampling_quality_of(r, sym, 0, &q);
    char notes[1024];
    sampling_quality_notes(notes, sizeof notes, "", &q);
    for (char *line = strtok(notes, "\n"); line; line = strtok(NULL, "\n")) outfile_printf(o, "\n**%s**\n", line);
}

static void categories_table(outfile *o, const sim_result *r)
{
    outfile_printf(o, "\n### Cycle categories (the TIP paper's Fig. A.7)\n\n| profile |");
    for (int c = 0; c < CAT_COUNT; c++) outfile_printf(o, " %s %% |", category_names[c]);
    outfile_printf(o, "\n|---|");
    for (int c = 0; c < CAT_COUNT; c++) outfile_printf(o, "---:|");
    outfile_printf(o, "\n");
    for (int i = -1; i < r->sampled[0].nprofs; i++) {
        const cost *pcs = i < 0 ? r->pcs : r->sampled[0].profs[i].pcs;
        size_t n = i < 0 ? r->npcs : r->sampled[0].profs[i].npcs;
        uint64_t cat[CAT_COUNT], total = 0;
        profile_categories(pcs, n, r->pcs, r->npcs, cat);
        for (int c = 0; c < CAT_COUNT; c++) total += cat[c];
        outfile_printf(o, "| %s |", i < 0 ? "golden" : r->sampled[0].profs[i].name);
        for (int c = 0; c < CAT_COUNT; c++) outfile_printf(o, " %.1f |", total ? 100.0 * (double)cat[c] / (double)total : 0);
        outfile_printf(o, "\n");
    }
}

/* The two largest components of pc's cycle stack in pics. */
static void stack_of(const cost *pics, size_t n, uint64_t pc, char *buf, size_t size)
{
    uint64_t best[2] = {0}, total = 0;
    uint16_t psv[2] = {0};
    for (size_t i = 0; i < n; i++) {
        if (pics_pc(pics[i].key) != pc) continue;
        uint64_t u = cost_total(&pics[i]);
        total += u;
        if (u > best[0]) best[1] = best[0], psv[1] = psv[0], best[0] = u, psv[0] = pics_category(pics[i].key);
        else if (u > best[1]) best[1] = u, psv[1] = pics_category(pics[i].key);
    }
    size_t k = 0;
    buf[0] = 0;
    for (int j = 0; j < 2 && best[j] && k < size; j++) {
        char name[160];
        k += (size_t)snprintf(buf + k, size - k, "%s%.0f%% %s", j ? ", " : "", 100.0 * (double)best[j] / (double)total,
                              psv_describe(psv[j], name, sizeof name));
    }
}

/* Why an instruction's stack is mostly Base under `mask` (the events a
 * scheme records): the golden PICS carry every event bit, so the Base time's
 * own events, if any, name the --psv-extra bit that would show them. Empty
 * when Base is under half the instruction's time. */
static void base_note(const cost *pics, size_t n, uint64_t pc, uint16_t mask, char *buf, size_t size)
{
    uint64_t total = 0, base = 0, by_event[PSV_NEVENTS] = {0};
    for (size_t i = 0; i < n; i++) {
        if (pics_pc(pics[i].key) != pc) continue;
        uint64_t u = cost_total(&pics[i]);
        uint16_t psv = pics_category(pics[i].key);
        total += u;
        if (psv & mask) continue;
        base += u;
        for (int e = 0; e < PSV_NEVENTS; e++)
            if (psv & (1u << e)) by_event[e] += u;
    }
    buf[0] = 0;
    if (!total || 2 * base < total) return;
    int top = 0;
    for (int e = 1; e < PSV_NEVENTS; e++)
        if (by_event[e] > by_event[top]) top = e;
    if (2 * by_event[top] >= base)
        snprintf(buf, size, "%s, %s: `--psv-extra %s` shows it", psv_event_names[top], psv_event_meanings[top],
                 psv_event_names[top]);
    else
        snprintf(buf, size, "no event: waiting for operands (a dependence chain) or for a unit's ordinary latency, "
                            "which no event bit records");
}

/* The hottest instructions grouped by why Base is most of their time. */
static void base_notes(outfile *o, const sim_result *r, const rv_symtab *syms, size_t shown, uint16_t mask,
                       const char *scheme)
{
    char (*notes)[400] = calloc(shown ? shown : 1, sizeof *notes);
    if (!notes) die("out of memory");
    for (size_t k = 0; k < shown; k++) base_note(r->pics, r->npics, r->pcs[k].key, mask, notes[k], sizeof notes[k]);
    bool header = false;
    for (size_t k = 0; k < shown; k++) {
        if (!*notes[k]) continue;
        if (!header) outfile_printf(o, "\nWhere Base (none of %s's events) is over half an instruction's time, "
                                       "what that time is:\n\n", scheme), header = true;
        outfile_printf(o, "- %s:", notes[k]);
        for (size_t j = k; j < shown; j++) {
            if (j != k && strcmp(notes[j], notes[k])) continue;
            char sym[256];
            symtab_describe(syms, r->pcs[j].key, sym, sizeof sym);
            outfile_printf(o, " `%s`", sym);
            if (j != k) notes[j][0] = 0;
        }
        outfile_printf(o, "\n");
    }
    free(notes);
}

/* What the codes of the cycle stacks mean. */
static void stack_legend(outfile *o)
{
    outfile_printf(o, "\nCycle-stack codes (TEA's Performance Signature Vector: the events an instruction suffered; "
                      "DR: its dispatch was held up, FL: it flushed the pipeline, ST: it stalled the ROB head):\n\n"
                      "- `Base`: no event recorded: the time of an instruction that commits without trouble, or waits "
                      "for its operands or for its unit's ordinary latency\n");
    for (int e = 0; e < PSV_NEVENTS; e++)
        outfile_printf(o, "- `%s`: %s%s\n", psv_event_names[e], psv_event_meanings[e],
                       PSV_EXTRA & (1u << e) ? " (beyond the paper's nine: sampled by TEA with `--psv-extra`; "
                                               "always in the golden stacks)" : "");
}

/* The source of the instruction at pc, as a row above it when its line
 * differs from the previous instruction's (as perf annotate interleaves
 * them); *missing is set once a file named by the line table is unreadable. */
typedef struct source_rows {
    srclines *lines;
    source_text text;
    char file[1024];           /* the last row's, or "" */
    int line;
    int columns;               /* the table's, for an empty cell in each */
} source_rows;

static void source_row(outfile *o, source_rows *sr, uint64_t pc)
{
    char file[sizeof sr->file];
    int line;
    if (!srclines_where(sr->lines, pc, file, sizeof file, &line)) return;
    if (!strcmp(sr->file, file) && sr->line == line) return;
    memcpy(sr->file, file, sizeof file), sr->line = line;
    const source_file *f = source_file_get(&sr->text, file);
    const char *text = source_line(f, line), *base = strrchr(file, '/');
    outfile_printf(o, "| **%s:%d** | | ", base ? base + 1 : file, line);
    if (text) {
        outfile_printf(o, "`");
        for (const char *c = text; *c; c++) outfile_printf(o, *c == '|' ? "\\|" : *c == '`' ? "'" : "%c", *c);
        outfile_printf(o, "`");
    } else {
        outfile_printf(o, "(%s: not found here)", file);
    }
    outfile_printf(o, " |");
    for (int i = 3; i < sr->columns; i++) outfile_printf(o, " |");
    outfile_printf(o, "\n");
}

/* perf annotate: the executed instructions of the hottest functions, in
 * address order, the source lines between them. */
static void annotate(outfile *o, const sim_result *r, const symbolizer *sym, const report_md_options *opt,
                     const cost *by_pc, srclines *lines)
{
    const sampled_profile *p = NULL;
    for (int i = 0; r->nsampled && i < r->sampled[0].nprofs; i++)
        if (!strcmp(r->sampled[0].profs[i].name, opt->annotate)) p = &r->sampled[0].profs[i];
    rolled prof;
    if (p) roll(&prof, p->name, sym, GRAN_INSTRUCTION, p->pcs, p->npcs);
    rolled golden;
    roll(&golden, "golden", sym, GRAN_INSTRUCTION, r->pcs, r->npcs);
    size_t nfn;
    cost *fns = profile_rollup(sym, GRAN_FUNCTION, r->pcs, r->npcs, &nfn);
    source_rows sr = {.lines = lines, .columns = 8 + (p != NULL) + (r->pics != NULL)};
    for (size_t f = 0; f < nfn && f < opt->functions; f++) {
        char name[256];
        unit_name(sym, GRAN_FUNCTION, fns[f].key, name, sizeof name);
        double fn_share = 100.0 * (double)cost_total(&fns[f]) / (double)(golden.total ? golden.total : 1);
        outfile_printf(o, "\n### Annotated: `%s` (%.2f%% of the cycles)\n\n"
                          "| source | pc | instruction | golden %% | C %% | S %% | F %% | D %% |",
                       name, fn_share);
        if (p) outfile_printf(o, " %s %% |", p->name);
        if (r->pics) outfile_printf(o, " golden cycle stack |");
        outfile_printf(o, "\n|---|---|---|---:|---:|---:|---:|---:|%s%s\n", p ? "---:|" : "", r->pics ? "---|" : "");
        sr.file[0] = 0;
        for (size_t i = 0; i < r->npcs; i++) {
            const cost *c = &by_pc[i];
            if (symbolizer_key(sym, GRAN_FUNCTION, c->key) != fns[f].key) continue;
            source_row(o, &sr, c->key);
            char dis[96], stack[400] = "", note[400];
            disasm_at(by_pc, r->npcs, c->key, dis, sizeof dis);
            outfile_printf(o, "| | `0x%" PRIx64 "` | `%s` | %.2f |", c->key, dis, share_of(&golden, c->key));
            state_split(o, c);
            if (p) outfile_printf(o, " %.2f |", share_of(&prof, c->key));
            if (r->pics) {
                stack_of(r->pics, r->npics, c->key, stack, sizeof stack);
                base_note(r->pics, r->npics, c->key, UINT16_MAX, note, sizeof note);
                bool stalled = 2 * c->units[ST_STALLED] > cost_total(c);
                outfile_printf(o, " %s%s |", stack, *note && stalled ? " (no event: operands or a unit's latency)" : "");
            }
            outfile_printf(o, "\n");
        }
    }
    source_text_free(&sr.text);
    free(fns);
    cost_table_free(&golden.by_unit);
    if (p) cost_table_free(&prof.by_unit);
}

/* TEA's view of the hottest instructions: each one's golden stack beside
 * the stacks the event-based schemes sampled, and why Base dominates where
 * it does under the first scheme's events (TEA's nine without one). */
static void hottest_stacks(outfile *o, const sim_result *r, const rv_symtab *syms, size_t rows, const cost *by_pc)
{
    const sampled_profile *schemes[16];
    int n = 0;
    for (int i = 0; r->nsampled && i < r->sampled[0].nprofs && n < 16; i++)
        if (r->sampled[0].profs[i].events) schemes[n++] = &r->sampled[0].profs[i];
    uint16_t mask = n ? schemes[0]->events : PSV_TEA;
    outfile_printf(o, "\n### Hottest instructions' cycle stacks (the two largest components)\n\n"
                      "| instruction | golden %% | golden stack |");
    for (int i = 0; i < n; i++) outfile_printf(o, " %s stack |", schemes[i]->name);
    outfile_printf(o, "\n|---|---:|---|");
    for (int i = 0; i < n; i++) outfile_printf(o, "---|");
    outfile_printf(o, "\n");
    uint64_t total = 0;
    for (size_t i = 0; i < r->npcs; i++) total += cost_total(&r->pcs[i]);
    size_t shown = r->npcs < rows ? r->npcs : rows;
    for (size_t k = 0; k < shown; k++) {
        char dis[96], sym[256], stack[400];
        disasm_at(by_pc, r->npcs, r->pcs[k].key, dis, sizeof dis);
        symtab_describe(syms, r->pcs[k].key, sym, sizeof sym);
        stack_of(r->pics, r->npics, r->pcs[k].key, stack, sizeof stack);
        outfile_printf(o, "| `%s` `%s` | %.2f | %s |", sym, dis,
                       total ? 100.0 * (double)cost_total(&r->pcs[k]) / (double)total : 0, stack);
        for (int i = 0; i < n; i++) {
            stack_of(schemes[i]->pcs, schemes[i]->npcs, r->pcs[k].key, stack, sizeof stack);
            outfile_printf(o, " %s |", stack);
        }
        outfile_printf(o, "\n");
    }
    base_notes(o, r, syms, shown, mask, n ? schemes[0]->name : "TEA");
    stack_legend(o);
}

/* Everything below a result's heading; `cycles` names the unit of its
 * cycle counts, `period` says how it was sampled. */
static void md_profile(outfile *o, const sim_result *r, const report_ctx *x, const report_md_options *opt,
                       const char *cycles, const char *period, bool from_regions)
{
    symbolizer sym;
    symbolizer_init(&sym, x->syms, r->blocks, r->nblocks);
    cost *by_pc = golden_by_pc(r->pcs, r->npcs);
    if (r->nsampled) {
        errors_table(o, r, &sym, period);
        categories_table(o, r);
    }
    hottest(o, r, &sym, GRAN_FUNCTION, opt->rows, by_pc, cycles);
    inclusive_md(o, r, &sym, opt->rows, cycles, from_regions);
    hottest(o, r, &sym, GRAN_INSTRUCTION, opt->rows, by_pc, cycles);
    if (r->pics) hottest_stacks(o, r, x->syms, opt->rows, by_pc);
    srclines *lines = r->program ? srclines_open(r->program) : NULL;
    if (!lines) outfile_printf(o, "\n(The program has no DWARF line information: no source lines.)\n");
    annotate(o, r, &sym, opt, by_pc, lines);
    srclines_close(lines);
    free(by_pc);
    symbolizer_free(&sym);
}

static void md_result(outfile *o, const sim_result *r, const report_ctx *x, const report_md_options *opt)
{
    const counters *c = &r->c;
    if (r->checkpoint) outfile_printf(o, "\n## Region of `%s`\n\n", r->checkpoint);
    else outfile_printf(o, "\n## Full run of `%s`\n\n", r->program ? r->program : "?");
    if (!r->pcs) {
        outfile_printf(o, "Failed: %s\n", r->message ? r->message : "?");
        return;
    }
    outfile_printf(o, "%" PRIu64 " instructions, %" PRIu64 " cycles, CPI %.4f.\n", c->instructions, c->cycles,
                   c->instructions ? (double)c->cycles / (double)c->instructions : 0);
    char period[160] = "";
    if (r->nsampled)
        snprintf(period, sizeof period, "A sample every %" PRIu64 " cycles (%s)", r->sampled[0].cfg.period,
                 r->sampled[0].cfg.random ? "one random cycle per period" : "periodic");
    md_profile(o, r, x, opt, "cycles", period, r->has_region);
}

/* Each region's samples (TIP's, or the first profiler's), flagged when too few. */
static void samples_per_region(outfile *o, const sim_result *res, size_t n, const report_ctx *x)
{
    outfile_printf(o, "\n### Samples per region\n\n| region | weight | CPI | period (cycles) | samples | |\n"
                      "|---|---:|---:|---:|---:|---|\n");
    size_t few = 0;
    for (size_t i = 0; i < n; i++) {
        const sim_result *r = &res[i];
        if (!r->has_region || r->region.extra || !r->nsampled) continue;
        symbolizer sym;
        symbolizer_init(&sym, x->syms, r->blocks, r->nblocks);
        sampling_quality q;
        sampling_quality_of(r, &sym, 0, &q);
        symbolizer_free(&sym);
        few += q.few;
        outfile_printf(o, "| `%s` | %.4f | %.4f | %" PRIu64 " | %" PRIu64 " | %s%s |\n", r->checkpoint,
                       r->region.weight, (double)r->c.cycles / (double)r->c.instructions, r->sampled[0].cfg.period,
                       q.samples, q.few ? "**too few** " : "", q.aliased ? "**aliased**" : "");
    }
    if (few)
        outfile_printf(o, "\n**%zu region%s fewer than %d samples: their share of the profile is uncertain by "
                          "more than 3.1 points (95%%).**\n",
                       few, few == 1 ? " has" : "s have", SAMPLES_ENOUGH);
}

/* The whole program from the regions, first: what the report is for. */
static void md_whole(outfile *o, const sim_result *res, size_t n, const report_ctx *x, const report_md_options *opt)
{
    sim_result w;
    if (!whole_from_regions(res, n, &w)) return;
    uint64_t units = 0;
    for (size_t i = 0; i < w.npcs; i++) units += cost_total(&w.pcs[i]);
    size_t regions = 0;
    for (size_t i = 0; i < n; i++) regions += res[i].has_region && !res[i].region.extra;
    outfile_printf(o, "\n## The whole program, from %zu regions\n\nEach region stands for its cluster's share of the "
                      "time (its SimPoint weight x its CPI); CPI %.4f. Cycles are per %d instructions of the whole "
                      "program; shares are of all its cycles. The regions one by one follow.\n",
                   regions, (double)units / w.units / WHOLE_INSTRUCTIONS, WHOLE_INSTRUCTIONS);
    if (w.nsampled) samples_per_region(o, res, n, x);
    char cycles[64];
    snprintf(cycles, sizeof cycles, "cycles per %d instructions", WHOLE_INSTRUCTIONS);
    md_profile(o, &w, x, opt, cycles, "The regions' samples added up, each region's profile weighted as its golden one",
               true);
    whole_free(&w);
}

void report_markdown(const char *path, const sim_result *res, size_t n, const report_ctx *x,
                     const report_md_options *opt)
{
    outfile *o = outfile_open(path);
    outfile_printf(o, "# Where the time goes\n\nThe golden attribution is exact: every cycle, every instruction "
                      "(sim/RESULTS.md). Shares are of each profile's own total.\n");
    md_whole(o, res, n, x, opt);
    for (size_t i = 0; i < n; i++) md_result(o, &res[i], x, opt);
    outfile_commit(o);
}
