/* validate: known answers of the formulas on small hand-made inputs. */
#include "test_validate.h"

#include "../../validate/metrics.h"
#include "../../validate/stats.h"

#define EPS 1e-12
#define assert_near(a, b, eps) cr_assert(fabs((a) - (b)) <= (eps), "%s = %.17g, expected %.17g", #a, (double)(a), (double)(b))

TestSuite(validate_formulas, .init = vt_setup, .fini = vt_teardown);

/* Counters: instructions, cycles, computing, stalled_x, branch_mispredicts, l1d_misses. */
static char *names[] = {"instructions", "cycles", "computing", "stalled_x", "branch_mispredicts", "l1d_misses"};
static const vd_group groups[] = {VD_TOP, VD_TOP, VD_STACK, VD_STACK, VD_EVENT, VD_EVENT};

Test(validate_formulas, metric_set)
{
    vd_metrics ms;
    vd_metrics_init(&ms, names, groups, 6);
    const char *ids[] = {"cpi", "ipc", "branch_mpki", "l1d_mpki", "cpi_state_computing", "cpi_state_stalled",
                         "cpi_computing", "cpi_stalled_x"};
    cr_assert_eq(ms.n, sizeof ids / sizeof ids[0]);
    for (size_t i = 0; i < ms.n; i++)
        cr_assert_str_eq(ms.m[i].id, ids[i]);
    cr_assert_eq(vd_metrics_find(&ms, "l1d_mpki"), 3);
    cr_assert_eq(vd_metrics_find(&ms, "nonsense"), -1);
    vd_metrics_free(&ms);
}

Test(validate_formulas, extrapolation)
{
    vd_metrics ms;
    vd_metrics_init(&ms, names, groups, 6);
    /* two intervals: CPI 1 and 3, one of them shorter */
    double a[] = {1000, 1000, 500, 500, 4, 10}, b[] = {500, 1500, 250, 1250, 6, 40};
    const double *rows[] = {a, b};
    double w[] = {0.75, 0.25}, out[8];
    vd_extrapolate(&ms, 2, w, rows, out);
    assert_near(out[0], 0.75 * 1 + 0.25 * 3, EPS);             /* CPI = sum w CPI */
    assert_near(out[1], 1 / 1.5, EPS);                         /* IPC = 1 / CPI, not sum w IPC */
    double winsts = 0.75 * 1000 + 0.25 * 500;                  /* ratio of weighted sums */
    assert_near(out[2], 1000 * (0.75 * 4 + 0.25 * 6) / winsts, EPS);
    assert_near(out[3], 1000 * (0.75 * 10 + 0.25 * 40) / winsts, EPS);
    assert_near(out[5], (0.75 * 500 + 0.25 * 1250) / winsts, EPS); /* stalled state = stalled_x */
    /* the whole program is one interval of weight 1 */
    double one = 1, tot[] = {1500, 2500, 750, 1750, 10, 50};
    const double *t = tot;
    vd_extrapolate(&ms, 1, &one, &t, out);
    assert_near(out[0], 2500.0 / 1500, EPS);
    assert_near(out[2], 10 * 1000.0 / 1500, EPS);
    vd_metrics_free(&ms);
}

Test(validate_formulas, splitmix64_known_sequence)
{
    vd_rng r;
    vd_rng_seed(&r, 0);
    cr_assert_eq(vd_rng_next(&r), 0xe220a8397b1dcdafULL);
    cr_assert_eq(vd_rng_next(&r), 0x6e789e6aa1b965f4ULL);
    vd_rng_seed(&r, 7);
    for (int i = 0; i < 10000; i++)
        cr_assert_lt(vd_rng_below(&r, 3), 3);
}

Test(validate_formulas, quantiles_and_spread)
{
    double x[] = {1, 2, 3, 4};
    assert_near(vd_quantile(x, 4, 0), 1, EPS);
    assert_near(vd_quantile(x, 4, 0.5), 2.5, EPS);
    assert_near(vd_quantile(x, 4, 0.25), 1.75, EPS);
    assert_near(vd_quantile(x, 4, 1), 4, EPS);
    double mean, sd;
    vd_mean_sd(x, 4, &mean, &sd);
    assert_near(mean, 2.5, EPS);
    assert_near(sd, sqrt(1.25), EPS); /* population: the cluster is all its members */
}

Test(validate_formulas, stratified_standard_error)
{
    double c0[] = {1, 1, 3, 3}, c1[] = {2, 2};
    vd_stratum s[] = {{0.6, c0, 4}, {0.4, c1, 2}};
    /* sqrt(0.6^2 * 1 + 0.4^2 * 0) */
    assert_near(vd_stratified_se(s, 2), 0.6, EPS);
}

Test(validate_formulas, bootstrap_is_seeded)
{
    double c0[] = {1, 1, 1, 5}, c1[] = {2, 4};
    vd_stratum s[] = {{0.5, c0, 4}, {0.5, c1, 2}};
    vd_boot a, b, c;
    vd_bootstrap(s, 2, 2000, 42, 3.5, 2.0, &a);
    vd_bootstrap(s, 2, 2000, 42, 3.5, 2.0, &b);
    vd_bootstrap(s, 2, 2000, 43, 3.5, 2.0, &c);
    cr_assert(memcmp(&a, &b, sizeof a) == 0, "same seed, same result");
    cr_assert_neq(a.mean, c.mean);
    /* E = 0.5 * 2 + 0.5 * 3 = 2.5 */
    assert_near(a.mean, 2.5, 0.05);
    assert_near(a.lo, 1.5, EPS); /* 0.5 * 1 + 0.5 * 2 */
    assert_near(a.hi, 4.5, EPS); /* 0.5 * 5 + 0.5 * 4 */
    /* chosen error 1.5: 5 and 4 (1/8 of the draws) do worse, 5 and 2 (1/8) as badly */
    assert_near(a.chosen_better_than, 0.125 + 0.125 / 2, 0.02);
}

/* The hand-made case of tests/validate/small (equal numbers, computed by hand):
 * intervals of 2000 = 2 log rows, the last one partial (1500). */
static const double small_cycles[] = {1000, 1000, 3000, 3000, 1200, 1000, 2800, 2600, 1000, 400};
static const double small_mis[] = {2, 3, 8, 9, 1, 1, 7, 8, 1, 0};

static void small_program(void)
{
    vt_full(1000, 10, 500, small_cycles, small_mis);
    vt_write("p.simpoints", "2 0\n1 1\n");
    vt_write("p.weights", "0.6 0\n0.4 1\n");
    vt_write("p.labels", "0 0.1\n1 0.2\n0 0.05\n1 0.3\n0 0.4\n");
    json_t *results = json_array();
    json_array_append_new(results, vt_region(1, 1, 0.4, 2000, 2000, 5880, 17));
    json_array_append_new(results, vt_region(2, 0, 0.6, 2000, 2000, 2310, 3));
    vt_dump("regions.json", "regions", results);
}

Test(validate_formulas, known_answer_with_regions)
{
    small_program();
    vt_run r;
    vt_analyze(&r, "p.labels", 2000, "regions.json", NULL);
    cr_assert(r.ok, "%s", r.d.error);
    const vd_analysis *a = &r.a;
    double full = 17000.0 / 9500;
    assert_near(a->full->values[0], full, EPS);
    assert_near(a->oracle[0], 0.6 * 1.1 + 0.4 * 3.0, EPS);
    assert_near(a->est[0], 0.6 * 1.155 + 0.4 * 2.94, EPS);
    assert_near(vd_err(a, 0), (1.869 - full) / full, 1e-12);
    assert_near(vd_err_sampling(a, 0), (1.86 - full) / full, 1e-12);
    assert_near(vd_err_warmup(a, 0), (1.869 - 1.86) / full, 1e-12);
    assert_near(vd_err(a, 0), vd_err_sampling(a, 0) + vd_err_warmup(a, 0), 1e-15);
    /* branch MPKI: full 40 / 9.5; oracle (0.6*2 + 0.4*17) / 2 = 4 (-5%); estimate (0.6*3 + 0.4*17) / 2 = 4.3 */
    long m = vd_metrics_find(&a->full->ms, "branch_mpki");
    assert_near(a->full->values[m], 40 / 9.5, EPS);
    assert_near(a->oracle[m], 4.0, EPS);
    assert_near(vd_err_sampling(a, (size_t)m), -0.05, EPS);
    assert_near(a->est[m], 4.3, EPS);
    /* ROIperf projection and LoopPoint's columns */
    assert_near(a->projected_cycles, 9500 * 1.869, 1e-9);
    assert_near(a->rows[0].multiplier, 0.6 * 9500 / 2000, EPS);
    cr_assert_eq(a->sim_insts, 4000);
    cr_assert_eq(a->partial_len, 1500);
    assert_near(a->coverage, 1, EPS);
    /* clusters: 0 = intervals {0, 2, 4}, 1 = {1, 3}; contributions add up to the sampling error */
    cr_assert_eq(a->nclusters, 2);
    cr_assert_eq(a->clusters[0].n, 3);
    assert_near(a->clusters[0].cpi_agg, 5600.0 / 5500, EPS);
    assert_near(a->clusters[0].contrib_sampling, (0.6 * 1.1 - 5600.0 / 9500) / full, EPS);
    assert_near(a->clusters[1].contrib_sampling, 0, EPS);
    assert_near(a->clusters[0].contrib_sampling + a->clusters[1].contrib_sampling, vd_err_sampling(a, 0), EPS);
    assert_near(a->rows[0].contrib_warmup + a->rows[1].contrib_warmup, vd_err_warmup(a, 0), EPS);
    cr_assert_str_eq(a->weights_basis, "interval count");
    /* stratified: sqrt(0.36 var{1, 1.1, 0.9333} + 0.16 var{3, 2.7}) */
    double m0 = (1 + 1.1 + 1400.0 / 1500) / 3, v0 = (pow(1 - m0, 2) + pow(1.1 - m0, 2) + pow(1400.0 / 1500 - m0, 2)) / 3;
    assert_near(a->se, sqrt(0.36 * v0 + 0.16 * 0.0225), 1e-12);
    assert_near(a->ci_hi - a->ci_lo, 2 * 1.959963984540054 * a->se, 1e-12);
    cr_assert(a->ci_covers_full);
    vt_free(&r);
}

Test(validate_formulas, without_regions_the_oracle_is_predicted)
{
    small_program();
    vd_params p;
    vd_params_defaults(&p);
    p.warmup_intervals = 1;
    vt_run r;
    vt_analyze(&r, NULL, 2000, NULL, &p);
    cr_assert(r.ok, "%s", r.d.error);
    cr_assert_null(r.a.est);
    assert_near(r.a.predicted[0], 1.86, EPS);
    cr_assert(isnan(vd_err_warmup(&r.a, 0)));
    /* warm-up of one interval before each point: 2000 + 2000 and 2000 + 2000 */
    cr_assert_eq(r.a.sim_insts_warm, 8000);
    assert_near(r.a.speedup, 9500.0 / 8000, EPS);
    assert_near(r.a.parallel_speedup, 9500.0 / 4000, EPS);
    cr_assert(isnan(r.a.coverage));
    vt_free(&r);
}

/* 50 equal intervals: cluster 0 has 39 at CPI 1 and one at 3, cluster 1
 * has 10 at CPI 2. Full CPI = 62 / 50 = 1.24. */
static void outlier_program(uint64_t rep0)
{
    double cpi[50];
    long labels[50];
    for (int i = 0; i < 50; i++) {
        labels[i] = i < 40 ? 0 : 1;
        cpi[i] = i < 40 ? 1 : 2;
    }
    cpi[7] = 3;
    uint64_t reps[] = {rep0, 45};
    vt_program(50, cpi, labels, 2, reps);
}

Test(validate_formulas, unrepresentative_representative)
{
    outlier_program(7);
    vt_run r;
    vt_analyze(&r, "p.labels", 1000, NULL, NULL);
    cr_assert(r.ok, "%s", r.d.error);
    const vd_analysis *a = &r.a;
    assert_near(a->oracle[0], 0.8 * 3 + 0.2 * 2, EPS);
    double sd0 = sqrt((39 * 0.05 * 0.05 + 1.95 * 1.95) / 40);
    assert_near(a->clusters[0].cpi_sd, sd0, 1e-12);
    assert_near(a->se, 0.8 * sd0, 1e-12);
    /* the interval says so: wide, and it misses the full-run CPI */
    cr_assert(!a->ci_covers_full);
    cr_assert_gt((a->ci_hi - a->ci_lo) / 2 / a->predicted[0], 0.15);
    cr_assert(r.a.clusters[0].unrepresentative);
    assert_near(a->clusters[0].rep_z, (3 - 1.05) / sd0, 1e-9);
    /* no random choice is worse: the 1 in 40 that picks the outlier too ties */
    assert_near(a->boot.chosen_better_than, 0.025 / 2, 0.01);
    cr_assert_lt(a->boot.median, 1.3);
    cr_assert(vt_warned(&r.d, "outside the 95% interval"));
    cr_assert(vt_warned(&r.d, "worse than"));
    vt_free(&r);
}

Test(validate_formulas, representative_representative)
{
    outlier_program(3);
    /* a typical member of cluster 0 (CPI 1 against 1.05) still adds -3.2% */
    vd_params p;
    vd_params_defaults(&p);
    p.flag_error = 0.05;
    vt_run r;
    vt_analyze(&r, "p.labels", 1000, NULL, &p);
    cr_assert(r.ok, "%s", r.d.error);
    assert_near(r.a.oracle[0], 0.8 * 1 + 0.2 * 2, EPS);
    assert_near(r.a.clusters[0].contrib_sampling, (0.8 - 0.84) / 1.24, EPS);
    cr_assert(r.a.ci_covers_full);
    cr_assert(!r.a.clusters[0].unrepresentative);
    /* as good as 39 in 40 random choices, better than the last */
    assert_near(r.a.boot.chosen_better_than, 0.975 / 2 + 0.025, 0.02);
    cr_assert(!vt_warned(&r.d, "outside the 95% interval"));
    vt_free(&r);
}

Test(validate_formulas, heavy_variable_cluster_is_flagged)
{
    /* one cluster of weight 1 whose CPI alternates 1 and 2: CoV 1/3 */
    double cpi[10];
    long labels[10] = {0};
    for (int i = 0; i < 10; i++)
        cpi[i] = 1 + i % 2;
    uint64_t reps[] = {0};
    vt_program(10, cpi, labels, 1, reps);
    vt_run r;
    vt_analyze(&r, "p.labels", 1000, NULL, NULL);
    cr_assert(r.ok, "%s", r.d.error);
    assert_near(r.a.clusters[0].cov, 0.5 / 1.5, EPS);
    cr_assert(r.a.clusters[0].variable);
    cr_assert(vt_warned(&r.d, "varies widely"));
    vt_free(&r);
}

Test(validate_formulas, length_weights_and_uncovered_clusters)
{
    /* weights by instructions (-fixedLength off), cluster 2 left out (a coverage file) */
    vt_full(1000, 6, 0, (double[]){1000, 1000, 2000, 2000, 4000, 4000}, NULL);
    vt_write("p.simpoints", "0 0\n2 1\n");
    vt_write("p.weights", "0.5 0\n0.5 1\n");
    vt_write("p.labels", "0\n0\n1\n1\n2\n2\n");
    vt_run r;
    vt_analyze(&r, "p.labels", 1000, NULL, NULL);
    cr_assert(r.ok, "%s", r.d.error);
    assert_near(r.a.coverage, 4000.0 / 6000, EPS);
    cr_assert_eq(r.a.nclusters, 3);
    cr_assert_eq(r.a.clusters[2].point, -1);
    /* the missing cluster's share of the cycles is its contribution */
    assert_near(r.a.clusters[2].contrib_sampling, -8000.0 / 14000, EPS);
    double sum = 0;
    for (size_t k = 0; k < 3; k++)
        sum += r.a.clusters[k].contrib_sampling;
    assert_near(sum, vd_err_sampling(&r.a, 0), EPS);
    cr_assert(vt_warned(&r.d, "cluster 2"));
    vt_free(&r);
}
