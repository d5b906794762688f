/* checkpoint: write restartable checkpoints at simulation points, run one, or show one. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ckpt/ckpt_chunks.h"
#include "modes.h"
#include "uarch/config.h"
#include "util.h"

static const char usage[] =
    "Usage: checkpoint [options] --simpoints F --weights F --interval N [--warmup W[,W...]] -- PROGRAM [ARGS...]\n"
    "       checkpoint [options] --at I[,I...] -- PROGRAM [ARGS...]\n"
    "       checkpoint [options] --warm CONFIG --chunk-insts C [--warmup W] -- PROGRAM [ARGS...]\n"
    "       checkpoint --run CKPT [--insts N] [--guest-output FILE|none] [--bbv PREFIX --interval N]\n"
    "       checkpoint --info CKPT [--json]\n"
    "\n"
    "Take checkpoints in one fast-forward pass over a RISC-V program: one per distinct\n"
    "start instruction, start = simpoint*interval - warmup (clamped at 0, the warm-up then\n"
    "shortened, as gem5 does). Files are DIR/NNNN-at-START.ckpt in start order, plus\n"
    "DIR/checkpoints.json listing them with their regions.\n"
    "\n"
    "Taking:\n"
    "  -o, --output-dir DIR    where to write (default: ckpt)\n"
    "      --simpoints F       SimPoint .simpoints file (interval index, cluster)\n"
    "      --weights F         SimPoint .weights file (weight, cluster)\n"
    "  -i, --interval N        interval length in instructions (k/M/G suffixes)\n"
    "      --warmup W[,W...]   warm-up lengths; one region per simpoint and length (default 0)\n"
    "      --warm CONFIG       warm checkpoints: caches, TLBs and predictors of the core in\n"
    "                          CONFIG (an INI file, e.g. configs/boom-tip.ini) are warmed over\n"
    "                          the whole prefix and stored for `sim --warmup checkpoint`\n"
    "      --set SEC.KEY=V     override a CONFIG parameter (after --warm); repeatable\n"
    "      --at I[,I...]       checkpoints at these instruction counts\n"
    "      --chunk-insts C     the chunks of a chunked full run (sim --stitch): a warm\n"
    "                          checkpoint W (--warmup, < C; default 500k or C/4, as\n"
    "                          sim's --chunk-warmup) before every multiple of C, to\n"
    "                          the program's end; chunk k measures [kC, (k+1)C), the last\n"
    "                          runs to the end (needs --warm); DIR/files keeps what the\n"
    "                          program's files were when it changed them, for the chunks\n"
    "      --extra-per-cluster N  also N more members of each cluster, drawn at random from\n"
    "                          --labels F (SimPoint .labels), as regions marked extra: sim\n"
    "                          then gives a confidence interval without a full run\n"
    "      --seed S            the draw's seed (default 1)\n"
    "      --self-contained    every checkpoint holds its own pages; by default the checkpoints\n"
    "                          of one run keep theirs in DIR/pages.store, each distinct page once\n"
    "Running (--run CKPT):\n"
    "      --insts N           run N instructions (default: to the end of the program)\n"
    "      --bbv PREFIX        also write PREFIX.<N>.bb and PREFIX.bbmap for the run, with\n"
    "                          --interval N (default: the whole run as one interval)\n"
    "      --program PATH      use this copy of the program (its CRC must match)\n"
    "Both:\n"
    "      --guest-output FILE the guest's stdout and stderr go to FILE ('none' discards them;\n"
    "                          default: passed through when taking, discarded when running)\n"
    "      --summary FILE      JSON summary ('-' = stdout)\n"
    "      --json              --info: print JSON\n"
    "      --progress          progress on stderr even when it is not a terminal\n"
    "  -v, --verbose           a one-line summary on stderr\n"
    "  -h, --help              this help\n"
    "\n" GUEST_OPTIONS_HELP
    "\n"
    "Exit status: 0 when taking or showing succeeded; with --run, the guest's exit status\n"
    "(0 if it stopped after --insts). Errors: 1, or 125 with --run.\n";

enum {
    OPT_SIMPOINTS = 0x100, OPT_WEIGHTS, OPT_WARMUP, OPT_AT, OPT_RUN, OPT_INFO, OPT_INSTS, OPT_GUEST_OUTPUT,
    OPT_SUMMARY, OPT_JSON, OPT_PROGRESS, OPT_BBV, OPT_PROGRAM, OPT_WARM, OPT_SET, OPT_LABELS, OPT_EXTRA, OPT_SEED,
    OPT_CHUNK, OPT_SELF_CONTAINED,
};

int main(int argc, char **argv)
{
    util_progname = "checkpoint";
    static const struct option longopts[] = {
        {"output-dir", required_argument, NULL, 'o'}, {"interval", required_argument, NULL, 'i'},
        {"simpoints", required_argument, NULL, OPT_SIMPOINTS}, {"weights", required_argument, NULL, OPT_WEIGHTS},
        {"warmup", required_argument, NULL, OPT_WARMUP}, {"at", required_argument, NULL, OPT_AT},
        {"run", required_argument, NULL, OPT_RUN}, {"info", optional_argument, NULL, OPT_INFO},
        {"insts", required_argument, NULL, OPT_INSTS}, {"guest-output", required_argument, NULL, OPT_GUEST_OUTPUT},
        {"summary", required_argument, NULL, OPT_SUMMARY}, {"json", no_argument, NULL, OPT_JSON},
        {"progress", no_argument, NULL, OPT_PROGRESS}, {"bbv", required_argument, NULL, OPT_BBV},
        {"program", required_argument, NULL, OPT_PROGRAM}, {"verbose", no_argument, NULL, 'v'},
        {"warm", required_argument, NULL, OPT_WARM}, {"set", required_argument, NULL, OPT_SET},
        {"labels", required_argument, NULL, OPT_LABELS}, {"extra-per-cluster", required_argument, NULL, OPT_EXTRA},
        {"seed", required_argument, NULL, OPT_SEED}, {"chunk-insts", required_argument, NULL, OPT_CHUNK},
        {"self-contained", no_argument, NULL, OPT_SELF_CONTAINED},
        {"help", no_argument, NULL, 'h'}, GUEST_LONG_OPTIONS, {NULL, 0, NULL, 0},
    };
    ckpt_options o = {.out_dir = "ckpt", .insts = UINT64_MAX};
    uarch_config warm_cfg;
    const char *warm_path = NULL, *sets[64];
    int nsets = 0;
    char err[512];
    const char *simpoints = NULL, *weights = NULL, *run = NULL, *info = NULL, *labels = NULL;
    uint64_t extra = 0, seed = 1, chunk = 0;
    uint64_t warmups[64] = {0}, at[4096];
    int nwarmups = 1, nat = 0;
    bool warmup_given = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+o:i:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o.out_dir = not_stdout("-o", optarg, "a directory"); break;
        case 'i':
            if (!parse_count(optarg, &o.interval) || o.interval == 0)
                die("--interval: expected a positive count (k/M/G suffixes), got '%s'", optarg);
            break;
        case OPT_SIMPOINTS: simpoints = optarg; break;
        case OPT_WEIGHTS: weights = optarg; break;
        case OPT_WARMUP:
            if (!(nwarmups = parse_count_list(optarg, warmups, 64)))
                die("--warmup: expected W[,W...] (k/M/G suffixes), got '%s'", optarg);
            warmup_given = true;
            break;
        case OPT_AT:
            if (!(nat = parse_count_list(optarg, at, 4096)))
                die("--at: expected I[,I...] (k/M/G suffixes), got '%s'", optarg);
            break;
        case OPT_RUN: run = optarg; util_die_status = 125; break;
        case OPT_INFO:
            /* --info CKPT [--json], or --info --json CKPT ("": it follows the options) */
            if (optarg) info = optarg;
            else if (optind < argc && argv[optind][0] != '-') info = argv[optind++];
            else info = "";
            break;
        case OPT_INSTS:
            if (!parse_count(optarg, &o.insts))
                die("--insts: expected a count (k/M/G suffixes), got '%s'", optarg);
            break;
        case OPT_GUEST_OUTPUT: o.guest_output = optarg; break;
        case OPT_SUMMARY: o.summary = optarg; break;
        case OPT_JSON: o.json = true; break;
        case OPT_PROGRESS: o.progress = true; break;
        case OPT_BBV: o.bbv_prefix = not_stdout("--bbv", optarg, "a prefix of several files"); break;
        case OPT_PROGRAM: o.program = optarg; break;
        case OPT_WARM: warm_path = optarg; break;
        case OPT_LABELS: labels = optarg; break;
        case OPT_EXTRA:
            if (!parse_count(optarg, &extra) || extra > 1000)
                die("--extra-per-cluster: expected 0 to 1000, got '%s'", optarg);
            break;
        case OPT_SEED:
            if (!parse_count(optarg, &seed))
                die("--seed: expected a non-negative integer, got '%s'", optarg);
            break;
        case OPT_SELF_CONTAINED: o.self_contained = true; break;
        case OPT_CHUNK:
            if (!parse_count(optarg, &chunk) || !chunk)
                die("--chunk-insts: expected a positive count (k/M/G suffixes), got '%s'", optarg);
            break;
        case OPT_SET:
            if (nsets == 64) die("--set: at most 64 overrides");
            sets[nsets++] = optarg;
            break;
        case 'v': o.verbose = true; break;
        case 'h': fputs(usage, stdout); return 0;
        case '?':
            if (optopt)
                die("option -%c: unknown or missing its argument (see --help)", optopt);
            die("unknown option '%s' (see --help)", argv[optind - 1]);
        default:
            if (!guest_cli_option(&o.guest, c, optarg))
                die("unexpected option (see --help)");
        }
    }
    if ((run != NULL) + (info != NULL) > 1)
        die("--run and --info are exclusive");
    if (info && !*info) {
        if (optind != argc - 1) die("--info takes one checkpoint");
        info = argv[optind++];
    }
    if (run || info) {
        if (optind < argc)
            die("--run/--info take a checkpoint, not a program ('%s')", argv[optind]);
        if (info)
            return show_checkpoint(&o, info);
        if (o.bbv_prefix && !o.interval)
            o.interval = o.insts != UINT64_MAX ? o.insts : UINT64_MAX / 2;
        return run_checkpoint(&o, run);
    }
    if (optind >= argc)
        die("no program given (see --help)");
    if (nsets && !warm_path)
        die("--set applies to the --warm configuration; give --warm CONFIG");
    if (warm_path) {
        uarch_config_defaults(&warm_cfg);
        if (uarch_config_load(&warm_cfg, warm_path, err, sizeof err)) die("--warm: %s", err);
        for (int i = 0; i < nsets; i++)
            if (uarch_config_set(&warm_cfg, sets[i], err, sizeof err)) die("%s", err);
        if (uarch_config_check(&warm_cfg, err, sizeof err)) die("--warm %s: %s", warm_path, err);
        o.warm = &warm_cfg;
    }
    ckpt_plan plan = {0};

    if (chunk) {
        if (simpoints || weights || nat || extra || labels)
            die("--chunk-insts takes no --simpoints, --weights, --at or --extra-per-cluster");
        if (!o.warm)
            die("--chunk-insts needs --warm CONFIG: each chunk starts from the warm state of the whole prefix");
        if (nwarmups != 1)
            die("--chunk-insts takes one --warmup");
        if (!warmup_given) warmups[0] = ckpt_chunk_warmup_default(chunk);
        if (plan_chunks(&plan, chunk, warmups[0], err, sizeof err))
            die("--chunk-insts: %s", err);
    } else if (simpoints || weights) {
        if (!simpoints || !weights || !o.interval)
            die("--simpoints needs --weights and --interval");
        if (plan_from_simpoints(&plan, simpoints, weights, o.interval, warmups, nwarmups, err, sizeof err))
            die("%s", err);
        if ((extra || labels) && (!labels || !extra))
            die("--extra-per-cluster N and --labels F go together");
        if (extra && plan_add_extras(&plan, labels, (int)extra, seed, err, sizeof err))
            die("%s", err);
    } else if (extra || labels) {
        die("--extra-per-cluster needs --simpoints, --weights and --labels");
    }
    for (int i = 0; i < nat; i++) {
        ckpt_region r = {.simpoint = -1, .cluster = -1, .interval = o.interval, .start = at[i]};
        plan_add(&plan, &r);
    }
    if (plan.n == 0 && !plan.chunk)
        die("nothing to do: give --simpoints/--weights/--interval or --at (see --help)");
    int status = take_checkpoints(&o, &plan, argc - optind, argv + optind);
    plan_free(&plan);
    guest_cli_free(&o.guest);
    return status;
}
