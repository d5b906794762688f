#include "report_pics.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "../profilers/pics.h"
#include "report_sampled.h"
#include "util.h"

static void unit_fields(json_t *o, enum granularity g, uint64_t unit, const symbolizer *sym, const cost *by_pc,
                        size_t nby_pc)
{
    char buf[256];
    if (g == GRAN_APPLICATION) {
        json_object_set_new(o, "name", json_string("application"));
    } else if (g == GRAN_FUNCTION) {
        const rv_symbol *s = unit == 1 || !sym->syms ? NULL : symtab_find(sym->syms, unit);
        json_object_set_new(o, "name", json_string(s ? s->name : "[unknown]"));
    } else {
        snprintf(buf, sizeof buf, "0x%" PRIx64, unit);
        json_object_set_new(o, "pc", json_string(buf));
        json_object_set_new(o, "symbol", json_string(symtab_describe(sym->syms, unit, buf, sizeof buf)));
        uint32_t bits = g == GRAN_INSTRUCTION ? bits_of(by_pc, nby_pc, unit) : 0;
        if (bits) {
            rv_insn in;
            rv_decode(&in, unit, (uint16_t)bits, (uint16_t)(bits >> 16));
            rv_disasm(&in, buf, sizeof buf);
            json_object_set_new(o, "disasm", json_string(buf));
        }
    }
}

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const cost *)a)->key, y = ((const cost *)b)->key;
    return (x > y) - (x < y);
}

json_t *pics_stacks_json(const cost *pics, size_t n, uint16_t mask, enum granularity g, const symbolizer *sym,
                         const sim_result *r, uint32_t per_cycle, const report_ctx *x)
{
    cost_table parts = {0}, totals = {0};
    for (size_t i = 0; i < n; i++) {
        uint64_t key = symbolizer_category_key(sym, g, pics[i].key, mask);
        uint64_t units = cost_total(&pics[i]);
        cost_at(&parts, key)->units[0] += units;
        cost_at(&totals, pics_pc(key))->units[0] += units;
    }
    size_t nunits, nparts;
    cost *units = cost_sorted(&totals, &nunits);
    cost *sorted_parts = cost_sorted(&parts, &nparts);
    qsort(sorted_parts, nparts, sizeof *sorted_parts, by_key); /* by unit, then category: Base first */
    cost *by_pc = golden_by_pc(r->pcs, r->npcs);
    json_t *a = json_array();
    size_t top = x->top && x->top < nunits ? x->top : nunits;
    for (size_t i = 0; i < top; i++) {
        json_t *o = json_object();
        unit_fields(o, g, units[i].key, sym, by_pc, r->npcs);
        json_object_set_new(o, "cycles", cycles_json(units[i].units[0], per_cycle));
        json_t *stack = json_object();
        for (size_t k = 0; k < nparts; k++) {
            if (pics_pc(sorted_parts[k].key) != units[i].key) continue;
            char name[160];
            psv_describe(pics_category(sorted_parts[k].key), name, sizeof name);
            json_object_set_new(stack, name, cycles_json(sorted_parts[k].units[0], per_cycle));
        }
        json_object_set_new(o, "stack", stack);
        json_array_append_new(a, o);
    }
    free(by_pc);
    free(units);
    free(sorted_parts);
    cost_table_free(&parts);
    cost_table_free(&totals);
    return a;
}

double pics_combined_share(const cost *pics, size_t n, uint16_t mask)
{
    uint64_t with_event = 0, combined = 0;
    for (size_t i = 0; i < n; i++) {
        uint16_t psv = pics_category(pics[i].key) & mask;
        if (!psv) continue;
        with_event += pics[i].commits;
        if (psv & (psv - 1)) combined += pics[i].commits;
    }
    return with_event ? (double)combined / (double)with_event : 0;
}

double pics_event_correlation(const cost *pics, size_t n, int event)
{
    cost_table by_pc = {0};
    for (size_t i = 0; i < n; i++) {
        cost *c = cost_at(&by_pc, pics_pc(pics[i].key));
        if (pics_category(pics[i].key) & (1u << event)) {
            c->commits += pics[i].commits;
            c->units[0] += cost_total(&pics[i]);
        }
    }
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, m = 0;
    for (size_t i = 0; i < by_pc.cap; i++) {
        if (!by_pc.slots[i].key) continue;
        double xv = (double)by_pc.slots[i].commits, yv = (double)by_pc.slots[i].units[0];
        sx += xv, sy += yv, sxx += xv * xv, syy += yv * yv, sxy += xv * yv, m++;
    }
    cost_table_free(&by_pc);
    double cov = sxy - sx * sy / m, vx = sxx - sx * sx / m, vy = syy - sy * sy / m;
    return m > 1 && vx > 0 && vy > 0 ? cov / sqrt(vx * vy) : NAN;
}

json_t *golden_pics_json(const sim_result *r, const report_ctx *x, const symbolizer *sym)
{
    json_t *o = json_object(), *events = json_array(), *corr = json_object();
    for (int e = 0; e < PSV_NEVENTS; e++) {
        json_array_append_new(events, json_string(psv_event_names[e]));
        double c = pics_event_correlation(r->pics, r->npics, e);
        json_object_set_new(corr, psv_event_names[e], isnan(c) ? json_null() : json_real(c));
    }
    uint16_t all = (uint16_t)((1u << PSV_NEVENTS) - 1);
    json_object_set_new(o, "events", events);
    json_object_set_new(o, "combined_event_share", json_real(pics_combined_share(r->pics, r->npics, PSV_TEA)));
    json_object_set_new(o, "no_event_stall_p99", json_real(pics_no_event_stall_percentile(r->no_event_stalls, 0.99)));
    json_object_set_new(o, "correlation", corr);
    json_object_set_new(o, "complete", json_boolean(!x->top || x->top >= r->npics));
    json_object_set_new(o, "instructions", pics_stacks_json(r->pics, r->npics, all, GRAN_INSTRUCTION, sym, r, r->units, x));
    json_object_set_new(o, "functions", pics_stacks_json(r->pics, r->npics, all, GRAN_FUNCTION, sym, r, r->units, x));
    return o;
}

/* One line per component of a unit's stack, largest first. */
static void print_stack(FILE *f, json_t *entry, double total)
{
    const char *name;
    json_t *v;
    json_object_foreach(json_object_get(entry, "stack"), name, v)
        if (json_number_value(v) >= 0.005 * total) fprintf(f, "   %5.1f%%  %s\n", 100 * json_number_value(v) / total, name);
}

void pics_summary(FILE *f, const sim_result *r, const symbolizer *sym)
{
    report_ctx x = {.syms = sym->syms, .top = 5};
    uint16_t all = (uint16_t)((1u << PSV_NEVENTS) - 1);
    json_t *top = pics_stacks_json(r->pics, r->npics, all, GRAN_INSTRUCTION, sym, r, r->units, &x);
    double cycles = (double)r->c.cycles;
    fprintf(f, "\n Per-instruction cycle stacks (golden), hottest instructions:\n");
    size_t i;
    json_t *e;
    json_array_foreach(top, i, e) {
        double c = json_number_value(json_object_get(e, "cycles"));
        const char *dis = json_string_value(json_object_get(e, "disasm"));
        fprintf(f, " %5.1f%%  %s  %s\n", 100 * c / (cycles ? cycles : 1),
                json_string_value(json_object_get(e, "symbol")), dis ? dis : "");
        print_stack(f, e, c);
    }
    json_decref(top);
    fprintf(f, " %.1f%% of the instructions with an event have several; 99%% of the stalls with none are <= %.0f cycles\n",
            100 * pics_combined_share(r->pics, r->npics, PSV_TEA),
            pics_no_event_stall_percentile(r->no_event_stalls, 0.99));
}
