/* The detailed core's configuration (lib/uarch/config.c) and the two
 * shipped configurations, configs/boom-tip.ini and configs/boom-tea.ini. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uarch/config.h"
#include "uarch/tage.h"

#define TIP_INI "configs/boom-tip.ini"
#define TEA_INI "configs/boom-tea.ini"

static char dir[32], path[64], err[512];

static void make_dir(void)
{
    strcpy(dir, "/tmp/test_config_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.ini", dir);
}

static void remove_dir(void)
{
    unlink(path);
    rmdir(dir);
}

TestSuite(config, .init = make_dir, .fini = remove_dir);

static void write_file(const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* Load text as an INI file over the defaults. */
static int load_text(uarch_config *c, const char *text)
{
    write_file(text);
    uarch_config_defaults(c);
    err[0] = '\0';
    return uarch_config_load(c, path, err, sizeof err);
}

/* The text is refused with exactly "path:line: msg", leaving the config alone. */
static void expect_load_error(const char *text, int line, const char *msg)
{
    uarch_config c, d;
    cr_assert_eq(load_text(&c, text), -1, "loaded: %s", text);
    char want[600];
    snprintf(want, sizeof want, "%s:%d: %s", path, line, msg);
    cr_assert_str_eq(err, want);
    uarch_config_defaults(&d);
    cr_assert_eq(memcmp(&c, &d, sizeof c), 0, "a failed load changed the config");
}

/* Load a shipped file over a sentinel out of every range: a key it forgets
 * fails the check. */
static void load_complete(uarch_config *c, const char *file)
{
    memset(c, 0xff, sizeof *c);
    cr_assert_eq(uarch_config_load(c, file, err, sizeof err), 0, "%s", err);
    cr_assert_eq(uarch_config_check(c, err, sizeof err), 0, "%s: %s", file, err);
}

Test(config, defaults_pass_check)
{
    uarch_config c;
    uarch_config_defaults(&c);
    cr_assert_eq(uarch_config_check(&c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.rob_entries, 128);
}

Test(config, tip_ini_is_table_a1_and_the_defaults)
{
    uarch_config c, d;
    load_complete(&c, TIP_INI);
    uarch_config_defaults(&d);
    cr_assert_eq(memcmp(&c, &d, sizeof c), 0, "boom-tip.ini and the built-in defaults differ");
    cr_assert_eq(c.fetch_width, 8);
    cr_assert_eq(c.fetch_buffer, 32);
    cr_assert_eq(c.ftq_entries, 40);
    cr_assert_eq(c.max_branches, 20);
    cr_assert_eq(c.rob_entries, 128);
    cr_assert_eq(c.int_phys_regs, 128);
    cr_assert_eq(c.iq_mem_entries, 24);
    cr_assert_eq(c.iq_int_entries, 40);
    cr_assert_eq(c.iq_int_issue, 4);
    cr_assert_eq(c.ldq_entries, 32);
    cr_assert_eq(c.stq_entries, 32);
    cr_assert_eq(c.l1d_mshrs, 8);
    cr_assert_eq(c.l2_kib, 512);
    cr_assert_eq(c.l2_mshrs, 12);
    cr_assert_eq(c.llc_kib, 4096);
    cr_assert_eq(c.l2tlb_entries, 512);
    cr_assert_eq(c.dram_mb_per_s, 25600);
    cr_assert_eq(c.dram_latency_ns, 42);
    cr_assert_eq(c.freq_mhz, 3200);
}

Test(config, tea_ini_is_table_b2)
{
    uarch_config c;
    load_complete(&c, TEA_INI);
    cr_assert_eq(c.fetch_width, 8);
    cr_assert_eq(c.fetch_buffer, 48);
    cr_assert_eq(c.ftq_entries, 60);
    cr_assert_eq(c.max_branches, 30);
    cr_assert_eq(c.rob_entries, 192);
    cr_assert_eq(c.int_phys_regs, 192);
    cr_assert_eq(c.fp_phys_regs, 192);
    cr_assert_eq(c.iq_mem_entries, 48);
    cr_assert_eq(c.iq_int_entries, 80);
    cr_assert_eq(c.iq_fp_entries, 48);
    cr_assert_eq(c.ldq_entries, 64);
    cr_assert_eq(c.stq_entries, 64);
    cr_assert_eq(c.l1d_mshrs, 16);
    cr_assert_eq(c.l2_kib, 0);
    cr_assert_eq(c.llc_kib, 2048);
    cr_assert_eq(c.llc_ways, 16);
    cr_assert_eq(c.llc_mshrs, 12);
    cr_assert_eq(c.l2tlb_entries, 1024);
    cr_assert_eq(c.dram_mb_per_s, 16000);
}

/* Both tables' "28 KB TAGE" is SonicBOOM's TAGE-L (tage.scala's
 * BoomTageParams): per table 128 or 256 sets of a bank's 4 entries in each
 * of 2 banks, tags of 7 to 9 bits; 14 KiB of tagged entries (a valid bit,
 * the tag, a 3-bit counter and 2 useful bits each). */
Test(config, tage_tables_are_sonicbooms)
{
    const char *files[] = {TIP_INI, TEA_INI};
    const int sets[] = {128, 128, 256, 256, 128, 128}, tags[] = {7, 7, 8, 8, 9, 9};
    for (int f = 0; f < 2; f++) {
        uarch_config c;
        load_complete(&c, files[f]);
        cr_assert_eq(c.bp_tage_tables, 6, "%s", files[f]);
        long bits = 0;
        for (int i = 0; i < 6; i++) {
            int log_entries, tag_bits;
            tage_table_geometry(&c, i, &log_entries, &tag_bits);
            cr_assert_eq(1L << log_entries, sets[i] * 4 * 2, "%s: table %d's entries", files[f], i);
            cr_assert_eq(tag_bits, tags[i], "%s: table %d's tag bits", files[f], i);
            bits += (1L << log_entries) * (1 + tag_bits + 3 + 2);
        }
        cr_assert_eq(bits, 14L * 1024 * 8, "%s: the tagged tables hold %ld bits", files[f], bits);
        cr_assert_eq(c.bp_tage_min_hist, 2, "%s", files[f]);
        cr_assert_eq(c.bp_tage_max_hist, 64, "%s: histories 2, 4, ..., 64", files[f]);
    }
}

Test(config, delta_file_with_comments)
{
    uarch_config c;
    cr_assert_eq(load_text(&c, "; a comment\n"
                               "# another\n"
                               "\n"
                               "[rob]\n"
                               "entries = 192 ; inline\n"
                               "[l1d]\r\n"
                               "mshrs=16 # inline too\r\n"
                               "[rob]\n"
                               "[regs]\n"
                               "int_phys = +256\n"),
                 0, "%s", err);
    cr_assert_eq(c.rob_entries, 192);
    cr_assert_eq(c.l1d_mshrs, 16);
    cr_assert_eq(c.int_phys_regs, 256);
    cr_assert_eq(c.l1d_ways, 8, "a key not given keeps its value");
    cr_assert_eq(c.fp_phys_regs, 128);
}

Test(config, empty_file_changes_nothing)
{
    uarch_config c, d;
    cr_assert_eq(load_text(&c, ""), 0, "%s", err);
    uarch_config_defaults(&d);
    cr_assert_eq(memcmp(&c, &d, sizeof c), 0);
}

Test(config, unknown_key)
{
    expect_load_error("[rob]\nentires = 192\n", 2, "unknown key 'rob.entires' (did you mean 'rob.entries'?)");
    expect_load_error("[core]\nfetch_width = 4\n", 2,
                      "unknown key 'core.fetch_width' (did you mean 'frontend.fetch_width'?)");
    expect_load_error("[rob]\nsize = 1\n", 2, "unknown key 'rob.size'");
}

Test(config, unknown_section)
{
    expect_load_error("\n[robb]\nentries = 192\n", 3,
                      "unknown key 'robb.entries': there is no section [robb] (did you mean 'rob.entries'?)");
    expect_load_error("[ROB]\nentries = 192\n", 2,
                      "unknown key 'ROB.entries': there is no section [ROB] (did you mean 'rob.entries'?)");
}

Test(config, key_outside_section)
{
    expect_load_error("entries = 192\n", 1, "key 'entries' is outside any [section]");
}

Test(config, not_an_integer)
{
    expect_load_error("[rob]\nentries = abc\n", 2, "rob.entries: 'abc' is not an integer");
    expect_load_error("[rob]\nentries = 0x80\n", 2, "rob.entries: '0x80' is not an integer");
    expect_load_error("[rob]\nentries = 1.5\n", 2, "rob.entries: '1.5' is not an integer");
    expect_load_error("[rob]\nentries = 128k\n", 2, "rob.entries: '128k' is not an integer");
    expect_load_error("[rob]\nentries =\n", 2, "rob.entries: '' is not an integer");
    expect_load_error("[rob]\nentries = 1 2\n", 2, "rob.entries: '1 2' is not an integer");
}

Test(config, out_of_range)
{
    expect_load_error("[rob]\nentries = 0\n", 2, "rob.entries = 0 is out of range [4, 1024]");
    expect_load_error("[rob]\nentries = 1025\n", 2, "rob.entries = 1025 is out of range [4, 1024]");
    expect_load_error("[rob]\nentries = 99999999999999999999\n", 2,
                      "rob.entries = 99999999999999999999 is out of range [4, 1024]");
    expect_load_error("[l2]\nsize_kib = -1\n", 2, "l2.size_kib = -1 is out of range [0, 1048576]");
    expect_load_error("[prefetch]\nnext_line = 2\n", 2, "prefetch.next_line = 2 is out of range [0, 1]");
}

Test(config, key_set_twice)
{
    expect_load_error("[rob]\nentries = 64\n\n[rob]\nentries = 96\n", 5,
                      "rob.entries is set twice (first on line 2)");
}

Test(config, syntax_errors)
{
    expect_load_error("[rob]\nentries\n", 2, "expected '[section]' or 'key = value'");
    expect_load_error("[rob\nentries = 1\n", 1, "expected '[section]' or 'key = value'");
    /* The first bad line wins, whichever kind it is. */
    expect_load_error("[rob]\nentries\nentires = 1\n", 2, "expected '[section]' or 'key = value'");
    expect_load_error("[rob]\nentires = 1\nentries\n", 2, "unknown key 'rob.entires' (did you mean 'rob.entries'?)");
}

Test(config, overlong_line)
{
    char text[400];
    snprintf(text, sizeof text, "[rob]\n; %0300d\nentries = 0\n", 0);
    expect_load_error(text, 2, "line longer than 199 characters");
    /* The longest line that fits, with and without a final newline. */
    snprintf(text, sizeof text, "[rob]\nentries = %0189d\n", 192);
    uarch_config c;
    cr_assert_eq(load_text(&c, text), 0, "%s", err);
    cr_assert_eq(c.rob_entries, 192);
    text[strlen(text) - 1] = '\0';
    cr_assert_eq(load_text(&c, text), 0, "%s", err);
}

Test(config, missing_file)
{
    uarch_config c;
    uarch_config_defaults(&c);
    cr_assert_eq(uarch_config_load(&c, "/nonexistent/boom.ini", err, sizeof err), -1);
    cr_assert_str_eq(err, "/nonexistent/boom.ini: No such file or directory");
}

Test(config, set_overrides)
{
    uarch_config c;
    uarch_config_defaults(&c);
    cr_assert_eq(uarch_config_set(&c, "rob.entries=192", err, sizeof err), 0, "%s", err);
    cr_assert_eq(uarch_config_set(&c, " l2.size_kib = 0 ", err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.rob_entries, 192);
    cr_assert_eq(c.l2_kib, 0);
    cr_assert_eq(c.llc_kib, 4096);
    cr_assert_eq(uarch_config_check(&c, err, sizeof err), 0, "%s", err);
}

Test(config, set_errors)
{
    static const struct { const char *arg, *msg; } cases[] = {
        {"rob.entries", "--set 'rob.entries': expected section.key=value"},
        {"rob.entires=1", "--set: unknown key 'rob.entires' (did you mean 'rob.entries'?)"},
        {"entries=1", "--set: unknown key 'entries'"},
        {"robb.entries=1", "--set: unknown key 'robb.entries': there is no section [robb] (did you mean 'rob.entries'?)"},
        {"rob.entries=0", "--set: rob.entries = 0 is out of range [4, 1024]"},
        {"rob.entries=lots", "--set: rob.entries: 'lots' is not an integer"},
        {"rob.entries=", "--set: rob.entries: '' is not an integer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uarch_config c, d;
        uarch_config_defaults(&c);
        d = c;
        cr_assert_eq(uarch_config_set(&c, cases[i].arg, err, sizeof err), -1, "%s", cases[i].arg);
        cr_assert_str_eq(err, cases[i].msg);
        cr_assert_eq(memcmp(&c, &d, sizeof c), 0, "%s changed the config", cases[i].arg);
    }
}

Test(config, error_buffer_is_optional_and_bounded)
{
    uarch_config c;
    uarch_config_defaults(&c);
    cr_assert_eq(uarch_config_set(&c, "rob.entries=0", NULL, 0), -1);
    char small[8] = "xxxxxxx";
    cr_assert_eq(uarch_config_set(&c, "rob.entries=0", small, 4), -1);
    cr_assert_str_eq(small, "--s");
    cr_assert_eq(small[4], 'x');
    c.rob_entries = 0;
    cr_assert_eq(uarch_config_check(&c, NULL, 0), -1);
}

/* ------------------------------------------------------ cross-parameter */

Test(config, check_impossible_cache_geometry)
{
    uarch_config c;
    uarch_config_defaults(&c);
    c.l1d_kib = 48;
    cr_assert_eq(uarch_config_check(&c, err, sizeof err), -1);
    cr_assert_str_eq(err, "l1d.size_kib = 48 in l1d.ways = 8 of 64-byte lines makes 96 sets, "
                          "which is not a power of two.");
}

Test(config, check_each_rule)
{
    /* Up to two --set overrides over the defaults, and a piece of the error. */
    static const struct { const char *set[2], *msg; } cases[] = {
        {{"cache.line_bytes=48"}, "cache.line_bytes = 48 is not a power of two."},
        {{"l1i.ways=3"}, "l1i.size_kib = 32 in l1i.ways = 3 of 64-byte lines makes 170.6666667 sets"},
        {{"l2.size_kib=1", "l2.ways=32"}, "l2.size_kib = 1 in l2.ways = 32 of 64-byte lines makes 0.5 sets"},
        {{"llc.size_kib=3072"}, "llc.size_kib = 3072 in llc.ways = 8 of 64-byte lines makes 6144 sets"},
        {{"bpred.btb_entries=500"}, "bpred.btb_entries = 500 in bpred.btb_ways = 4 makes 125 sets"},
        {{"bpred.btb_entries=6", "bpred.btb_ways=4"}, "bpred.btb_entries = 6 in bpred.btb_ways = 4 makes 1.5 sets"},
        {{"bpred.tage_min_history=40", "bpred.tage_max_history=32"},
         "bpred.tage_min_history = 40 exceeds bpred.tage_max_history = 32"},
        {{"core.commit_width=8", "rob.entries=4"}, "core.commit_width = 8 exceeds rob.entries = 4"},
        {{"core.decode_width=8", "rob.entries=6"}, "core.decode_width = 8 exceeds rob.entries = 6"},
        {{"iq.int_issue=5", "iq.int_entries=4"}, "iq.int_issue = 5 exceeds iq.int_entries = 4"},
        {{"iq.mem_entries=1"}, "iq.mem_issue = 2 exceeds iq.mem_entries = 1"},
        {{"iq.fp_issue=3", "iq.fp_entries=2"}, "iq.fp_issue = 3 exceeds iq.fp_entries = 2"},
        {{"frontend.fetch_buffer=4"}, "frontend.fetch_width = 8 exceeds frontend.fetch_buffer = 4: "
                                      "the fetch buffer must hold a whole fetch packet."},
        {{"regs.int_phys=35"}, "core.decode_width = 4 + 32 exceeds regs.int_phys = 35"},
        {{"regs.fp_phys=33"}, "core.decode_width = 4 + 32 exceeds regs.fp_phys = 33"},
        {{"l2tlb.entries=384"}, "l2tlb.entries = 384 is not a power of two"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uarch_config c;
        uarch_config_defaults(&c);
        for (int k = 0; k < 2 && cases[i].set[k]; k++)
            cr_assert_eq(uarch_config_set(&c, cases[i].set[k], err, sizeof err), 0, "%s", err);
        cr_assert_eq(uarch_config_check(&c, err, sizeof err), -1, "%s passed", cases[i].msg);
        cr_assert_not_null(strstr(err, cases[i].msg), "got: %s\nwant: %s", err, cases[i].msg);
    }
}

Test(config, check_absent_levels_and_edges_pass)
{
    static const char *sets[] = {
        "l2.size_kib=0", "llc.size_kib=0", "l2tlb.entries=0", "regs.int_phys=36",
        "frontend.fetch_buffer=8", "bpred.tage_min_history=64", "bpred.btb_entries=4",
    };
    uarch_config c;
    uarch_config_defaults(&c);
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        cr_assert_eq(uarch_config_set(&c, sets[i], err, sizeof err), 0, "%s", err);
    cr_assert_eq(uarch_config_check(&c, err, sizeof err), 0, "%s", err);
}

/* A config built in code gets the same range checks as a parsed one. */
Test(config, check_ranges_of_a_struct_built_in_code)
{
    uarch_config c;
    uarch_config_defaults(&c);
    c.rob_entries = 2;
    cr_assert_eq(uarch_config_check(&c, err, sizeof err), -1);
    cr_assert_str_eq(err, "rob.entries = 2 is out of range [4, 1024]");
}

/* -------------------------------------------------------------- dumps */

Test(config, digest_is_stable_and_sees_every_value)
{
    uarch_config base, tea;
    uarch_config_defaults(&base);
    uint64_t h = uarch_config_digest(&base);
    cr_assert_eq(uarch_config_digest(&base), h);
    load_complete(&tea, TEA_INI);
    cr_assert_neq(uarch_config_digest(&tea), h);

    /* One value changed at a time: every digest differs from the base and
     * from each other. */
    uint64_t seen[128];
    size_t n = 0;
#define CHANGE_ONE(field, sec, key, def, lo, hi, help)                           \
    {                                                                            \
        uarch_config d = base;                                                   \
        cr_assert_lt(n, sizeof seen / sizeof seen[0]);                           \
        d.field = d.field == (hi) ? (lo) : d.field + 1;                          \
        seen[n] = uarch_config_digest(&d);                                       \
        for (size_t k = 0; k <= n; k++)                                          \
            cr_assert_neq(k < n ? seen[k] : h, seen[n], "%s", #sec "." #key);    \
        n++;                                                                     \
    }
    UARCH_PARAMS(CHANGE_ONE)
#undef CHANGE_ONE
}

Test(config, json_has_every_key)
{
    uarch_config c;
    load_complete(&c, TEA_INI);
    json_t *o = uarch_config_json(&c);
    cr_assert_not_null(o);
    size_t n = 0;
#define CHECK_KEY(field, sec, key, def, lo, hi, help)                             \
    {                                                                             \
        json_t *v = json_object_get(o, #sec "." #key);                            \
        cr_assert(json_is_integer(v), "%s missing", #sec "." #key);               \
        cr_assert_eq(json_integer_value(v), c.field, "%s", #sec "." #key);        \
        n++;                                                                      \
    }
    UARCH_PARAMS(CHECK_KEY)
#undef CHECK_KEY
    cr_assert_eq(json_object_size(o), n);
    char *text = json_dumps(o, JSON_COMPACT);
    cr_assert_not_null(strstr(text, "\"rob.entries\":192"));
    free(text);
    json_decref(o);
}

/* The listing is an INI file, one header per section, that loads back. */
Test(config, print_loads_back)
{
    uarch_config tea, c;
    load_complete(&tea, TEA_INI);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    uarch_config_print(&tea, f);
    fclose(f);
    load_complete(&c, path);
    cr_assert_eq(memcmp(&c, &tea, sizeof c), 0);

    f = fopen(path, "r");
    char line[256];
    int core = 0, rob = 0;
    bool help = false;
    while (fgets(line, sizeof line, f)) {
        core += !strcmp(line, "[core]\n");
        rob += !strcmp(line, "[rob]\n");
        help |= strstr(line, "entries") == line && strstr(line, "= 192 ") && strstr(line, "; reorder buffer entries");
    }
    fclose(f);
    cr_assert_eq(core, 1, "[core] is split");
    cr_assert_eq(rob, 1);
    cr_assert(help, "no 'entries = 192 ; help' line");
}
