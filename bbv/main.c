/* bbv: run a RISC-V program and write SimPoint basic-block vectors. */
#include <getopt.h>
#include <jansson.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bbv_map.h"
#include "exec/exec.h"
#include "guest_cli.h"
#include "json_out.h"
#include "bbv_profile.h"
#include "progress.h"
#include "proxy_run.h"
#include "symbols.h"
#include "util.h"

static const char usage[] =
    "Usage: bbv [options] -- PROGRAM [ARGS...]\n"
    "Run a statically linked RISC-V (RV64GC) Linux program and write its basic-block\n"
    "vectors in SimPoint format. The program's stdin, stdout and stderr pass through.\n"
    "\n"
    "Output options:\n"
    "  -o, --output PREFIX     output prefix (default: the program's name)\n"
    "  -i, --interval N[,N...] interval sizes in instructions, k/M/G suffixes\n"
    "                          (default 100M); several sizes are collected in one run,\n"
    "                          each into PREFIX.<N>.bb.gz\n"
    "      --no-gzip           write PREFIX.<N>.bb as plain text\n"
    "      --drop-partial      leave out the last, partial interval (by default it is\n"
    "                          written, preceded by '# partial interval: <len> instructions')\n"
    "      --max-insts N       stop after N instructions (profile a prefix)\n"
    "      --count-only        only count: print the retired-instruction count on stderr\n"
    "      --summary FILE      JSON summary file (default PREFIX.summary.json; '-' = stdout)\n"
    "      --proxy CONFIG      also run the functional warming model of the core in CONFIG\n"
    "                          (an INI file, e.g. configs/boom-tip.ini) and write per-interval\n"
    "                          proxy metrics (cache, TLB and branch misses, proxy CPI,\n"
    "                          long-latency operations) into\n"
    "                          PREFIX.<N>.proxy, one line per .bb line (slower: the model\n"
    "                          sees every block)\n"
    "      --set SEC.KEY=V     override a CONFIG parameter (after --proxy); repeatable\n"
    "      --progress          progress on stderr even when it is not a terminal\n"
    "  -v, --verbose           print a one-line summary on stderr at the end\n"
    "  -h, --help              this help\n"
    "\n" GUEST_OPTIONS_HELP
    "\n"
    "Also written: PREFIX.bbmap (block id, start pc, length, symbol+offset).\n"
    "Exit status: the guest's (128+signal if it was killed); 125 if bbv itself failed.\n";

enum { OPT_NO_GZIP = 0x100, OPT_DROP_PARTIAL, OPT_MAX_INSTS, OPT_COUNT_ONLY, OPT_SUMMARY, OPT_PROGRESS, OPT_PROXY,
       OPT_SET };

typedef struct bbv_options {
    const char *prefix;
    uint64_t sizes[BBV_MAX_SIZES];
    int nsizes;
    bool gzip, drop_partial, count_only, progress, verbose;
    uint64_t max_insts;
    const char *summary;
    const char *proxy;          /* --proxy CONFIG */
    const char *sets[64];
    int nsets;
    uarch_config proxy_cfg;
    guest_args guest;
} bbv_options;

static void parse_options(bbv_options *o, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},   {"interval", required_argument, NULL, 'i'},
        {"no-gzip", no_argument, NULL, OPT_NO_GZIP}, {"drop-partial", no_argument, NULL, OPT_DROP_PARTIAL},
        {"max-insts", required_argument, NULL, OPT_MAX_INSTS},
        {"count-only", no_argument, NULL, OPT_COUNT_ONLY}, {"summary", required_argument, NULL, OPT_SUMMARY},
        {"progress", no_argument, NULL, OPT_PROGRESS}, {"verbose", no_argument, NULL, 'v'},
        {"proxy", required_argument, NULL, OPT_PROXY}, {"set", required_argument, NULL, OPT_SET},
        {"help", no_argument, NULL, 'h'}, GUEST_LONG_OPTIONS, {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->sizes[0] = 100000000;
    o->nsizes = 1;
    o->gzip = true;
    o->max_insts = UINT64_MAX;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+o:i:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            /* "" or "dir/" would name hidden files (".100000000.bb.gz"). */
            if (!*optarg || optarg[strlen(optarg) - 1] == '/')
                die("--output: expected a file name prefix, got '%s'", optarg);
            o->prefix = not_stdout("--output", optarg, "a prefix of several files");
            break;
        case 'i':
            o->nsizes = parse_count_list(optarg, o->sizes, BBV_MAX_SIZES);
            if (o->nsizes == 0)
                die("--interval: expected N[,N...] with N > 0 (k/M/G suffixes), at most %d sizes; got '%s'",
                    BBV_MAX_SIZES, optarg);
            for (int i = 0; i < o->nsizes; i++) {
                if (o->sizes[i] == 0)
                    die("--interval: interval sizes must be positive");
                for (int j = 0; j < i; j++)
                    if (o->sizes[j] == o->sizes[i]) /* both would write one file */
                        die("--interval: %llu is given twice", (unsigned long long)o->sizes[i]);
            }
            break;
        case OPT_NO_GZIP: o->gzip = false; break;
        case OPT_DROP_PARTIAL: o->drop_partial = true; break;
        case OPT_MAX_INSTS:
            if (!parse_count(optarg, &o->max_insts))
                die("--max-insts: expected a count (k/M/G suffixes), got '%s'", optarg);
            break;
        case OPT_COUNT_ONLY: o->count_only = true; break;
        case OPT_SUMMARY: o->summary = optarg; break;
        case OPT_PROGRESS: o->progress = true; break;
        case OPT_PROXY: o->proxy = optarg; break;
        case OPT_SET:
            if (o->nsets == 64)
                die("--set: at most 64");
            o->sets[o->nsets++] = optarg;
            break;
        case 'v': o->verbose = true; break;
        case 'h': fputs(usage, stdout); exit(0);
        case '?':
            if (optopt)
                die("option -%c: unknown or missing its argument (see --help)", optopt);
            die("unknown option '%s' (see --help)", argv[optind - 1]);
        default:
            if (!guest_cli_option(&o->guest, c, optarg))
                die("unexpected option (see --help)");
        }
    }
    if (optind >= argc)
        die("no program given (usage: bbv [options] -- PROGRAM [ARGS...])");
    if (o->nsets && !o->proxy)
        die("--set applies to the --proxy configuration; give --proxy CONFIG");
    if (o->proxy && o->count_only)
        die("--proxy writes files; it does not go with --count-only");
    if (o->proxy) {
        char err[512];
        uarch_config_defaults(&o->proxy_cfg);
        if (uarch_config_load(&o->proxy_cfg, o->proxy, err, sizeof err))
            die("--proxy: %s", err);
        for (int i = 0; i < o->nsets; i++)
            if (uarch_config_set(&o->proxy_cfg, o->sets[i], err, sizeof err))
                die("%s", err);
        if (uarch_config_check(&o->proxy_cfg, err, sizeof err))
            die("--proxy %s: %s", o->proxy, err);
    }
}

static void report_progress(void *ctx, uint64_t retired)
{
    progress_update(ctx, retired);
}

static json_t *summary_json(const bbv_options *o, const char *program, const rv_proc *p, const bbv_profile *bp,
                            double seconds, const char *prefix)
{
    uint64_t insts = p->cpu.icount;
    json_t *sizes = json_array();
    for (int i = 0; i < bp->nseries; i++) {
        const bbv_series *s = &bp->series[i];
        uint64_t partial = insts - (s->next_boundary - s->size);
        json_array_append_new(sizes, json_pack("{s:I, s:I, s:I}", "interval", (json_int_t)s->size,
                                               "full_intervals", (json_int_t)s->written, "partial_instructions",
                                               (json_int_t)partial));
    }
    const char *how = p->stop == RV_STOP_EXIT ? "exit" : p->stop == RV_STOP_SIGNAL ? "signal" : "max-insts";
    json_t *j = json_pack("{s:s, s:I, s:o, s:I, s:s, s:i, s:f, s:f}", "program", program, "instructions",
                          (json_int_t)insts, "intervals", sizes, "blocks", (json_int_t)bp->nblocks, "stopped_by",
                          how, "exit_status", p->stop == RV_RUNNING ? 0 : p->exit_status, "wall_seconds", seconds,
                          "mips", seconds > 0 ? (double)insts / seconds / 1e6 : 0.0);
    if (p->stop == RV_STOP_SIGNAL)
        json_object_set_new(j, "signal_message", json_string(p->message));
    if (!o->count_only)
        json_object_set_new(j, "prefix", json_string(prefix));
    /* wall_seconds then covers the warming model too */
    json_object_set_new(j, "proxy", o->proxy ? json_string(o->proxy) : json_null());
    return j;
}

int main(int argc, char **argv)
{
    util_progname = "bbv";
    util_die_status = 125;
    bbv_options o;
    parse_options(&o, argc, argv);
    char **guest_argv = argv + optind;
    int guest_argc = argc - optind;

    char *prog_copy = strdup(guest_argv[0]);
    const char *prefix = o.prefix ? o.prefix : basename(prog_copy);

    rv_proc proc;
    rv_elf_info info;
    guest_cli_start(&proc, &info, &o.guest, guest_argc, guest_argv);

    /* Open every output first: an unwritable path fails before the run. */
    outfile *outs[BBV_MAX_SIZES] = {NULL};
    char path[4096];
    if (!o.count_only)
        for (int i = 0; i < o.nsizes; i++) {
            snprintf(path, sizeof path, "%s.%llu.bb%s", prefix, (unsigned long long)o.sizes[i], o.gzip ? ".gz" : "");
            outs[i] = outfile_open(path);
        }
    outfile *proxies[BBV_MAX_SIZES] = {NULL};
    if (o.proxy)
        for (int i = 0; i < o.nsizes; i++) {
            snprintf(path, sizeof path, "%s.%llu.proxy", prefix, (unsigned long long)o.sizes[i]);
            proxies[i] = outfile_open(path);
        }
    outfile *bbmap = NULL;
    if (!o.count_only) {
        snprintf(path, sizeof path, "%s.bbmap", prefix);
        bbmap = outfile_open(path);
    }

    bbv_profile bp;
    bbv_profile_init(&bp, o.sizes, outs, o.count_only ? 0 : o.nsizes);
    progress prog;
    progress_init(&prog, "bbv", o.progress, o.max_insts == UINT64_MAX ? 0 : o.max_insts);
    if (prog.enabled)
        bbv_profile_on_progress(&bp, report_progress, &prog);
    proxy_run px;
    if (o.proxy)
        proxy_run_init(&px, &bp, &o.proxy_cfg, o.proxy, proxies);
    double t0 = now_seconds();
    if (o.count_only && !prog.enabled)
        rv_run(&proc, o.max_insts, NULL, NULL);
    else if (o.proxy)
        proxy_run_go(&px, &bp, &proc, o.max_insts);
    else
        bbv_profile_run(&bp, &proc, o.max_insts);
    double seconds = now_seconds() - t0;
    progress_finish(&prog, proc.cpu.icount);
    guest_cli_report_stop(&proc);

    bbv_profile_finish(&bp, o.drop_partial);
    if (o.proxy)
        proxy_run_free(&px);
    for (int i = 0; i < o.nsizes; i++) {
        if (outs[i])
            outfile_commit(outs[i]);
        if (proxies[i])
            outfile_commit(proxies[i]);
    }
    if (bbmap) {
        rv_symtab syms;
        symtab_load(&syms, proc.os.exe_path, info.bias);
        bbv_map_write(bbmap, &bp, &syms);
        symtab_free(&syms);
        outfile_commit(bbmap);
    }
    json_t *summary = summary_json(&o, guest_argv[0], &proc, &bp, seconds, prefix);
    if (o.summary || !o.count_only) {
        snprintf(path, sizeof path, "%s.summary.json", prefix);
        json_write_file(o.summary ? o.summary : path, summary);
    }
    json_decref(summary);
    if (o.count_only)
        fprintf(stderr, "%llu\n", (unsigned long long)proc.cpu.icount);
    if (o.verbose || (prog.tty && !o.count_only))
        fprintf(stderr, "bbv: %llu instructions, %u blocks, %.2f s, %.0f MIPS\n",
                (unsigned long long)proc.cpu.icount, bp.nblocks, seconds,
                seconds > 0 ? (double)proc.cpu.icount / seconds / 1e6 : 0.0);

    int status = proc.stop == RV_RUNNING ? 0 : proc.exit_status;
    bbv_profile_free(&bp);
    rv_proc_destroy(&proc);
    guest_cli_free(&o.guest);
    free(prog_copy);
    return status;
}
