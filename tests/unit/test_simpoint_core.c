/* simpoint: the random-number generator, the .bb line parser, the BIC and the k search. */
#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "../../simpoint/bb_parse.h"
#include "../../simpoint/bic.h"
#include "../../simpoint/ran2.h"
#include "../../simpoint/search.h"

/* ------------------------------------------------------------------ ran2 */

/* ran2 written the slow, obvious way (64-bit products instead of Schrage's trick). */
typedef struct ref_ran2 {
    int64_t x1, x2, y, tab[32];
} ref_ran2;

static void ref_seed(ref_ran2 *r, int64_t s)
{
    r->x1 = r->x2 = s;
    for (int j = 39; j >= 0; j--) {
        r->x1 = r->x1 * 40014 % 2147483563;
        if (j < 32)
            r->tab[j] = r->x1;
    }
    r->y = r->tab[0];
}

static float ref_next(ref_ran2 *r)
{
    r->x1 = r->x1 * 40014 % 2147483563;
    r->x2 = r->x2 * 40692 % 2147483399;
    int j = (int)(r->y / (1 + 2147483562 / 32));
    r->y = r->tab[j] - r->x2;
    r->tab[j] = r->x1;
    if (r->y < 1)
        r->y += 2147483562;
    float t = (float)((double)r->y / 2147483563.0);
    return t > 1.0 - 1.2e-7 ? (float)(1.0 - 1.2e-7) : t;
}

Test(simpoint_ran2, matches_direct_modular_arithmetic)
{
    int32_t seeds[] = {1, 493575226, 2042712918, 385089224, INT32_MAX};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        ran2 r;
        ref_ran2 q;
        ran2_seed(&r, seeds[s]);
        ref_seed(&q, seeds[s]);
        for (int i = 0; i < 10000; i++) {
            float a = ran2_float(&r), b = ref_next(&q);
            cr_assert_eq(a, b, "seed %d draw %d: %.9g != %.9g", seeds[s], i, a, b);
            cr_assert(a > 0 && a < 1);
        }
    }
}

Test(simpoint_ran2, seed_sign_and_zero)
{
    ran2 a, b, c, d;
    ran2_seed(&a, 12345);
    ran2_seed(&b, -12345);
    ran2_seed(&c, 0);
    ran2_seed(&d, 1);
    for (int i = 0; i < 100; i++) {
        cr_assert_eq(ran2_float(&a), ran2_float(&b));
        cr_assert_eq(ran2_float(&c), ran2_float(&d));
    }
}

Test(simpoint_ran2, rand_int_is_float_scaled)
{
    ran2 a, b;
    ran2_seed(&a, 7);
    ran2_seed(&b, 7);
    for (int i = 0; i < 1000; i++) {
        float f = ran2_float(&a) * (float)INT_MAX;
        int32_t v = ran2_int(&b);
        cr_assert_eq(v, (int32_t)f);
        cr_assert(v >= 0);
    }
}

/* --------------------------------------------------------------- parsing */

static bb_line_info parse(const char *line, bb_pair *pairs)
{
    bb_line_info info;
    bb_parse_interval(line, strlen(line), pairs, &info);
    return info;
}

Test(simpoint_parse, simpoint_format)
{
    bb_pair p[16];
    bb_line_info i = parse("T:1:100 :3:50 :2:25 ", p);
    cr_assert_null(i.error);
    cr_assert_eq(i.npairs, 3);
    cr_assert_eq(p[1].id, 3);
    cr_assert_eq(p[1].count, 50.0);
    cr_assert_eq(i.sum, 175.0);
    cr_assert_eq(i.min_id, 1);
    cr_assert_eq(i.max_id, 3);
}

Test(simpoint_parse, free_spacing_and_decimals)
{
    bb_pair p[16];
    /* Valgrind's three trailing spaces, CR, no spaces at all, spaces around colons, exponents. */
    cr_assert_null(parse("T:7:10   :8:20   \r", p).error);
    bb_line_info i = parse("T:1:5:2:3", p);
    cr_assert_null(i.error);
    cr_assert_eq(i.npairs, 2);
    i = parse("T : 4 : 2.5  :5:1e2", p);
    cr_assert_null(i.error);
    cr_assert_eq(p[0].count, 2.5);
    cr_assert_eq(p[1].count, 100.0);
    i = parse("T:0:9 :12:1", p);
    cr_assert_null(i.error);
    cr_assert_eq(i.min_id, 0);
}

Test(simpoint_parse, errors_name_the_problem_and_column)
{
    bb_pair p[16];
    struct {
        const char *line, *msg;
        size_t col;
    } bad[] = {
        {"T:1:5 2:3", "expected ':' before a block id", 7},
        {"T:-1:5", "negative block id", 3},
        {"T:x:5", "expected a block id", 3},
        {"T:1 5", "expected ':' after a block id", 5},
        {"T:1:", "expected a non-negative count", 5},
        {"T:1:-5", "expected a non-negative count", 5},
        {"T:1:5x", "expected a non-negative count", 5},
        {"T:1:nan", "expected a non-negative count", 5},
        {"T:99999999999:5", "block id too large", 3},
        {"T:1:0 :2:0", "interval with zero instructions", 1},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        bb_line_info i = parse(bad[k].line, p);
        cr_assert_not_null(i.error, "%s", bad[k].line);
        cr_assert_str_eq(i.error, bad[k].msg, "%s", bad[k].line);
        cr_assert_eq(i.error_col, bad[k].col, "%s: column %zu", bad[k].line, i.error_col);
    }
    bb_line_info i = parse("T", p);
    cr_assert_not_null(strstr(i.error, "no blocks"));
    i = parse("T   \r", p);
    cr_assert_not_null(strstr(i.error, "no blocks"));
}

Test(simpoint_parse, partial_marker)
{
    const char *m = "# partial interval: 12345 instructions";
    cr_assert_eq(bb_partial_marker(m, strlen(m)), 12345);
    const char *c = "# Thread 1";
    cr_assert_eq(bb_partial_marker(c, strlen(c)), 0);
}

/* ------------------------------------------------------------------- BIC */

Test(simpoint_bic, formula_by_hand)
{
    /* 4 points in 2-D, 2 clusters, equal weights 1/4. */
    double x[] = {0, 0, 0, 2, 10, 10, 10, 12};
    double w[] = {0.25, 0.25, 0.25, 0.25};
    dataset ds = {4, 2, x, w};
    int labels[] = {0, 0, 1, 1};
    double dist2[] = {1, 1, 1, 1}; /* centres (0,1) and (10,11) */
    double cw[] = {0.5, 0.5};
    bic_stats s = bic_score(&ds, labels, dist2, cw, 2);
    double n = 4, d = 2, W = 1, D = 4.0 / (W / n) * 0.25; /* sum w*d2 / avgW = 1/0.25 = 4 */
    double sigma2 = D / (d * n);
    double loglik = n * (-d / 2 * (log(2 * M_PI * sigma2) + 1) - log(W) + log(0.5));
    double p = 1 + 2 * 2 + 1;
    cr_assert_float_eq(s.distortion, 4.0, 1e-12);
    cr_assert_float_eq(s.variance, 4.0 / 2, 1e-12);
    cr_assert_float_eq(s.loglik, loglik, 1e-9);
    cr_assert_float_eq(s.bic, loglik - p / 2 * log(n), 1e-9);
}

Test(simpoint_bic, vli_weights_and_empty_cluster)
{
    double x[] = {0, 1, 5};
    double w[] = {0.5, 0.25, 0.25};
    dataset ds = {3, 1, x, w};
    int labels[] = {0, 0, 1};
    double dist2[] = {0.0625, 0.5625, 0}; /* centre 0.25 (weighted) and 5 */
    double cw[] = {0.75, 0.25, 0.0};      /* third cluster empty: its term is skipped */
    bic_stats s = bic_score(&ds, labels, dist2, cw, 3);
    double D = (0.5 * 0.0625 + 0.25 * 0.5625) / (1.0 / 3);
    double loglik = 3 * (-0.5 * (log(2 * M_PI * D / 3) + 1) - 0 + 0.75 * log(0.75) + 0.25 * log(0.25));
    cr_assert_float_eq(s.distortion, D, 1e-12);
    cr_assert_float_eq(s.bic, loglik - (2 + 3 + 1) / 2.0 * log(3), 1e-9);
}

Test(simpoint_bic, threshold_with_infinite_scores)
{
    cr_assert_float_eq(bic_threshold(100, 500, 0.9), 460, 1e-9);
    cr_assert_eq(bic_threshold(3, 3, 0.5), 3);
    cr_assert(isinf(bic_threshold(1, INFINITY, 0.9)));
    cr_assert_eq(bic_threshold(1, INFINITY, 0), 1);
    cr_assert(isinf(bic_threshold(INFINITY, INFINITY, 0.9)));
}

/* --------------------------------------------------------------- k search */

static sp_run *fake_runs(const int *k, const double *bic, size_t n)
{
    sp_run *r = calloc(n, sizeof *r);
    for (size_t i = 0; i < n; i++) {
        r[i].k = k[i];
        r[i].score.bic = bic[i];
    }
    return r;
}

Test(simpoint_search, select_smallest_k_above_threshold)
{
    /* Paper C's example: BIC 100..500 for k 1..5. */
    int k[] = {1, 2, 3, 4, 5};
    double bic[] = {100, 200, 300, 400, 500};
    sp_run *r = fake_runs(k, bic, 5);
    sp_run *p[5] = {&r[0], &r[1], &r[2], &r[3], &r[4]};
    cr_assert_eq(p[select_run(p, 5, 0.5)]->k, 3);
    cr_assert_eq(p[select_run(p, 5, 0.9)]->k, 5);
    cr_assert_eq(p[select_run(p, 5, 0.0)]->k, 1);
    /* Order of the runs does not matter, only k. */
    sp_run *q[5] = {&r[4], &r[0], &r[3], &r[1], &r[2]};
    cr_assert_eq(q[select_run(q, 5, 0.5)]->k, 3);
    free(r);
}

/* Drive ksearch with BIC = f(k) and collect the k sequence. */
static int run_search(int max_k, double t, double (*f)(int), int *seq)
{
    ksearch s;
    int first[3];
    int n = ksearch_begin(&s, max_k, first);
    for (int i = 0; i < n; i++) {
        seq[i] = first[i];
        ksearch_record(&s, first[i], f(first[i]));
    }
    for (int k; (k = ksearch_next(&s, t)) != 0;) {
        seq[n++] = k;
        ksearch_record(&s, k, f(k));
    }
    return n;
}

static double saturating(int k)
{
    return k >= 7 ? 1000 + k : 100 * k; /* jumps at k = 7, then flat */
}

static double decreasing(int k)
{
    return -k;
}

Test(simpoint_search, binary_search_sequence)
{
    int seq[64];
    int n = run_search(30, 0.9, saturating, seq);
    /* 1, 30, 15: max (30) after min (1) and BIC(15) >= T: go down: 8, then 4 (< T) up: 6, 7. */
    int want[] = {1, 30, 15, 8, 4, 6, 7};
    cr_assert_eq(n, 7);
    cr_assert_arr_eq(seq, want, sizeof want);
    cr_assert(n <= (int)floor(log2(30) + 3));
    n = run_search(30, 0.9, decreasing, seq);
    int want2[] = {1, 30, 15, 8, 4, 2};
    cr_assert_eq(n, 6);
    cr_assert_arr_eq(seq, want2, sizeof want2);
}

Test(simpoint_search, small_max_k)
{
    int seq[64];
    cr_assert_eq(run_search(1, 0.9, saturating, seq), 1);
    cr_assert_eq(seq[0], 1);
    cr_assert_eq(run_search(2, 0.9, saturating, seq), 2);
    cr_assert_eq(seq[1], 2);
    cr_assert_eq(run_search(3, 0.9, saturating, seq), 3);
    cr_assert_eq(seq[2], 2);
}

Test(simpoint_search, run_count_bound)
{
    int seq[64];
    for (int m = 1; m <= 200; m++) {
        int n = run_search(m, 0.9, saturating, seq);
        cr_assert(n <= (int)floor(log2(m) + 3), "maxK %d: %d runs", m, n);
        for (int i = 0; i < n; i++)
            cr_assert(seq[i] >= 1 && seq[i] <= m);
    }
}

Test(simpoint_search, compat_seed_sequence)
{
    cluster_params p = {.num_init_seeds = 5, .compat = true, .seed_km = 493575226};
    cr_assert_eq(trial_seed(&p, 30, 0, 0), 493575226);
    cr_assert_eq(trial_seed(&p, 30, 0, 4), 493575226 + 8);
    cr_assert_eq(trial_seed(&p, 15, 2, 3), 493575226 + 10 + 6);
    p.compat = false; /* default: depends on k and the restart only */
    cr_assert_eq(trial_seed(&p, 7, 0, 1), trial_seed(&p, 7, 5, 1));
    cr_assert_neq(trial_seed(&p, 7, 0, 1), trial_seed(&p, 8, 0, 1));
}
