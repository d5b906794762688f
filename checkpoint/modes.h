/* The three things the checkpoint tool does. */
#ifndef CKPT_MODES_H
#define CKPT_MODES_H

#include <stdbool.h>
#include <stdint.h>

#include "guest_cli.h"
#include "plan.h"

typedef struct ckpt_options {
    const char *out_dir;       /* take: where checkpoints go */
    const char *guest_output;  /* NULL: pass through; "none": discard; else a file */
    const char *summary;       /* JSON summary file, "-" for stdout */
    const char *program;       /* run: program to use instead of the recorded path */
    const char *bbv_prefix;    /* run: also write basic-block vectors */
    uint64_t interval;         /* take: simpoint interval; run: BBV interval */
    uint64_t insts;            /* run: instructions to run (UINT64_MAX: to the end) */
    bool json, progress, verbose;
    bool self_contained;       /* take: every checkpoint holds its pages (no page store) */
    const struct uarch_config *warm; /* take: store warm caches/TLBs/predictors of this core */
    guest_args guest;
} ckpt_options;

/* One pass over the program writing every checkpoint of the plan. */
int take_checkpoints(const ckpt_options *o, ckpt_plan *plan, int argc, char **argv);
/* Restore CKPT and run it functionally. Returns the exit status to use. */
int run_checkpoint(const ckpt_options *o, const char *path);
/* Print what a checkpoint holds. */
int show_checkpoint(const ckpt_options *o, const char *path);

#endif
