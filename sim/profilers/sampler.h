/* One sampler, many profilers. The sampler picks sample cycles (periodic, or
 * one uniformly random cycle in each period) and hands every sample cycle to
 * every selected profiler, so their differences are systematic, not
 * statistical. A profiler turns a sample into a record like the hardware's
 * (sample_record), at once or later (NCI waits for the next commit, tagging
 * profilers for the tagged instruction's commit); a record stands for every
 * cycle since the previous sample, and the cycles of a dropped sample carry
 * over to the next record. */
#ifndef SIM_SAMPLER_H
#define SIM_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outfile.h"
#include "../core/probe.h"
#include "profile.h"

enum record_flag {
    REC_STALLED = 1 << 0,      /* nothing committed: the oldest entry is to blame */
    REC_FLUSHED = 1 << 1,      /* entry 0 flushed the pipeline */
    REC_MISPREDICT = 1 << 2,   /* ... as a mispredicted branch */
    REC_EXCEPTION = 1 << 3,    /* ... as an exception (ecall/ebreak) */
    REC_FRONT_END = 1 << 4,    /* the ROB was empty: entry 0 is the first to enter it after */
};

/* A sample as the hardware would record it (TIP's CSRs, notes/tip.md §2). */
typedef struct sample_record {
    uint64_t cycle;            /* the sample cycle */
    uint64_t weight;           /* cycles it stands for */
    uint8_t state;             /* the commit state of the sample cycle */
    uint8_t flags;             /* enum record_flag */
    uint8_t n, oldest;         /* entries used; index of the oldest */
    uint64_t pc[PROBE_MAX_WIDTH];
    bool valid[PROBE_MAX_WIDTH];
    uint16_t psv[PROBE_MAX_WIDTH]; /* TEA and the event-based schemes: each entry's PSV */
} sample_record;

/* A sample a profiler has not resolved yet. */
typedef struct pending_sample {
    uint64_t cycle, weight;
    uint8_t state;
    bool tagged;               /* waits for instruction seq to commit */
    uint64_t seq;
} pending_sample;

typedef struct profiler profiler;

typedef struct profiler_policy {
    const char *name;
    const char *hardware;      /* what it models, for --help and reports */
    uint16_t events;           /* PSV events it records (sim/core/psv.h); 0: a time profile only */
    /* Views before the samples that land in them, while samples are
     * pending (NULL: the policy never defers). */
    void (*on_view)(profiler *p, const commit_view *v);
    /* A sample at cycle t of view v, standing for `weight` cycles. */
    void (*on_sample)(profiler *p, const commit_view *v, uint64_t t, uint64_t weight);
} profiler_policy;

struct profiler {
    const profiler_policy *policy;
    struct sampler *sampler;
    uint16_t events;           /* the policy's, plus the selected extra bits for TEA's own sets */
    pending_sample *pending;
    size_t npending, cap;
    cost_table profile;        /* pc -> units by the state of the sample cycle */
    uint64_t samples, dropped, carry;
    sample_record first;       /* continued runs: the first record, kept out of the profile */
    bool has_first;
};

extern const profiler_policy *const profiler_policies[];
extern const size_t nprofiler_policies;
const profiler_policy *profiler_policy_find(const char *name);

/* Profiler helpers for the policies. */
void profiler_emit(profiler *p, sample_record *r);
void profiler_drop(profiler *p, uint64_t weight);
void profiler_defer(profiler *p, pending_sample s);
/* A record blaming one instruction. */
sample_record record_one(uint64_t cycle, uint64_t weight, uint8_t state, uint8_t flags, uint64_t pc);
/* Resolve every pending sample that is not tagged with the record
 * make(p, sample, arg) builds; keep the rest. */
void profiler_resolve_waiting(profiler *p, sample_record (*make)(const pending_sample *, const void *), const void *arg);
/* Tagged samples: emit those whose instruction commits in v (with its final
 * PSV); drop those squashed in v when the tag names an instance (not a
 * resume point). */
void profiler_settle_tags(profiler *p, const commit_view *v, bool drop_squashed);
/* Samples waiting for an instruction to tag take seq. */
void profiler_tag_waiting(profiler *p, uint64_t seq);

/* The samples a run's profile should rest on: a share p estimated from n
 * samples has a binomial standard error sqrt(p(1-p)/n) <= 0.5/sqrt(n), so
 * with 1000 samples no share is off by more than 3.1 points (95%). A
 * profile on fewer is flagged. */
#define SAMPLES_ENOUGH 1000

typedef struct sampler_config {
    uint64_t period;           /* cycles */
    bool random;               /* one random cycle in each period instead of its last */
    uint64_t seed;
    double hz;                 /* the frequency the period came from, 0 if given in cycles */
    uint64_t min_samples;      /* > 0: a run of known length samples faster so it gets at least this many */
    uint16_t psv_extra;        /* extra PSV bits (beyond the paper's nine) for TEA's event sets */
    bool continued;            /* a chunk of a chunked full run: its periods go on from the chunk before's
                                  (sampler_begin_at, sampled_runs_stitch) */
} sampler_config;

typedef struct sampler {
    sampler_config cfg;
    uint32_t units;            /* 1/U cycle of the profiles */
    bool started;
    uint64_t origin, next, index, rng;
    uint64_t phase;            /* cycles of the first period before origin (continued runs) */
    uint64_t unsampled;        /* the first cycle no sample stands for yet */
    size_t waiting;            /* samples pending in all profilers */
    uint64_t want_from;        /* the commit probe's views it reads: the next sample's on, or all while samples wait */
    profiler *profs;
    int nprofs;
    outfile *records;          /* --samples, or NULL */
    unsigned record_width;     /* entries per record in that file (the commit width) */
} sampler;

/* Profilers by policy name; records (optional) receives every sample, with
 * `width` entries per record. */
sampler *sampler_new(const sampler_config *cfg, uint32_t units, const char *const *names, int nnames, outfile *records,
                     unsigned width);
void sampler_free(sampler *s);
/* Sampling starts at cycle origin (views before it only update state). */
void sampler_begin(sampler *s, uint64_t origin);
/* ... at instruction first_inst. A continued sampler (a chunk of a chunked
 * run) that begins past instruction 0 starts part-way through a period:
 * the serial run's phase there is a residue of every cycle before, which a
 * chunk simulated beside the chunks before it cannot know, so it is drawn
 * uniformly from the seed and first_inst (phase cycles of the first period
 * lie before origin: its sample, when random and there, is not taken); the
 * random stream is seeded from both too. At instruction 0 it is
 * sampler_begin's, the serial run's. */
void sampler_begin_at(sampler *s, uint64_t origin, uint64_t first_inst);
/* The probe consumer. */
void sampler_view(void *sampler, const commit_view *v);
/* The run is over: samples still pending are dropped. */
void sampler_end(sampler *s);

/* A profiler's result, detached from the sampler. */
typedef struct sampled_profile {
    const char *name;
    uint16_t events;           /* 0: a time profile keyed by pc; else keyed by pics_key(pc, PSV) */
    uint64_t samples, dropped;
    cost *pcs;                 /* sorted by units */
    size_t npcs;
    /* Continued runs: the first record (not in pcs), and the cycles of the
     * samples dropped since the last record, which go with the next record. */
    sample_record first;
    bool has_first;
    uint64_t carry;
} sampled_profile;

typedef struct sampled_run {
    sampler_config cfg;
    sampled_profile *profs;
    int nprofs;
    uint32_t units;            /* 1/U cycle of the profiles */
    uint64_t spanned;          /* cycles from origin to the last sample cycle, inclusive */
} sampled_run;

void sampler_collect(sampler *s, sampled_run *out);
void sampled_run_free(sampled_run *r);

/* The continued runs of one sampler over the n chunks of a chunked run, in
 * order (chunk k measured cycles[k] cycles), stitched into the run one
 * sampler would have made over them all: the cycles a chunk leaves after its
 * last record (the rest of its last period, samples dropped or still
 * pending at its end) go with the next chunk's first record, as a sample
 * stands for every cycle since the one before it; the last chunk's are in no
 * record, as a serial run's last period. Dies if a chunk's samples span
 * more cycles than it measured (a simulator bug). */
void sampled_runs_stitch(const sampled_run *const *runs, const uint64_t *cycles, size_t n, sampled_run *out);

/* The CSV header of --samples files. */
void sample_records_header(outfile *o, unsigned width);

#endif
