/* Command line of validate. */
#ifndef VD_OPTIONS_H
#define VD_OPTIONS_H

#include "analysis.h"

typedef struct vd_options {
    const char *simpoints, *weights, *labels, *full, *log, *profile_summary, *checkpoints;
    const char **regions;
    size_t nregions;
    uint64_t interval;
    const char *sweep; /* manifest: sweep mode */
    const char *out, *markdown, *json, *csv, *plots;
    vd_params p;
    bool bootstrap_given;
    double target;     /* sweep: the error target (fraction) */
    double max_error;  /* exit 2 above it (fraction; NAN: never) */
    long baseline_maxk;
    double baseline_bic;
    bool quiet;
} vd_options;

extern const char vd_usage[];

/* Parse ARGV into O; dies with a one-line reason on misuse. Returns false
 * when --help was printed (nothing else to do). */
bool vd_options_parse(vd_options *o, int argc, char **argv);
void vd_options_free(vd_options *o);

#endif
