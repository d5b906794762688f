/* simpoint: loading .bb variants, vector-file round trips, output shapes, options. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "host_files.h"
#include "../../simpoint/bb_load.h"
#include "../../simpoint/dataset.h"
#include "../../simpoint/options.h"
#include "../../simpoint/output.h"
#include "../../simpoint/project.h"

static char sp_tmpdir[64];

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", sp_tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", sp_tmpdir);
}

/* Removed at exit, so also after the tests that end in die(). */
static void make_tmpdir(void)
{
    strcpy(sp_tmpdir, "/tmp/sp_unit_XXXXXX");
    cr_assert_not_null(mkdtemp(sp_tmpdir));
    atexit(remove_tmpdir);
}

static const char *tmp_path(const char *name)
{
    static char buf[4][256];
    static int i;
    char *p = buf[i++ % 4];
    snprintf(p, 256, "%s/%s", sp_tmpdir, name);
    return p;
}

static const char *write_text(const char *name, const char *text)
{
    const char *path = tmp_path(name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void load(const char *path, size_t dim, bb_input *in)
{
    projection proj;
    projection_init(&proj, dim, 2042712918);
    bb_load_options o = {0};
    bb_load(path, dim ? &proj : NULL, &o, in);
    projection_free(&proj);
}

/* ------------------------------------------------------------- .bb inputs */

TestSuite(simpoint_load, .init = make_tmpdir);

Test(simpoint_load, formats_give_the_same_vectors)
{
    /* The same two intervals as SimPoint/ours, Valgrind, gem5 and QEMU (0-based, unsorted). */
    const char *ours = write_text("a.bb", "# comment\nT:1:60 :2:30 :3:10 \nT:3:50 :4:50 \n");
    const char *vg = write_text("v.bb", "T:2:30   :1:60   :3:10   \nT:4:50   :3:50   \n\n\n# Thread 1\n#   Total intervals: 2\n");
    const char *g5 = write_text("g.bb", "T:1:60 :2:30 :3:10 \nT:3:50 :4:50 \n");
    const char *qm = write_text("q.bb", "T:1:30 :0:60 :2:10 \nT:3:50 :2:50 \n");
    bb_input a, b;
    load(ours, 0, &a);
    cr_assert_eq(a.vectors.n, 2);
    cr_assert_eq(a.num_blocks, 4);
    cr_assert_eq(a.vectors.d, 4);
    cr_assert_float_eq(dataset_row(&a.vectors, 0)[0], 0.6, 1e-15);
    cr_assert_eq(a.row_sums[1], 100.0);
    const char *others[] = {vg, g5, qm};
    for (int i = 0; i < 3; i++) {
        load(others[i], 0, &b);
        cr_assert_eq(b.vectors.n, 2, "%s", others[i]);
        cr_assert_eq(b.num_blocks, 4, "%s", others[i]);
        cr_assert(memcmp(a.vectors.x, b.vectors.x, 8 * sizeof(double)) == 0, "%s", others[i]);
        cr_assert_eq(b.zero_based, i == 2);
        bb_input_free(&b);
    }
    bb_input_free(&a);
}

Test(simpoint_load, projection_is_lazy_but_identical)
{
    const char *p = write_text("p.bb", "T:2:1 \nT:7:3 :1:1 \n");
    bb_input in;
    load(p, 5, &in);
    projection full;
    projection_init(&full, 5, 2042712918);
    projection_ensure_rows(&full, 7);
    const double *m = full.m.x;
    for (size_t j = 0; j < 5; j++) {
        cr_assert_eq(dataset_row(&in.vectors, 0)[j], m[1 * 5 + j]);
        cr_assert_eq(dataset_row(&in.vectors, 1)[j], 0.0 + 0.75 * m[6 * 5 + j] + 0.25 * m[0 * 5 + j]);
        cr_assert(m[j] >= -1 && m[j] < 1);
    }
    projection_free(&full);
    bb_input_free(&in);
}

Test(simpoint_load, gzip_and_long_lines)
{
    const char *path = tmp_path("big.bb.gz");
    gzFile gz = gzopen(path, "wb");
    /* One interval of 300,000 blocks: a 3 MB line, beyond SimPoint 3.2's 1 MiB buffer. */
    gzputs(gz, "T");
    for (int i = 1; i <= 300000; i++)
        gzprintf(gz, ":%d:%d ", i, 1 + i % 7);
    gzputs(gz, "\nT:5:5 \n");
    gzclose(gz);
    bb_input in;
    load(path, 15, &in);
    cr_assert_eq(in.vectors.n, 2);
    cr_assert_eq(in.num_blocks, 300000);
    bb_input_free(&in);
}

Test(simpoint_load, partial_interval_and_no_final_newline)
{
    const char *p = write_text("b.bb", "T:1:100 \nT:2:100 \n# partial interval: 40 instructions\nT:1:40");
    bb_input in;
    load(p, 15, &in);
    cr_assert_eq(in.vectors.n, 3);
    cr_assert_eq(in.partial_index, 2);
    cr_assert_eq(in.partial_len, 40);
    cr_assert_eq(in.row_sums[2], 40.0);
    bb_input_free(&in);
    /* compat drops an unterminated last T line, as SimPoint 3.2 does. */
    projection proj;
    projection_init(&proj, 15, 1);
    bb_load_options o = {.compat = true};
    bb_load(p, &proj, &o, &in);
    cr_assert_eq(in.vectors.n, 2);
    bb_input_free(&in);
    projection_free(&proj);
}

Test(simpoint_load, malformed_line_exits, .exit_code = 1)
{
    bb_input in;
    load(write_text("m.bb", "T:1:5 \nT:2:x \n"), 15, &in);
}

Test(simpoint_load, late_zero_id_exits, .exit_code = 1)
{
    bb_input in;
    load(write_text("z.bb", "T:1:5 \nT:0:5 \n"), 15, &in);
}

Test(simpoint_load, truncated_gzip_exits, .exit_code = 1)
{
    const char *path = tmp_path("t.bb.gz");
    gzFile gz = gzopen(path, "wb");
    for (int i = 0; i < 2000; i++)
        gzprintf(gz, "T:%d:%d :%d:7 \n", 1 + i % 50, 100 + i, 60 + i % 13);
    gzclose(gz);
    FILE *f = fopen(path, "r+");
    fseek(f, 0, SEEK_END);
    cr_assert_eq(ftruncate(fileno(f), ftell(f) / 2), 0);
    fclose(f);
    bb_input in;
    load(path, 15, &in);
}

Test(simpoint_load, no_intervals_exits, .exit_code = 1)
{
    bb_input in;
    load(write_text("e.bb", "# nothing\n"), 15, &in);
}

/* ------------------------------------------------------------ vector files */

TestSuite(simpoint_files, .init = make_tmpdir);

Test(simpoint_files, vector_round_trips)
{
    dataset a;
    dataset_init(&a, 3, 4, true);
    for (size_t i = 0; i < 12; i++)
        a.x[i] = sin((double)i) / 3;
    a.w[0] = 0.1, a.w[1] = 0.2, a.w[2] = 0.7;
    dataset b, c;
    dataset_write_txt(tmp_path("v.txt"), &a);
    dataset_read_txt(tmp_path("v.txt"), &b);
    dataset_write_bin(tmp_path("v.bin"), &a);
    dataset_read_bin(tmp_path("v.bin"), &c);
    cr_assert(memcmp(a.x, b.x, 12 * sizeof(double)) == 0); /* %.20g round-trips exactly */
    cr_assert(memcmp(a.x, c.x, 12 * sizeof(double)) == 0);
    cr_assert(memcmp(a.w, b.w, 3 * sizeof(double)) == 0);
    cr_assert(memcmp(a.w, c.w, 3 * sizeof(double)) == 0);
    FILE *f = fopen(tmp_path("v.txt"), "r");
    char line[512];
    cr_assert_not_null(fgets(line, sizeof line, f));
    cr_assert_str_eq(line, "3:w\n");
    cr_assert_not_null(fgets(line, sizeof line, f));
    cr_assert(strncmp(line, "0.10000000000000000555 4: 0 ", 28) == 0, "%s", line);
    fclose(f);
    dataset_free(&a);
    dataset_free(&b);
    dataset_free(&c);
}

Test(simpoint_files, output_shapes)
{
    /* 5 intervals, k = 3 with cluster 1 empty. */
    double x[] = {0, 0.1, 5, 5.2, 0.05};
    double w[] = {0.2, 0.2, 0.2, 0.2, 0.2};
    dataset ds = {5, 1, x, w};
    int labels[] = {0, 0, 2, 2, 0};
    double dist2[] = {0.0025, 0.0025, 0.01, 0.01, 0};
    double cw[] = {0.6, 0, 0.4};
    double centres[] = {0.05, 0, 5.1};
    sp_run run = {.k = 3, .labels = labels, .dist2 = dist2, .weights = cw, .centres = centres};
    char *sp = strdup(tmp_path("o.simpoints")), *wp = strdup(tmp_path("o.weights")), *lp = strdup(tmp_path("o.labels"));
    output_names names = {sp, wp, lp, 0.5, NULL};
    write_run_outputs(&names, "", &run, &ds, false);
    cr_assert_str_eq(host_read(tmp_path("o.simpoints")), "4 0\n2 2\n");
    cr_assert_str_eq(host_read(tmp_path("o.weights")), "0.6 0\n0.4 2\n");
    cr_assert_str_eq(host_read(tmp_path("o.labels")), "0 0.05\n0 0.05\n2 0.1\n2 0.1\n0 0\n");
    cr_assert_str_eq(host_read(tmp_path("o.simpoints.lpt0.5")), "4 0\n");
    cr_assert_str_eq(host_read(tmp_path("o.weights.lpt0.5")), "1 0\n");
    /* Sampled runs take their weights from the labels of every interval. */
    write_run_outputs(&names, ".s", &run, &ds, true);
    cr_assert_str_eq(host_read(tmp_path("o.weights.s")), "0.6 0\n0.4 2\n");
    free(sp);
    free(wp);
    free(lp);
}

Test(simpoint_files, weights_print_six_digits)
{
    double x[] = {0, 1, 2};
    double w[] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    dataset ds = {3, 1, x, w};
    int labels[] = {0, 1, 1};
    double dist2[] = {0, 0.25, 0.25};
    double cw[] = {1.0 / 3, 2.0 / 3};
    sp_run run = {.k = 2, .labels = labels, .dist2 = dist2, .weights = cw};
    char *sp = strdup(tmp_path("s")), *wp = strdup(tmp_path("w"));
    output_names names = {sp, wp, NULL, 1.0, NULL};
    write_run_outputs(&names, "", &run, &ds, false);
    cr_assert_str_eq(host_read(tmp_path("w")), "0.333333 0\n0.666667 1\n");
    cr_assert_str_eq(host_read(tmp_path("s")), "0 0\n1 1\n"); /* tie: the earliest interval */
    cr_assert_eq(access(tmp_path("w.lpt1"), F_OK), -1);
    free(sp);
    free(wp);
}

/* --------------------------------------------------------------- options */

static bool parse_args(sp_options *o, const char *const *args)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)"simpoint";
    for (; *args; args++)
        argv[argc++] = (char *)*args;
    sp_options_defaults(o);
    return sp_options_parse(o, argc, argv);
}

Test(simpoint_options, defaults_of_simpoint_3_2)
{
    sp_options o;
    const char *args[] = {"-loadFVFile", "x.bb", "-maxK", "30", NULL};
    cr_assert(parse_args(&o, args));
    cr_assert(o.k_search);
    cr_assert_eq(o.max_k, 30);
    cr_assert_eq(o.iters, 100);
    cr_assert_eq(o.dim, 15);
    cr_assert_eq(o.num_init_seeds, 5);
    cr_assert_eq(o.initkm, KM_INIT_SAMP);
    cr_assert_eq(o.coverage_pct, 1.0);
    cr_assert_eq(o.bic_threshold, 0.9);
    cr_assert(o.fixed_length);
    cr_assert_eq(o.sample_size, -1);
    cr_assert_eq(o.num_fvs, -1);
    cr_assert_eq(o.fv_dim, -1);
    cr_assert_eq(o.seed_km, 493575226);
    cr_assert_eq(o.seed_proj, 2042712918);
    cr_assert_eq(o.seed_sample, 385089224);
    cr_assert_eq(o.verbose, 0);
    cr_assert(!o.save_all && !o.fv_gzipped && !o.compat);
    sp_options_free(&o);
}

Test(simpoint_options, every_option)
{
    sp_options o;
    const char *args[] = {
        "-loadFVFile", "x.bb", "-inputVectorsGzipped", "-k", "2:2:8,3,12:10", "-iters", "off",
        "-dim", "noProject", "-numInitSeeds", "7", "-initkm", "ff", "-bicThreshold", "0.5",
        "-coveragePct", "0.95", "-fixedLength", "off", "-sampleSize", "500", "-numFVs", "10",
        "-FVDim", "20", "-seedkm", "1", "-seedproj", "2", "-seedsample", "3", "-saveSimpoints", "s",
        "-saveSimpointWeights", "w", "-saveLabels", "l", "-saveAll", "-saveVectorWeights", "vw",
        "-saveInitCtrs", "ic", "-saveFinalCtrs", "fc", "-saveVectorsTxtFmt", "vt",
        "-saveVectorsBinFmt", "vb", "-verbose", "2", "-loadVectorWeights", "lw", NULL};
    cr_assert(parse_args(&o, args));
    int want[] = {2, 4, 6, 8, 3, 12, 11, 10};
    cr_assert_eq(o.n_k, 8);
    cr_assert_arr_eq(o.k_list, want, sizeof want);
    cr_assert(!o.k_search && o.fv_gzipped && o.save_all && !o.fixed_length);
    cr_assert_eq(o.iters, -1);
    cr_assert_eq(o.dim, 0);
    cr_assert_eq(o.num_init_seeds, 7);
    cr_assert_eq(o.initkm, KM_INIT_FF);
    cr_assert_eq(o.bic_threshold, 0.5);
    cr_assert_eq(o.coverage_pct, 0.95);
    cr_assert_eq(o.sample_size, 500);
    cr_assert_eq(o.num_fvs, 10);
    cr_assert_eq(o.fv_dim, 20);
    cr_assert_eq(o.seed_km + o.seed_proj + o.seed_sample, 6);
    cr_assert_str_eq(o.save_simpoints, "s");
    cr_assert_str_eq(o.save_weights, "w");
    cr_assert_str_eq(o.save_labels, "l");
    cr_assert_str_eq(o.save_vector_weights, "vw");
    cr_assert_str_eq(o.save_init_ctrs, "ic");
    cr_assert_str_eq(o.save_final_ctrs, "fc");
    cr_assert_str_eq(o.save_vectors_txt, "vt");
    cr_assert_str_eq(o.save_vectors_bin, "vb");
    cr_assert_str_eq(o.load_vector_weights, "lw");
    cr_assert_eq(o.verbose, 2);
    sp_options_free(&o);
    const char *args2[] = {"-loadVectorsBinFmt", "v", "-loadInitCtrs", "c", "-loadProjMatrixTxtFmt", "p",
                           "-saveProjMatrixBinFmt", "q", NULL};
    cr_assert(parse_args(&o, args2));
    cr_assert_str_eq(o.load_init_ctrs, "c");
    cr_assert_str_eq(o.load_proj_txt, "p");
    cr_assert_str_eq(o.save_proj_bin, "q");
    sp_options_free(&o);
}

Test(simpoint_options, gnu_long_forms)
{
    sp_options o;
    const char *args0[] = {"--load-fv-file", "x.bb", "--max-k=12", "--save-simpoint-weights", "w", NULL};
    cr_assert(parse_args(&o, args0));
    cr_assert_eq(o.max_k, 12);
    cr_assert_str_eq(o.save_weights, "w");
    sp_options_free(&o);
    const char *args[] = {"--load-fv-file=x.bb", "--num_init_seeds=3", "--BIC-THRESHOLD",
                          "0.7", "--compat", "--sweep-max-k=1..4", "--sweep-bic", "0.8,0.9", "--threads=2",
                          "--kmeans", "lloyd", "--json", "-", NULL};
    cr_assert_eq(parse_args(&o, args), true);
    cr_assert_str_eq(o.fv_file, "x.bb");
    cr_assert_eq(o.num_init_seeds, 3);
    cr_assert_eq(o.bic_threshold, 0.7);
    cr_assert(o.compat && o.lloyd);
    cr_assert_eq(o.threads, 2);
    cr_assert_eq(o.n_sweep_maxk, 4);
    cr_assert_eq(o.n_sweep_bic, 2);
    sp_options_free(&o);
}

Test(simpoint_options, k_lists)
{
    int *k;
    size_t n;
    cr_assert(parse_k_list("5", &k, &n) && n == 1 && k[0] == 5);
    free(k);
    cr_assert(parse_k_list("10:7", &k, &n) && n == 4 && k[3] == 7);
    free(k);
    cr_assert(parse_k_list("1..3,9", &k, &n) && n == 4 && k[3] == 9);
    free(k);
    const char *bad[] = {"", "0", "a", "1:", ":3", "1,,2", "1:2:3:4", "2,", "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert(!parse_k_list(bad[i], &k, &n), "'%s'", bad[i]);
        free(k);
    }
}

Test(simpoint_options, help_returns_false)
{
    sp_options o;
    const char *args[] = {"--help", NULL};
    cr_redirect_stdout();
    cr_assert(!parse_args(&o, args));
}

#define MISUSE(name, ...)                                                                          \
    Test(simpoint_options, name, .exit_code = 1)                                                   \
    {                                                                                              \
        sp_options o;                                                                              \
        const char *args[] = {__VA_ARGS__, NULL};                                                  \
        cr_redirect_stderr();                                                                      \
        parse_args(&o, args);                                                                      \
    }
MISUSE(unknown_option, "-loadFVFile", "x", "-maxK", "3", "-bogus")
MISUSE(missing_value, "-loadFVFile", "x", "-maxK")
MISUSE(search_needs_max_k, "-loadFVFile", "x")
MISUSE(max_k_with_k_list, "-loadFVFile", "x", "-k", "3", "-maxK", "3")
MISUSE(no_input, "-maxK", "3")
MISUSE(two_inputs, "-loadFVFile", "x", "-loadVectorsTxtFmt", "y", "-maxK", "3")
MISUSE(bad_initkm, "-loadFVFile", "x", "-maxK", "3", "-initkm", "best")
MISUSE(bad_fixed_length, "-loadFVFile", "x", "-maxK", "3", "-fixedLength", "yes")
MISUSE(bad_threshold, "-loadFVFile", "x", "-maxK", "3", "-bicThreshold", "1.5")
MISUSE(numfvs_alone, "-loadFVFile", "x", "-maxK", "3", "-numFVs", "10")
MISUSE(init_ctrs_with_k, "-loadFVFile", "x", "-loadInitCtrs", "c", "-k", "3")
MISUSE(init_labels_with_seeds, "-loadFVFile", "x", "-loadInitLabels", "c", "-numInitSeeds", "3")
MISUSE(flag_with_value, "-loadFVFile", "x", "-maxK", "3", "--saveAll=yes")
MISUSE(bad_integer, "-loadFVFile", "x", "-maxK", "3x")
MISUSE(vector_weights_fixed_on, "-loadFVFile", "x", "-maxK", "3", "-fixedLength", "on", "-loadVectorWeights", "w")
