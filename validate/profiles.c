#include "profiles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/profile.h"

/* A profile list of a sim result as a cost array in exact units. */
typedef struct plist {
    cost *pcs;
    size_t n;
    bool complete;
} plist;

static bool read_list(plist *l, json_t *profile, double units, const char *path, vd_diag *d)
{
    json_t *a = json_object_get(profile, "instructions");
    if (!json_is_array(a)) return vd_fail(d, "%s: a profile without an instruction list", path);
    l->n = json_array_size(a);
    l->pcs = vd_calloc(l->n ? l->n : 1, sizeof *l->pcs);
    l->complete = json_is_true(json_object_get(profile, "complete"));
    size_t i;
    json_t *e;
    json_array_foreach(a, i, e) {
        const char *pc = json_string_value(json_object_get(e, "pc"));
        double cycles = json_number_value(json_object_get(e, "cycles"));
        if (!pc || !json_is_number(json_object_get(e, "cycles")) || cycles < 0 || !isfinite(cycles))
            return vd_fail(d, "%s: profile entry %zu: expected a pc and cycles", path, i);
        l->pcs[i] = (cost){.key = strtoull(pc, NULL, 16), .units = {(uint64_t)llround(cycles * units)}};
    }
    return true;
}

/* Cycle-stack categories ("Base", "ST-L1, ST-TLB") interned to 16-bit
 * keys, after projection onto a scheme's events. */
typedef struct interner {
    char **names;
    size_t n;
} interner;

static uint16_t intern(interner *in, const char *name)
{
    for (size_t i = 0; i < in->n; i++)
        if (!strcmp(in->names[i], name)) return (uint16_t)i;
    in->names = vd_realloc(in->names, (in->n + 1) * sizeof *in->names);
    in->names[in->n] = vd_strdup(name);
    return (uint16_t)in->n++;
}

static void free_interner(interner *in)
{
    for (size_t i = 0; i < in->n; i++) free(in->names[i]);
    free(in->names);
}

static bool has_event(json_t *events, const char *e)
{
    size_t i;
    json_t *v;
    json_array_foreach(events, i, v) if (!strcmp(json_string_value(v), e)) return true;
    return false;
}

/* NAME without the events EVENTS lacks (NULL: all kept), "Base" if none. */
static void project(const char *name, json_t *events, char *out, size_t size)
{
    char *copy = vd_strdup(name);
    size_t k = 0;
    out[0] = 0;
    for (char *save = NULL, *e = strtok_r(copy, ", ", &save); e; e = strtok_r(NULL, ", ", &save))
        if (strcmp(e, "Base") && (!events || has_event(events, e)) && k < size)
            k += (size_t)snprintf(out + k, size - k, "%s%s", k ? ", " : "", e);
    if (!k) snprintf(out, size, "Base");
    free(copy);
}

/* A list of cycle stacks ({"pc", "stack": {category: cycles}}) as a cost
 * array keyed by (pc, interned projected category). */
static bool read_stacks(plist *l, json_t *list_owner, json_t *events, double units, interner *in, const char *path,
                        vd_diag *d)
{
    json_t *a = json_object_get(list_owner, "instructions");
    if (!json_is_array(a)) return vd_fail(d, "%s: cycle stacks without an instruction list", path);
    l->complete = json_is_true(json_object_get(list_owner, "complete"));
    size_t cap = 16, i;
    l->pcs = vd_calloc(cap, sizeof *l->pcs);
    l->n = 0;
    json_t *e;
    json_array_foreach(a, i, e) {
        const char *pc = json_string_value(json_object_get(e, "pc"));
        json_t *stack = json_object_get(e, "stack");
        if (!pc || !json_is_object(stack)) return vd_fail(d, "%s: stack entry %zu: expected a pc and a stack", path, i);
        const char *cat;
        json_t *v;
        json_object_foreach(stack, cat, v) {
            char name[512];
            project(cat, events, name, sizeof name);
            if (l->n == cap) l->pcs = vd_realloc(l->pcs, (cap *= 2) * sizeof *l->pcs);
            l->pcs[l->n++] = (cost){.key = pics_key(strtoull(pc, NULL, 16), intern(in, name)),
                                    .units = {(uint64_t)llround(json_number_value(v) * units)}};
        }
    }
    return true;
}

/* Functions from the full run's "name+0xoffset" symbols, blocks from its
 * golden block list: the symbolizer of lib/profile.h without the ELF. */
typedef struct jsyms {
    rv_symtab st;
    cost *leaders;
    size_t nleaders;
} jsyms;

static int by_addr(const void *a, const void *b)
{
    uint64_t x = ((const rv_symbol *)a)->addr, y = ((const rv_symbol *)b)->addr;
    return (x > y) - (x < y);
}

static void add_symbol(jsyms *s, const char *symbol, uint64_t pc)
{
    const char *plus = strrchr(symbol, '+');
    if (!plus || strncmp(plus, "+0x", 3)) return;
    uint64_t start = pc - strtoull(plus + 3, NULL, 16);
    for (size_t i = 0; i < s->st.n; i++)
        if (s->st.syms[i].addr == start) {
            if (pc + 4 - start > s->st.syms[i].size) s->st.syms[i].size = pc + 4 - start;
            return;
        }
    s->st.syms = vd_realloc(s->st.syms, (s->st.n + 1) * sizeof *s->st.syms);
    s->st.syms[s->st.n++] = (rv_symbol){.addr = start, .size = pc + 4 - start,
                                         .name = strndup(symbol, (size_t)(plus - symbol))};
}

static void read_symbols(jsyms *s, json_t *profile)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(profile, "instructions"), i, e) {
        const char *pc = json_string_value(json_object_get(e, "pc"));
        const char *sym = json_string_value(json_object_get(e, "symbol"));
        if (pc && sym) add_symbol(s, sym, strtoull(pc, NULL, 16));
    }
    if (s->st.n) qsort(s->st.syms, s->st.n, sizeof *s->st.syms, by_addr);
    json_t *blocks = json_object_get(profile, "blocks");
    s->nleaders = json_array_size(blocks);
    s->leaders = vd_calloc(s->nleaders ? s->nleaders : 1, sizeof *s->leaders);
    json_array_foreach(blocks, i, e) {
        const char *pc = json_string_value(json_object_get(e, "pc"));
        s->leaders[i].key = pc ? strtoull(pc, NULL, 16) : 0;
    }
}

static void free_symbols(jsyms *s)
{
    for (size_t i = 0; i < s->st.n; i++) free(s->st.syms[i].name);
    free(s->st.syms);
    free(s->leaders);
}

static double diff_of(const cost *c) { return fabs((double)c->units[1] - (double)c->units[0]); }

static int by_abs_diff(const void *a, const void *b)
{
    double x = diff_of(a), y = diff_of(b);
    return (x < y) - (x > y);
}

/* The units at granularity g where the two profiles differ most: units[0]
 * the full run's time, units[1] the rebuilt profile's scaled to the same
 * total. */
static size_t largest_diffs(const symbolizer *sym, enum granularity g, const plist *full, const cost *c, size_t n,
                            vd_profile_diff *out)
{
    size_t nf, ns;
    cost *f = profile_rollup(sym, g, full->pcs, full->n, &nf), *s = profile_rollup(sym, g, c, n, &ns);
    double tf = 0, ts = 0;
    for (size_t i = 0; i < nf; i++) tf += (double)cost_total(&f[i]);
    for (size_t i = 0; i < ns; i++) ts += (double)cost_total(&s[i]);
    cost_table t = {0};
    for (size_t i = 0; i < nf; i++) cost_at(&t, f[i].key)->units[0] = cost_total(&f[i]);
    for (size_t i = 0; i < ns && ts > 0; i++) cost_at(&t, s[i].key)->units[1] = (uint64_t)llround((double)cost_total(&s[i]) * tf / ts);
    size_t m;
    cost *all = cost_sorted(&t, &m);
    qsort(all, m, sizeof *all, by_abs_diff);
    size_t k = m < VD_PROFILE_DIFFS ? m : VD_PROFILE_DIFFS;
    for (size_t i = 0; i < k; i++) {
        char buf[256];
        if (g == GRAN_FUNCTION) {
            const rv_symbol *sy = all[i].key == 1 ? NULL : symtab_find(sym->syms, all[i].key);
            snprintf(buf, sizeof buf, "%s", sy ? sy->name : "[unknown]");
        } else {
            symtab_describe(sym->syms, all[i].key, buf, sizeof buf);
        }
        out[i] = (vd_profile_diff){vd_strdup(buf), (double)all[i].units[0] / tf, (double)all[i].units[1] / tf};
    }
    free(all);
    cost_table_free(&t);
    free(f);
    free(s);
    return k;
}

static void compare(vd_profile_cmp *c, const char *name, const symbolizer *sym, const plist *full, const cost *pcs,
                    size_t n)
{
    c->name = vd_strdup(name);
    for (int g = 0; g < 3; g++) c->err[g] = profile_error(sym, (enum granularity)g, 0, full->pcs, full->n, pcs, n);
    c->nfunctions = largest_diffs(sym, GRAN_FUNCTION, full, pcs, n, c->functions);
    c->nblocks = largest_diffs(sym, GRAN_BLOCK, full, pcs, n, c->blocks);
}

static json_t *first_result(json_t *root) { return json_array_get(json_object_get(root, "results"), 0); }

/* Cycle stacks: the regions' golden PICS, and every event-based scheme they
 * sampled, rebuilt and scored against the full run's golden PICS projected
 * on the same events (notes/tea.md §3). */
static void compare_stacks(vd_profiles *p, json_t *full, json_t **results, size_t k, const region_profile *rp,
                           double units, const symbolizer *sym, vd_diag *d)
{
    json_t *fpics = json_object_get(first_result(full), "pics");
    if (!fpics || !k) return;
    const char *names[16] = {NULL};
    json_t *events[16] = {NULL};
    size_t nnames = 0;
    bool golden = true;
    for (size_t i = 0; i < k; i++) golden &= json_object_get(results[i], "pics") != NULL;
    if (golden) nnames = 1;
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(results[0], "sampled"), key, v) {
        json_t *ev = json_object_get(json_object_get(v, "profile"), "events");
        if (nnames < 16 && ev) names[nnames] = key, events[nnames++] = ev;
    }
    for (size_t s = 0; s < nnames; s++) {
        interner in = {0};
        plist ref = {0};
        region_profile *use = vd_calloc(k + 1, sizeof *use);
        plist *sl = vd_calloc(k + 1, sizeof *sl);
        bool ok = read_stacks(&ref, fpics, events[s], units, &in, "full run", d);
        for (size_t i = 0; ok && i < k; i++) {
            json_t *owner = names[s] ? json_object_get(json_object_get(json_object_get(results[i], "sampled"), names[s]),
                                                       "profile")
                                     : json_object_get(results[i], "pics");
            ok = owner && read_stacks(&sl[i], owner, events[s], units, &in, "regions", d);
            use[i] = rp[i];
            use[i].pcs = sl[i].pcs, use[i].n = sl[i].n;
            p->complete &= sl[i].complete;
        }
        p->complete &= ref.complete;
        if (ok) {
            size_t n;
            cost *c = profile_combine(use, k, 1e9, &n);
            char label[64];
            snprintf(label, sizeof label, "%s (cycle stacks)", names[s] ? names[s] : "golden");
            vd_profile_cmp *cmp = &p->cmp[p->n++];
            cmp->name = vd_strdup(label);
            for (int g = 0; g < 3; g++) cmp->err[g] = profile_error(sym, (enum granularity)g, UINT16_MAX, ref.pcs, ref.n, c, n);
            free(c);
        }
        for (size_t i = 0; i < k; i++) free(sl[i].pcs);
        free(sl);
        free(use);
        free(ref.pcs);
        free_interner(&in);
    }
}

/* How many regions' profiles rest on too few samples: sim's own flag (its
 * "quality"), or, from a sim that did not write one, fewer than 1000. */
static void count_samples(vd_profile_cmp *c, json_t **results, size_t k, const char *name)
{
    c->regions = k, c->fewest = UINT64_MAX;
    for (size_t i = 0; i < k; i++) {
        json_t *sampled = json_object_get(results[i], "sampled"), *q = json_object_get(sampled, "quality");
        uint64_t n = (uint64_t)json_integer_value(json_object_get(json_object_get(sampled, name), "samples"));
        json_t *few = json_object_get(q, "too_few_samples");
        c->few_samples += few ? json_is_true(few) : n < 1000;
        if (n < c->fewest) c->fewest = n;
    }
}

bool vd_profiles_compare(vd_profiles *p, const char *full_path, const char **region_paths, size_t nregions, vd_diag *d)
{
    *p = (vd_profiles){.complete = true};
    json_error_t je;
    json_t *full = json_load_file(full_path, 0, &je);
    json_t **regions = vd_calloc(nregions + 1, sizeof *regions);
    bool ok = full != NULL;
    for (size_t i = 0; ok && i < nregions; i++) ok = (regions[i] = json_load_file(region_paths[i], 0, &je)) != NULL;
    json_t *fprof = ok ? json_object_get(first_result(full), "profile") : NULL;
    if (!fprof || !nregions) goto out;
    double units = json_number_value(json_object_get(full, "units_per_cycle"));
    plist fl = {0};
    if (!(ok = read_list(&fl, fprof, units, full_path, d))) goto out;
    p->complete &= fl.complete;
    /* Every region of every file, with its weight and CPI. */
    size_t nr = 0;
    for (size_t i = 0; i < nregions; i++) nr += json_array_size(json_object_get(regions[i], "results"));
    region_profile *rp = vd_calloc(nr + 1, sizeof *rp);
    plist *lists = vd_calloc(nr + 1, sizeof *lists);
    json_t **results = vd_calloc(nr + 1, sizeof *results);
    size_t k = 0;
    for (size_t i = 0; ok && i < nregions; i++) {
        size_t j;
        json_t *r;
        json_array_foreach(json_object_get(regions[i], "results"), j, r) {
            json_t *prof = json_object_get(r, "profile");
            if (!prof) goto done; /* a failed region: nothing to combine */
            ok = read_list(&lists[k], prof, units, region_paths[i], d);
            if (!ok) goto done;
            p->complete &= lists[k].complete;
            rp[k] = (region_profile){lists[k].pcs, lists[k].n,
                                     json_number_value(json_object_get(json_object_get(r, "region"), "weight")),
                                     json_number_value(json_object_get(r, "cpi"))};
            results[k++] = r;
        }
    }
    jsyms js = {0};
    read_symbols(&js, fprof);
    symbolizer sym = {.syms = &js.st};
    symbolizer_init(&sym, &js.st, js.leaders, js.nleaders);
    /* The golden profiles of the regions, then each sampled time profile
     * that every region has. */
    const char *names[16] = {"golden"};
    size_t nnames = 1;
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(results[0], "sampled"), key, v)
        if (nnames < 16 && json_is_object(v) && json_object_get(v, "profile") &&
            json_object_get(json_object_get(v, "profile"), "blocks"))
            names[nnames++] = key;
    p->cmp = vd_calloc(nnames + 16, sizeof *p->cmp); /* time profiles, then up to 16 stacks */
    for (size_t s = 0; s < nnames; s++) {
        region_profile *use = vd_calloc(k + 1, sizeof *use);
        plist *sl = vd_calloc(k + 1, sizeof *sl);
        bool all = true;
        for (size_t i = 0; i < k && all; i++) {
            use[i] = rp[i];
            if (s) {
                json_t *prof = json_object_get(json_object_get(json_object_get(results[i], "sampled"), names[s]), "profile");
                all = prof && read_list(&sl[i], prof, units, "regions", d);
                use[i].pcs = sl[i].pcs, use[i].n = sl[i].n;
                p->complete &= sl[i].complete;
            }
        }
        if (all) {
            size_t n;
            cost *c = profile_combine(use, k, 1e9, &n);
            compare(&p->cmp[p->n], names[s], &sym, &fl, c, n);
            if (s) count_samples(&p->cmp[p->n], results, k, names[s]);
            p->n++;
            free(c);
        }
        for (size_t i = 0; i < k; i++) free(sl[i].pcs);
        free(sl);
        free(use);
    }
    compare_stacks(p, full, results, k, rp, units, &sym, d);
    p->present = p->n > 0;
    symbolizer_free(&sym);
    free_symbols(&js);
done:
    for (size_t i = 0; i < k; i++) free(lists[i].pcs);
    free(lists);
    free(rp);
    free(results);
    free(fl.pcs);
out:
    if (!full || (!ok && !d->error)) ok = vd_fail(d, "%s", je.text);
    json_decref(full);
    for (size_t i = 0; i < nregions; i++) json_decref(regions[i]);
    free(regions);
    return ok;
}

void vd_profiles_free(vd_profiles *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->cmp[i].name);
        for (size_t k = 0; k < p->cmp[i].nfunctions; k++) free(p->cmp[i].functions[k].name);
        for (size_t k = 0; k < p->cmp[i].nblocks; k++) free(p->cmp[i].blocks[k].name);
    }
    free(p->cmp);
    *p = (vd_profiles){0};
}

static void diffs_md(vd_sink *o, const char *what, const vd_profile_diff *d, size_t n)
{
    vd_sink_printf(o, "\n| %s | full run %% | from the regions %% | difference |\n|---|---:|---:|---:|\n", what);
    for (size_t i = 0; i < n; i++)
        vd_sink_printf(o, "| `%s` | %.2f | %.2f | %+.2f |\n", d[i].name, 100 * d[i].full, 100 * d[i].sampled,
                       100 * (d[i].sampled - d[i].full));
}

void vd_profiles_md(vd_sink *o, const vd_profiles *p)
{
    if (!p->present) return;
    vd_sink_printf(o, "\n## Profiles: the whole program rebuilt from the regions\n\n"
                      "Each region stands for its cluster's share of time (weight x CPI); the rebuilt profile is "
                      "scored against the full run's golden profile with the TIP paper's error.%s\n\n"
                      "| profile | instruction | block | function |\n|---|---:|---:|---:|\n",
                   p->complete ? "" : " **Some profile lists were truncated (sim --profile-top): the errors are "
                                      "approximate.**");
    for (size_t i = 0; i < p->n; i++)
        vd_sink_printf(o, "| %s%s | %.2f%% | %.2f%% | %.2f%% |\n", p->cmp[i].name,
                       i && !strstr(p->cmp[i].name, "stacks") ? " (sampled in the regions)" : "",
                       100 * p->cmp[i].err[0], 100 * p->cmp[i].err[1], 100 * p->cmp[i].err[2]);
    for (size_t i = 0; i < p->n; i++)
        if (p->cmp[i].few_samples)
            vd_sink_printf(o, "\n**%s: %zu of %zu regions have too few samples (the fewest %llu; sim wants 1000 a "
                              "region, so that no share is off by more than 3.1 points): its error is mostly "
                              "sampling noise. Sample faster (sim --sample-hz) or leave the frequency to sim, "
                              "which chooses it per region.**\n",
                           p->cmp[i].name, p->cmp[i].few_samples, p->cmp[i].regions,
                           (unsigned long long)p->cmp[i].fewest);
    vd_sink_printf(o, "\nWhere the regions' golden profile differs most from the full run's:\n");
    diffs_md(o, "function", p->cmp[0].functions, p->cmp[0].nfunctions);
    diffs_md(o, "block", p->cmp[0].blocks, p->cmp[0].nblocks);
    vd_sink_printf(o, "\n");
}

static json_t *diffs_json(const vd_profile_diff *d, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s, s:f, s:f}", "name", d[i].name, "full", d[i].full, "sampled",
                                           d[i].sampled));
    return a;
}

json_t *vd_profiles_json(const vd_profiles *p)
{
    if (!p->present) return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "complete", json_boolean(p->complete));
    for (size_t i = 0; i < p->n; i++)
        json_object_set_new(o, p->cmp[i].name,
                            json_pack("{s:{s:f, s:f, s:f}, s:o, s:o, s:I}", "error", "instruction", p->cmp[i].err[0],
                                      "block", p->cmp[i].err[1], "function", p->cmp[i].err[2], "functions",
                                      diffs_json(p->cmp[i].functions, p->cmp[i].nfunctions), "blocks",
                                      diffs_json(p->cmp[i].blocks, p->cmp[i].nblocks), "regions_with_too_few_samples",
                                      (json_int_t)p->cmp[i].few_samples));
    return o;
}

void vd_profiles_csv(vd_sink *o, const vd_profiles *p)
{
    vd_sink_printf(o, "profile,error_instruction,error_block,error_function,complete\n");
    for (size_t i = 0; i < p->n; i++)
        vd_sink_printf(o, "%s,%.6f,%.6f,%.6f,%d\n", p->cmp[i].name, p->cmp[i].err[0], p->cmp[i].err[1],
                       p->cmp[i].err[2], p->complete);
}
