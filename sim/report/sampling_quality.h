/* Whether a sampled profile can be trusted: enough samples (SAMPLES_ENOUGH),
 * and, for periodic sampling, no aliasing with a loop. Aliasing is judged
 * on TIP's profile, whose only error is the sampling's: against the error
 * that as many independent samples would give on the golden profile. */
#ifndef SIM_SAMPLING_QUALITY_H
#define SIM_SAMPLING_QUALITY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "../run.h"
#include "profile.h"

typedef struct sampling_quality {
    uint64_t samples;          /* TIP's, else the first profiler's */
    bool few;                  /* fewer than SAMPLES_ENOUGH */
    bool judged;               /* periodic with a TIP profile: aliasing was looked for */
    bool aliased;
    double error, expected;    /* TIP's instruction error, and that of independent samples */
} sampling_quality;

/* The expected instruction-level error (half the sum of |share - estimate|)
 * of n independent samples of the profile `pcs`. */
double independent_sampling_error(const cost *pcs, size_t npcs, uint64_t n);

void sampling_quality_of(const sim_result *r, const symbolizer *sym, int run, sampling_quality *q);
json_t *sampling_quality_json(const sampling_quality *q);
/* One line per problem, each starting with `lead`, into buf (empty when
 * all is well). */
void sampling_quality_notes(char *buf, size_t size, const char *lead, const sampling_quality *q);

#endif
