/* The resources of a sensitivity study (sim/whatif/resources.c): factors, the
 * rounding rule (at least one step, within range), groups, limit studies,
 * presets, and what is refused. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim/whatif/resources.h"

static uarch_config base;
static char err[512];

static void setup(void) { uarch_config_defaults(&base); }

TestSuite(resources, .init = setup);

static variant one(const char *resource, double factor)
{
    variant *v = NULL;
    cr_assert_eq(resource_variants(&base, resource, &factor, 1, &v, err, sizeof err), 1, "%s", err);
    variant copy = *v;
    free(v);
    return copy;
}

Test(resources, factors)
{
    double f[4];
    cr_assert_eq(resource_parse_factors("x2,+15%,-10%,x0.5", f, 4, err, sizeof err), 4, "%s", err);
    cr_assert_float_eq(f[0], 2, 1e-12);
    cr_assert_float_eq(f[1], 1.15, 1e-12);
    cr_assert_float_eq(f[2], 0.9, 1e-12);
    cr_assert_float_eq(f[3], 0.5, 1e-12);
    const char *bad[] = {"x1", "15%", "x", "2", "+15", "-100%", "x-2", "+0%", ",", "x2,+100%"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(resource_parse_factors(bad[i], f, 4, err, sizeof err), -1, "%s", bad[i]);
    cr_assert_eq(resource_parse_factors("x2,x3", f, 1, err, sizeof err), -1, "more factors than room");
}

Test(resources, capacities_multiply_latencies_divide)
{
    variant rob = one("rob.entries", 2);
    cr_assert_eq(rob.cfg.rob_entries, 256);
    cr_assert_eq(rob.nchanges, 1);
    cr_assert_float_eq(rob.scale, 2, 1e-12);
    cr_assert(rob.shares_state);
    variant div = one("fu.div", 2);
    cr_assert_eq(div.cfg.lat_div, 10);
    cr_assert_float_eq(div.scale, 2, 1e-12);
    variant slow = one("fu.div", 0.5);
    cr_assert_eq(slow.cfg.lat_div, 40);
    cr_assert_float_eq(slow.scale, 0.5, 1e-12);
    cr_assert_str_eq(rob.name, "rob.entries x2");
}

Test(resources, at_least_one_step_and_the_effective_scale)
{
    /* 2 x 1.15 = 2.3 would round back to 2: it moves one step, x1.5. */
    variant v = one("iq.mem_issue", 1.15);
    cr_assert_eq(v.cfg.iq_mem_issue, 3);
    cr_assert_float_eq(v.scale, 1.5, 1e-12);
    /* A latency of 4 accelerated by 1.15 is 3.48: 3, an effective x1.333. */
    variant l = one("l1d.latency", 1.15);
    cr_assert_eq(l.cfg.l1d_latency, 3);
    cr_assert_float_eq(l.scale, 4.0 / 3.0, 1e-12);
    /* At the end of its range: nothing to run, and it says so. */
    variant alu = one("fu.alu", 2);
    cr_assert_eq(alu.nchanges, 0);
    cr_assert_str_eq(alu.skipped, "already at the end of its range");
    variant commit = one("core.commit_width", 4);
    cr_assert_eq(commit.cfg.commit_width, 8, "clamped to the range");
}

Test(resources, groups_sets_and_limit_studies)
{
    variant fe = one("frontend", 2);
    cr_assert_eq(fe.nchanges, 4);
    cr_assert_eq(fe.cfg.fetch_width, 16);
    cr_assert_eq(fe.cfg.decode_width, 8);
    variant set = one("window+rob.entries+fu.div", 2);
    cr_assert_eq(set.nchanges, 9, "a parameter of a group named again changes once");
    variant *v = NULL;
    const char *malformed[] = {"rob.entries+fu.div+rob.entries", "+", "rob.entries+", "+fu.div", "rob.entries++fu.div",
                               "rob.entries,rob.entries", "rob.entries,", "all,fu.div"};
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
        cr_assert_eq(resource_variants(&base, malformed[i], (double[]){2}, 1, &v, err, sizeof err), -1, "%s",
                     malformed[i]);
    variant bp = one("perfect-bp", 2);
    cr_assert_eq(bp.cfg.ideal_bpred, 1);
    cr_assert_eq(bp.factor, 0);
    cr_assert_eq(bp.scale, 0, "a limit study has no scale");
    cr_assert_str_eq(bp.name, "perfect-bp");
    variant inf = one("infinite-rob", 2);
    cr_assert_eq(inf.cfg.rob_entries, 1024);
    cr_assert_eq(inf.skipped[0], '\0', "%s", inf.skipped);
    variant l2 = one("l2.size_kib", 2);
    cr_assert_not(l2.shares_state, "a cache size changes what warming builds");
    variant odd = one("l2.size_kib", 1.15);
    cr_assert_neq(odd.skipped[0], '\0', "an L2 of 589 KiB cannot be built");
}

Test(resources, limit_studies_once_whatever_the_factors)
{
    variant *v = NULL;
    double f[] = {2, 0.5};
    cr_assert_eq(resource_variants(&base, "perfect-l1d,rob.entries", f, 2, &v, err, sizeof err), 3, "%s", err);
    free(v);
    cr_assert_gt(resource_variants(&base, "all", f, 1, &v, err, sizeof err), 40);
    free(v);
    cr_assert_eq(resource_preset(&base, "limits", &v, err, sizeof err), 10); /* with wrong-path */
    free(v);
    int n = resource_preset(&base, "gus", &v, err, sizeof err);
    cr_assert_gt(n, 5);
    for (int i = 0; i < n; i++) cr_assert_float_eq(v[i].factor, 1.15, 1e-12, "%s", v[i].name);
    free(v);
}

Test(resources, refused)
{
    variant *v = NULL;
    double f = 2;
    cr_assert_eq(resource_variants(&base, "rob.entrys", &f, 1, &v, err, sizeof err), -1);
    cr_assert(strstr(err, "unknown resource 'rob.entrys'"), "%s", err);
    cr_assert_eq(resource_variants(&base, "core.freq_mhz", &f, 1, &v, err, sizeof err), -1);
    cr_assert(strstr(err, "not a resource"), "%s", err);
    cr_assert_eq(resource_variants(&base, ",", &f, 1, &v, err, sizeof err), -1);
    cr_assert_eq(resource_preset(&base, "nope", &v, err, sizeof err), -1);
}
