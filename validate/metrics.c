#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Events with a conventional MPKI name. */
static const struct {
    const char *event, *id, *label;
} mpki_names[] = {
    {"branch_mispredicts", "branch_mpki", "branch MPKI"},
    {"cond_mispredicts", "cond_branch_mpki", "conditional branch MPKI"},
    {"btb_misses", "btb_mpki", "BTB MPKI"},
    {"return_mispredicts", "return_mpki", "return MPKI"},
    {"l1i_misses", "l1i_mpki", "L1I MPKI"},
    {"l1d_misses", "l1d_mpki", "L1D MPKI"},
    {"l2_misses", "l2_mpki", "L2 MPKI"},
    {"llc_misses", "llc_mpki", "LLC MPKI"},
    {"itlb_misses", "itlb_mpki", "ITLB MPKI"},
    {"dtlb_misses", "dtlb_mpki", "DTLB MPKI"},
    {"l2tlb_misses", "l2tlb_mpki", "L2 TLB MPKI"},
};

/* Commit states, recognised by the stack keys' prefixes (sim/RESULTS.md). */
static const char *const states[] = {"computing", "stalled", "flushed", "drained"};

static vd_metric *add(vd_metrics *ms, char *id, char *label, vd_mkind kind, double scale, bool headline)
{
    ms->m = vd_realloc(ms->m, (ms->n + 1) * sizeof *ms->m);
    vd_metric *m = &ms->m[ms->n++];
    *m = (vd_metric){.id = id, .label = label, .kind = kind, .scale = scale, .headline = headline};
    return m;
}

static void add_counter(vd_metric *m, size_t c)
{
    m->num = vd_realloc(m->num, (m->nnum + 1) * sizeof *m->num);
    m->num[m->nnum++] = c;
}

static bool in_state(const char *key, const char *state)
{
    size_t n = strlen(state);
    return strncmp(key, state, n) == 0 && (key[n] == '\0' || key[n] == '_');
}

void vd_metrics_init(vd_metrics *ms, char *const *names, const vd_group *groups, size_t n)
{
    memset(ms, 0, sizeof *ms);
    add(ms, vd_strdup("cpi"), vd_strdup("CPI"), VD_M_CPI, 1, true);
    add(ms, vd_strdup("ipc"), vd_strdup("IPC"), VD_M_IPC, 1, true);
    for (size_t i = 0; i < sizeof mpki_names / sizeof mpki_names[0]; i++)
        for (size_t c = 0; c < n; c++)
            if (groups[c] == VD_EVENT && strcmp(names[c], mpki_names[i].event) == 0)
                add_counter(add(ms, vd_strdup(mpki_names[i].id), vd_strdup(mpki_names[i].label), VD_M_RATE, 1000,
                                true), c);
    for (size_t s = 0; s < sizeof states / sizeof states[0]; s++) {
        vd_metric *m = NULL;
        for (size_t c = 0; c < n; c++)
            if (groups[c] == VD_STACK && in_state(names[c], states[s])) {
                if (!m)
                    m = add(ms, vd_format("cpi_state_%s", states[s]), vd_format("CPI %s (state)", states[s]),
                            VD_M_RATE, 1, true);
                add_counter(m, c);
            }
    }
    for (size_t c = 0; c < n; c++)
        if (groups[c] == VD_STACK)
            add_counter(add(ms, vd_format("cpi_%s", names[c]), vd_format("CPI %s", names[c]), VD_M_RATE, 1, false), c);
    for (size_t c = 0; c < n; c++) {
        bool named = false;
        for (size_t i = 0; i < sizeof mpki_names / sizeof mpki_names[0]; i++)
            named |= strcmp(names[c], mpki_names[i].event) == 0;
        if (groups[c] == VD_EVENT && !named)
            add_counter(add(ms, vd_format("%s_pki", names[c]), vd_format("%s per 1k instructions", names[c]),
                            VD_M_RATE, 1000, false),
                        c);
    }
}

void vd_metrics_free(vd_metrics *ms)
{
    for (size_t i = 0; i < ms->n; i++) {
        free(ms->m[i].id);
        free(ms->m[i].label);
        free(ms->m[i].num);
    }
    free(ms->m);
    memset(ms, 0, sizeof *ms);
}

long vd_metrics_find(const vd_metrics *ms, const char *id)
{
    for (size_t i = 0; i < ms->n; i++)
        if (strcmp(ms->m[i].id, id) == 0)
            return (long)i;
    return -1;
}

void vd_extrapolate(const vd_metrics *ms, size_t k, const double *w, const double *const *rows, double *out)
{
    double cpi = 0, winsts = 0;
    for (size_t j = 0; j < k; j++) {
        cpi += w[j] * (rows[j][1] / rows[j][0]);
        winsts += w[j] * rows[j][0];
    }
    for (size_t i = 0; i < ms->n; i++) {
        const vd_metric *m = &ms->m[i];
        if (m->kind == VD_M_CPI) {
            out[i] = cpi;
        } else if (m->kind == VD_M_IPC) {
            out[i] = cpi > 0 ? 1 / cpi : NAN;
        } else {
            double num = 0;
            for (size_t j = 0; j < k; j++)
                for (size_t c = 0; c < m->nnum; c++)
                    num += w[j] * rows[j][m->num[c]];
            out[i] = winsts > 0 ? m->scale * num / winsts : NAN;
        }
    }
}
