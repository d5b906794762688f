/* --sweep-max-k / --sweep-bic: one search per (maxK, threshold), all sharing the
 * clusterer's cache, so every k is clustered once (by default; with --compat
 * the seeds depend on the position in each search, as in separate 3.2 runs). */
#include <stdio.h>
#include <stdlib.h>

#include "outfile.h"
#include "output.h"
#include "session.h"
#include "sp_alloc.h"
#include "util.h"

static void record(session *s, int max_k, double t, sp_run **runs, size_t n, size_t chosen)
{
    sweep_row *row = &s->sweep[s->nsweep++];
    const sp_run *best = runs[chosen];
    sp_choice ch;
    choice_from_run(best, &s->full, s->sampled, session_proxy(s), &ch);
    *row = (sweep_row){.max_k = max_k, .threshold = t, .k = best->k, .bic = best->score.bic,
                       .distortion = best->score.distortion, .simpoints = ch.nonempty, .nruns = n};
    for (size_t i = 0; i < n && i < 64; i++)
        row->ks[i] = runs[i]->k;
    choice_free(&ch);
}

static void write_table(const session *s)
{
    const char *path = s->o->sweep_table;
    outfile *o = path ? outfile_open(path) : NULL;
    char line[1024];
    int len = snprintf(line, sizeof line, "max_k,bic_threshold,k,bic,distortion,simpoints,k_tried\n");
    if (o)
        outfile_write(o, line, (size_t)len);
    else
        fputs(line, stdout);
    for (size_t i = 0; i < s->nsweep; i++) {
        const sweep_row *r = &s->sweep[i];
        len = snprintf(line, sizeof line, "%d,%g,%d,%.10g,%.10g,%zu,", r->max_k, r->threshold, r->k,
                       r->bic, r->distortion, r->simpoints);
        for (size_t j = 0; j < r->nruns && len < (int)sizeof line - 16; j++)
            len += snprintf(line + len, sizeof line - (size_t)len, "%s%d", j ? ";" : "", r->ks[j]);
        line[len++] = '\n';
        if (o)
            outfile_write(o, line, (size_t)len);
        else
            fwrite(line, 1, (size_t)len, stdout);
    }
    if (o)
        outfile_commit(o);
    else
        fflush(stdout);
}

/* Every search starts with k = 1, maxK and (1 + maxK)/2: cluster all of
 * them in one parallel batch (without --compat, runs do not depend on the
 * search they belong to). */
static void cluster_first_batches(session *s)
{
    const sp_options *o = s->o;
    size_t m = 0;
    int *ks = sp_malloc(3 * o->n_sweep_maxk * sizeof *ks), *rs = sp_calloc(3 * o->n_sweep_maxk, sizeof *rs);
    for (size_t i = 0; i < o->n_sweep_maxk; i++) {
        ksearch ignored;
        int max_k = (size_t)o->sweep_maxk[i] > s->full.n ? (int)s->full.n : o->sweep_maxk[i];
        m += (size_t)ksearch_begin(&ignored, max_k, ks + m);
    }
    sp_run **runs = sp_malloc(m * sizeof *runs);
    cluster_runs(&s->cl, ks, rs, m, runs);
    free(runs);
    free(ks);
    free(rs);
}

void run_sweep(session *s)
{
    const sp_options *o = s->o;
    double single = o->bic_threshold;
    const double *ts = o->n_sweep_bic ? o->sweep_bic : &single;
    size_t nts = o->n_sweep_bic ? o->n_sweep_bic : 1;
    s->sweep = sp_malloc(o->n_sweep_maxk * nts * sizeof *s->sweep);
    output_names names = {o->save_simpoints, o->save_weights, o->save_labels, o->coverage_pct, session_proxy(s)};
    sp_run *runs[65]; /* a search's, and the least k's (search_choose) */
    if (!o->compat)
        cluster_first_batches(s);
    for (size_t i = 0; i < o->n_sweep_maxk; i++) {
        int max_k = o->sweep_maxk[i];
        if ((size_t)max_k > s->full.n)
            max_k = (int)s->full.n;
        for (size_t j = 0; j < nts; j++) {
            size_t n, chosen = search_choose(&s->cl, s->floor, max_k, ts[j], runs, &n);
            record(s, o->sweep_maxk[i], ts[j], runs, n, chosen);
            char suffix[96];
            if (o->n_sweep_bic)
                snprintf(suffix, sizeof suffix, ".maxk_%d.bic_%g", o->sweep_maxk[i], ts[j]);
            else
                snprintf(suffix, sizeof suffix, ".maxk_%d", o->sweep_maxk[i]);
            write_run_outputs(&names, suffix, runs[chosen], &s->full, s->sampled);
        }
    }
    s->t_clustered = now_seconds();
    write_table(s);
}
