/* The core's resources as a sensitivity study names them (notes/gus.md §4):
 * single parameters of the configuration (rob.entries, fu.div, ...), groups
 * that move together (frontend, window, memory-bandwidth, ...) and limit
 * studies that idealise a structure (perfect-bp, infinite-rob, ...). A
 * variant is the baseline configuration with one resource or set of
 * resources accelerated by a factor: capacities multiplied, latencies
 * divided, rounded to integers but always moved by at least one step, and
 * clamped to the parameter's range. Table and rules: sim/RESULTS.md. */
#ifndef SIM_RESOURCES_H
#define SIM_RESOURCES_H

#include <stdbool.h>

#include "uarch/config.h"

enum { VARIANT_MAX_CHANGES = 32 };

typedef struct param_change {
    int param;                 /* uarch_param_* index */
    int from, to;
    double scale;              /* the effective acceleration: to/from for a capacity, from/to for a latency */
} param_change;

typedef struct variant {
    char name[96];             /* "rob.entries x2", "perfect-l1d" */
    char resource[64];         /* what was asked for: a parameter, group, limit study or '+' set */
    double factor;             /* the acceleration asked for; 0 for a limit study */
    uarch_config cfg;
    param_change changes[VARIANT_MAX_CHANGES];
    int nchanges;
    double scale;              /* effective acceleration: geometric mean of the changes' (0 for a limit study) */
    bool shares_state;         /* cache, TLB and predictor geometry unchanged: the warm state carries over */
    char skipped[256];         /* why it is not simulated ("" if it is) */
} variant;

/* Accelerations: comma-separated xK (x2, x0.5) or +P% / -P% (+15% = x1.15).
 * Returns the count (at most max) or -1 with the reason in err. */
int resource_parse_factors(const char *list, double *factors, int max, char *err, size_t errlen);

/* The variants of a comma-separated resource list ('all': every single
 * resource) at each factor (limit studies once, whatever the factors), or
 * of a preset ("gus": Gus's resources at +15%; "limits": every limit
 * study). Returns the number made (*out allocated) or -1 with the reason. */
int resource_variants(const uarch_config *base, const char *list, const double *factors, int nfactors,
                      variant **out, char *err, size_t errlen);
/* The variant of one resource or '+' set at acceleration w (ignored by
 * limit studies): 0, or -1 with the reason. */
int resource_variant(const uarch_config *base, const char *resource, double w, variant *v, char *err, size_t errlen);
int resource_preset(const uarch_config *base, const char *preset, variant **out, char *err, size_t errlen);

#endif
