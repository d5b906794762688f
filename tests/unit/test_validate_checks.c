/* validate: the sanity checks fire on inconsistent inputs. */
#include "test_validate.h"

TestSuite(validate_checks, .init = vt_setup, .fini = vt_teardown);

/* Six intervals of 1000 (the last 600), CPI 1, 2, 1, 2, 1, 2; points 0 and 1. */
static void program(void)
{
    vt_full(1000, 6, 600, (double[]){1000, 2000, 1000, 2000, 1000, 1200}, (double[]){1, 2, 3, 4, 5, 6});
    vt_write("p.simpoints", "0 0\n1 1\n");
    vt_write("p.weights", "0.5 0\n0.5 1\n");
    vt_write("p.labels", "0\n1\n0\n1\n0\n1\n");
}

/* Region results of both points, each altered by ALTER (may be NULL). */
static void regions(const char *mode, void (*alter)(json_t *results))
{
    json_t *results = json_array();
    json_array_append_new(results, vt_region(0, 0, 0.5, 1000, 1000, 1100, 1));
    json_array_append_new(results, vt_region(1, 1, 0.5, 1000, 1000, 2100, 2));
    if (alter)
        alter(results);
    vt_dump("regions.json", mode, results);
}

static void fails(const char *what, const char *labels, uint64_t interval, const char *regions_file,
                  const vd_params *p)
{
    vt_run r;
    vt_analyze(&r, labels, interval, regions_file, p);
    cr_assert(!r.ok, "accepted; expected '%s'", what);
    vt_assert_error(&r.d, what);
    vt_free(&r);
}

static void passes_warning(const char *what, const char *labels, uint64_t interval, const char *regions_file,
                           const vd_params *p)
{
    vt_run r;
    vt_analyze(&r, labels, interval, regions_file, p);
    cr_assert(r.ok, "%s", r.d.error);
    cr_assert(vt_warned(&r.d, what), "no warning '%s'", what);
    vt_free(&r);
}

Test(validate_checks, consistent_inputs_pass_silently)
{
    program();
    regions("regions", NULL);
    vd_params p;
    vd_params_defaults(&p);
    p.has_profile = true;
    p.profile_insts = 5600;
    p.profile_path = "profile";
    p.flag_error = 1; /* no contribution flags: only the checks speak */
    vt_run r;
    vt_analyze(&r, "p.labels", 1000, "regions.json", &p);
    cr_assert(r.ok, "%s", r.d.error);
    for (size_t i = 0; i < r.d.nwarnings; i++)
        cr_assert(strstr(r.d.warnings[i], "95%") || strstr(r.d.warnings[i], "varies widely"), "unexpected: %s",
                  r.d.warnings[i]);
    vt_free(&r);
}

Test(validate_checks, instruction_totals_must_agree)
{
    program();
    vd_params p;
    vd_params_defaults(&p);
    p.has_profile = true;
    p.profile_insts = 5601;
    p.profile_path = "prof.json";
    fails("prof.json: the profile has 5601 instructions but the full run", NULL, 1000, NULL, &p);
    p.allow_mismatch = true;
    passes_warning("the profile has 5601 instructions", NULL, 1000, NULL, &p);
}

Test(validate_checks, log_and_result_must_agree)
{
    program();
    /* one more cycle in the result than in the log */
    vt_write("full.csv", "interval,start,instructions,cycles,computing,stalled_load_dram,branch_mispredicts\n"
                         "0,0,1000,1000,500,500,1\n1,1000,1000,2000,500,1500,2\n2,2000,1000,1000,500,500,3\n"
                         "3,3000,1000,2000,500,1500,4\n4,4000,1000,1000,500,500,5\n5,5000,600,1201,300,901,6\n");
    fails("full.csv: cycles adds up to 8201 over the log but the full run's result says 8200", NULL, 1000, NULL, NULL);
    /* a stack that does not add up in one row */
    vt_write("full.csv", "interval,start,instructions,cycles,computing,stalled_load_dram,branch_mispredicts\n"
                         "0,0,1000,1000,500,500,1\n1,1000,1000,2000,501,1500,2\n2,2000,1000,1000,499,500,3\n"
                         "3,3000,1000,2000,500,1500,4\n4,4000,1000,1000,500,500,5\n5,5000,600,1200,300,900,6\n");
    fails("full.csv:3: the cycle stack sums to 2001 cycles, not 2000", NULL, 1000, NULL, NULL);
    /* a column the result does not have */
    vt_write("full.csv", "interval,start,instructions,cycles,computing,stalled_load_dram,mystery\n"
                         "0,0,1000,1000,500,500,1\n");
    fails("full.csv:1: column 'mystery' is not a counter of the full run's result", NULL, 1000, NULL, NULL);
}

Test(validate_checks, configuration_against_the_run)
{
    program();
    fails("the interval size 1500 is not a multiple of the full run's log interval 1000", NULL, 1500, NULL, NULL);
    vt_write("p.simpoints", "0 0\n6 1\n");
    fails("p.simpoints:2: interval 6 is past the end of the full run (6 intervals of 1000)", NULL, 1000, NULL, NULL);
    program();
    vt_write("p.labels", "0\n1\n0\n1\n0\n1\n0\n");
    fails("p.labels: 7 labels, but the full run has 6 intervals of 1000", "p.labels", 1000, NULL, NULL);
    /* the profile left out the partial interval: it belongs to no cluster */
    vt_write("p.labels", "0\n1\n0\n1\n0\n");
    passes_warning("no label for the last, partial interval (600 instructions", "p.labels", 1000, NULL, NULL);
    /* a partial interval as a simulation point */
    program();
    vt_write("p.simpoints", "0 0\n5 1\n");
    passes_warning("is the last, partial interval (600 instructions)", "p.labels", 1000, NULL, NULL);
    /* weights that follow neither the interval count nor the length */
    program();
    vt_write("p.weights", "0.7 0\n0.3 1\n");
    passes_warning("the weights do not follow", "p.labels", 1000, NULL, NULL);
    /* a full run that did not reach the program's exit */
    program();
    json_t *root = json_load_file(vt_path("full.json"), 0, NULL);
    json_object_set_new(json_array_get(json_object_get(root, "results"), 0), "stopped_by", json_string("limit"));
    json_dump_file(root, vt_path("full.json"), 0);
    json_decref(root);
    passes_warning("the full run stopped by 'limit', not at the program's exit", NULL, 1000, NULL, NULL);
}

static void set_region(json_t *results, size_t i, const char *key, json_t *v)
{
    json_object_set_new(json_object_get(json_array_get(results, i), "region"), key, v);
}

static void wrong_cluster(json_t *r) { set_region(r, 1, "cluster", json_integer(0)); }
static void wrong_weight(json_t *r) { set_region(r, 1, "weight", json_real(0.4)); }
static void wrong_interval(json_t *r) { set_region(r, 1, "interval", json_integer(2000)); }
static void wrong_point(json_t *r) { set_region(r, 1, "simpoint", json_integer(3)); }
static void no_region(json_t *r) { json_object_set_new(json_array_get(r, 0), "region", json_null()); }
static void late_start(json_t *r) { json_object_set_new(json_array_get(r, 1), "start", json_integer(1001)); }
static void short_run(json_t *r) { json_object_set_new(json_array_get(r, 1), "instructions", json_integer(999)); }
static void faulted(json_t *r) { json_object_set_new(json_array_get(r, 1), "stopped_by", json_string("fault")); }
static void duplicate(json_t *r) { json_array_append_new(r, json_deep_copy(json_array_get(r, 0))); }
static void missing(json_t *r) { json_array_remove(r, 0); }
static void no_counter(json_t *r)
{
    json_object_del(json_object_get(json_array_get(r, 1), "events"), "branch_mispredicts");
}

Test(validate_checks, regions_must_match_their_simulation_points)
{
    program();
    struct {
        void (*alter)(json_t *);
        const char *what;
    } cases[] = {
        {wrong_cluster, "results[1]: simulation point 1 is of cluster 0, but"},
        {wrong_weight, "results[1]: cluster 1 has weight 0.4, but"},
        {wrong_interval, "results[1]: regions of 2000 instructions, but the interval size is 1000"},
        {wrong_point, "results[1]: interval 3 is not a simulation point of"},
        {no_region, "results[0]: no \"region\""},
        {late_start, "results[1]: measured from instruction 1001, but interval 1 begins at 1000"},
        {short_run, "results[1]: ran 999 instructions, but interval 1 has 1000"},
        {faulted, "results[1]: the region stopped on a fault"},
        {duplicate, "results[2]: a second result for simulation point 0"},
        {missing, "p.simpoints:1: simulation point 0 (cluster 0) has no region result"},
        {no_counter, "results[1]: no counter 'branch_mispredicts'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        regions("regions", cases[i].alter);
        fails(cases[i].what, NULL, 1000, "regions.json", NULL);
    }
    regions("full", NULL);
    fails("regions.json: not region results", NULL, 1000, "regions.json", NULL);
}

Test(validate_checks, regions_need_the_same_core)
{
    program();
    regions("regions", NULL);
    json_t *root = json_load_file(vt_path("regions.json"), 0, NULL);
    json_object_set_new(json_object_get(root, "config"), "digest", json_string("ffffffffffffffff"));
    json_dump_file(root, vt_path("regions.json"), 0);
    json_decref(root);
    fails("core configuration ffffffffffffffff, but the full run", NULL, 1000, "regions.json", NULL);
    vd_params p;
    vd_params_defaults(&p);
    p.allow_mismatch = true;
    passes_warning("core configuration ffffffffffffffff", NULL, 1000, "regions.json", &p);
}

Test(validate_checks, reweighted_regions_keep_their_point_and_cluster)
{
    /* a second stage changed cluster 1's weight after its region ran: accepted with --reweighted, the
     * weights file's weight used; a region of another cluster is still refused */
    program();
    regions("regions", wrong_weight);
    vd_params p;
    vd_params_defaults(&p);
    p.reweighted = true;
    vt_run r;
    vt_analyze(&r, NULL, 1000, "regions.json", &p);
    cr_assert(r.ok, "%s", r.d.error);
    vt_free(&r);
    regions("regions", wrong_cluster);
    fails("results[1]: simulation point 1 is of cluster 0, but", NULL, 1000, "regions.json", &p);
}
