#include "options.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distinct_outputs.h"
#include "sp_alloc.h"
#include "util.h"

typedef enum { ARG_FLAG, ARG_FILE, ARG_INT, ARG_LONG, ARG_DOUBLE, ARG_SPECIAL } arg_kind;

typedef struct opt_def opt_def;
struct opt_def {
    const char *name; /* SimPoint 3.2 spelling, also the long option */
    arg_kind kind;
    size_t offset;
    const char *metavar, *deflt, *help;
    bool (*special)(sp_options *o, const char *arg);
    bool ours; /* not in SimPoint 3.2: shown as --name */
};

#define OFF(f) offsetof(sp_options, f)

static bool set_k(sp_options *o, const char *a)
{
    free(o->k_list);
    o->k_list = NULL;
    o->n_k = 0;
    o->k_search = strcmp(a, "search") == 0;
    return o->k_search || parse_k_list(a, &o->k_list, &o->n_k);
}

static bool set_iters(sp_options *o, const char *a)
{
    long long v;
    if (strcmp(a, "off") == 0) {
        o->iters = -1;
        return true;
    }
    if (!parse_int(a, &v) || v < 1 || v > 1000000000)
        return false;
    o->iters = (int)v;
    return true;
}

static bool set_dim(sp_options *o, const char *a)
{
    long long v;
    if (strcmp(a, "noProject") == 0) {
        o->dim = 0;
        return true;
    }
    if (!parse_int(a, &v) || v < 1 || v > 100000)
        return false;
    o->dim = (int)v;
    return true;
}

static bool set_initkm(sp_options *o, const char *a)
{
    if (strcmp(a, "samp") == 0)
        o->initkm = KM_INIT_SAMP;
    else if (strcmp(a, "ff") == 0)
        o->initkm = KM_INIT_FF;
    else if (strcmp(a, "pp") == 0 || strcmp(a, "kmeans++") == 0)
        o->initkm = KM_INIT_PP;
    else
        return false;
    return true;
}

static bool set_fixed_length(sp_options *o, const char *a)
{
    if (strcmp(a, "on") != 0 && strcmp(a, "off") != 0)
        return false;
    o->fixed_length = strcmp(a, "on") == 0;
    return true;
}

static bool set_kmeans(sp_options *o, const char *a)
{
    if (strcmp(a, "lloyd") != 0 && strcmp(a, "hamerly") != 0)
        return false;
    o->lloyd = strcmp(a, "lloyd") == 0;
    return true;
}

static bool set_sweep_maxk(sp_options *o, const char *a)
{
    free(o->sweep_maxk);
    return parse_k_list(a, &o->sweep_maxk, &o->n_sweep_maxk);
}

static bool set_sweep_bic(sp_options *o, const char *a)
{
    free(o->sweep_bic);
    o->sweep_bic = sp_malloc((strlen(a) / 2 + 1) * sizeof *o->sweep_bic);
    o->n_sweep_bic = 0;
    char *copy = strdup(a), *save = NULL;
    bool ok = copy && *a && a[strlen(a) - 1] != ',';
    for (char *t = strtok_r(copy, ",", &save); ok && t; t = strtok_r(NULL, ",", &save)) {
        double v;
        ok = parse_double(t, &v) && v >= 0 && v <= 1;
        o->sweep_bic[o->n_sweep_bic++] = v;
    }
    free(copy);
    return ok && o->n_sweep_bic > 0;
}

static bool set_select_by(sp_options *o, const char *a)
{
    if (strcmp(a, "centre") != 0 && strcmp(a, "center") != 0 && strcmp(a, "proxy") != 0)
        return false;
    o->select_proxy = strcmp(a, "proxy") == 0;
    return true;
}

/* N points, or Fx: F times SimPoint's own choice of points (its k on the BBVs alone). */
static bool set_points_spec(const char *a, int *points, double *ratio)
{
    size_t len = strlen(a);
    double x;
    long long v;
    if (len > 1 && (a[len - 1] == 'x' || a[len - 1] == 'X')) {
        char num[64];
        if (len >= sizeof num)
            return false;
        memcpy(num, a, len - 1);
        num[len - 1] = '\0';
        if (!parse_double(num, &x) || !(x >= 1) || x > 1000)
            return false;
        *ratio = x;
        *points = 0;
        return true;
    }
    if (!parse_int(a, &v) || v < 1 || v > 1000000)
        return false;
    *points = (int)v;
    *ratio = 0;
    return true;
}

static bool set_points(sp_options *o, const char *a)
{
    return set_points_spec(a, &o->points, &o->points_ratio);
}

static bool set_pilot(sp_options *o, const char *a)
{
    return set_points_spec(a, &o->pilot, &o->pilot_ratio);
}

static bool add_measured(sp_options *o, const char *a)
{
    if (!*a)
        die("option --measured: empty file name");
    if (o->n_measured == SP_MAX_MEASURED)
        die("option --measured: more than %d files", SP_MAX_MEASURED);
    o->measured[o->n_measured++] = a;
    return true;
}

static bool set_target_ci(sp_options *o, const char *a)
{
    char num[64];
    size_t len = strlen(a);
    if (!len || len >= sizeof num)
        return false;
    memcpy(num, a, len + 1);
    if (num[len - 1] == '%')
        num[len - 1] = '\0';
    double x;
    if (!parse_double(num, &x) || !(x > 0) || x > 100)
        return false;
    o->target_ci = x / 100;
    return true;
}

/* --proxy-exposed W, in [0, 10]; without it, proxy_exposed stays negative:
 * the default weight where the file has the column (proxy_load). */
static bool set_proxy_exposed(sp_options *o, const char *a)
{
    double x;
    if (!parse_double(a, &x) || !(x >= 0 && x <= 10))
        return false;
    o->proxy_exposed = x;
    return true;
}

static const opt_def table[] = {
    {"loadFVFile", ARG_FILE, OFF(fv_file), "FILE", NULL, "basic-block vectors (.bb, plain or gzip)", NULL, false},
    {"inputVectorsGzipped", ARG_FLAG, OFF(fv_gzipped), NULL, "off", "accepted; gzip is detected automatically", NULL, false},
    {"k", ARG_SPECIAL, 0, "search|LIST", "search", "k values: binary search up to -maxK, or k, a:b, a:step:b, comma-separated", set_k, false},
    {"maxK", ARG_INT, OFF(max_k), "K", "none", "largest k of the search (required with -k search)", NULL, false},
    {"iters", ARG_SPECIAL, 0, "N|off", "100", "most k-means iterations per restart", set_iters, false},
    {"dim", ARG_SPECIAL, 0, "D|noProject", "15", "dimensions of the random projection", set_dim, false},
    {"numInitSeeds", ARG_INT, OFF(num_init_seeds), "N", "5", "k-means restarts per k; the best BIC wins", NULL, false},
    {"initkm", ARG_SPECIAL, 0, "samp|ff|pp", "samp", "initial centres: random sample, furthest-first, k-means++", set_initkm, false},
    {"bicThreshold", ARG_DOUBLE, OFF(bic_threshold), "T", "0.9", "choose the smallest k with BIC >= min + T (max - min)", NULL, false},
    {"coveragePct", ARG_DOUBLE, OFF(coverage_pct), "P", "1.0", "if < 1, also write FILE.lptP with the largest clusters covering P", NULL, false},
    {"fixedLength", ARG_SPECIAL, 0, "on|off", "on", "on: every interval weighs 1/n; off: by its instruction count", set_fixed_length, false},
    {"sampleSize", ARG_LONG, OFF(sample_size), "N", "all", "run k-means on N intervals drawn by weight", NULL, false},
    {"numFVs", ARG_LONG, OFF(num_fvs), "N", "none", "expected number of intervals (checked; give with -FVDim)", NULL, false},
    {"FVDim", ARG_LONG, OFF(fv_dim), "N", "none", "expected largest block id (checked; give with -numFVs)", NULL, false},
    {"seedkm", ARG_INT, OFF(seed_km), "S", "493575226", "seed of the k-means initialisations", NULL, false},
    {"seedproj", ARG_INT, OFF(seed_proj), "S", "2042712918", "seed of the projection matrix", NULL, false},
    {"seedsample", ARG_INT, OFF(seed_sample), "S", "385089224", "seed of -sampleSize", NULL, false},
    {"saveSimpoints", ARG_FILE, OFF(save_simpoints), "FILE", NULL, "write '<interval> <cluster>' per chosen interval", NULL, false},
    {"saveSimpointWeights", ARG_FILE, OFF(save_weights), "FILE", NULL, "write '<weight> <cluster>' per cluster", NULL, false},
    {"saveLabels", ARG_FILE, OFF(save_labels), "FILE", NULL, "write '<cluster> <distance>' per interval", NULL, false},
    {"saveAll", ARG_FLAG, OFF(save_all), NULL, "off", "also write the outputs of every k tried, as FILE.run_R_k_K", NULL, false},
    {"saveVectorWeights", ARG_FILE, OFF(save_vector_weights), "FILE", NULL, "write the weight of every interval", NULL, false},
    {"loadVectorWeights", ARG_FILE, OFF(load_vector_weights), "FILE", NULL, "read interval weights (implies -fixedLength off)", NULL, false},
    {"saveInitCtrs", ARG_FILE, OFF(save_init_ctrs), "FILE", NULL, "write the initial centres of the chosen run", NULL, false},
    {"saveFinalCtrs", ARG_FILE, OFF(save_final_ctrs), "FILE", NULL, "write the final centres of the chosen run", NULL, false},
    {"loadInitCtrs", ARG_FILE, OFF(load_init_ctrs), "FILE", NULL, "start k-means from these centres (sets k)", NULL, false},
    {"loadInitLabels", ARG_FILE, OFF(load_init_labels), "FILE", NULL, "start k-means from these labels, one per interval", NULL, false},
    {"saveVectorsTxtFmt", ARG_FILE, OFF(save_vectors_txt), "FILE", NULL, "write the projected vectors (text)", NULL, false},
    {"saveVectorsBinFmt", ARG_FILE, OFF(save_vectors_bin), "FILE", NULL, "write the projected vectors (binary)", NULL, false},
    {"loadVectorsTxtFmt", ARG_FILE, OFF(load_vectors_txt), "FILE", NULL, "read projected vectors instead of -loadFVFile (text)", NULL, false},
    {"loadVectorsBinFmt", ARG_FILE, OFF(load_vectors_bin), "FILE", NULL, "read projected vectors instead of -loadFVFile (binary)", NULL, false},
    {"saveProjMatrixTxtFmt", ARG_FILE, OFF(save_proj_txt), "FILE", NULL, "write the projection matrix (text)", NULL, false},
    {"saveProjMatrixBinFmt", ARG_FILE, OFF(save_proj_bin), "FILE", NULL, "write the projection matrix (binary)", NULL, false},
    {"loadProjMatrixTxtFmt", ARG_FILE, OFF(load_proj_txt), "FILE", NULL, "read the projection matrix (text)", NULL, false},
    {"loadProjMatrixBinFmt", ARG_FILE, OFF(load_proj_bin), "FILE", NULL, "read the projection matrix (binary)", NULL, false},
    {"verbose", ARG_INT, OFF(verbose), "LEVEL", "0", "1: one line per k on stderr; 2: one per restart", NULL, false},
    {"compat", ARG_FLAG, OFF(compat), NULL, "off", "SimPoint 3.2's seed sequence (seedkm + numInitSeeds*run + 2*restart)", NULL, true},
    {"kmeans", ARG_SPECIAL, 0, "hamerly|lloyd", "hamerly", "k-means iterations (both give identical results)", set_kmeans, true},
    {"threads", ARG_INT, OFF(threads), "N", "OMP_NUM_THREADS", "worker threads (results do not depend on it)", NULL, true},
    {"json", ARG_FILE, OFF(json), "FILE", NULL, "write a JSON summary ('-' = stdout)", NULL, true},
    {"sweep-max-k", ARG_SPECIAL, 0, "LIST", NULL, "sweep maxK (e.g. 1..50): outputs per maxK, named FILE.maxk_M", set_sweep_maxk, true},
    {"sweep-bic", ARG_SPECIAL, 0, "T,T..", NULL, "BIC thresholds of the sweep (default: -bicThreshold)", set_sweep_bic, true},
    {"sweep-table", ARG_FILE, OFF(sweep_table), "FILE", "stdout", "CSV table of the sweep", NULL, true},
    {"progress", ARG_FLAG, OFF(progress), NULL, "off", "progress on stderr even when it is not a terminal", NULL, true},
    {"proxy", ARG_FILE, OFF(proxy), "FILE", NULL, "per-interval proxy metrics of bbv --proxy (for --select-by proxy, --stratify, --proxy-dims; alone: the predicted standard error in --json)", NULL, true},
    {"select-by", ARG_SPECIAL, 0, "centre|proxy", "centre", "representative: nearest the centre, or of the nearest, the proxy CPI nearest the cluster mean", set_select_by, true},
    {"proxy-candidates", ARG_INT, OFF(proxy_candidates), "N", "5", "members nearest the centre that --select-by proxy chooses from", NULL, true},
    {"stratify", ARG_DOUBLE, OFF(stratify), "F", "0", "split clusters whose proxy CPI varies, with F x clusters extra representatives", NULL, true},
    {"points", ARG_SPECIAL, 0, "N|Fx", "none", "a budget of N points, or F x SimPoint's own (its k on the BBVs alone): clusters above it are clustered again at k = N; --stratify's extra representatives are N less the clusters", set_points, true},
    {"pilot", ARG_SPECIAL, 0, "N|Fx", "none", "two-stage sampling, the first stage: only N points of the --points budget now (the clusters, and strata up to N, at least two where the budget leaves room)", set_pilot, true},
    {"measured", ARG_SPECIAL, 0, "FILE", NULL, "results of sim on the points (JSON; repeatable): the estimated CPI and its 95% interval in --json", add_measured, true},
    {"target-ci", ARG_SPECIAL, 0, "PCT", "none", "with --measured, the second stage: add points where the measured spread is until the 95% interval is within +-PCT, or the --points budget is spent", set_target_ci, true},
    {"proxy-dims", ARG_DOUBLE, OFF(proxy_dims), "S", "0", "cluster on the BBVs plus the proxy CPI (robustly scaled to S x their spread), k no less than on the BBVs alone", NULL, true},
    {"proxy-long", ARG_DOUBLE, OFF(proxy_long), "W", "0", "the proxy CPI is bbv's proxy_cpi plus W x its long_cpi (the long-latency operations: multiply, divide, FP)", NULL, true},
    {"proxy-exposed", ARG_SPECIAL, 0, "W", "4 (0 for a file without exposed_cpi)", "... plus W x its exposed_cpi (the long operations' latency a dependence chain, a busy divider or a serialising instruction leaves exposed; the FP status register's flushes)", set_proxy_exposed, true},
};
#define NOPTS (sizeof table / sizeof table[0])

void sp_options_defaults(sp_options *o)
{
    memset(o, 0, sizeof *o);
    o->k_search = true;
    o->max_k = -1;
    o->iters = 100;
    o->dim = 15;
    o->num_init_seeds = 5;
    o->initkm = KM_INIT_SAMP;
    o->bic_threshold = 0.9;
    o->coverage_pct = 1.0;
    o->fixed_length = true;
    o->sample_size = -1;
    o->num_fvs = o->fv_dim = -1;
    o->seed_km = 493575226;
    o->seed_proj = 2042712918;
    o->seed_sample = 385089224;
    o->proxy_candidates = 5;
    o->proxy_exposed = -1; /* the default: PROXY_EXPOSED_DEFAULT where the file has exposed_cpi */
}

void sp_options_free(sp_options *o)
{
    free(o->k_list);
    free(o->sweep_maxk);
    free(o->sweep_bic);
    o->k_list = o->sweep_maxk = NULL;
    o->sweep_bic = NULL;
}

/* Option names compare ignoring case, '-' and '_': maxK = max-k = MAX_K. */
static bool same_name(const char *a, size_t alen, const char *b)
{
    size_t i = 0;
    for (;;) {
        while (i < alen && (a[i] == '-' || a[i] == '_'))
            i++;
        while (*b == '-' || *b == '_')
            b++;
        if (i == alen || !*b)
            return i == alen && !*b;
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)*b))
            return false;
        i++;
        b++;
    }
}

static const opt_def *find_option(const char *name, size_t len)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (same_name(name, len, table[i].name))
            return &table[i];
    return NULL;
}

static const char *dashes(const opt_def *d)
{
    return d->ours ? "--" : "-";
}

static void print_help(void)
{
    printf("Usage: simpoint -loadFVFile FILE -maxK K [options]\n"
           "Choose simulation points from basic-block vectors: SimPoint 3.2's options, formats\n"
           "and algorithm (random projection, weighted k-means, BIC), parallel and exact.\n"
           "Options take one dash (SimPoint 3.2) or two (--max-k 30, --max-k=30).\n\n");
    for (size_t i = 0; i < NOPTS; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s%s", dashes(&table[i]), table[i].name, table[i].metavar ? " " : "",
                 table[i].metavar ? table[i].metavar : "");
        printf("  %-30s %s", left, table[i].help);
        if (table[i].deflt)
            printf(" [%s]", table[i].deflt);
        putchar('\n');
    }
    printf("  %-30s %s\n\nExit status: 0 on success, 1 on any error.\n", "-h, --help", "this text");
}

static void apply(sp_options *o, const opt_def *d, const char *arg)
{
    void *field = (char *)o + d->offset;
    long long v;
    double x;
    switch (d->kind) {
    case ARG_FLAG:
        *(bool *)field = true;
        return;
    case ARG_FILE:
        if (!*arg)
            die("option %s%s: empty file name", dashes(d), d->name);
        *(const char **)field = arg;
        return;
    case ARG_INT:
        if (!parse_int(arg, &v) || v < -2147483647LL - 1 || v > 2147483647LL)
            die("option %s%s: '%s' is not an integer", dashes(d), d->name, arg);
        *(int *)field = (int)v;
        return;
    case ARG_LONG:
        if (!parse_int(arg, &v))
            die("option %s%s: '%s' is not an integer", dashes(d), d->name, arg);
        *(long *)field = (long)v;
        return;
    case ARG_DOUBLE:
        if (!parse_double(arg, &x))
            die("option %s%s: '%s' is not a number", dashes(d), d->name, arg);
        *(double *)field = x;
        return;
    case ARG_SPECIAL:
        if (!d->special(o, arg))
            die("option %s%s: bad value '%s' (expected %s)", dashes(d), d->name, arg, d->metavar);
        return;
    }
}

static bool given(const bool *seen, const char *name)
{
    const opt_def *d = find_option(name, strlen(name));
    return seen[d - table];
}

static void check(sp_options *o, const bool *seen)
{
    int inputs = !!o->fv_file + !!o->load_vectors_txt + !!o->load_vectors_bin;
    if (inputs != 1)
        die("give exactly one input: -loadFVFile, -loadVectorsTxtFmt or -loadVectorsBinFmt (see --help)");
    if (o->load_proj_txt && o->load_proj_bin)
        die("give at most one of -loadProjMatrixTxtFmt and -loadProjMatrixBinFmt");
    if (o->n_sweep_bic && !o->n_sweep_maxk)
        die("--sweep-bic needs --sweep-max-k");
    if (o->load_init_ctrs && o->load_init_labels)
        die("give at most one of -loadInitCtrs and -loadInitLabels");
    if (o->load_init_ctrs || o->load_init_labels) {
        static const char *const clash[] = {"k", "maxK", "seedkm", "initkm", "numInitSeeds",
                                            "bicThreshold", "sweep-max-k", "sweep-bic"};
        for (size_t i = 0; i < sizeof clash / sizeof clash[0]; i++)
            if (given(seen, clash[i]))
                die("%s%s cannot be combined with -loadInitCtrs/-loadInitLabels", i < 6 ? "-" : "--", clash[i]);
    } else if (o->n_sweep_maxk) {
        if (!o->k_search || o->max_k != -1)
            die("--sweep-max-k replaces -maxK and -k");
    } else if (o->k_search && o->max_k == -1) {
        die("-maxK is required with -k search (see --help)");
    } else if (!o->k_search && o->max_k != -1) {
        die("-maxK only applies to -k search, not to an explicit -k list");
    }
    if (o->k_search && o->max_k != -1 && o->max_k < 1)
        die("option -maxK: must be at least 1");
    if (o->num_init_seeds < 1)
        die("option -numInitSeeds: must be at least 1");
    if (!(o->bic_threshold >= 0 && o->bic_threshold <= 1))
        die("option -bicThreshold: must be in [0, 1]");
    if (!(o->coverage_pct >= 0 && o->coverage_pct <= 1))
        die("option -coveragePct: must be in [0, 1]");
    if (given(seen, "sampleSize") && o->sample_size < 1)
        die("option -sampleSize: must be at least 1");
    if ((o->num_fvs != -1) != (o->fv_dim != -1))
        die("-numFVs and -FVDim go together");
    if (given(seen, "numFVs") && (o->num_fvs < 1 || o->fv_dim < 1))
        die("-numFVs and -FVDim must be positive");
    if ((given(seen, "threads") && o->threads < 1) || o->threads > 4096)
        die("option --threads: must be between 1 and 4096");
    if (o->verbose < 0)
        die("option -verbose: must not be negative");
    if (o->load_vector_weights) {
        if (given(seen, "fixedLength") && o->fixed_length)
            die("-loadVectorWeights needs -fixedLength off");
        o->fixed_length = false;
    }
    bool uses_proxy = o->select_proxy || o->stratify != 0 || o->proxy_dims != 0 || o->points != 0 || o->points_ratio != 0;
    if (uses_proxy && !o->proxy)
        die("--select-by proxy, --stratify, --points and --proxy-dims need --proxy FILE");
    if ((o->pilot || o->pilot_ratio) && !(o->points || o->points_ratio))
        die("--pilot needs --points (the budget it is the first stage of)");
    if (o->pilot && o->points && o->pilot > o->points)
        die("--pilot %d is more than the --points budget %d", o->pilot, o->points);
    if (o->pilot_ratio && o->points_ratio && o->pilot_ratio > o->points_ratio)
        die("--pilot %gx is more than the --points budget %gx", o->pilot_ratio, o->points_ratio);
    if ((o->points_ratio || o->pilot_ratio) && !o->k_search)
        die("--points Fx and --pilot Fx need -k search (F x SimPoint's own choice of k)");
    if (o->target_ci && !o->n_measured)
        die("--target-ci needs --measured FILE (the first stage's results)");
    if (o->n_measured && !o->proxy)
        die("--measured needs --proxy FILE (the proxy CPI the interval is modelled with)");
    if ((o->n_measured || o->points || o->points_ratio) && o->n_sweep_maxk)
        die("--measured and --points are for one choice of points, not --sweep-max-k");
    if (o->proxy_candidates < 1)
        die("option --proxy-candidates: must be at least 1");
    if (!(o->stratify >= 0 && o->stratify <= 10))
        die("option --stratify: must be in [0, 10]");
    if (!(o->proxy_dims >= 0 && o->proxy_dims <= 1000))
        die("option --proxy-dims: must be in [0, 1000]");
    if (!(o->proxy_long >= 0 && o->proxy_long <= 10))
        die("option --proxy-long: must be in [0, 10]");
    if (o->dim == 0 && (o->load_proj_txt || o->load_proj_bin || o->save_proj_txt || o->save_proj_bin))
        die("-dim noProject has no projection matrix to load or save");
}

/* The file options that write: -save*, --json, --sweep-table. */
static bool is_output(const opt_def *d)
{
    return d->kind == ARG_FILE &&
           (strncmp(d->name, "save", 4) == 0 || strcmp(d->name, "json") == 0 || strcmp(d->name, "sweep-table") == 0);
}

/* Two outputs on one file are refused (one would overwrite the other). */
static void check_outputs(const sp_options *o)
{
    named_output outs[NOPTS];
    char labels[NOPTS][32];
    size_t n = 0;
    for (size_t i = 0; i < NOPTS; i++) {
        if (!is_output(&table[i]))
            continue;
        snprintf(labels[n], sizeof labels[n], "%s%s", dashes(&table[i]), table[i].name);
        outs[n] = (named_output){labels[n], *(const char *const *)((const char *)o + table[i].offset)};
        n++;
    }
    outputs_distinct(outs, n);
}

bool sp_options_parse(sp_options *o, int argc, char **argv)
{
    bool seen[NOPTS] = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0) {
            print_help();
            return false;
        }
        if (strcmp(a, "--version") == 0) {
            printf("simpoint (rvsim) 1.0, compatible with SimPoint 3.2\n");
            return false;
        }
        if (a[0] != '-' || a[1] == '\0')
            die("unexpected argument '%s' (options start with '-'; see --help)", a);
        const char *name = a + 1 + (a[1] == '-');
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const opt_def *d = find_option(name, len);
        if (!d)
            die("unknown option '%s' (see --help)", a);
        seen[d - table] = true;
        const char *arg = NULL;
        if (d->kind == ARG_FLAG) {
            if (eq)
                die("option %s%s takes no value", dashes(d), d->name);
        } else if (eq) {
            arg = eq + 1;
        } else if (i + 1 < argc) {
            arg = argv[++i];
        } else {
            die("option %s%s needs a value (%s)", dashes(d), d->name, d->metavar);
        }
        apply(o, d, arg);
    }
    check(o, seen);
    check_outputs(o);
    return true;
}

/* ------------------------------------------------------------- k lists */

static bool parse_positive(const char *s, const char *end, int *out)
{
    if (s == end || end - s > 9)
        return false;
    int v = 0;
    for (; s < end; s++) {
        if (!isdigit((unsigned char)*s))
            return false;
        v = v * 10 + (*s - '0');
    }
    *out = v;
    return v >= 1;
}

/* One item: k, a:b, a:step:b or a..b, appended to *out. */
static bool parse_range(const char *s, const char *end, int **out, size_t *n)
{
    int part[3], np = 0;
    const char *p = s;
    for (;;) {
        const char *q = p;
        while (q < end && *q != ':' && !(*q == '.' && q + 1 < end && q[1] == '.'))
            q++;
        if (np == 3 || !parse_positive(p, q, &part[np++]))
            return false;
        if (q == end)
            break;
        p = q + (*q == '.' ? 2 : 1);
    }
    int a = part[0], b = np == 1 ? a : part[np - 1], step = np == 3 ? part[1] : 1;
    int dir = b >= a ? 1 : -1;
    for (long v = a; dir > 0 ? v <= b : v >= b; v += dir * step) {
        if (*n >= SP_MAX_LIST)
            return false;
        (*out)[(*n)++] = (int)v;
    }
    return true;
}

bool parse_k_list(const char *s, int **out, size_t *n)
{
    *out = sp_malloc(SP_MAX_LIST * sizeof **out);
    *n = 0;
    if (!*s)
        return false;
    for (;;) {
        const char *end = strchr(s, ',');
        if (!end)
            end = s + strlen(s);
        if (!parse_range(s, end, out, n))
            return false;
        if (!*end)
            return *n > 0;
        s = end + 1;
    }
}
