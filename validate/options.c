#include "options.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

const char vd_usage[] =
    "Usage: validate --simpoints F --weights F [--labels F] --interval N --full FULL.json [options]\n"
    "       validate --sweep MANIFEST [--full FULL.json] [--target PCT] [options]\n"
    "\n"
    "Validate SimPoint sampling against a full detailed run, as ROIperf does: extrapolate CPI\n"
    "(sum of weight x CPI) and every rate metric (ratios of weighted sums: MPKI, cycle-stack\n"
    "components), project total cycles, and report the signed error split in two: sampling\n"
    "(the representatives' intervals measured inside the full run, from its per-interval log)\n"
    "and warm-up/checkpoint (simulated regions against those same intervals). Errors are\n"
    "(predicted - full) / full; ROIperf prints the opposite sign.\n"
    "\n"
    "Inputs:\n"
    "      --simpoints F        SimPoint .simpoints ('<interval> <cluster>')\n"
    "      --weights F          SimPoint .weights ('<weight> <cluster>')\n"
    "      --labels F           SimPoint .labels ('<cluster> <distance>' per interval): cluster\n"
    "                           statistics, the 95% interval and the bootstrap need it\n"
    "  -i, --interval N         interval size (k/M/G suffixes); a multiple of the full run's log interval\n"
    "      --full F             result of sim --full (JSON)\n"
    "      --log F              its per-interval log (default: the result's interval_log.path)\n"
    "      --regions F          results of sim on the checkpoints (JSON); repeatable. Without it\n"
    "                           only the sampling error is reported (arithmetic on the log)\n"
    "      --profile-summary F  the profile's instruction count, from bbv --summary or simpoint --json;\n"
    "                           it must equal the full run's exactly\n"
    "      --profile-insts N    the same, as a number\n"
    "      --checkpoints F      checkpoints.json of the regions: with --profile-summary, the\n"
    "                           wall time of the sampled flow for the wall-time speedup\n"
    "      --name NAME          application name in the reports (default: the program's file name)\n"
    "      --allow-mismatch     differing instruction totals or core configurations: warn, go on\n"
    "      --reweighted         the regions include a first stage's, simulated before a second stage\n"
    "                           (simpoint --measured --target-ci) changed their weights: a region's\n"
    "                           weight may differ from --weights, whose is used; interval and cluster\n"
    "                           must still match\n"
    "\n"
    "Estimates:\n"
    "      --warmup N           warm-up instructions per region, for the cost without --regions [0]\n"
    "      --warmup-intervals K the same as K intervals\n"
    "      --bootstrap N        random choices of representative to draw (0: none) [1000; sweep: 0]\n"
    "      --seed S             seed of the bootstrap [1]\n"
    "      --heavy W            flag clusters of weight >= W ... [0.1]\n"
    "      --max-cov C          ... whose CPI varies with a coefficient of variation >= C [0.1]\n"
    "      --flag-error PCT     flag clusters and regions that add >= PCT to the CPI error [1%]\n"
    "\n"
    "Outputs (default: the Markdown report on stdout):\n"
    "  -o, --out DIR            all of them in DIR: report.md, report.json, summary/metrics/regions/\n"
    "                           clusters .csv, plots/ (sweep: sweep.md, sweep.json, rows/configs .csv)\n"
    "      --markdown F         the Markdown report ('-' = stdout)\n"
    "      --json F             the JSON report ('-' = stdout)\n"
    "      --csv PREFIX         PREFIX.summary.csv, .metrics.csv, .regions.csv, .clusters.csv\n"
    "                           (sweep: PREFIX.rows.csv, PREFIX.configs.csv)\n"
    "      --plots DIR          gnuplot scripts, data, SVG and PNG\n"
    "      --max-error PCT      exit with status 2 when |CPI error| > PCT (sweep: at no configuration\n"
    "                           is the mean |error| within PCT)\n"
    "  -q, --quiet              no warnings on stderr (they stay in the reports)\n"
    "  -h, --help               this help\n"
    "\n"
    "Sweep mode (--sweep MANIFEST): many configurations of one or more programs, validated by\n"
    "arithmetic on each program's full-run log. The manifest is tab-separated with a header line\n"
    "naming its columns ('#' lines are comments, relative paths are relative to the manifest):\n"
    "  program   name (default: the full run's program)\n"
    "  interval  interval size (required)       max_k  SimPoint's MaxK (required)\n"
    "  bic       BIC threshold (or '-')         simpoints, weights (required), labels (or '-')\n"
    "  full      sim --full result (default: --full)\n"
    "  regions   sim results of the configuration's regions, to measure warm-up error too (or '-')\n"
    "  method    how the points were chosen (e.g. simpoint, proxy-select, stratify); part of the\n"
    "            configuration: methods are compared on the same full-run logs [simpoint]\n"
    "  seconds   wall time of choosing them (profiling + clustering), summed per configuration (or '-')\n"
    "It reports chosen k, simulated instructions with and without warm-up, speedup and error per\n"
    "program and configuration; the mean and largest |error| over the programs; the Pareto front of\n"
    "mean |error| against simulated instructions; heat maps over MaxK x interval size; and the\n"
    "cheapest configuration within the target, overall and per interval size; with several\n"
    "methods, a table of every method at the baseline MaxK per interval size (the first method\n"
    "in the manifest is the baseline's).\n"
    "      --sweep MANIFEST     the configurations\n"
    "      --target PCT         error target: over the programs, the mean of |CPI error| + the\n"
    "                           half-width of its 95% confidence interval (|error| alone without\n"
    "                           labels) [1%]\n"
    "      --baseline K[,T]     reference configuration per interval size, MaxK and BIC [30,0.9]\n"
    "\n"
    "PCT: a percentage, '1%' or '1'. Exit status: 0 done, 1 bad input or inconsistent inputs\n"
    "(one line: 'validate: FILE:LINE: reason'; no output is written), 2 over --max-error.\n";

enum {
    OPT_SIMPOINTS = 0x100, OPT_WEIGHTS, OPT_LABELS, OPT_FULL, OPT_LOG, OPT_REGIONS, OPT_PROFILE_SUMMARY, OPT_CHECKPOINTS,
    OPT_PROFILE_INSTS, OPT_NAME, OPT_ALLOW_MISMATCH, OPT_REWEIGHTED, OPT_WARMUP, OPT_WARMUP_INTERVALS, OPT_BOOTSTRAP, OPT_SEED,
    OPT_HEAVY, OPT_MAX_COV, OPT_FLAG_ERROR, OPT_MARKDOWN, OPT_JSON, OPT_CSV, OPT_PLOTS, OPT_MAX_ERROR, OPT_SWEEP,
    OPT_TARGET, OPT_BASELINE,
};

static const struct option longopts[] = {
    {"simpoints", required_argument, NULL, OPT_SIMPOINTS},
    {"weights", required_argument, NULL, OPT_WEIGHTS},
    {"labels", required_argument, NULL, OPT_LABELS},
    {"interval", required_argument, NULL, 'i'},
    {"full", required_argument, NULL, OPT_FULL},
    {"log", required_argument, NULL, OPT_LOG},
    {"regions", required_argument, NULL, OPT_REGIONS},
    {"profile-summary", required_argument, NULL, OPT_PROFILE_SUMMARY},
    {"checkpoints", required_argument, NULL, OPT_CHECKPOINTS},
    {"profile-insts", required_argument, NULL, OPT_PROFILE_INSTS},
    {"name", required_argument, NULL, OPT_NAME},
    {"allow-mismatch", no_argument, NULL, OPT_ALLOW_MISMATCH},
    {"reweighted", no_argument, NULL, OPT_REWEIGHTED},
    {"warmup", required_argument, NULL, OPT_WARMUP},
    {"warmup-intervals", required_argument, NULL, OPT_WARMUP_INTERVALS},
    {"bootstrap", required_argument, NULL, OPT_BOOTSTRAP},
    {"seed", required_argument, NULL, OPT_SEED},
    {"heavy", required_argument, NULL, OPT_HEAVY},
    {"max-cov", required_argument, NULL, OPT_MAX_COV},
    {"flag-error", required_argument, NULL, OPT_FLAG_ERROR},
    {"out", required_argument, NULL, 'o'},
    {"markdown", required_argument, NULL, OPT_MARKDOWN},
    {"json", required_argument, NULL, OPT_JSON},
    {"csv", required_argument, NULL, OPT_CSV},
    {"plots", required_argument, NULL, OPT_PLOTS},
    {"max-error", required_argument, NULL, OPT_MAX_ERROR},
    {"sweep", required_argument, NULL, OPT_SWEEP},
    {"target", required_argument, NULL, OPT_TARGET},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char *opt_name(int c)
{
    for (const struct option *o = longopts; o->name; o++)
        if (o->val == c)
            return o->name;
    return "?";
}

static uint64_t count_arg(int c, const char *arg)
{
    uint64_t v;
    if (!parse_count(arg, &v))
        die("--%s: expected a count (k/M/G suffixes), got '%s'", opt_name(c), arg);
    return v;
}

static double real_arg(int c, const char *arg, double lo, double hi)
{
    double v;
    if (!vd_parse_real(arg, &v) || v < lo || v > hi)
        die("--%s: expected a number in [%g, %g], got '%s'", opt_name(c), lo, hi, arg);
    return v;
}

static double percent_arg(int c, const char *arg)
{
    double v;
    if (!vd_parse_percent(arg, &v))
        die("--%s: expected a percentage such as 1%% or 0.5, got '%s'", opt_name(c), arg);
    return v;
}

static void baseline_arg(vd_options *o, const char *arg)
{
    char buf[64], *comma;
    long k;
    snprintf(buf, sizeof buf, "%s", arg);
    if ((comma = strchr(buf, ',')))
        *comma = '\0';
    if (!vd_parse_long(buf, &k) || k < 1 || (comma && !vd_parse_real(comma + 1, &o->baseline_bic)))
        die("--baseline: expected MAXK or MAXK,BIC (e.g. 30,0.9), got '%s'", arg);
    o->baseline_maxk = k;
}

static void check_modes(const vd_options *o)
{
    if (o->sweep) {
        if (o->simpoints || o->weights || o->labels || o->interval || o->log || o->nregions || o->profile_summary || o->checkpoints ||
            o->p.has_profile)
            die("--sweep takes its configurations from the manifest: no --simpoints, --weights, --labels, "
                "--interval, --log, --regions or --profile-* (see --help)");
        return;
    }
    if (!o->simpoints || !o->weights || !o->interval || !o->full)
        die("missing %s (see --help)", !o->simpoints ? "--simpoints" : !o->weights ? "--weights"
                                       : !o->interval ? "--interval" : "--full");
    if (o->profile_summary && o->p.has_profile)
        die("--profile-summary and --profile-insts are exclusive");
}

bool vd_options_parse(vd_options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    vd_params_defaults(&o->p);
    o->target = 0.01;
    o->max_error = NAN;
    o->baseline_maxk = 30;
    o->baseline_bic = 0.9;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "i:o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_SIMPOINTS: o->simpoints = optarg; break;
        case OPT_WEIGHTS: o->weights = optarg; break;
        case OPT_LABELS: o->labels = optarg; break;
        case 'i':
            if (!(o->interval = count_arg(c, optarg)))
                die("--interval: must be positive");
            break;
        case OPT_FULL: o->full = optarg; break;
        case OPT_LOG: o->log = optarg; break;
        case OPT_REGIONS:
            o->regions = vd_realloc(o->regions, (o->nregions + 1) * sizeof *o->regions);
            o->regions[o->nregions++] = optarg;
            break;
        case OPT_PROFILE_SUMMARY: o->profile_summary = optarg; break;
        case OPT_CHECKPOINTS: o->checkpoints = optarg; break;
        case OPT_PROFILE_INSTS:
            o->p.profile_insts = count_arg(c, optarg);
            o->p.has_profile = true;
            o->p.profile_path = "--profile-insts";
            break;
        case OPT_NAME: o->p.name = optarg; break;
        case OPT_ALLOW_MISMATCH: o->p.allow_mismatch = true; break;
        case OPT_REWEIGHTED: o->p.reweighted = true; break;
        case OPT_WARMUP: o->p.warmup = count_arg(c, optarg); break;
        case OPT_WARMUP_INTERVALS: o->p.warmup_intervals = count_arg(c, optarg); break;
        case OPT_BOOTSTRAP:
            o->p.bootstrap = (size_t)count_arg(c, optarg);
            o->bootstrap_given = true;
            break;
        case OPT_SEED: o->p.seed = count_arg(c, optarg); break;
        case OPT_HEAVY: o->p.heavy = real_arg(c, optarg, 0, 1); break;
        case OPT_MAX_COV: o->p.cov_limit = real_arg(c, optarg, 0, 1e9); break;
        case OPT_FLAG_ERROR: o->p.flag_error = percent_arg(c, optarg); break;
        case 'o': o->out = not_stdout("-o", optarg, "a directory"); break;
        case OPT_MARKDOWN: o->markdown = optarg; break;
        case OPT_JSON: o->json = optarg; break;
        case OPT_CSV: o->csv = optarg; break;
        case OPT_PLOTS: o->plots = not_stdout("--plots", optarg, "a directory"); break;
        case OPT_MAX_ERROR: o->max_error = percent_arg(c, optarg); break;
        case OPT_SWEEP: o->sweep = optarg; break;
        case OPT_TARGET: o->target = percent_arg(c, optarg); break;
        case OPT_BASELINE: baseline_arg(o, optarg); break;
        case 'q': o->quiet = true; break;
        case 'h': fputs(vd_usage, stdout); return false;
        default:
            die("option '%s': unknown, or missing its argument (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        die("unexpected argument '%s' (see --help)", argv[optind]);
    if (o->p.warmup && o->p.warmup_intervals)
        die("--warmup and --warmup-intervals are exclusive");
    if (o->sweep && !o->bootstrap_given)
        o->p.bootstrap = 0;
    check_modes(o);
    return true;
}

void vd_options_free(vd_options *o)
{
    free(o->regions);
    o->regions = NULL;
}
