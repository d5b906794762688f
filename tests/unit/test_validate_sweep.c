/* validate --sweep: aggregation over programs, the Pareto front and the
 * cheapest configuration within the target, on hand-made configurations. */
#include "test_validate.h"

#include "../../validate/manifest.h"
#include "../../validate/sweep.h"

TestSuite(validate_sweep, .init = vt_setup, .fini = vt_teardown);

/* Program a: 8 rows of 1000, CPI 1 1 1 1 3 3 3 3 (full CPI 2).
 * Program b: 4 rows of 1000, CPI 2 throughout. */
static void programs(void)
{
    vt_full_named("a", 1000, 8, 0, (double[]){1000, 1000, 1000, 1000, 3000, 3000, 3000, 3000}, NULL);
    vt_full_named("b", 1000, 4, 0, (double[]){2000, 2000, 2000, 2000}, NULL);
    vt_write("a1.sp", "0 0\n");
    vt_write("a1.w", "1 0\n");
    vt_write("a2.sp", "0 0\n4 1\n");
    vt_write("a2.w", "0.5 0\n0.5 1\n");
    vt_write("a3.sp", "0 0\n2 1\n4 2\n");
    vt_write("a3.w", "0.25 0\n0.25 1\n0.5 2\n");
    vt_write("a3.l", "0\n0\n1\n1\n2\n2\n2\n2\n");
    vt_write("A1.sp", "2 0\n"); /* interval 2000: CPI 1 1 3 3 */
    vt_write("A2.sp", "0 0\n2 1\n");
    vt_write("b1.sp", "0 0\n");
}

static const char manifest[] =
    "program\tinterval\tmax_k\tsimpoints\tweights\tlabels\tfull\n"
    "a\t1000\t1\ta1.sp\ta1.w\t-\ta.json\n"
    "a\t1000\t2\ta2.sp\ta2.w\t-\ta.json\n"
    "a\t1000\t3\ta3.sp\ta3.w\ta3.l\ta.json\n"
    "a\t2000\t1\tA1.sp\ta1.w\t-\ta.json\n"
    "a\t2000\t2\tA2.sp\ta2.w\t-\ta.json\n"
    "a\t1000\t4\ta2.sp\ta2.w\t-\ta.json\n" /* b lacks this one */
    "b\t1000\t1\tb1.sp\ta1.w\t-\tb.json\n"
    "b\t1000\t2\tb1.sp\ta1.w\t-\tb.json\n"
    "b\t1000\t3\tb1.sp\ta1.w\t-\tb.json\n"
    "b\t2000\t1\tb1.sp\ta1.w\t-\tb.json\n"
    "b\t2000\t2\tb1.sp\ta1.w\t-\tb.json\n";

static const vd_sweep_cfg *cfg(const vd_sweep *sw, uint64_t interval, long max_k)
{
    for (size_t c = 0; c < sw->ncfg; c++)
        if (sw->cfgs[c].interval == interval && sw->cfgs[c].max_k == max_k)
            return &sw->cfgs[c];
    cr_assert_fail("no configuration %llu/%ld", (unsigned long long)interval, max_k);
    return NULL;
}

Test(validate_sweep, aggregates_front_and_target)
{
    programs();
    vt_write("m.tsv", manifest);
    vd_manifest m;
    vd_sweep sw;
    vd_diag d = {0};
    vd_params p;
    vd_params_defaults(&p);
    p.bootstrap = 0;
    cr_assert(vd_manifest_load(&m, vt_path("m.tsv"), NULL, &d), "%s", d.error);
    cr_assert(vd_sweep_run(&sw, &m, &p, 0.01, 2, 0.9, &d), "%s", d.error);
    cr_assert_eq(sw.n, 11);
    cr_assert_eq(sw.nprog, 2);
    cr_assert_eq(sw.nintervals, 2);
    cr_assert_eq(sw.nmaxks, 4);
    const vd_sweep_cfg *c11 = cfg(&sw, 1000, 1), *c12 = cfg(&sw, 1000, 2), *c13 = cfg(&sw, 1000, 3),
                       *c21 = cfg(&sw, 2000, 1), *c22 = cfg(&sw, 2000, 2), *c14 = cfg(&sw, 1000, 4);
    /* a at (1000, 1): CPI 1 against 2, -50%; b is exact */
    cr_assert_float_eq(c11->mean_abs, 0.25, 1e-12);
    cr_assert_float_eq(c11->max_abs, 0.5, 1e-12);
    cr_assert_float_eq(c11->rms, sqrt(0.125), 1e-12);
    cr_assert_float_eq(c11->sim, 2000, 0);
    cr_assert_float_eq(c21->mean_abs, 0.25, 1e-12); /* a: CPI 3 against 2 */
    cr_assert_float_eq(c12->mean_abs, 0, 1e-12);
    cr_assert_float_eq(c13->mean_abs, 0, 1e-12);
    cr_assert_eq(c13->k_total, 4);
    cr_assert(c13->k_min <= c13->k_max && c13->k_min + c13->k_max == 4, "k per program %zu..%zu", c13->k_min,
              c13->k_max); /* two programs */
    cr_assert_float_eq(c22->sim, 6000, 0);
    cr_assert_float_eq(c12->speedup, 12000.0 / 3000, 1e-12);
    cr_assert(!c14->complete && !c14->pareto && !c14->meets);
    /* front: (2000 insts, 25%) and (3000, 0%); the rest are dominated */
    cr_assert(c11->pareto && c12->pareto && !c13->pareto && !c21->pareto && !c22->pareto);
    cr_assert(c12->meets && c13->meets && c22->meets && !c11->meets && !c21->meets);
    cr_assert_eq(&sw.cfgs[sw.best], c12);
    cr_assert_eq(&sw.cfgs[sw.best_by_interval[0]], c12);
    cr_assert_eq(&sw.cfgs[sw.best_by_interval[1]], c22);
    cr_assert_eq(&sw.cfgs[sw.baseline_by_interval[1]], c22);
    size_t n;
    const vd_sweep_cfg **front = vd_sweep_front(&sw, &n);
    cr_assert_eq(n, 2);
    cr_assert(front[0] == c11 && front[1] == c12);
    free(front);
    /* program b alone: its cheapest within the target is interval 1000, MaxK 1 */
    cr_assert_str_eq(sw.programs[1], "b");
    cr_assert_eq(sw.rows[sw.best_by_program[1]].m->max_k, 1);
    /* the labelled configuration has a confidence interval */
    cr_assert(!isnan(sw.rows[2].ci_half) && isnan(sw.rows[1].ci_half));
    vd_sweep_free(&sw);
    vd_manifest_free(&m);
    vd_diag_free(&d);
}

Test(validate_sweep, unreachable_target_and_duplicates)
{
    programs();
    vt_write("m.tsv", "program\tinterval\tmax_k\tsimpoints\tweights\tfull\n"
                      "a\t1000\t1\ta1.sp\ta1.w\ta.json\n");
    vd_manifest m;
    vd_sweep sw;
    vd_diag d = {0};
    vd_params p;
    vd_params_defaults(&p);
    cr_assert(vd_manifest_load(&m, vt_path("m.tsv"), NULL, &d));
    cr_assert(vd_sweep_run(&sw, &m, &p, 0.01, 30, 0.9, &d), "%s", d.error);
    cr_assert_eq(sw.best, -1);
    cr_assert_eq(sw.most_accurate, 0);
    cr_assert_eq(sw.baseline_by_interval[0], -1);
    vd_sweep_free(&sw);
    vd_manifest_free(&m);
    vt_write("m.tsv", "program\tinterval\tmax_k\tsimpoints\tweights\tfull\n"
                      "a\t1000\t1\ta1.sp\ta1.w\ta.json\na\t1000\t1\ta2.sp\ta2.w\ta.json\n");
    cr_assert(vd_manifest_load(&m, vt_path("m.tsv"), NULL, &d));
    cr_assert(!vd_sweep_run(&sw, &m, &p, 0.01, 30, 0.9, &d));
    vt_assert_error(&d, "m.tsv:3: a has this configuration already (line 2)");
    vd_sweep_free(&sw);
    vd_manifest_free(&m);
    vd_diag_free(&d);
}

Test(validate_sweep, a_bad_configuration_names_its_line)
{
    programs();
    vt_write("bad.sp", "0 0\n99 1\n");
    vt_write("m.tsv", "interval\tmax_k\tsimpoints\tweights\tfull\n1000\t1\ta1.sp\ta1.w\ta.json\n"
                      "1000\t2\tbad.sp\ta2.w\ta.json\n");
    vd_manifest m;
    vd_sweep sw;
    vd_diag d = {0};
    vd_params p;
    vd_params_defaults(&p);
    cr_assert(vd_manifest_load(&m, vt_path("m.tsv"), NULL, &d));
    cr_assert(!vd_sweep_run(&sw, &m, &p, 0.01, 30, 0.9, &d));
    vt_assert_error(&d, "bad.sp:2: interval 99 is past the end of the full run");
    vt_assert_error(&d, "(configuration at ");
    vt_assert_error(&d, "m.tsv:3)");
    vd_sweep_free(&sw);
    vd_manifest_free(&m);
    vd_diag_free(&d);
}
