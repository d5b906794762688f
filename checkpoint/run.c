#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bbv_map.h"
#include "bbv_profile.h"
#include "ckpt/ckpt.h"
#include "exec/exec.h"
#include "json_out.h"
#include "modes.h"
#include "progress.h"
#include "symbols.h"
#include "util.h"

static void report_progress(void *ctx, uint64_t retired)
{
    progress_update(ctx, retired);
}

int run_checkpoint(const ckpt_options *o, const char *path)
{
    rv_proc proc;
    ckpt_meta meta;
    rv_proc_options po = guest_cli_proc_options(&o->guest);
    po.exe = o->program;
    po.host_files = true; /* the program goes on, on the host's files */
    char err[512];
    if (ckpt_restore(&proc, path, &po, &meta, err, sizeof err)) {
        rv_proc_destroy(&proc);
        ckpt_meta_free(&meta);
        die("%s", err);
    }
    int out_fd = guest_cli_redirect_output(&proc, o->guest_output ? o->guest_output : "none");
    uint64_t begin = proc.cpu.icount;
    uint64_t limit = o->insts == UINT64_MAX ? UINT64_MAX : begin + o->insts;

    bbv_profile bp;
    outfile *bb = NULL;
    char name[4096];
    if (o->bbv_prefix) {
        snprintf(name, sizeof name, "%s.%llu.bb", o->bbv_prefix, (unsigned long long)o->interval);
        bb = outfile_open(name);
    }
    uint64_t size = o->interval;
    bbv_profile_init(&bp, &size, &bb, o->bbv_prefix ? 1 : 0);
    bbv_profile_rebase(&bp, begin);
    progress prog;
    progress_init(&prog, "checkpoint --run", o->progress, o->insts == UINT64_MAX ? 0 : o->insts);
    if (prog.enabled)
        bbv_profile_on_progress(&bp, report_progress, &prog);
    double t0 = now_seconds();
    bbv_profile_run(&bp, &proc, limit);
    double seconds = now_seconds() - t0;
    progress_finish(&prog, proc.cpu.icount - begin);
    guest_cli_report_stop(&proc);
    if (bb) {
        bbv_profile_finish(&bp, false);
        outfile_commit(bb);
        snprintf(name, sizeof name, "%s.bbmap", o->bbv_prefix);
        outfile *map = outfile_open(name);
        rv_symtab syms;
        symtab_load(&syms, proc.os.exe_path, 0);
        bbv_map_write(map, &bp, &syms);
        symtab_free(&syms);
        outfile_commit(map);
    }
    uint64_t ran = proc.cpu.icount - begin;
    const char *how = proc.stop == RV_STOP_EXIT ? "exit" : proc.stop == RV_STOP_SIGNAL ? "signal" : "insts";
    json_t *j = json_pack("{s:s, s:I, s:I, s:I, s:s, s:i, s:f, s:f}", "checkpoint", path, "start", (json_int_t)begin,
                          "instructions", (json_int_t)ran, "end", (json_int_t)proc.cpu.icount, "stopped_by", how,
                          "exit_status", proc.stop == RV_RUNNING ? 0 : proc.exit_status, "wall_seconds", seconds,
                          "mips", seconds > 0 ? (double)ran / seconds / 1e6 : 0.0);
    if (o->summary)
        json_write_file(o->summary, j);
    if (o->verbose || prog.tty)
        fprintf(stderr, "checkpoint: ran %llu instructions from %llu to %llu (%s), %.0f MIPS\n",
                (unsigned long long)ran, (unsigned long long)begin, (unsigned long long)proc.cpu.icount, how,
                seconds > 0 ? (double)ran / seconds / 1e6 : 0.0);
    json_decref(j);
    int status = proc.stop == RV_RUNNING ? 0 : proc.exit_status;
    bbv_profile_free(&bp);
    ckpt_meta_free(&meta);
    rv_proc_destroy(&proc);
    if (out_fd >= 0)
        close(out_fd);
    return status;
}
