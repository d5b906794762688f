/* The two modes of validate, from parsed options to written outputs. */
#ifndef VD_RUN_H
#define VD_RUN_H

#include "options.h"

/* Exit status: 0, or 2 over --max-error; bad inputs die (status 1). */
int vd_run_single(const vd_options *o);
int vd_run_sweep(const vd_options *o);

/* Where outputs go: --out DIR fills in what was not given one by one. */
typedef struct vd_outputs {
    char *markdown, *json, *csv, *plots;
} vd_outputs;

/* STEM names the report files in --out (report or sweep). */
void vd_outputs_plan(vd_outputs *out, const vd_options *o, const char *stem);
void vd_outputs_free(vd_outputs *out);
/* mkdir -p; dies on failure. */
void vd_mkdirs(const char *path);

#endif
