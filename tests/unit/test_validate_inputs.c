/* validate: malformed inputs are refused with "FILE:LINE: reason". */
#include "test_validate.h"

#include "../../validate/ilog.h"
#include "../../validate/manifest.h"
#include "../../validate/result.h"

TestSuite(validate_inputs, .init = vt_setup, .fini = vt_teardown);

static void sampling_fails(const char *sp, const char *w, const char *labels, const char *what)
{
    vt_write("p.simpoints", sp);
    vt_write("p.weights", w);
    if (labels)
        vt_write("p.labels", labels);
    vd_sampling s;
    vd_diag d = {0};
    cr_assert(!vd_sampling_load(&s, vt_path("p.simpoints"), vt_path("p.weights"), labels ? vt_path("p.labels") : NULL,
                                1000, &d));
    vt_assert_error(&d, what);
    vd_sampling_free(&s);
    vd_diag_free(&d);
}

Test(validate_inputs, simpoints_and_weights)
{
    sampling_fails("3 0\n5 x\n", "1 0\n", NULL, "p.simpoints:2: expected '<interval> <cluster>'");
    sampling_fails("3 0\n-5 1\n", "1 0\n", NULL, "p.simpoints:2: expected");
    sampling_fails("3 0 7\n", "1 0\n", NULL, "p.simpoints:1: expected");
    sampling_fails("3 0\n5 0\n", "1 0\n", NULL, "p.simpoints:2: a second simulation point for cluster 0");
    sampling_fails("3 0\n3 1\n", "1 0\n", NULL, "p.simpoints:2: interval 3 is already the simulation point");
    sampling_fails("# nothing\n\n", "1 0\n", NULL, "p.simpoints: no simulation points");
    sampling_fails("3 0\n", "1.5 0\n", NULL, "p.weights:1: expected '<weight> <cluster>' with a weight in [0, 1]");
    sampling_fails("3 0\n", "1 0\n0 4\n", NULL, "p.weights:2: cluster 4 has a weight but no simulation point");
    sampling_fails("3 0\n4 1\n", "0.5 0\n0.5 0\n", NULL, "p.weights:2: a second weight for cluster 0");
    sampling_fails("3 0\n4 1\n", "1 0\n", NULL, "p.simpoints:2: cluster 1 has no weight");
    sampling_fails("3 0\n4 1\n", "0.5 0\n0.45 1\n", NULL, "p.weights: the weights sum to 0.95, not 1");
    sampling_fails("3 0\n", "1 0\n", "0 0.1\nzero 0.1\n", "p.labels:2: expected '<cluster> <distance>'");
    sampling_fails("3 0\n", "1 0\n", "0\n0\n0\n1\n", "interval 3 is the simulation point of cluster 0 but");
    sampling_fails("3 0\n", "1 0\n", "", "p.labels: no labels");
}

Test(validate_inputs, weights_off_by_rounding_or_more)
{
    vt_write("p.simpoints", "3 0\n4 1\n");
    vt_write("p.weights", "0.333333 0\n0.666666 1\n");
    vd_sampling s;
    vd_diag d = {0};
    cr_assert(vd_sampling_load(&s, vt_path("p.simpoints"), vt_path("p.weights"), NULL, 1000, &d));
    cr_assert_eq(d.nwarnings, 0, "rounding of %%g is silent");
    cr_assert_float_eq(s.pts[0].weight + s.pts[1].weight, 1, 1e-15);
    vd_sampling_free(&s);
    vt_write("p.weights", "0.3 0\n0.695 1\n");
    cr_assert(vd_sampling_load(&s, vt_path("p.simpoints"), vt_path("p.weights"), NULL, 1000, &d));
    cr_assert(vt_warned(&d, "renormalised"));
    cr_assert_float_eq(s.pts[0].weight, 0.3 / 0.995, 1e-15);
    vd_sampling_free(&s);
    vd_diag_free(&d);
}

static void log_fails(const char *csv, uint64_t G, const char *what)
{
    vt_write("log.csv", csv);
    vd_log log;
    vd_diag d = {0};
    cr_assert(!vd_log_load(&log, vt_path("log.csv"), G, &d), "accepted: %s", csv);
    vt_assert_error(&d, what);
    vd_log_free(&log);
    vd_diag_free(&d);
}

#define HDR "interval,start,instructions,cycles,computing\n"

Test(validate_inputs, interval_log)
{
    log_fails("", 0, "log.csv: empty file");
    log_fails("interval,start,cycles,instructions,x\n", 0, "log.csv:1: expected a header starting");
    log_fails("interval,start,instructions,cycles,x,x\n", 0, "log.csv:1: column 'x' appears twice");
    log_fails(HDR, 0, "log.csv: no rows");
    log_fails(HDR "0,0,10,12\n", 0, "log.csv:2: expected 5 comma-separated fields");
    log_fails(HDR "0,0,10,12,12,1\n", 0, "log.csv:2: expected 5 comma-separated fields");
    log_fails(HDR "0,0,10,x,12\n", 0, "log.csv:2: cycles: expected a non-negative number, got 'x'");
    log_fails(HDR "0,0,10,-1,12\n", 0, "log.csv:2: cycles: expected a non-negative number");
    log_fails(HDR "0,0,10.5,12,12\n", 0, "log.csv:2: instructions: expected");
    log_fails(HDR "0,0,10,12,12\n2,10,10,12,12\n", 0, "log.csv:3: interval 2 where 1 was expected");
    log_fails(HDR "0,0,10,12,12\n1,11,10,12,12\n", 0, "log.csv:3: starts at instruction 11, but the rows before end at 10");
    log_fails(HDR "0,0,10,12,12\n1,10,5,6,6\n2,15,10,12,12\n", 0, "log.csv:3: only the last row may be shorter");
    log_fails(HDR "0,0,10,12,12\n1,10,11,12,12\n", 0, "log.csv:3: 11 instructions in a row of 10");
    log_fails(HDR "0,0,0,12,12\n", 0, "log.csv:2: a row with no instructions");
    log_fails(HDR "0,0,10,12,12\n", 5, "log.csv:2: 10 instructions in a row of 5");
    /* a well-formed one, with the last row partial and fractional cycles */
    vt_write("log.csv", HDR "0,0,10,12.5,12.5\n1,10,4,3,3\n");
    vd_log log;
    vd_diag d = {0};
    cr_assert(vd_log_load(&log, vt_path("log.csv"), 10, &d), "%s", d.error);
    cr_assert_eq(log.nrows, 2);
    cr_assert_float_eq(log.totals[1], 15.5, 0);
    vd_log_free(&log);
    vd_diag_free(&d);
}

static void result_fails(const char *json, const char *what)
{
    vt_write("r.json", json);
    vd_result r;
    vd_diag d = {0};
    cr_assert(!vd_result_load(&r, vt_path("r.json"), &d), "accepted: %s", json);
    vt_assert_error(&d, what);
    vd_result_free(&r);
    vd_diag_free(&d);
}

#define RUN(insts, cycles, stack, states) \
    "{\"tool\":\"sim\",\"mode\":\"full\",\"results\":[{\"start\":0,\"instructions\":" insts ",\"cycles\":" cycles \
    ",\"stack\":{" stack "},\"states\":{" states "},\"events\":{\"x\":1}}]}"

Test(validate_inputs, sim_results)
{
    result_fails("{\"tool\":\"sim\",", "r.json:1:");
    result_fails("{\"tool\":\"bbv\",\"results\":[]}", "r.json: not a sim result");
    result_fails("{\"tool\":\"sim\",\"results\":[]}", "r.json: no \"results\"");
    result_fails(RUN("10.5", "20", "\"computing\":20", "\"computing\":20"),
                 "results[0].instructions: expected a whole non-negative number");
    result_fails(RUN("10", "-20", "\"computing\":20", "\"computing\":20"), "results[0].cycles: expected a non-negative");
    result_fails(RUN("10", "20", "\"computing\":19", "\"computing\":20"), "results[0]: the cycle stack sums to 19");
    result_fails(RUN("10", "20", "\"computing\":20", "\"computing\":2"), "results[0]: the states sum to 2");
    result_fails(RUN("10", "20", "\"computing\":\"a\"", "\"computing\":20"), "results[0].stack.computing: expected");
    result_fails("{\"tool\":\"sim\",\"results\":[{\"instructions\":1,\"cycles\":1}]}", "results[0].start: missing");
    result_fails("{\"tool\":\"sim\",\"results\":[{\"start\":0,\"instructions\":1,\"cycles\":1,\"stack\":{}}]}",
                 "results[0].states: missing");
    vt_write("r.json", RUN("10", "20", "\"computing\":15,\"stalled_x\":5", "\"computing\":15,\"stalled\":5"));
    vd_result r;
    vd_diag d = {0};
    cr_assert(vd_result_load(&r, vt_path("r.json"), &d), "%s", d.error);
    cr_assert_float_eq(vd_run_find(&r.runs[0], "stalled_x")->value, 5, 0);
    cr_assert_eq(vd_run_find(&r.runs[0], "states.stalled")->group, VD_STATE);
    cr_assert_eq(vd_run_find(&r.runs[0], "computing")->group, VD_STACK);
    vd_result_free(&r);
    vd_diag_free(&d);
}

Test(validate_inputs, profile_summaries)
{
    uint64_t n = 0;
    vd_diag d = {0};
    vt_write("bbv.json", "{\"program\":\"x\",\"instructions\":1234}");
    cr_assert(vd_read_profile_total(vt_path("bbv.json"), 0, &n, NULL, &d));
    cr_assert_eq(n, 1234);
    vt_write("sp.json", "{\"tool\":\"simpoint\",\"input\":{\"instructions\":5678.0}}");
    cr_assert(vd_read_profile_total(vt_path("sp.json"), 100, &n, NULL, &d));
    cr_assert_eq(n, 5678);
    vt_write("bad.json", "{\"input\":{}}");
    cr_assert(!vd_read_profile_total(vt_path("bad.json"), 0, &n, NULL, &d));
    vt_assert_error(&d, "bad.json: no instruction count");
    vd_diag_free(&d);
}

/* A 1M profile validated with -i 100k once reported a -52% error: the
 * interval given must be the profile's. */
Test(validate_inputs, profile_interval_must_match)
{
    uint64_t n = 0;
    vd_diag d = {0};
    vt_write("bbv.json", "{\"instructions\":25738768,\"intervals\":[{\"interval\":1000000},{\"interval\":10000}]}");
    cr_assert(vd_read_profile_total(vt_path("bbv.json"), 1000000, &n, NULL, &d));
    cr_assert(vd_read_profile_total(vt_path("bbv.json"), 10000, &n, NULL, &d));
    cr_assert(!vd_read_profile_total(vt_path("bbv.json"), 100000, &n, NULL, &d));
    vt_assert_error(&d, "bbv.json: the profile was cut into intervals of 1000000, 10000 instructions, not the 100000");
    vd_diag_free(&d);
    d = (vd_diag){0};
    vt_write("sp.json", "{\"input\":{\"instructions\":25738768.0,\"intervals\":26}}");
    cr_assert(vd_read_profile_total(vt_path("sp.json"), 1000000, &n, NULL, &d));
    cr_assert(!vd_read_profile_total(vt_path("sp.json"), 100000, &n, NULL, &d));
    vt_assert_error(&d, "sp.json: 26 intervals over 25738768 instructions are intervals of about 989953");
    vd_diag_free(&d);
}

static void manifest_fails(const char *text, const char *full, const char *what)
{
    vt_write("m.tsv", text);
    vd_manifest m;
    vd_diag d = {0};
    cr_assert(!vd_manifest_load(&m, vt_path("m.tsv"), full, &d), "accepted: %s", text);
    vt_assert_error(&d, what);
    vd_manifest_free(&m);
    vd_diag_free(&d);
}

Test(validate_inputs, sweep_manifest)
{
    manifest_fails("interval\tmax_k\tsimpoints\tweights\tcolour\n", "f", "m.tsv:1: unknown column 'colour'");
    manifest_fails("interval\tmax_k\tsimpoints\n", "f", "m.tsv:1: no 'weights' column");
    manifest_fails("interval\tmax_k\tsimpoints\tweights\n", NULL, "m.tsv:1: no 'full' column and no --full");
    manifest_fails("# c\ninterval\tmax_k\tsimpoints\tweights\n", "f", "m.tsv: no configurations");
    manifest_fails("interval\tmax_k\tsimpoints\tweights\n1M\t3\ta\n", "f", "m.tsv:2: expected 4 tab-separated fields");
    manifest_fails("interval\tmax_k\tsimpoints\tweights\n1Q\t3\ta\tb\n", "f", "m.tsv:2: interval: expected");
    manifest_fails("interval\tmax_k\tsimpoints\tweights\n1M\t0\ta\tb\n", "f", "m.tsv:2: max_k: expected");
    manifest_fails("interval\tmax_k\tbic\tsimpoints\tweights\n1M\t3\t1.5\ta\tb\n", "f", "m.tsv:2: bic: expected");
    manifest_fails("interval\tmax_k\tsimpoints\tweights\n1M\t3\t-\tb\n", "f", "m.tsv:2: no simpoints");
    vt_write("m.tsv", "# sweep\nprogram\tinterval\tmax_k\tbic\tsimpoints\tweights\tlabels\n"
                      "p\t10M\t5\t-\tsp/a.sp\t/abs/a.w\t-\n");
    vd_manifest m;
    vd_diag d = {0};
    cr_assert(vd_manifest_load(&m, vt_path("m.tsv"), "full.json", &d), "%s", d.error);
    cr_assert_eq(m.n, 1);
    cr_assert_eq(m.rows[0].interval, 10000000);
    cr_assert(isnan(m.rows[0].bic));
    cr_assert_null(m.rows[0].labels);
    cr_assert_str_eq(m.rows[0].simpoints, vt_path("sp/a.sp"));
    cr_assert_str_eq(m.rows[0].weights, "/abs/a.w");
    cr_assert_str_eq(m.rows[0].full, "full.json");
    cr_assert_eq(m.rows[0].line, 3);
    vd_manifest_free(&m);
    vd_diag_free(&d);
}
