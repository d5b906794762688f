/* sim: the detailed out-of-order core, over a whole program (--full) or the
 * regions of checkpoints. */
#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "whatif/icost.h"
#include "json_out.h"
#include "outfile.h"
#include "report/plots.h"
#include "combine.h"
#include "report/report.h"
#include "report/report_md.h"
#include "report/report_pics.h"
#include "report/report_sampled.h"
#include "run.h"
#include "whatif/sensitivity.h"
#include "util.h"

static const char usage[] =
    "Usage: sim --full [options] -- PROGRAM [ARGS...]\n"
    "       sim [options] CKPT...\n"
    "Simulate a 4-wide out-of-order RISC-V core (SonicBOOM-like) cycle by cycle and account\n"
    "for every cycle: CPI, a commit-state cycle stack (computing / stalled / flushed /\n"
    "drained, with causes) and the exact per-instruction attribution of time (TIP's Oracle).\n"
    "\n"
    "Core:\n"
    "  -c, --config FILE       core configuration, INI (default: the built-in SonicBOOM of\n"
    "                          the TIP paper, identical to configs/boom-tip.ini)\n"
    "      --set SEC.KEY=V     override one parameter, e.g. --set rob.entries=192; repeatable\n"
    "      --list-params       print every parameter, its value and meaning, and exit\n"
    "Whole program (--full):\n"
    "      --full              simulate PROGRAM from its first instruction\n"
    "  -G, --log-interval N    interval-log granularity in instructions (default 1M)\n"
    "      --interval-log F    per-interval CSV: instructions, cycles, cycle stack, events\n"
    "      --max-insts N       stop after N instructions (k/M/G suffixes)\n"
    "      --guest-output F    the guest's stdout/stderr go to F ('none' discards them; regions:\n"
    "                          the default, and F.N for the N-th of several regions)\n"
    "Checkpoint regions (default mode):\n"
    "      --warmup MODE       none | detailed | functional | checkpoint (default detailed):\n"
    "                          what happens over each region's warm-up window: skipped cold,\n"
    "                          simulated in detail, caches/TLBs/predictors warmed by the\n"
    "                          functional model, or warm state loaded from the checkpoint\n"
    "                          (checkpoint --warm CONFIG) and then functionally warmed\n"
    "  -j, --jobs N            regions simulated in parallel (default: all cores)\n"
    "      --total-insts N     the program's instruction count (bbv --summary's): --full shows\n"
    "                          percent done and ETA; regions project total cycles (k/M/G suffixes)\n"
    "      --program PATH      use this copy of the program (its CRC must match)\n"
    "Output:\n"
    "  -o, --output FILE       JSON results (format: sim/RESULTS.md; '-' = stdout)\n"
    "      --profile FILE      the complete golden profile as CSV, one row per static pc\n"
    "                          (--full, or a single region)\n"
    "      --profile-top N     entries per profile list in the JSON (default 50, 0 = all)\n"
    "      --bbmap FILE        label blocks with the ids of a bbv .bbmap\n"
    "Sampled profiling (the same sample cycles for every profiler, each scored against the\n"
    "golden attribution; sim/RESULTS.md):\n"
    "      --sample LIST       profilers, comma-separated, or 'all': tip, tip-ilp, nci, nci-ilp,\n"
    "                          lci, dispatch, fetch, software; with events (TEA's cycle stacks):\n"
    "                          tea, nci-tea, tea-dispatch, ibs, spe, ris (default all when sampling);\n"
    "                          and profileme (by name only: instruction sampling, below)\n"
    "      --profileme-interval S  ProfileMe: one sample per S fetched instructions on average\n"
    "                          (uniformly random in [1, 2S-1]; default 1000; seed: --sample-seed)\n"
    "      --profileme-samples FILE  every ProfileMe sample's registers as CSV (--full or a single\n"
    "                          region): events, latencies, effective address, branch history\n"
    "      --pair-window W     ProfileMe paired sampling: a second instruction 1..W fetches after\n"
    "                          the first (W <= S/4): useful concurrency and wasted issue slots\n"
    "      --psv-extra LIST    extra PSV bits for tea, nci-tea and tea-dispatch, or 'all': FL-CSR,\n"
    "                          ST-LAT, ST-L2, ST-WALK, DR-BTB (default: the paper's nine events)\n"
    "      --pics              the golden per-instruction cycle stacks even without an event scheme\n"
    "      --sample-hz HZ      sampling frequency at the core clock (default 4000 = every\n"
    "                          800,000 cycles at 3.2 GHz)\n"
    "      --sample-period N   sampling period in cycles instead\n"
    "      --sample-random     one uniformly random cycle in each period (default: its end)\n"
    "      --sample-seed N     seed of --sample-random (default 1)\n"
    "      --sample-sweep-hz L also sample at each frequency of L (periodic and random) and\n"
    "                          report the error against frequency\n"
    "      --samples FILE      every sample record as CSV (--full or a single region)\n"
    "      --commit-trace FILE the per-cycle commit view, run-length encoded (.gz: compressed;\n"
    "                          --full or a single region)\n"
    "      --sampled-csv FILE  profile error per profiler and granularity as CSV\n"
    "      --report FILE.md    where the time goes, for people: profile errors, cycle categories,\n"
    "                          perf-report-style tables and perf-annotate-style listings with\n"
    "                          source lines (DWARF), for every result\n"
    "      --annotate-profiler P  the profiler annotated beside the golden attribution (default tip)\n"
    "      --annotate-functions N hottest functions annotated (default 3)\n"
    "      --plots DIR         gnuplot SVG/PNG: error per profiler and granularity, error against\n"
    "                          frequency, the hottest function's per-instruction time and stacks\n"
    "Sensitivity (Gus): the same run again with resources changed, against this one:\n"
    "      --sensitivity LIST  resources, comma-separated: parameters (rob.entries, fu.div,\n"
    "                          dram.bandwidth_mb_s...), groups (frontend, widths, issue, window,\n"
    "                          fu-latency, memory-latency, memory-bandwidth, mispredict-penalty,\n"
    "                          tlbs), limit studies (perfect-bp, perfect-l1i, perfect-l1d,\n"
    "                          perfect-tlb, infinite-rob, infinite-bandwidth, fastest-l1d,\n"
    "                          zero-latency-alu, zero-latency-long-ops, wrong-path: no\n"
    "                          wrong-path execution), sets joined with '+',\n"
    "                          or 'all'\n"
    "      --sensitivity-factors L  accelerations, xK or +P% (default x2): capacities are\n"
    "                          multiplied, latencies divided, by at least one step\n"
    "      --sensitivity-preset P   gus (Gus's resources at +15%) or limits (every limit study)\n"
    "      --sensitivity-threshold P  a bottleneck speeds up by more than P% (default 1)\n"
    "      --sensitivity-top N instructions whose time changed most, per variant (default 10)\n"
    "Interaction cost (Fields et al.), by re-simulation with event classes idealised:\n"
    "      --icost CLASSES     two or more of dl1, dmiss, win, bw, bmisp, shalu, lgalu, imiss, or\n"
    "                          'all': every singleton and pair, labelled parallel or serial\n"
    "      --icost-loads N     the same for the N static loads with the most Stalled time, each\n"
    "                          idealised alone (it hits the L1D): which to prefetch (2 to 8)\n"
    "      --icost-triples     triples too\n"
    "  -q, --quiet             no summary on stderr\n"
    "      --progress          progress on stderr even when it is not a terminal\n"
    "  -h, --help              this help\n" GUEST_OPTIONS_HELP
    "\n"
    "Exit status: --full mirrors the guest's; regions: 0 when every region ran, 1 otherwise;\n"
    "125 (--full) or 1 for sim's own errors.\n";

enum {
    OPT_SET = 0x100, OPT_LIST, OPT_FULL, OPT_ILOG, OPT_MAX, OPT_GUEST_OUTPUT, OPT_WARMUP, OPT_PROGRAM, OPT_PROFILE,
    OPT_TOP, OPT_BBMAP, OPT_PROGRESS, OPT_SAMPLE, OPT_SAMPLE_HZ, OPT_SAMPLE_PERIOD, OPT_SAMPLE_RANDOM, OPT_SAMPLE_SEED,
    OPT_SAMPLE_SWEEP, OPT_SAMPLES, OPT_COMMIT_TRACE, OPT_SAMPLED_CSV, OPT_PSV_EXTRA, OPT_PICS, OPT_REPORT,
    OPT_ANNOTATE_PROFILER, OPT_ANNOTATE_FUNCTIONS, OPT_PLOTS, OPT_TOTAL_INSTS, OPT_SENS, OPT_SENS_FACTORS,
    OPT_SENS_PRESET, OPT_SENS_THRESHOLD, OPT_SENS_TOP, OPT_ICOST, OPT_ICOST_TRIPLES, OPT_ICOST_LOADS, OPT_PM_INTERVAL, OPT_PAIR_WINDOW, OPT_PM_SAMPLES,
};

/* --sample LIST: names checked against the policies; 'all' for every one
 * (ProfileMe, instruction-proportional, only by name). */
static void parse_profilers(sampling_options *s, char *list)
{
    s->profileme = false;
    if (!strcmp(list, "all")) {
        s->nprofilers = (int)nprofiler_policies;
        s->profilers = malloc(nprofiler_policies * sizeof *s->profilers);
        if (!s->profilers) die("out of memory");
        for (size_t i = 0; i < nprofiler_policies; i++) s->profilers[i] = profiler_policies[i]->name;
        return;
    }
    s->nprofilers = 0;
    free(s->profilers);
    s->profilers = malloc((strlen(list) / 2 + 1) * sizeof *s->profilers);
    if (!s->profilers) die("out of memory");
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        if (!strcmp(name, "profileme")) {
            s->profileme = true;
            continue;
        }
        if (!profiler_policy_find(name)) die("--sample: unknown profiler '%s' (see --help)", name);
        for (int i = 0; i < s->nprofilers; i++)
            if (!strcmp(s->profilers[i], name)) die("--sample: '%s' given twice", name);
        s->profilers[s->nprofilers++] = name;
    }
    if (!s->nprofilers && !s->profileme) die("--sample: expected a list of profilers or 'all'");
}

static double hz_arg(const char *opt, const char *arg)
{
    char *end;
    double v = strtod(arg, &end);
    if (end == arg || *end || !(v > 0) || v > 1e9) die("%s: expected a frequency in Hz, got '%s'", opt, arg);
    return v;
}

static void parse_sweep(sampling_options *s, char *list)
{
    s->sweep_hz = malloc((strlen(list) / 2 + 1) * sizeof *s->sweep_hz);
    if (!s->sweep_hz) die("out of memory");
    s->nsweep = 0;
    for (char *save = NULL, *f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save))
        s->sweep_hz[s->nsweep++] = hz_arg("--sample-sweep-hz", f);
    if (!s->nsweep) die("--sample-sweep-hz: expected a list of frequencies");
}

static enum warmup_mode parse_warmup(const char *s)
{
    for (int i = 0; i < WARMUP_MODES; i++)
        if (!strcmp(s, warmup_mode_names[i])) return (enum warmup_mode)i;
    die("--warmup: expected none, detailed, functional or checkpoint, got '%s'", s);
}

static uint64_t count_arg(const char *opt, const char *arg, bool positive)
{
    uint64_t v;
    if (!parse_count(arg, &v) || (positive && !v)) die("%s: expected a %scount (k/M/G suffixes), got '%s'", opt,
                                                      positive ? "positive " : "", arg);
    return v;
}

/* As simpoint's --threads: OpenMP runtimes overflow their stacks or wrap
 * far beyond this, and a region per thread needs its own memory anyway. */
enum { MAX_JOBS = 4096 };
static int jobs_arg(const char *arg)
{
    uint64_t v;
    if (!parse_count(arg, &v) || v < 1 || v > MAX_JOBS) die("--jobs: expected 1 to %d, got '%s'", MAX_JOBS, arg);
    return (int)v;
}

int main(int argc, char **argv)
{
    util_progname = "sim";
    static const struct option longopts[] = {
        {"config", required_argument, NULL, 'c'}, {"set", required_argument, NULL, OPT_SET},
        {"list-params", no_argument, NULL, OPT_LIST}, {"full", no_argument, NULL, OPT_FULL},
        {"log-interval", required_argument, NULL, 'G'}, {"interval-log", required_argument, NULL, OPT_ILOG},
        {"max-insts", required_argument, NULL, OPT_MAX}, {"guest-output", required_argument, NULL, OPT_GUEST_OUTPUT},
        {"warmup", required_argument, NULL, OPT_WARMUP}, {"jobs", required_argument, NULL, 'j'},
        {"program", required_argument, NULL, OPT_PROGRAM}, {"output", required_argument, NULL, 'o'},
        {"profile", required_argument, NULL, OPT_PROFILE}, {"profile-top", required_argument, NULL, OPT_TOP},
        {"bbmap", required_argument, NULL, OPT_BBMAP}, {"quiet", no_argument, NULL, 'q'},
        {"progress", no_argument, NULL, OPT_PROGRESS}, {"help", no_argument, NULL, 'h'},
        {"sample", required_argument, NULL, OPT_SAMPLE}, {"sample-hz", required_argument, NULL, OPT_SAMPLE_HZ},
        {"sample-period", required_argument, NULL, OPT_SAMPLE_PERIOD},
        {"sample-random", no_argument, NULL, OPT_SAMPLE_RANDOM}, {"sample-seed", required_argument, NULL, OPT_SAMPLE_SEED},
        {"sample-sweep-hz", required_argument, NULL, OPT_SAMPLE_SWEEP}, {"samples", required_argument, NULL, OPT_SAMPLES},
        {"commit-trace", required_argument, NULL, OPT_COMMIT_TRACE},
        {"sampled-csv", required_argument, NULL, OPT_SAMPLED_CSV}, {"psv-extra", required_argument, NULL, OPT_PSV_EXTRA},
        {"pics", no_argument, NULL, OPT_PICS}, {"report", required_argument, NULL, OPT_REPORT},
        {"annotate-profiler", required_argument, NULL, OPT_ANNOTATE_PROFILER},
        {"annotate-functions", required_argument, NULL, OPT_ANNOTATE_FUNCTIONS},
        {"plots", required_argument, NULL, OPT_PLOTS}, {"total-insts", required_argument, NULL, OPT_TOTAL_INSTS},
        {"sensitivity", required_argument, NULL, OPT_SENS},
        {"sensitivity-factors", required_argument, NULL, OPT_SENS_FACTORS},
        {"sensitivity-preset", required_argument, NULL, OPT_SENS_PRESET},
        {"sensitivity-threshold", required_argument, NULL, OPT_SENS_THRESHOLD},
        {"sensitivity-top", required_argument, NULL, OPT_SENS_TOP},
        {"icost", required_argument, NULL, OPT_ICOST}, {"icost-triples", no_argument, NULL, OPT_ICOST_TRIPLES},
        {"icost-loads", required_argument, NULL, OPT_ICOST_LOADS},
        {"profileme-interval", required_argument, NULL, OPT_PM_INTERVAL},
        {"pair-window", required_argument, NULL, OPT_PAIR_WINDOW},
        {"profileme-samples", required_argument, NULL, OPT_PM_SAMPLES},
        GUEST_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    sim_options o = {.warmup = WARMUP_DETAILED, .log_interval = 1000000, .config_source = "built-in"};
    uarch_config_defaults(&o.cfg);
    const char *sets[256], *output = NULL, *profile = NULL, *sampled_csv = NULL, *report = NULL, *plots = NULL;
    report_md_options md = {.annotate = "tip", .functions = 3, .rows = 20};
    sampling_options *smp = &o.sampling;
    smp->cfg.seed = 1;
    double hz = 0;
    bool sampling = false;
    int nsets = 0, jobs = 0;
    bool full = false, quiet = false, list = false;
    size_t top = 50;
    const char *sens_list = NULL, *sens_preset = NULL;
    double sens_factors[16] = {2};
    int nsens_factors = 1;
    sensitivity_options so = {.threshold = 0.01, .top = 10};
    icost_study ic = {0}, icl = {0};
    bool icost = false, icost_triples = false;
    int icost_loads = 0;
    char err[512];
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+c:G:j:o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            if (uarch_config_load(&o.cfg, optarg, err, sizeof err)) die("%s", err);
            o.config_source = optarg;
            break;
        case OPT_SET:
            if (nsets == 256) die("--set: at most 256 overrides");
            sets[nsets++] = optarg;
            break;
        case OPT_LIST: list = true; break;
        case OPT_FULL: full = true; break;
        case 'G': o.log_interval = count_arg("--log-interval", optarg, true); break;
        case OPT_ILOG: o.interval_log = optarg; break;
        case OPT_MAX: o.max_insts = count_arg("--max-insts", optarg, true); break;
        case OPT_GUEST_OUTPUT: o.guest_output = optarg; break;
        case OPT_WARMUP: o.warmup = parse_warmup(optarg); break;
        case 'j': jobs = jobs_arg(optarg); break;
        case OPT_TOTAL_INSTS: o.total_insts = count_arg("--total-insts", optarg, true); break;
        case OPT_PROGRAM: o.program = optarg; break;
        case 'o': output = optarg; break;
        case OPT_PROFILE: profile = optarg; break;
        case OPT_TOP: top = (size_t)count_arg("--profile-top", optarg, false); break;
        case OPT_BBMAP: o.bbmap = optarg; break;
        case 'q': quiet = true; break;
        case OPT_PROGRESS: o.progress = true; break;
        case OPT_SAMPLE: parse_profilers(smp, optarg), sampling = true; break;
        case OPT_SAMPLE_HZ: hz = hz_arg("--sample-hz", optarg), sampling = true; break;
        case OPT_SAMPLE_PERIOD: smp->cfg.period = count_arg("--sample-period", optarg, true), sampling = true; break;
        case OPT_SAMPLE_RANDOM: smp->cfg.random = sampling = true; break;
        case OPT_SAMPLE_SEED: smp->cfg.seed = count_arg("--sample-seed", optarg, false), sampling = true; break;
        case OPT_SAMPLE_SWEEP: parse_sweep(smp, optarg), sampling = true; break;
        case OPT_SAMPLES: smp->records = optarg, sampling = true; break;
        case OPT_COMMIT_TRACE: smp->commit_trace = optarg; break;
        case OPT_SAMPLED_CSV: sampled_csv = optarg, sampling = true; break;
        case OPT_PSV_EXTRA:
            if (psv_parse(optarg, &smp->cfg.psv_extra)) smp->cfg.psv_extra = UINT16_MAX;
            if (!strcmp(optarg, "all")) smp->cfg.psv_extra = PSV_EXTRA;
            if (smp->cfg.psv_extra & ~PSV_EXTRA)
                die("--psv-extra: expected 'all' or a list of FL-CSR, ST-LAT, ST-L2, ST-WALK, DR-BTB, got '%s'", optarg);
            break;
        case OPT_PICS: smp->pics = true; break;
        case OPT_REPORT: report = optarg; break;
        case OPT_PLOTS: plots = not_stdout("--plots", optarg, "a directory"); break;
        case OPT_ANNOTATE_PROFILER:
            if (!profiler_policy_find(optarg)) die("--annotate-profiler: unknown profiler '%s' (see --help)", optarg);
            md.annotate = optarg;
            break;
        case OPT_ANNOTATE_FUNCTIONS: md.functions = (size_t)count_arg("--annotate-functions", optarg, false); break;
        case OPT_SENS: sens_list = optarg; break;
        case OPT_SENS_PRESET: sens_preset = optarg; break;
        case OPT_SENS_FACTORS:
            if ((nsens_factors = resource_parse_factors(optarg, sens_factors, 16, err, sizeof err)) < 0)
                die("--sensitivity-factors: %s", err);
            break;
        case OPT_SENS_THRESHOLD:
            if (!parse_double(optarg, &so.threshold) || so.threshold < 0)
                die("--sensitivity-threshold: expected a percentage, got '%s'", optarg);
            so.threshold /= 100;
            break;
        case OPT_ICOST:
            if (icost_parse(&ic, optarg, err, sizeof err)) die("--icost: %s", err);
            icost = true;
            break;
        case OPT_ICOST_TRIPLES: icost_triples = true; break;
        case OPT_PM_SAMPLES: smp->pm_records = optarg; break;
        case OPT_PM_INTERVAL: smp->pm.interval = count_arg("--profileme-interval", optarg, true); break;
        case OPT_PAIR_WINDOW:
            smp->pm.window = (uint32_t)count_arg("--pair-window", optarg, true);
            if (smp->pm.window > 4096) die("--pair-window: at most 4096 instructions, got '%s'", optarg);
            break;
        case OPT_ICOST_LOADS:
            icost_loads = (int)count_arg("--icost-loads", optarg, true);
            if (icost_loads < 2 || icost_loads > ICOST_MAX_ELEMENTS) die("--icost-loads: expected 2 to %d, got '%s'",
                                                                        ICOST_MAX_ELEMENTS, optarg);
            break;
        case OPT_SENS_TOP: so.top = (size_t)count_arg("--sensitivity-top", optarg, false); break;
        case 'h': fputs(usage, stdout); return 0;
        case '?':
            if (optopt) die("option -%c: unknown or missing its argument (see --help)", optopt);
            die("unknown option '%s' (see --help)", argv[optind - 1]);
        default:
            if (!guest_cli_option(&o.guest, c, optarg)) die("unexpected option (see --help)");
        }
    }
    for (int i = 0; i < nsets; i++)
        if (uarch_config_set(&o.cfg, sets[i], err, sizeof err)) die("%s", err);
    if (uarch_config_check(&o.cfg, err, sizeof err)) die("%s: %s", o.config_source, err);
    if (list) {
        uarch_config_print(&o.cfg, stdout);
        return 0;
    }
    if (optind >= argc) die(full ? "no program given (see --help)" : "no checkpoints given (see --help; --full for a program)");
    if (full && o.warmup != WARMUP_DETAILED) die("--warmup applies to checkpoint regions, not --full");
    if (!full && o.interval_log) die("--interval-log needs --full");
    if (jobs) omp_set_num_threads(jobs);
    if (hz && smp->cfg.period) die("--sample-hz and --sample-period: give one of them");
    if (icost_triples && !icost && !icost_loads) die("--icost-triples needs --icost or --icost-loads");
    depgraph_config graph_cfg;
    if (icost) {
        icost_graph_config(&ic, icost_triples, &graph_cfg);
        smp->graph = &graph_cfg;
    }
    if (sens_list && sens_preset) die("--sensitivity and --sensitivity-preset: give one of them");
    if (sens_list) so.nvariants = resource_variants(&o.cfg, sens_list, sens_factors, nsens_factors, &so.variants, err,
                                                    sizeof err);
    if (sens_preset) so.nvariants = resource_preset(&o.cfg, sens_preset, &so.variants, err, sizeof err);
    if (so.nvariants < 0) die("%s: %s", sens_list ? "--sensitivity" : "--sensitivity-preset", err);
    if ((smp->pm.interval || smp->pm.window || smp->pm_records) && !smp->profileme)
        die("--profileme-interval, --pair-window and --profileme-samples need --sample profileme");
    if (smp->profileme) {
        smp->pm.interval = smp->pm.interval ? smp->pm.interval : 1000;
        smp->pm.seed = smp->cfg.seed;
        if (smp->pm.window && smp->pm.interval < 4 * (uint64_t)smp->pm.window)
            die("--pair-window %u: at most a quarter of --profileme-interval (%llu), so pairs do not overlap", smp->pm.window,
                (unsigned long long)smp->pm.interval);
    }
    if (sampling) {
        if (!smp->nprofilers && !smp->profileme) parse_profilers(smp, (char[]){"all"});
        if (smp->nprofilers && !smp->cfg.period) smp->cfg.hz = hz ? hz : 4000, smp->cfg.period = sampling_period(smp->cfg.hz, o.cfg.freq_mhz);
    }

    /* An output that cannot be written fails now, not after the simulation. */
    const char *outputs[] = {output,           profile,           sampled_csv,      report,
                             o.interval_log,   smp->records,      smp->commit_trace, smp->pm_records};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) outfile_probe(outputs[i]);

    rv_symtab syms = {0};
    block_ids blocks = {0};
    if (o.bbmap) block_ids_load(&blocks, o.bbmap);
    sim_result *res;
    size_t n;
    int status = 0;
    if (full) {
        util_die_status = 125;
        res = calloc(1, sizeof *res);
        if (!res) die("out of memory");
        sim_full(&o, argc - optind, argv + optind, res);
        n = 1;
        status = !strcmp(res->stopped_by, "limit") ? 0 : res->exit_status;
    } else {
        n = sim_regions(&o, argv + optind, argc - optind, &res);
        for (size_t i = 0; i < n; i++)
            if (!res[i].pcs) {
                warn("%s: %s", res[i].checkpoint, res[i].message ? res[i].message : "failed");
                status = 1;
            }
    }
    for (size_t i = 0; i < n && !syms.n; i++)
        if (res[i].program) symtab_load(&syms, res[i].program, 0);
    report_ctx x = {.syms = &syms, .blocks = &blocks, .top = top};
    sensitivity sens = {0};
    if (so.nvariants && (full || !status))
        sensitivity_run(&sens, &o, &(sim_target){full, argc - optind, argv + optind}, res, n, &so);
    else if (so.nvariants && !full) warn("no sensitivity study: a region failed");
    sim_target target = {full, argc - optind, argv + optind};
    if ((icost || icost_loads) && !full && status) warn("no interaction costs: a region failed"), icost = false, icost_loads = 0;
    if (icost) icost_run(&ic, icost_triples, &o, &target, res, n);
    if (icost_loads) {
        icost_choose_loads(&icl, icost_loads, res, n, &syms);
        if (icl.n < 2) warn("--icost-loads: fewer than two loads stall the ROB head"), icost_loads = 0;
        else icost_run(&icl, icost_triples, &o, &target, res, n);
    }
    if (profile) {
        if (n != 1) die("--profile needs --full or a single region (%zu regions given)", n);
        if (res[0].pcs) profile_csv(profile, &res[0], &x);
    }
    if (output && status && !full) {
        warn("no results written to %s: a region failed", output);
        output = NULL;
    }
    if (output) {
        json_t *results = json_array();
        for (size_t i = 0; i < n; i++) json_array_append_new(results, result_json(&res[i], &x));
        char digest[32];
        snprintf(digest, sizeof digest, "%016llx", (unsigned long long)uarch_config_digest(&o.cfg));
        json_t *top_json = json_pack("{s:s, s:i, s:s, s:{s:s, s:s, s:o}, s:I, s:o}", "tool", "sim", "version", 1,
                                     "mode", full ? "full" : "regions", "config", "source", o.config_source, "digest",
                                     digest, "params", uarch_config_json(&o.cfg), "units_per_cycle",
                                     (json_int_t)(n ? res[0].units : 0), "results", results);
        json_t *combined = full ? NULL : combined_json(res, n, o.total_insts, &x);
        if (combined) json_object_set_new(top_json, "combined", combined);
        if (sens.out) json_object_set_new(top_json, "sensitivity", sensitivity_json(&sens, &x));
        if (icost) json_object_set_new(top_json, "icost", icost_json(&ic));
        if (icost_loads) json_object_set_new(top_json, "icost_loads", icost_json(&icl));
        if (full && o.interval_log)
            json_object_set_new(json_array_get(results, 0), "interval_log",
                                json_pack("{s:s, s:I}", "path", o.interval_log, "interval", (json_int_t)o.log_interval));
        json_write_file(output, top_json);
        json_decref(top_json);
    }
    if (report) report_markdown(report, res, n, &x, &md);
    if (plots) sim_plots(plots, res, n, &x);
    for (size_t i = 0; plots && i < n; i++)
        if (res[i].profileme) {
            profileme_plot(res[i].profileme, plots);
            break;
        }
    if (plots && icost) icost_plot(&ic, plots, "icost");
    if (plots && icost_loads) icost_plot(&icl, plots, "icost_loads");
    if (sampled_csv) {
        outfile *csv = outfile_open(sampled_csv);
        sampled_csv_header(csv);
        for (size_t i = 0; i < n; i++) {
            if (!res[i].pcs) continue;
            symbolizer sym;
            symbolizer_init(&sym, &syms, res[i].blocks, res[i].nblocks);
            sampled_csv_rows(csv, &res[i], i, &sym);
            symbolizer_free(&sym);
        }
        outfile_commit(csv);
    }
    if (!quiet)
        for (size_t i = 0; i < n; i++) {
            result_summary(stderr, &res[i], &x);
            if (res[i].profileme)
                profileme_summary(stderr, res[i].profileme, res[i].pcs, res[i].npcs, res[i].units, &syms);
            if (!res[i].pcs || (!res[i].nsampled && !res[i].pics)) continue;
            symbolizer sym;
            symbolizer_init(&sym, &syms, res[i].blocks, res[i].nblocks);
            sampled_summary(stderr, &res[i], &sym);
            if (res[i].pics) pics_summary(stderr, &res[i], &sym);
            symbolizer_free(&sym);
        }
    if (!quiet) combined_summary(stderr, res, n, o.total_insts);
    if (!quiet && sens.out) sensitivity_print(stderr, &sens, &x);
    if (!quiet && icost) icost_print(stderr, &ic);
    if (!quiet && icost_loads) icost_print(stderr, &icl);
    icost_free(&ic);
    icost_free(&icl);
    if (sens.out) sensitivity_free(&sens);
    free(so.variants);
    for (size_t i = 0; i < n; i++) sim_result_free(&res[i]);
    free(res);
    symtab_free(&syms);
    block_ids_free(&blocks);
    guest_cli_free(&o.guest);
    free(smp->profilers);
    free(smp->sweep_hz);
    return status;
}
