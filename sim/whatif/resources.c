#include "resources.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum kind { CAPACITY, LATENCY };

/* Every single resource: a parameter and which way is faster. */
static const struct single {
    const char *param;
    enum kind kind;
} singles[] = {
    {"frontend.fetch_width", CAPACITY}, {"frontend.fetch_buffer", CAPACITY}, {"frontend.ftq_entries", CAPACITY},
    {"frontend.max_branches", CAPACITY}, {"frontend.pipeline_depth", LATENCY},
    {"frontend.redirect_penalty", LATENCY}, {"frontend.flush_penalty", LATENCY},
    {"core.decode_width", CAPACITY}, {"core.decode_stages", LATENCY}, {"core.regread_stages", LATENCY},
    {"core.commit_width", CAPACITY},
    {"rob.entries", CAPACITY}, {"regs.int_phys", CAPACITY}, {"regs.fp_phys", CAPACITY},
    {"iq.int_entries", CAPACITY}, {"iq.int_issue", CAPACITY}, {"iq.mem_entries", CAPACITY},
    {"iq.mem_issue", CAPACITY}, {"iq.fp_entries", CAPACITY}, {"iq.fp_issue", CAPACITY},
    {"lsq.load_entries", CAPACITY}, {"lsq.store_entries", CAPACITY},
    {"fu.alu", LATENCY}, {"fu.mul", LATENCY}, {"fu.div", LATENCY}, {"fu.div_units", CAPACITY},
    {"fu.fadd", LATENCY}, {"fu.fmul", LATENCY}, {"fu.fma", LATENCY}, {"fu.fdiv", LATENCY}, {"fu.fsqrt", LATENCY},
    {"fu.fdiv_units", CAPACITY}, {"fu.fcvt", LATENCY}, {"fu.fmisc", LATENCY}, {"fu.csr", LATENCY},
    {"bpred.btb_entries", CAPACITY}, {"bpred.ubtb_entries", CAPACITY}, {"bpred.ras_entries", CAPACITY},
    {"l1i.size_kib", CAPACITY}, {"l1i.latency", LATENCY}, {"l1i.mshrs", CAPACITY},
    {"l1d.size_kib", CAPACITY}, {"l1d.latency", LATENCY}, {"l1d.mshrs", CAPACITY},
    {"l2.size_kib", CAPACITY}, {"l2.latency", LATENCY}, {"l2.mshrs", CAPACITY},
    {"llc.size_kib", CAPACITY}, {"llc.latency", LATENCY}, {"llc.mshrs", CAPACITY},
    {"itlb.entries", CAPACITY}, {"dtlb.entries", CAPACITY}, {"l2tlb.entries", CAPACITY},
    {"l2tlb.latency", LATENCY}, {"ptw.latency", LATENCY},
    {"dram.latency_ns", LATENCY}, {"dram.bandwidth_mb_s", CAPACITY}, {"dram.max_requests", CAPACITY},
};
enum { NSINGLES = sizeof singles / sizeof singles[0] };

/* Groups that catch balanced code no single resource explains. */
static const struct group {
    const char *name;
    const char *members; /* comma-separated parameters */
} groups[] = {
    {"frontend", "frontend.fetch_width,core.decode_width,frontend.fetch_buffer,frontend.ftq_entries"},
    {"widths", "frontend.fetch_width,core.decode_width,iq.int_issue,iq.mem_issue,iq.fp_issue,core.commit_width"},
    {"issue", "iq.int_issue,iq.mem_issue,iq.fp_issue,fu.div_units,fu.fdiv_units"},
    {"window", "rob.entries,regs.int_phys,regs.fp_phys,iq.int_entries,iq.mem_entries,iq.fp_entries,"
               "lsq.load_entries,lsq.store_entries"},
    {"fu-latency", "fu.alu,fu.mul,fu.div,fu.fadd,fu.fmul,fu.fma,fu.fdiv,fu.fsqrt,fu.fcvt,fu.fmisc,fu.csr"},
    {"memory-latency", "l1d.latency,l2.latency,llc.latency,dram.latency_ns"},
    {"memory-bandwidth", "l1d.mshrs,l2.mshrs,llc.mshrs,dram.bandwidth_mb_s,dram.max_requests"},
    {"mispredict-penalty", "frontend.redirect_penalty"},
    {"tlbs", "itlb.entries,dtlb.entries,l2tlb.entries"},
};

/* Limit studies: parameters set, not scaled (value -1: the parameter's
 * maximum, -2: its minimum). */
enum { MAXIMUM = -1, MINIMUM = -2 };
static const struct limit {
    const char *name;
    const char *params;
    int value;
} limits[] = {
    {"perfect-bp", "ideal.branch_prediction", 1},
    {"perfect-l1i", "ideal.l1i", 1},
    {"perfect-l1d", "ideal.l1d", 1},
    {"perfect-tlb", "ideal.tlb", 1},
    {"infinite-rob", "rob.entries,regs.int_phys,regs.fp_phys,iq.int_entries,iq.mem_entries,iq.fp_entries,"
                     "lsq.load_entries,lsq.store_entries", MAXIMUM},
    {"infinite-bandwidth", "frontend.fetch_width,core.decode_width,iq.int_issue,iq.mem_issue,iq.fp_issue,"
                           "core.commit_width", MAXIMUM},
    {"fastest-l1d", "l1d.latency", MINIMUM},
    {"zero-latency-alu", "ideal.short_alu", 1},
    {"zero-latency-long-ops", "ideal.long_alu", 1},
    {"wrong-path", "core.wrong_path", 0},
};


static const struct single *single_of(const char *param)
{
    for (int i = 0; i < NSINGLES; i++)
        if (!strcmp(singles[i].param, param)) return &singles[i];
    return NULL;
}

/* The elements of LIST, separated by any of SEP: none empty (strtok_r would
 * skip it, so "+" or "rob.entries+" would pass for a resource) and none
 * twice. 0, or -1 with the reason. */
static int check_elements(const char *list, const char *sep, char *err, size_t errlen)
{
    char *copy = xstrdup(list), *rest = copy;
    int rc = 0;
    for (char *e, *earlier; !rc && (e = strsep(&rest, sep));) {
        if (!*e) {
            snprintf(err, errlen, "an empty resource in '%s'", list);
            rc = -1;
        }
        for (earlier = copy; !rc && earlier < e; earlier += strlen(earlier) + 1)
            if (!strcmp(earlier, e)) {
                snprintf(err, errlen, "'%s' given twice in '%s'", e, list);
                rc = -1;
            }
    }
    free(copy);
    return rc;
}

int resource_parse_factors(const char *list, double *factors, int max, char *err, size_t errlen)
{
    int n = 0;
    char *copy = xstrdup(list), *save = NULL;
    for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        char *end = f;
        double v = NAN;
        if (*f == 'x') v = strtod(f + 1, &end);
        else if (*f == '+' || *f == '-') {
            double percent = strtod(f, &end);
            if (*end == '%') v = 1 + percent / 100, end++;
        }
        if (!(v > 0) || v == 1 || *end || v > 1000 || n == max) {
            snprintf(err, errlen, "'%s' is not an acceleration (x2, x0.5, +15%%, -10%%; not x1)%s", f,
                     n == max ? ", or too many" : "");
            free(copy);
            return -1;
        }
        for (int i = 0; i < n; i++)
            if (factors[i] == v) {
                snprintf(err, errlen, "'%s' given twice (x%g)", f, v);
                free(copy);
                return -1;
            }
        factors[n++] = v;
    }
    free(copy);
    if (!n) snprintf(err, errlen, "expected accelerations such as x2 or +15%%");
    return n ? n : -1;
}

/* One parameter of v accelerated by w: at least one step, within range. */
static void accelerate(variant *v, int param, enum kind kind, double w)
{
    int from = uarch_param_get(&v->cfg, param), lo, hi;
    uarch_param_range(param, &lo, &hi);
    double exact = kind == CAPACITY ? from * w : from / w;
    long long to = llround(exact);
    bool up = (kind == CAPACITY) == (w > 1);
    if (up && to <= from) to = from + 1;
    if (!up && to >= from) to = from - 1;
    if (to < lo) to = lo;
    if (to > hi) to = hi;
    if (to == from) return;
    uarch_param_put(&v->cfg, param, (int)to);
    double scale = kind == CAPACITY ? (double)to / from : (double)from / (double)to;
    v->changes[v->nchanges++] = (param_change){param, from, (int)to, scale};
}

static void set_limit(variant *v, int param, int value)
{
    int from = uarch_param_get(&v->cfg, param), lo, hi;
    uarch_param_range(param, &lo, &hi);
    int to = value == MAXIMUM ? hi : value == MINIMUM ? lo : value;
    if (to == from) return;
    uarch_param_put(&v->cfg, param, to);
    v->changes[v->nchanges++] = (param_change){param, from, to, from ? (double)to / from : 0};
}

static bool already_changed(const variant *v, int param)
{
    for (int i = 0; i < v->nchanges; i++)
        if (v->changes[i].param == param) return true;
    return false;
}

/* Accelerate every parameter of a comma-separated list (once each). */
static void accelerate_list(variant *v, const char *params, double w)
{
    char *copy = xstrdup(params), *save = NULL;
    for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int i = uarch_param_index(p);
        const struct single *s = single_of(p);
        if (i < 0 || !s) die("resources: '%s' in a group is not a resource (a bug in the table)", p);
        if (!already_changed(v, i) && v->nchanges < VARIANT_MAX_CHANGES) accelerate(v, i, s->kind, w);
    }
    free(copy);
}

/* One element of a '+' set: a group, a limit study or a parameter. */
static int apply_element(variant *v, const char *name, double w, bool *limit, char *err, size_t errlen)
{
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        if (!strcmp(groups[g].name, name)) {
            accelerate_list(v, groups[g].members, w);
            return 0;
        }
    for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++)
        if (!strcmp(limits[l].name, name)) {
            char *copy = xstrdup(limits[l].params), *save = NULL;
            for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
                set_limit(v, uarch_param_index(p), limits[l].value);
            free(copy);
            *limit = true;
            return 0;
        }
    const struct single *s = single_of(name);
    if (!s) {
        if (uarch_param_index(name) >= 0)
            snprintf(err, errlen, "'%s' is a parameter but not a resource (it does not make the core faster or slower)",
                     name);
        else snprintf(err, errlen, "unknown resource '%s' (parameters as in sim --list-params, groups and limit studies: "
                                   "see sim --help)", name);
        return -1;
    }
    int i = uarch_param_index(name);
    if (!already_changed(v, i)) accelerate(v, i, s->kind, w);
    return 0;
}

static void name_variant(variant *v, const char *resource, double w, bool limit)
{
    snprintf(v->resource, sizeof v->resource, "%s", resource);
    if (limit && !strchr(resource, '+')) snprintf(v->name, sizeof v->name, "%s", resource);
    else snprintf(v->name, sizeof v->name, "%s x%g", resource, w);
}

int resource_variant(const uarch_config *base, const char *resource, double w, variant *v, char *err, size_t errlen)
{
    *v = (variant){.cfg = *base, .factor = w};
    bool limit = false;
    if (check_elements(resource, "+", err, errlen)) return -1;
    char *copy = xstrdup(resource), *save = NULL;
    int rc = 0;
    for (char *e = strtok_r(copy, "+", &save); e && !rc; e = strtok_r(NULL, "+", &save))
        rc = apply_element(v, e, w, &limit, err, errlen);
    free(copy);
    if (rc) return -1;
    name_variant(v, resource, w, limit);
    if (limit) v->factor = 0;
    double log_sum = 0;
    v->shares_state = true;
    for (int i = 0; i < v->nchanges; i++) {
        log_sum += log(v->changes[i].scale);
        if (uarch_param_shapes_state(v->changes[i].param)) v->shares_state = false;
    }
    v->scale = v->nchanges && !limit ? exp(log_sum / v->nchanges) : 0;
    if (!v->nchanges) snprintf(v->skipped, sizeof v->skipped, "already at the end of its range");
    else uarch_config_check(&v->cfg, v->skipped, sizeof v->skipped);
    return 0;
}

static bool is_limit(const char *resource)
{
    for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++)
        if (!strcmp(limits[l].name, resource)) return true;
    return false;
}

/* A resource asked for twice ('all' holds every single one) at one factor. */
static int check_repeats(const variant *vs, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(vs[i].resource, vs[j].resource) && vs[i].factor == vs[j].factor) {
                snprintf(err, errlen, "'%s' given twice", vs[i].resource);
                return -1;
            }
    return 0;
}

static int push(variant **out, int *n, int *cap)
{
    if (*n == *cap && !(*out = realloc(*out, (size_t)(*cap = *cap ? *cap * 2 : 16) * sizeof **out))) die("out of memory");
    return (*n)++;
}

int resource_variants(const uarch_config *base, const char *list, const double *factors, int nfactors, variant **out,
                      char *err, size_t errlen)
{
    variant *vs = NULL;
    int n = 0, cap = 0;
    if (check_elements(list, ",", err, errlen)) return -1;
    char *copy = xstrdup(list), *save = NULL;
    for (char *r = strtok_r(copy, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
        bool all = !strcmp(r, "all");
        int count = all ? NSINGLES : 1;
        for (int k = 0; k < count; k++) {
            const char *name = all ? singles[k].param : r;
            for (int f = 0; f < (is_limit(name) ? 1 : nfactors); f++) {
                int i = push(&vs, &n, &cap);
                if (resource_variant(base, name, factors[f], &vs[i], err, errlen)) {
                    free(vs);
                    free(copy);
                    return -1;
                }
            }
        }
    }
    free(copy);
    if (!n) {
        snprintf(err, errlen, "expected a list of resources (see sim --help)");
        return -1;
    }
    if (check_repeats(vs, n, err, errlen)) {
        free(vs);
        return -1;
    }
    *out = vs;
    return n;
}

int resource_preset(const uarch_config *base, const char *preset, variant **out, char *err, size_t errlen)
{
    /* Gus's sweepable resources (ports, INST_LAT, FRONTEND, INST_WINDOW,
     * L2/L3/MEM throughput) at its +15% (notes/gus.md §3). */
    if (!strcmp(preset, "gus"))
        return resource_variants(base,
                                 "iq.int_issue,iq.mem_issue,iq.fp_issue,fu.div_units,fu.fdiv_units,fu-latency,frontend,"
                                 "rob.entries,l2.mshrs,llc.mshrs,dram.bandwidth_mb_s,memory-bandwidth",
                                 (double[]){1.15}, 1, out, err, errlen);
    if (!strcmp(preset, "limits"))
        return resource_variants(base,
                                 "perfect-bp,perfect-l1i,perfect-l1d,perfect-tlb,infinite-rob,infinite-bandwidth,"
                                 "fastest-l1d,zero-latency-alu,zero-latency-long-ops,wrong-path",
                                 (double[]){2}, 1, out, err, errlen);
    snprintf(err, errlen, "unknown preset '%s' (gus or limits)", preset);
    return -1;
}
