/* sim's command line: the options, their checks, and what they combine
 * into (sampling defaults, sensitivity variants, icost's graph). */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunk_part.h"
#include "distinct_outputs.h"
#include "outfile.h"
#include "util.h"

const char sim_usage[] =
    "Usage: sim --full [options] -- PROGRAM [ARGS...]\n"
    "       sim [options] CKPT...\n"
    "Simulate a 4-wide out-of-order RISC-V core (SonicBOOM-like) cycle by cycle and account\n"
    "for every cycle: CPI, a commit-state cycle stack (computing / stalled / flushed /\n"
    "drained, with causes) and the exact per-instruction attribution of time (TIP's Oracle).\n"
    "RESULTS.md, the formats of what sim writes: sim/RESULTS.md in the source tree,\n"
    "PREFIX/share/doc/rvsample/RESULTS.md once installed (make install).\n"
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
    "      --chunk-insts C     in chunks of C instructions (a multiple of -G) simulated in\n"
    "                          parallel: a functional pass warms caches, TLBs and predictors\n"
    "                          and checkpoints every chunk, each chunk runs in detail after a\n"
    "                          detailed warm-up, and the chunks are stitched into one result\n"
    "                          (sampled profiles too: their periods go on across chunks);\n"
    "                          each chunk starts as soon as the pass has gone one chunk past\n"
    "                          its checkpoint, on OpenMP's threads (the pass runs on one of them)\n"
    "      --chunks N          ... in N chunks of the program's --total-insts\n"
    "      --chunk-warmup W    the detailed warm-up before each chunk (default 500k, a quarter\n"
    "                          of the chunk for chunks under 2M)\n"
    "      --chunk-pass DIR    with --chunk-insts or --chunks: the functional pass alone, each\n"
    "                          chunk's checkpoint put in DIR once ready (a job array's tasks\n"
    "                          wait for theirs: sim --stitch --part K DIR)\n"
    "      --stitch CKPT...    the same from the chunks of checkpoint --chunk-insts\n"
    "      --part K --part-out F  with --stitch: chunk K alone (from 0), its result into the\n"
    "                          part F, for a task of a job array (sim/RESULTS.md); the\n"
    "                          checkpoints may be a --chunk-pass DIR, its pass still running\n"
    "      --stitch PART...    the parts of every chunk stitched into one result\n"
    "Checkpoint regions (default mode):\n"
    "      --warmup MODE       none | detailed | functional | checkpoint |\n"
    "                          checkpoint+detailed (default detailed):\n"
    "                          what happens over each region's warm-up window: skipped cold,\n"
    "                          simulated in detail, caches/TLBs/predictors warmed by the\n"
    "                          functional model, or warm state loaded from the checkpoint\n"
    "                          (checkpoint --warm CONFIG) and then functionally warmed\n"
    "  -j, --jobs N            regions simulated in parallel (default: all cores)\n"
    "      --total-insts N     the program's instruction count (bbv --summary's): --full shows\n"
    "                          percent done and ETA; regions project total cycles (k/M/G suffixes)\n"
    "      --program PATH      use this copy of the program (its CRC must match)\n"
    "Output:\n"
    "  -o, --output FILE       JSON results (format: RESULTS.md; '-' = stdout)\n"
    "      --profile FILE      the complete golden profile as CSV, one row per static pc\n"
    "                          (--full, or a single region)\n"
    "      --profile-top N     entries per profile list in the JSON (default 50, 0 = all)\n"
    "      --bbmap FILE        label blocks with the ids of a bbv .bbmap\n"
    "Sampled profiling (the same sample cycles for every profiler, each scored against the\n"
    "golden attribution; RESULTS.md):\n"
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
    "      --sample-hz HZ      sampling frequency at the core clock (default: 4000 = every\n"
    "                          800,000 cycles at 3.2 GHz, faster in a run of known length\n"
    "                          so that it gets at least 1000 samples, at a random cycle of\n"
    "                          each period: periodic sampling aliases with loops)\n"
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
    OPT_CHUNK_INSTS, OPT_CHUNKS, OPT_CHUNK_WARMUP, OPT_STITCH, OPT_PART, OPT_PART_OUT, OPT_CHUNK_PASS,
};

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
    {"chunk-insts", required_argument, NULL, OPT_CHUNK_INSTS}, {"chunks", required_argument, NULL, OPT_CHUNKS},
    {"chunk-warmup", required_argument, NULL, OPT_CHUNK_WARMUP}, {"stitch", no_argument, NULL, OPT_STITCH},
    {"part", required_argument, NULL, OPT_PART}, {"part-out", required_argument, NULL, OPT_PART_OUT},
    {"chunk-pass", required_argument, NULL, OPT_CHUNK_PASS},
    GUEST_LONG_OPTIONS,
    {NULL, 0, NULL, 0},
};

enum { MAX_SETS = 256, MAX_SENS_FACTORS = 16 };

/* What the options say that only means something once all are read. */
typedef struct pending {
    const char *sets[MAX_SETS];  /* --set, applied over --config's file */
    int nsets;
    bool list_params;
    bool sampling;               /* an option that implies sampled profiling */
    double hz;                   /* --sample-hz; 0: not given */
    const char *sens_list, *sens_preset;
    double sens_factors[MAX_SENS_FACTORS];
    int nsens_factors;
    bool sens_factors_given;
} pending;

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
    for (char *rest = list, *name; (name = strsep(&rest, ","));) {
        if (!*name) die("--sample: an empty name in the list (see --help)");
        if (!strcmp(name, "profileme")) {
            if (s->profileme) die("--sample: 'profileme' given twice");
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
    die("--warmup: expected none, detailed, functional, checkpoint or checkpoint+detailed, got '%s'", s);
}

static uint64_t count_arg(const char *opt, const char *arg, bool positive)
{
    uint64_t v;
    if (!parse_count(arg, &v) || (positive && !v)) die("%s: expected a %scount (k/M/G suffixes), got '%s'", opt,
                                                      positive ? "positive " : "", arg);
    return v;
}

/* ProfileMe draws each gap in [1, 2S-1], and the JSON's integers are
 * signed: S stays far from where either would wrap. */
#define PROFILEME_MAX_INTERVAL 1000000000000000000ull

/* As simpoint's --threads: OpenMP runtimes overflow their stacks or wrap
 * far beyond this, and a region per thread needs its own memory anyway. */
enum { MAX_JOBS = 4096 };
static int jobs_arg(const char *arg)
{
    uint64_t v;
    if (!parse_count(arg, &v) || v < 1 || v > MAX_JOBS) die("--jobs: expected 1 to %d, got '%s'", MAX_JOBS, arg);
    return (int)v;
}

static void psv_extra_arg(sampling_options *s, const char *arg)
{
    if (psv_parse(arg, &s->cfg.psv_extra)) s->cfg.psv_extra = UINT16_MAX;
    if (!strcmp(arg, "all")) s->cfg.psv_extra = PSV_EXTRA;
    if (s->cfg.psv_extra & ~PSV_EXTRA)
        die("--psv-extra: expected 'all' or a list of FL-CSR, ST-LAT, ST-L2, ST-WALK, DR-BTB, got '%s'", arg);
}

/* The core, the program or regions, and how they run; false if c is not one of these. */
static bool run_option(sim_cli *cli, pending *p, int c, char *arg)
{
    sim_options *o = &cli->o;
    char err[512];
    switch (c) {
    case 'c':
        if (uarch_config_load(&o->cfg, arg, err, sizeof err)) die("%s", err);
        o->config_source = arg;
        break;
    case OPT_SET:
        if (p->nsets == MAX_SETS) die("--set: at most 256 overrides");
        p->sets[p->nsets++] = arg;
        break;
    case OPT_LIST: p->list_params = true; break;
    case OPT_FULL: cli->target.full = true; break;
    case 'G': o->log_interval = count_arg("--log-interval", arg, true); break;
    case OPT_ILOG: o->interval_log = arg; break;
    case OPT_MAX: o->max_insts = count_arg("--max-insts", arg, true); break;
    case OPT_GUEST_OUTPUT: o->guest_output = arg; break;
    case OPT_WARMUP: o->warmup = parse_warmup(arg); break;
    case 'j': cli->jobs = jobs_arg(arg); break;
    case OPT_TOTAL_INSTS: o->total_insts = count_arg("--total-insts", arg, true); break;
    case OPT_PROGRAM: o->program = arg; break;
    case OPT_CHUNK_INSTS: cli->chunks.insts = count_arg("--chunk-insts", arg, true); break;
    case OPT_CHUNKS: cli->chunks.count = count_arg("--chunks", arg, true); break;
    case OPT_CHUNK_WARMUP: cli->chunks.warmup = count_arg("--chunk-warmup", arg, false); break;
    case OPT_STITCH: cli->chunks.stitch = cli->target.full = true; break;
    case OPT_PART: cli->chunks.part = count_arg("--part", arg, false); break;
    case OPT_PART_OUT: cli->chunks.part_out = arg; break;
    case OPT_CHUNK_PASS: cli->chunks.pass_dir = arg; break;
    case OPT_BBMAP: o->bbmap = arg; break;
    case 'q': cli->quiet = true; break;
    case OPT_PROGRESS: o->progress = true; break;
    default: return false;
    }
    return true;
}

/* The results' files and reports; false if c is not one of these. */
static bool output_option(sim_cli *cli, pending *p, int c, char *arg)
{
    switch (c) {
    case 'o': cli->output = arg; break;
    case OPT_PROFILE: cli->profile = arg; break;
    case OPT_TOP: cli->top = (size_t)count_arg("--profile-top", arg, false); break;
    case OPT_SAMPLED_CSV: cli->sampled_csv = arg, p->sampling = true; break;
    case OPT_REPORT: cli->report = arg; break;
    case OPT_PLOTS: cli->plots = not_stdout("--plots", arg, "a directory"); break;
    case OPT_ANNOTATE_PROFILER:
        if (!profiler_policy_find(arg)) die("--annotate-profiler: unknown profiler '%s' (see --help)", arg);
        cli->md.annotate = arg;
        break;
    case OPT_ANNOTATE_FUNCTIONS: cli->md.functions = (size_t)count_arg("--annotate-functions", arg, false); break;
    default: return false;
    }
    return true;
}

/* Sampled profiling and ProfileMe; false if c is not one of these. */
static bool sampling_option(sim_cli *cli, pending *p, int c, char *arg)
{
    sampling_options *s = &cli->o.sampling;
    switch (c) {
    case OPT_SAMPLE: parse_profilers(s, arg), p->sampling = true; break;
    case OPT_SAMPLE_HZ: p->hz = hz_arg("--sample-hz", arg), p->sampling = true; break;
    case OPT_SAMPLE_PERIOD: s->cfg.period = count_arg("--sample-period", arg, true), p->sampling = true; break;
    case OPT_SAMPLE_RANDOM: s->cfg.random = p->sampling = true; break;
    case OPT_SAMPLE_SEED: s->cfg.seed = count_arg("--sample-seed", arg, false), p->sampling = true; break;
    case OPT_SAMPLE_SWEEP: parse_sweep(s, arg), p->sampling = true; break;
    case OPT_SAMPLES: s->records = arg, p->sampling = true; break;
    case OPT_COMMIT_TRACE: s->commit_trace = arg; break;
    case OPT_PSV_EXTRA: psv_extra_arg(s, arg); break;
    case OPT_PICS: s->pics = true; break;
    case OPT_PM_SAMPLES: s->pm_records = arg; break;
    case OPT_PM_INTERVAL:
        s->pm.interval = count_arg("--profileme-interval", arg, true);
        if (s->pm.interval > PROFILEME_MAX_INTERVAL) die("--profileme-interval: at most 10^18 instructions, got '%s'", arg);
        break;
    case OPT_PAIR_WINDOW:
        s->pm.window = (uint32_t)count_arg("--pair-window", arg, true);
        if (s->pm.window > 4096) die("--pair-window: at most 4096 instructions, got '%s'", arg);
        break;
    default: return false;
    }
    return true;
}

/* Sensitivity and interaction cost; false if c is not one of these. */
static bool whatif_option(sim_cli *cli, pending *p, int c, char *arg)
{
    sensitivity_options *so = &cli->sens;
    char err[512];
    switch (c) {
    case OPT_SENS: p->sens_list = arg; break;
    case OPT_SENS_PRESET: p->sens_preset = arg; break;
    case OPT_SENS_FACTORS:
        p->nsens_factors = resource_parse_factors(arg, p->sens_factors, MAX_SENS_FACTORS, err, sizeof err);
        if (p->nsens_factors < 0) die("--sensitivity-factors: %s", err);
        p->sens_factors_given = true;
        break;
    case OPT_SENS_THRESHOLD:
        if (!parse_double(arg, &so->threshold) || so->threshold < 0)
            die("--sensitivity-threshold: expected a percentage, got '%s'", arg);
        so->threshold /= 100;
        break;
    case OPT_SENS_TOP: so->top = (size_t)count_arg("--sensitivity-top", arg, false); break;
    case OPT_ICOST:
        if (icost_parse(&cli->icost_classes, arg, err, sizeof err)) die("--icost: %s", err);
        cli->icost = true;
        break;
    case OPT_ICOST_TRIPLES: cli->icost_triples = true; break;
    case OPT_ICOST_LOADS:
        cli->icost_loads = (int)count_arg("--icost-loads", arg, true);
        if (cli->icost_loads < 2 || cli->icost_loads > ICOST_MAX_ELEMENTS)
            die("--icost-loads: expected 2 to %d, got '%s'", ICOST_MAX_ELEMENTS, arg);
        cli->o.sampling.pics = true; /* which stalls were L1D misses: what an L1D hit can save */
        break;
    default: return false;
    }
    return true;
}

static void defaults(sim_cli *cli, pending *p)
{
    *cli = (sim_cli){
        .o = {.warmup = WARMUP_DETAILED, .log_interval = 1000000, .config_source = "built-in"},
        .top = 50,
        .md = {.annotate = "tip", .functions = 3, .rows = 20},
        .sens = {.threshold = 0.01, .top = 10},
        .chunks = {.warmup = UINT64_MAX, .part = UINT64_MAX},
    };
    uarch_config_defaults(&cli->o.cfg);
    cli->o.sampling.cfg.seed = 1;
    *p = (pending){.sens_factors = {2}, .nsens_factors = 1};
}

/* The options, up to the program or the first checkpoint. False for --help. */
static bool read_options(int argc, char **argv, sim_cli *cli, pending *p)
{
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+c:G:j:o:qh", longopts, NULL)) != -1) {
        if (c == 'h') return false;
        if (c == '?') {
            if (optopt) die("option -%c: unknown or missing its argument (see --help)", optopt);
            die("unknown option '%s' (see --help)", argv[optind - 1]);
        }
        if (!run_option(cli, p, c, optarg) && !output_option(cli, p, c, optarg) && !sampling_option(cli, p, c, optarg) &&
            !whatif_option(cli, p, c, optarg) && !guest_cli_option(&cli->o.guest, c, optarg))
            die("unexpected option (see --help)");
    }
    return true;
}

/* --set over the configuration file, then the whole configuration checked. */
static void apply_config(sim_options *o, const pending *p)
{
    char err[512];
    for (int i = 0; i < p->nsets; i++)
        if (uarch_config_set(&o->cfg, p->sets[i], err, sizeof err)) die("%s", err);
    if (uarch_config_check(&o->cfg, err, sizeof err)) die("%s: %s", o->config_source, err);
}

static void check_target(sim_cli *cli, int argc, char **argv)
{
    bool full = cli->target.full;
    if (optind >= argc)
        die(full && !cli->chunks.stitch ? "no program given (see --help)" : "no checkpoints given (see --help; --full for a program)");
    if (full && cli->o.warmup != WARMUP_DETAILED) die("--warmup applies to checkpoint regions, not --full");
    if (!full && cli->o.interval_log) die("--interval-log needs --full");
    cli->target.argc = argc - optind;
    cli->target.argv = argv + optind;
}

/* sim --stitch PART...: the first target is a chunk part. */
static bool chunk_parts_given(const sim_cli *cli)
{
    return cli->chunks.stitch && cli->target.argc > 0 && chunk_part_is(cli->target.argv[0]);
}

/* A chunked run stitches what sums over chunks; what does not is refused. */
static void setup_chunks(sim_cli *cli)
{
    chunk_options *co = &cli->chunks;
    const sim_options *o = &cli->o;
    const sampling_options *s = &o->sampling;
    bool chunked = co->insts || co->count || co->stitch;
    if (co->insts && co->count) die("--chunk-insts and --chunks: give one of them");
    if (!chunked) {
        if (co->warmup != UINT64_MAX) die("--chunk-warmup needs --chunk-insts or --chunks");
        if (co->part_out || co->part != UINT64_MAX) die("--part and --part-out need --stitch");
        if (co->pass_dir) die("--chunk-pass needs --chunk-insts or --chunks");
        return;
    }
    if (co->stitch && (co->insts || co->count || co->warmup != UINT64_MAX))
        die("--stitch takes the chunks' size and warm-up from their checkpoints (checkpoint --chunk-insts --warmup)");
    if ((co->part != UINT64_MAX) != (co->part_out != NULL)) die("--part K and --part-out FILE go together");
    if (co->part_out && !co->stitch) die("--part needs --stitch: one chunk of checkpoint --chunk-insts's checkpoints");
    if (co->part_out && (cli->output || o->interval_log || cli->report || cli->plots || cli->profile || cli->sampled_csv))
        die("--part writes its chunk's part only (--part-out): -o, --interval-log and the reports belong to the "
            "stitch of the parts (sim --stitch PART...)");
    if (!cli->target.full) die("--chunk-insts and --chunks need --full");
    if (co->pass_dir && (co->stitch || cli->output || o->interval_log || cli->report || cli->plots || cli->profile ||
                         cli->sampled_csv))
        die("--chunk-pass runs the pass alone: its chunks are simulated and stitched by sim --stitch");
    if (co->count && !o->total_insts) die("--chunks N needs the program's length: --total-insts (bbv's count)");
    if (o->max_insts) die("--max-insts: not with a chunked run");
    if ((s->records || s->commit_trace || s->pm_records) && (co->part_out || co->pass_dir || chunk_parts_given(cli)))
        die("--samples, --commit-trace and --profileme-samples are stitched by sim --full --chunk-insts and sim --stitch "
            "over checkpoints, not over a job array's parts");
    if (cli->sens.nvariants || cli->icost || cli->icost_loads)
        die("--sensitivity and --icost run the program again: not with a chunked run");
    if (co->warmup == UINT64_MAX)
        co->warmup = co->stitch ? CKPT_CHUNK_WARMUP_DEFAULT
                                : ckpt_chunk_warmup_default(chunk_insts(co, o->total_insts, o->log_interval));
    char err[256];
    if (!co->stitch && !chunk_size(co, o->total_insts, o->log_interval, err, sizeof err)) die("%s", err);
}

static void setup_icost(sim_cli *cli)
{
    if (cli->icost_triples && !cli->icost && !cli->icost_loads) die("--icost-triples needs --icost or --icost-loads");
    if (!cli->icost) return;
    icost_graph_config(&cli->icost_classes, cli->icost_triples, &cli->graph);
    cli->o.sampling.graph = &cli->graph;
}

static void setup_sensitivity(sim_cli *cli, const pending *p)
{
    sensitivity_options *so = &cli->sens;
    char err[512];
    if (p->sens_list && p->sens_preset) die("--sensitivity and --sensitivity-preset: give one of them");
    if (p->sens_factors_given && !p->sens_list) die("--sensitivity-factors needs --sensitivity (a preset has its own)");
    if (p->sens_list)
        so->nvariants = resource_variants(&cli->o.cfg, p->sens_list, p->sens_factors, p->nsens_factors, &so->variants,
                                          err, sizeof err);
    if (p->sens_preset) so->nvariants = resource_preset(&cli->o.cfg, p->sens_preset, &so->variants, err, sizeof err);
    if (so->nvariants < 0) die("%s: %s", p->sens_list ? "--sensitivity" : "--sensitivity-preset", err);
}

static void setup_profileme(sampling_options *s)
{
    if ((s->pm.interval || s->pm.window || s->pm_records) && !s->profileme)
        die("--profileme-interval, --pair-window and --profileme-samples need --sample profileme");
    if (!s->profileme) return;
    s->pm.interval = s->pm.interval ? s->pm.interval : 1000;
    s->pm.seed = s->cfg.seed;
    if (s->pm.window && s->pm.interval < 4 * (uint64_t)s->pm.window)
        die("--pair-window %u: at most a quarter of --profileme-interval (%llu), so pairs do not overlap", s->pm.window,
            (unsigned long long)s->pm.interval);
}

/* A sampling frequency gives a period of at least one cycle (no faster than
 * the core's clock) and under 2^63 (a sampler's count would wrap). */
static void check_frequency(const char *opt, double hz, int freq_mhz)
{
    double period = freq_mhz * 1e6 / hz;
    if (!(period >= 1 && period < 0x1p63))
        die("%s %g: a period of %g cycles at the core's %d MHz; expected 1 cycle to 2^63", opt, hz, period, freq_mhz);
}

static void check_frequencies(const sim_options *o, const pending *p)
{
    if (p->hz) check_frequency("--sample-hz", p->hz, o->cfg.freq_mhz);
    for (int i = 0; i < o->sampling.nsweep; i++)
        check_frequency("--sample-sweep-hz", o->sampling.sweep_hz[i], o->cfg.freq_mhz);
}

/* Any sampling option samples with every profiler at 4 kHz unless told otherwise. */
static void setup_sampling(sim_options *o, const pending *p)
{
    sampling_options *s = &o->sampling;
    if (!p->sampling) return;
    if (!s->nprofilers && !s->profileme) parse_profilers(s, (char[]){"all"});
    bool given = p->hz || s->cfg.period; /* kept as given; the default adapts to the run's length */
    if (s->nprofilers && !s->cfg.period) s->cfg.hz = p->hz ? p->hz : 4000, s->cfg.period = sampling_period(s->cfg.hz, o->cfg.freq_mhz);
    /* A short period is likelier a multiple of some loop's iteration time:
     * the default samples one random cycle in each period. */
    if (s->nprofilers && !given) s->cfg.min_samples = SAMPLES_ENOUGH, s->cfg.random = true;
}

/* An output that cannot be written fails now, not after the simulation;
 * two outputs on one file are refused (one would overwrite the other). */
static void probe_outputs(const sim_cli *cli)
{
    const sampling_options *s = &cli->o.sampling;
    const named_output outputs[] = {
        {"-o", cli->output},           {"--profile", cli->profile},         {"--sampled-csv", cli->sampled_csv},
        {"--report", cli->report},     {"--interval-log", cli->o.interval_log}, {"--samples", s->records},
        {"--commit-trace", s->commit_trace}, {"--profileme-samples", s->pm_records},
        {"--part-out", cli->chunks.part_out},
    };
    size_t n = sizeof outputs / sizeof outputs[0];
    outputs_distinct(outputs, n);
    for (size_t i = 0; i < n; i++) outfile_probe(outputs[i].path);
}

enum sim_mode sim_cli_parse(int argc, char **argv, sim_cli *cli)
{
    pending p;
    defaults(cli, &p);
    if (!read_options(argc, argv, cli, &p)) return SIM_HELP;
    apply_config(&cli->o, &p);
    if (p.list_params) return SIM_LIST_PARAMS;
    check_target(cli, argc, argv);
    if (p.hz && cli->o.sampling.cfg.period) die("--sample-hz and --sample-period: give one of them");
    setup_icost(cli);
    setup_sensitivity(cli, &p);
    setup_profileme(&cli->o.sampling);
    check_frequencies(&cli->o, &p);
    setup_sampling(&cli->o, &p);
    setup_chunks(cli);
    probe_outputs(cli);
    if (cli->chunks.part_out) return SIM_PART;
    if (cli->chunks.pass_dir) return SIM_PASS;
    return cli->target.full ? SIM_FULL : SIM_REGIONS;
}

void sim_cli_free(sim_cli *cli)
{
    icost_free(&cli->icost_classes);
    free(cli->sens.variants);
    guest_cli_free(&cli->o.guest);
    free(cli->o.sampling.profilers);
    free(cli->o.sampling.sweep_hz);
}
