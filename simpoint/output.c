#include "output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "sp_alloc.h"

void choice_from_run(const sp_run *run, const dataset *full, bool sampled, const sp_proxy *px, sp_choice *ch)
{
    size_t k = (size_t)run->k;
    ch->k = k;
    ch->label = NULL;
    ch->rep = sp_malloc(k * sizeof *ch->rep);
    ch->weight = sp_calloc(k, sizeof *ch->weight);
    double *best = sp_malloc(k * sizeof *best);
    for (size_t c = 0; c < k; c++) {
        ch->rep[c] = -1;
        best[c] = INFINITY;
        if (!sampled)
            ch->weight[c] = run->weights[c];
    }
    for (size_t i = 0; i < full->n; i++) {
        int c = run->labels[i];
        double dist = sqrt(run->dist2[i]);
        if (dist < best[c]) {
            best[c] = dist;
            ch->rep[c] = (long)i;
        }
        if (sampled)
            ch->weight[c] += full->w[i];
    }
    ch->nonempty = 0;
    for (size_t c = 0; c < k; c++) {
        /* Empty: no member, or (k-means stopped early) no weight at the last update. */
        if (ch->rep[c] < 0 || !(ch->weight[c] > 0)) {
            ch->rep[c] = -1;
            ch->weight[c] = 0;
        } else {
            ch->nonempty++;
        }
    }
    free(best);
    if (px)
        proxy_apply(px, run, full, ch);
}

void choice_free(sp_choice *ch)
{
    free(ch->rep);
    free(ch->weight);
    free(ch->label);
    ch->rep = NULL;
    ch->weight = NULL;
    ch->label = NULL;
}

/* qsort_r comparator: heavier clusters first, then by label. */
static int heavier_first(const void *a, const void *b, void *choice)
{
    const sp_choice *ch = choice;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    double wi = ch->weight[i], wj = ch->weight[j];
    if (wi != wj)
        return wi > wj ? -1 : 1;
    return i < j ? -1 : i > j;
}

bool *coverage_mask(const sp_choice *ch, double p)
{
    size_t *order = sp_malloc(ch->k * sizeof *order);
    double total = 0;
    for (size_t c = 0; c < ch->k; c++) {
        order[c] = c;
        total += ch->weight[c];
    }
    qsort_r(order, ch->k, sizeof *order, heavier_first, (void *)ch);
    bool *keep = sp_calloc(ch->k, sizeof *keep);
    double cum = 0;
    for (size_t i = 0; i < ch->k && cum < p; i++) {
        size_t c = order[i];
        if (ch->rep[c] < 0)
            break;
        keep[c] = true;
        cum += ch->weight[c] / total;
    }
    free(order);
    return keep;
}

static bool kept(const sp_choice *ch, const bool *keep, size_t c)
{
    return ch->rep[c] >= 0 && (!keep || keep[c]);
}

void write_simpoints(const char *path, const sp_choice *ch, const bool *keep)
{
    outfile *o = outfile_open(path);
    for (size_t c = 0; c < ch->k; c++)
        if (kept(ch, keep, c))
            outfile_printf(o, "%ld %zu\n", ch->rep[c], c);
    outfile_commit(o);
}

void write_weights(const char *path, const sp_choice *ch, const bool *keep)
{
    double total = 0;
    for (size_t c = 0; c < ch->k; c++)
        if (kept(ch, keep, c))
            total += ch->weight[c];
    outfile *o = outfile_open(path);
    for (size_t c = 0; c < ch->k; c++)
        if (kept(ch, keep, c))
            outfile_printf(o, "%g %zu\n", ch->weight[c] / total, c);
    outfile_commit(o);
}

void write_labels(const char *path, const sp_run *run, const sp_choice *ch, size_t n)
{
    outfile *o = outfile_open(path);
    const int *label = ch && ch->label ? ch->label : run->labels;
    for (size_t i = 0; i < n; i++)
        outfile_printf(o, "%d %g\n", label[i], sqrt(run->dist2[i]));
    outfile_commit(o);
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 1;
    char *s = sp_malloc(n);
    snprintf(s, n, "%s%s", a, b);
    return s;
}

static char *coverage_name(const char *base, double p)
{
    char tail[64];
    snprintf(tail, sizeof tail, ".lpt%g", p);
    return join(base, tail);
}

/* One of the choice's files at base + suffix, and with a coverage below 1
 * its twin holding only the points that coverage keeps. */
static void write_with_coverage(void (*write)(const char *, const sp_choice *, const bool *), const char *base,
                                const char *suffix, const sp_choice *ch, const bool *keep, double coverage)
{
    char *path = join(base, suffix);
    write(path, ch, NULL);
    if (keep) {
        char *lpt = coverage_name(path, coverage);
        write(lpt, ch, keep);
        free(lpt);
    }
    free(path);
}

void write_choice_outputs(const output_names *names, const char *suffix, const sp_run *run, const sp_choice *ch,
                          size_t n)
{
    bool *keep = names->coverage < 1 ? coverage_mask(ch, names->coverage) : NULL;
    if (names->simpoints) write_with_coverage(write_simpoints, names->simpoints, suffix, ch, keep, names->coverage);
    if (names->weights) write_with_coverage(write_weights, names->weights, suffix, ch, keep, names->coverage);
    if (names->labels) {
        char *path = join(names->labels, suffix);
        write_labels(path, run, ch, n);
        free(path);
    }
    free(keep);
}

void write_run_outputs(const output_names *names, const char *suffix, const sp_run *run,
                       const dataset *full, bool sampled)
{
    sp_choice ch;
    choice_from_run(run, full, sampled, names->proxy, &ch);
    write_choice_outputs(names, suffix, run, &ch, full->n);
    choice_free(&ch);
}
