#include "proxy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "member.h"
#include "sp_alloc.h"
#include "util.h"

/* ---------------------------------------------------------------- input */

static int column_of(char *header, const char *name)
{
    int col = 0;
    for (char *save = NULL, *t = strtok_r(header, "\t\n", &save); t; t = strtok_r(NULL, "\t\n", &save), col++)
        if (strcmp(t, name) == 0)
            return col;
    return -1;
}

/* The fields of line at columns col[0..n) (-1: none, left as they are). */
static bool fields(char *line, const int *col, int n, double *v)
{
    int found = 0, wanted = 0;
    for (int j = 0; j < n; j++)
        wanted += col[j] >= 0;
    char *save = NULL;
    int i = 0;
    for (char *t = strtok_r(line, "\t\n", &save); t && found < wanted; t = strtok_r(NULL, "\t\n", &save), i++)
        for (int j = 0; j < n; j++)
            if (col[j] == i) {
                if (!parse_double(t, &v[j]))
                    return false;
                found++;
            }
    return found == wanted;
}

/* The columns proxy_load adds up, with their weights. */
typedef struct term {
    const char *name, *what;
    double weight;
} term;

double *proxy_load(const char *path, size_t n, double long_weight, double exposed_weight)
{
    term terms[] = {{"proxy_cpi", "a proxy CPI >= 1", 1},
                    {"long_cpi", "a long-operation CPI >= 0", long_weight},
                    {"exposed_cpi", "an exposed long-latency CPI >= 0", exposed_weight}};
    enum { NTERMS = sizeof terms / sizeof terms[0] };
    bool by_default = exposed_weight < 0;
    FILE *f = fopen(path, "r");
    if (!f)
        die("%s: cannot open the proxy file", path);
    double *cpi = sp_malloc((n ? n : 1) * sizeof *cpi);
    char *line = NULL;
    size_t cap = 0, lineno = 0, rows = 0;
    int col[NTERMS] = {-1, -1, -1}; /* a weight of 0: the column is not read */
    bool header = false;
    while (getline(&line, &cap, f) > 0) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (!header) {
            header = true;
            for (int t = 0; t < NTERMS; t++) {
                if (terms[t].weight == 0)
                    continue;
                char *copy = xstrdup(line); /* column_of cuts its argument */
                col[t] = column_of(copy, terms[t].name);
                free(copy);
            }
            if (by_default) /* formats 1 and 2 have no exposed_cpi: without it as before */
                terms[2].weight = col[2] >= 0 ? PROXY_EXPOSED_DEFAULT : 0;
            if (col[0] < 0)
                die("%s:%zu: no proxy_cpi column (is it a bbv --proxy file?)", path, lineno);
            if (long_weight != 0 && col[1] < 0)
                die("%s:%zu: no long_cpi column (a bbv --proxy file of format 1: give --proxy-long 0)", path, lineno);
            if (terms[2].weight != 0 && col[2] < 0)
                die("%s:%zu: no exposed_cpi column (a bbv --proxy file of format 1 or 2: give --proxy-exposed 0)",
                    path, lineno);
            continue;
        }
        double v[NTERMS] = {0, 0, 0};
        bool ok = fields(line, col, NTERMS, v);
        for (int t = 0; t < NTERMS; t++)
            if (!ok || !(v[t] >= (t == 0 ? 1 : 0)) || !isfinite(v[t]))
                die("%s:%zu: expected %s in column %d", path, lineno, terms[t].what, col[t] + 1);
        if (rows == n)
            die("%s:%zu: more intervals than the %zu of the vectors", path, lineno, n);
        double sum = 0;
        for (int t = 0; t < NTERMS; t++)
            sum += terms[t].weight * v[t];
        cpi[rows++] = sum;
    }
    bool err = ferror(f);
    free(line);
    fclose(f);
    if (err)
        die("%s: read error", path);
    if (rows != n)
        die("%s: %zu intervals, the vectors have %zu", path, rows, n);
    return cpi;
}

/* ------------------------------------------------------------ choosing */

static double weighted_mean(const member *m, size_t n, const double *cpi, const double *w)
{
    double sw = 0, s = 0;
    for (size_t j = 0; j < n; j++) {
        sw += w[m[j].i];
        s += w[m[j].i] * cpi[m[j].i];
    }
    return sw > 0 ? s / sw : cpi[m[0].i];
}

/* The representative of members m[0..n): nearest the BBV centre, or with
 * select, among the `candidates` nearest, the proxy CPI nearest the mean. */
static size_t pick(const sp_proxy *px, member *m, size_t n, const sp_run *run, const double *w)
{
    double mean = weighted_mean(m, n, px->cpi, w);
    for (size_t j = 0; j < n; j++)
        m[j].key = run->dist2[m[j].i];
    members_sort(m, n);
    if (!px->select)
        return m[0].i;
    size_t best = 0, top = (size_t)px->candidates < n ? (size_t)px->candidates : n;
    for (size_t j = 1; j < top; j++)
        if (fabs(px->cpi[m[j].i] - mean) < fabs(px->cpi[m[best].i] - mean))
            best = j;
    return m[best].i;
}

/* Strata per cluster: Neyman allocation of the extra representatives. */
static size_t *allocate(const sp_proxy *px, const sp_choice *ch, member **mem, const size_t *cnt, const double *w)
{
    size_t *strata = sp_malloc(ch->k * sizeof *strata);
    double *var = sp_calloc(ch->k, sizeof *var), *mass = sp_calloc(ch->k, sizeof *mass);
    for (size_t c = 0; c < ch->k; c++) {
        strata[c] = ch->rep[c] >= 0 ? 1 : 0;
        if (!cnt[c])
            continue;
        double mean = weighted_mean(mem[c], cnt[c], px->cpi, w), s = 0;
        for (size_t j = 0; j < cnt[c]; j++) {
            double d = px->cpi[mem[c][j].i] - mean;
            s += w[mem[c][j].i] * d * d;
            mass[c] += w[mem[c][j].i];
        }
        var[c] = mass[c] > 0 ? s / mass[c] : 0;
    }
    size_t extra = (size_t)floor(px->stratify * (double)ch->nonempty + 1e-9);
    if (px->points)
        extra = px->points > ch->nonempty ? px->points - ch->nonempty : 0;
    for (size_t e = 0; e < extra; e++) {
        long best = -1;
        double gain_best = 0;
        for (size_t c = 0; c < ch->k; c++) {
            if (!strata[c] || strata[c] >= cnt[c])
                continue;
            double m = (double)strata[c];
            double gain = ch->weight[c] * ch->weight[c] * var[c] * (1 / m - 1 / (m + 1));
            if (gain > gain_best) {
                gain_best = gain;
                best = (long)c;
            }
        }
        if (best < 0)
            break;
        strata[best]++;
    }
    free(var);
    free(mass);
    return strata;
}

static void grow(sp_choice *ch, size_t k)
{
    ch->rep = realloc(ch->rep, k * sizeof *ch->rep);
    ch->weight = realloc(ch->weight, k * sizeof *ch->weight);
    if (!ch->rep || !ch->weight)
        die("out of memory");
    ch->k = k;
}

void proxy_apply(const sp_proxy *px, const sp_run *run, const dataset *full, sp_choice *ch)
{
    size_t k = ch->k, n = full->n;
    const double *w = full->w;
    size_t *cnt = sp_calloc(k, sizeof *cnt);
    for (size_t i = 0; i < n; i++)
        cnt[run->labels[i]]++;
    member **mem = sp_malloc(k * sizeof *mem);
    for (size_t c = 0; c < k; c++) {
        mem[c] = sp_malloc((cnt[c] ? cnt[c] : 1) * sizeof **mem);
        cnt[c] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        int c = run->labels[i];
        mem[c][cnt[c]++] = (member){i, 0};
    }
    size_t *strata = px->stratify > 0 || px->points ? allocate(px, ch, mem, cnt, w) : NULL;
    if (strata) {
        ch->label = sp_malloc(n * sizeof *ch->label);
        memcpy(ch->label, run->labels, n * sizeof *ch->label);
    }
    for (size_t c = 0; c < k; c++) {
        if (ch->rep[c] < 0)
            continue;
        size_t m = strata ? strata[c] : 1;
        if (m == 1) {
            if (px->select) /* else the representative stays SimPoint's */
                ch->rep[c] = (long)pick(px, mem[c], cnt[c], run, w);
            continue;
        }
        /* m groups of equal size by proxy CPI; group 0 keeps the id c */
        for (size_t j = 0; j < cnt[c]; j++)
            mem[c][j].key = px->cpi[mem[c][j].i];
        members_sort(mem[c], cnt[c]);
        double total = 0;
        for (size_t j = 0; j < cnt[c]; j++)
            total += w[mem[c][j].i];
        double cluster_weight = ch->weight[c];
        for (size_t g = 0; g < m; g++) {
            size_t lo = g * cnt[c] / m, hi = (g + 1) * cnt[c] / m, id = c;
            double part = 0;
            for (size_t j = lo; j < hi; j++)
                part += w[mem[c][j].i];
            if (g > 0) {
                id = ch->k;
                grow(ch, ch->k + 1);
                ch->nonempty++;
                for (size_t j = lo; j < hi; j++)
                    ch->label[mem[c][j].i] = (int)id;
            }
            ch->weight[id] = total > 0 ? cluster_weight * part / total : cluster_weight / (double)m;
            member *group = sp_malloc((hi - lo) * sizeof *group);
            memcpy(group, mem[c] + lo, (hi - lo) * sizeof *group);
            ch->rep[id] = (long)pick(px, group, hi - lo, run, w);
            free(group);
        }
    }
    for (size_t c = 0; c < k; c++)
        free(mem[c]);
    free(mem);
    free(cnt);
    free(strata);
}

double proxy_predicted_se(const double *cpi, const double *w, const int *label, size_t n, const sp_choice *ch,
                          double *mean)
{
    /* per cluster: sum w, sum w x, sum w x^2 (about the cluster's first member, for precision) */
    double *sw = sp_calloc(ch->k, sizeof *sw), *sx = sp_calloc(ch->k, sizeof *sx);
    double *sxx = sp_calloc(ch->k, sizeof *sxx), *ref = sp_malloc(ch->k * sizeof *ref);
    bool *seen = sp_calloc(ch->k, sizeof *seen);
    double total_w = 0, total_wx = 0;
    for (size_t i = 0; i < n; i++) {
        size_t c = (size_t)label[i];
        if (!seen[c]) {
            seen[c] = true;
            ref[c] = cpi[i];
        }
        double d = cpi[i] - ref[c];
        sw[c] += w[i];
        sx[c] += w[i] * d;
        sxx[c] += w[i] * d * d;
        total_w += w[i];
        total_wx += w[i] * cpi[i];
    }
    double weights = 0, var = 0;
    for (size_t c = 0; c < ch->k; c++)
        if (ch->rep[c] >= 0)
            weights += ch->weight[c];
    for (size_t c = 0; c < ch->k; c++) {
        if (ch->rep[c] < 0 || !(sw[c] > 0))
            continue;
        double m = sx[c] / sw[c], s2 = fmax(sxx[c] / sw[c] - m * m, 0), W = ch->weight[c] / weights;
        var += W * W * s2;
    }
    *mean = total_w > 0 ? total_wx / total_w : 0;
    free(sw);
    free(sx);
    free(sxx);
    free(ref);
    free(seen);
    return sqrt(var);
}
