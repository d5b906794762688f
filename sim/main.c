/* sim: the detailed out-of-order core, over a whole program (--full) or the
 * regions of checkpoints. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "combine.h"
#include "json_out.h"
#include "outfile.h"
#include "report/plots.h"
#include "report/report.h"
#include "report/report_pics.h"
#include "report/report_sampled.h"
#include "util.h"

/* What a simulation produced: the baseline's results, then the analyses'. */
typedef struct sim_outcome {
    sim_result *res;
    size_t n;
    int status;                  /* sim's exit status */
    rv_symtab syms;
    block_ids blocks;
    report_ctx x;
    sensitivity sens;            /* no outcomes: no study ran */
    icost_study classes, loads;  /* --icost's and --icost-loads' studies */
    bool icost, icost_loads;     /* ... ran */
    chunk_summary chunked;       /* chunks: 0 for a serial --full run */
} sim_outcome;

/* ---------------------------------------------------------------- running */

/* --full: the exit status mirrors the guest's; sim's own errors are 125. */
static void run_full(const sim_cli *cli, sim_outcome *out)
{
    util_die_status = 125;
    out->res = calloc(1, sizeof *out->res);
    if (!out->res) die("out of memory");
    const chunk_options *co = &cli->chunks;
    if (co->stitch) sim_stitch(&cli->o, cli->target.argv, cli->target.argc, out->res, &out->chunked);
    else if (co->insts || co->count)
        sim_full_chunked(&cli->o, co, cli->target.argc, cli->target.argv, out->res, &out->chunked);
    else sim_full(&cli->o, cli->target.argc, cli->target.argv, out->res);
    out->n = 1;
    out->status = !strcmp(out->res->stopped_by, "limit") ? 0 : out->res->exit_status;
}

/* Regions: a region that fails says why, the others still run; status 1. */
static void run_regions(const sim_cli *cli, sim_outcome *out)
{
    out->n = sim_regions(&cli->o, cli->target.argv, cli->target.argc, &out->res);
    for (size_t i = 0; i < out->n; i++)
        if (!out->res[i].pcs) {
            warn("%s: %s", out->res[i].checkpoint, out->res[i].message ? out->res[i].message : "failed");
            out->status = 1;
        }
}

/* The symbols of the first result that names its program. */
static void load_symbols(sim_outcome *out)
{
    for (size_t i = 0; i < out->n && !out->syms.n; i++)
        if (out->res[i].program) symtab_load(&out->syms, out->res[i].program, 0);
}

/* ------------------------------------------------------ what-if analyses */

static void run_sensitivity(const sim_cli *cli, sim_outcome *out)
{
    if (!cli->sens.nvariants) return;
    if (cli->target.full || !out->status)
        sensitivity_run(&out->sens, &cli->o, &cli->target, out->res, out->n, &cli->sens);
    else
        warn("no sensitivity study: a region failed");
}

static void run_icost(const sim_cli *cli, sim_outcome *out)
{
    out->classes = cli->icost_classes;
    out->icost = cli->icost;
    out->icost_loads = cli->icost_loads > 0;
    if ((out->icost || out->icost_loads) && !cli->target.full && out->status) {
        warn("no interaction costs: a region failed");
        out->icost = out->icost_loads = false;
    }
    if (out->icost) icost_run(&out->classes, cli->icost_triples, &cli->o, &cli->target, out->res, out->n);
    if (!out->icost_loads) return;
    icost_choose_loads(&out->loads, cli->icost_loads, out->res, out->n, &out->syms);
    if (out->loads.n < 2) {
        warn("--icost-loads: fewer than two loads stall the ROB head");
        out->icost_loads = false;
        return;
    }
    icost_run(&out->loads, cli->icost_triples, &cli->o, &cli->target, out->res, out->n);
}

/* ---------------------------------------------------------------- outputs */

static void write_profile_csv(const sim_cli *cli, const sim_outcome *out)
{
    if (!cli->profile) return;
    if (out->n != 1) die("--profile needs --full or a single region (%zu regions given)", out->n);
    if (out->res[0].pcs) profile_csv(cli->profile, &out->res[0], &out->x);
}

/* The results of sim/RESULTS.md, with the analyses that ran. */
static void write_json(const sim_cli *cli, const sim_outcome *out)
{
    bool full = cli->target.full;
    if (!cli->output) return;
    if (out->status && !full) {
        warn("no results written to %s: a region failed", cli->output);
        return;
    }
    const sim_options *o = &cli->o;
    json_t *results = json_array();
    for (size_t i = 0; i < out->n; i++) json_array_append_new(results, result_json(&out->res[i], &out->x));
    char digest[32];
    snprintf(digest, sizeof digest, "%016llx", (unsigned long long)uarch_config_digest(&o->cfg));
    json_t *top = json_pack("{s:s, s:i, s:s, s:{s:s, s:s, s:o}, s:I, s:o}", "tool", "sim", "version", 1, "mode",
                            full ? "full" : "regions", "config", "source", o->config_source, "digest", digest, "params",
                            uarch_config_json(&o->cfg), "units_per_cycle", (json_int_t)(out->n ? out->res[0].units : 0),
                            "results", results);
    json_t *combined = full ? NULL : combined_json(out->res, out->n, o->total_insts, &out->x);
    if (combined) json_object_set_new(top, "combined", combined);
    if (out->sens.out) json_object_set_new(top, "sensitivity", sensitivity_json(&out->sens, &out->x));
    if (out->icost) json_object_set_new(top, "icost", icost_json(&out->classes));
    if (out->icost_loads) json_object_set_new(top, "icost_loads", icost_json(&out->loads));
    if (full && o->interval_log)
        json_object_set_new(json_array_get(results, 0), "interval_log",
                            json_pack("{s:s, s:I}", "path", o->interval_log, "interval", (json_int_t)o->log_interval));
    if (out->chunked.chunks) json_object_set_new(json_array_get(results, 0), "chunked", chunk_summary_json(&out->chunked));
    json_write_file(cli->output, top);
    json_decref(top);
}

static void write_plots(const sim_cli *cli, const sim_outcome *out)
{
    if (!cli->plots) return;
    sim_plots(cli->plots, out->res, out->n, &out->x);
    for (size_t i = 0; i < out->n; i++)
        if (out->res[i].profileme) {
            profileme_plot(out->res[i].profileme, cli->plots);
            break;
        }
    if (out->icost) icost_plot(&out->classes, cli->plots, "icost");
    if (out->icost_loads) icost_plot(&out->loads, cli->plots, "icost_loads");
}

static void write_sampled_csv(const sim_cli *cli, const sim_outcome *out)
{
    if (!cli->sampled_csv) return;
    outfile *csv = outfile_open(cli->sampled_csv);
    sampled_csv_header(csv);
    for (size_t i = 0; i < out->n; i++) {
        const sim_result *r = &out->res[i];
        if (!r->pcs) continue;
        symbolizer sym;
        symbolizer_init(&sym, &out->syms, r->blocks, r->nblocks);
        sampled_csv_rows(csv, r, i, &sym);
        symbolizer_free(&sym);
    }
    outfile_commit(csv);
}

static void write_outputs(const sim_cli *cli, const sim_outcome *out)
{
    write_profile_csv(cli, out);
    write_json(cli, out);
    if (cli->report) report_markdown(cli->report, out->res, out->n, &out->x, &cli->md);
    write_plots(cli, out);
    write_sampled_csv(cli, out);
}

/* -------------------------------------------------------------- summaries */

static void print_result_summary(const sim_outcome *out, const sim_result *r)
{
    result_summary(stderr, r, &out->x);
    if (r->profileme) profileme_summary(stderr, r->profileme, r->pcs, r->npcs, r->units, &out->syms);
    if (!r->pcs || (!r->nsampled && !r->pics)) return;
    symbolizer sym;
    symbolizer_init(&sym, &out->syms, r->blocks, r->nblocks);
    sampled_summary(stderr, r, &sym);
    if (r->pics) pics_summary(stderr, r, &sym);
    symbolizer_free(&sym);
}

static void print_summaries(const sim_cli *cli, const sim_outcome *out)
{
    if (cli->quiet) return;
    for (size_t i = 0; i < out->n; i++) print_result_summary(out, &out->res[i]);
    combined_summary(stderr, out->res, out->n, cli->o.total_insts);
    if (out->sens.out) sensitivity_print(stderr, &out->sens, &out->x);
    if (out->icost) icost_print(stderr, &out->classes);
    if (out->icost_loads) icost_print(stderr, &out->loads);
}

static void free_outcome(sim_outcome *out)
{
    icost_free(&out->classes);
    icost_free(&out->loads);
    if (out->sens.out) sensitivity_free(&out->sens);
    for (size_t i = 0; i < out->n; i++) sim_result_free(&out->res[i]);
    free(out->res);
    symtab_free(&out->syms);
    block_ids_free(&out->blocks);
}

/* ------------------------------------------------------------------ modes */

/* The baseline (full or regions), the analyses, the outputs, the summaries. */
static int simulate(sim_cli *cli, void (*run)(const sim_cli *, sim_outcome *))
{
    sim_outcome out = {0};
    if (cli->jobs) omp_set_num_threads(cli->jobs);
    if (cli->o.bbmap) block_ids_load(&out.blocks, cli->o.bbmap);
    run(cli, &out);
    load_symbols(&out);
    out.x = (report_ctx){.syms = &out.syms, .blocks = &out.blocks, .top = cli->top};
    run_sensitivity(cli, &out);
    run_icost(cli, &out);
    write_outputs(cli, &out);
    print_summaries(cli, &out);
    int status = out.status;
    free_outcome(&out);
    sim_cli_free(cli);
    return status;
}

static int simulate_full(sim_cli *cli) { return simulate(cli, run_full); }

/* One chunk of the checkpoints into its part: no results, no reports. */
static int simulate_part(sim_cli *cli)
{
    util_die_status = 125;
    if (cli->jobs) omp_set_num_threads(cli->jobs);
    sim_chunk_part(&cli->o, cli->target.argv, cli->target.argc, cli->chunks.part, cli->chunks.part_out);
    sim_cli_free(cli);
    return 0;
}
static int simulate_regions(sim_cli *cli) { return simulate(cli, run_regions); }

/* The functional pass of a chunked run alone (--chunk-pass): its checkpoints. */
static int simulate_pass(sim_cli *cli)
{
    util_die_status = 125;
    sim_chunk_pass(&cli->o, &cli->chunks, cli->target.argc, cli->target.argv);
    sim_cli_free(cli);
    return 0;
}

static int print_help(sim_cli *cli)
{
    (void)cli;
    fputs(sim_usage, stdout);
    return 0;
}

static int list_params(sim_cli *cli)
{
    uarch_config_print(&cli->o.cfg, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    static int (*const modes[SIM_MODES])(sim_cli *) = {
        [SIM_HELP] = print_help,
        [SIM_LIST_PARAMS] = list_params,
        [SIM_FULL] = simulate_full,
        [SIM_REGIONS] = simulate_regions,
        [SIM_PART] = simulate_part,
        [SIM_PASS] = simulate_pass,
    };
    util_progname = "sim";
    sim_cli cli;
    return modes[sim_cli_parse(argc, argv, &cli)](&cli);
}
