#include "sampling_quality.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* Periodic sampling is called aliased when TIP's error is this many times
 * what independent samples would give (and at least ALIAS_POINTS above it):
 * periodic and one-per-period random samples do better than independent
 * ones unless the period beats with a loop. */
#define ALIAS_FACTOR 3.0
#define ALIAS_POINTS 0.05

double independent_sampling_error(const cost *pcs, size_t npcs, uint64_t n)
{
    if (!n) return 1;
    double total = 0, err = 0;
    for (size_t i = 0; i < npcs; i++) total += (double)cost_total(&pcs[i]);
    if (total <= 0) return 0;
    for (size_t i = 0; i < npcs; i++) {
        double p = (double)cost_total(&pcs[i]) / total;
        /* E|p^ - p| of a binomial share: sqrt(2p(1-p)/(pi n)) when n p is
         * large, at most 2p(1-p) when it is small. */
        double normal = sqrt(2 * p * (1 - p) / (3.14159265358979 * (double)n)), small = 2 * p * (1 - p);
        err += normal < small ? normal : small;
    }
    return err / 2;
}

static const sampled_profile *profile_named(const sampled_run *run, const char *name)
{
    for (int i = 0; i < run->nprofs; i++)
        if (!strcmp(run->profs[i].name, name)) return &run->profs[i];
    return NULL;
}

void sampling_quality_of(const sim_result *r, const symbolizer *sym, int run, sampling_quality *q)
{
    *q = (sampling_quality){0};
    const sampled_run *s = &r->sampled[run];
    if (!s->nprofs) return;
    const sampled_profile *tip = profile_named(s, "tip");
    q->samples = (tip ? tip : &s->profs[0])->samples;
    q->few = q->samples < SAMPLES_ENOUGH;
    if (!tip || s->cfg.random || s->cfg.period <= 1) return;
    q->judged = true;
    q->error = profile_error(sym, GRAN_INSTRUCTION, 0, r->pcs, r->npcs, tip->pcs, tip->npcs);
    q->expected = independent_sampling_error(r->pcs, r->npcs, tip->samples);
    q->aliased = q->error > ALIAS_FACTOR * q->expected && q->error > q->expected + ALIAS_POINTS;
}

json_t *sampling_quality_json(const sampling_quality *q)
{
    json_t *o = json_pack("{s:I, s:I, s:b}", "samples", (json_int_t)q->samples, "samples_enough",
                          (json_int_t)SAMPLES_ENOUGH, "too_few_samples", q->few);
    if (q->judged)
        json_object_update_new(o, json_pack("{s:b, s:f, s:f}", "aliased", q->aliased, "tip_error", q->error,
                                            "independent_error", q->expected));
    return o;
}

void sampling_quality_notes(char *buf, size_t size, const char *lead, const sampling_quality *q)
{
    size_t k = 0;
    buf[0] = 0;
    if (q->few)
        k += (size_t)snprintf(buf, size, "%sToo few samples: %" PRIu64 ", fewer than %d, so a share of the time can be off by more than "
                   "%.1f points (95%%, binomial): sample faster (--sample-hz, --sample-period) or over more "
                   "instructions.\n",
                lead, q->samples, SAMPLES_ENOUGH, 100 * 1.96 * 0.5 / sqrt(SAMPLES_ENOUGH));
    if (q->aliased && k < size)
        snprintf(buf + k, size - k, "%sPeriodic sampling aliases with a loop: TIP's instruction error is %.1f%%, where %" PRIu64
                   " independent samples would give about %.1f%%; the period is a multiple of a loop's iteration "
                   "time, so the samples fall on the same few instructions. Sample at random in each period "
                   "(--sample-random) or change the period.\n",
                lead, 100 * q->error, q->samples, 100 * q->expected);
}
