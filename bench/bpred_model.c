/* bpred_model: functional warming's branch predictor alone
 * (bpred_warm_events, as the warming thread calls it), on a stream of
 * control transfers made up here, in nanoseconds per control transfer
 * (bench/bpred_model.sh builds and runs it). Streams:
 *   chase  workloads/ptr_chase.c's chase loop: one conditional branch a
 *          step (five instructions), taken but at the end of each 400000
 *          steps, then a return and the call of the next loop
 *   mixed  a made-up program of 4096 conditional branches over 256 KB of
 *          code, each a loop back-edge, a biased coin, a short repeating
 *          pattern or its predecessor's outcome again, with calls, returns
 *          and jumps among them
 * The stream is handed over in chunks of 1024 events, as the warming
 * thread gets them; each chunk is timed, and its figure is its fastest over
 * the passes (the predictor's state is much the same from pass to pass), so
 * that a busy host's interruptions drop out. Also prints what the predictor
 * learnt, to compare builds by: its statistics and a digest of its saved
 * state (bpred_save) after every pass.
 *
 * Usage: bpred_model chase|mixed [CONFIG.ini [PASSES [CHUNKS]]]   (defaults: built-in, 10, 400) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uarch/bpred.h"
#include "uarch/config.h"

enum { CHUNK = 1024, SITES = 4096, CHASE_STEPS = 400000 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rng = 7;
static uint32_t next_random(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}

static bp_event event(enum bp_kind kind, uint64_t pc, bool taken, uint64_t target, bool indirect, bool pushes)
{
    return (bp_event){.pc = pc, .kind = kind, .taken = taken, .target = target, .indirect = indirect,
                      .pushes = pushes, .len = 4};
}

/* ptr_chase's loop: bne at 0x10772 back to 0x1076a, ret at 0x10778. */
static void chase_stream(bp_event *e, size_t n)
{
    for (size_t i = 0, step = 0; i < n; i++) {
        if (++step < CHASE_STEPS) {
            e[i] = event(BP_COND, 0x10772, true, 0x1076a, false, false);
        } else if (step == CHASE_STEPS) {
            e[i] = event(BP_COND, 0x10772, false, 0x1076a, false, false);
        } else if (step == CHASE_STEPS + 1) {
            e[i] = event(BP_RET, 0x10778, true, 0x10900, true, false);
        } else {
            e[i] = event(BP_CALL, 0x10904, true, 0x1075e, false, true);
            step = 0;
        }
    }
}

/* A branch site of the made-up program. */
typedef struct site {
    uint64_t pc;
    int kind;          /* 0 loop, 1 biased, 2 pattern, 3 as the previous branch went */
    uint32_t param;    /* trip count; chance taken in 1/256; pattern (bit 0 first) with its period in the top 4 bits */
    uint32_t count;
    int taken_to, fall_to; /* the next site either way */
} site;

static void mixed_stream(bp_event *e, size_t n)
{
    static site s[SITES];
    for (int i = 0; i < SITES; i++) {
        uint32_t r = next_random();
        s[i] = (site){.pc = 0x10000 + (uint64_t)(next_random() % 65536) * 4, .kind = (int)(r & 3),
                      .taken_to = (int)(next_random() % SITES), .fall_to = (int)(next_random() % SITES)};
        static const uint32_t bias[] = {5, 128, 230, 251};
        if (s[i].kind == 0) s[i].param = 2 + next_random() % 40, s[i].taken_to = i; /* a loop comes back */
        if (s[i].kind == 1) s[i].param = bias[next_random() % 4];
        if (s[i].kind == 2) s[i].param = (2 + next_random() % 11) << 28 | (next_random() & 0xfff);
    }
    uint64_t stack[64];
    int depth = 0, at = 0;
    bool last = false;
    for (size_t i = 0; i < n; i++) {
        site *c = &s[at];
        uint32_t r = next_random();
        if (r % 16 == 0 && depth < 64) { /* a call to another site */
            int to = (int)(next_random() % SITES);
            stack[depth++] = c->pc + 8;
            e[i] = event(BP_CALL, c->pc + 4, true, s[to].pc - 16, false, true);
            at = to;
            continue;
        }
        if (r % 16 == 1 && depth > 0) { /* a return, to the site after the call's */
            uint64_t to = stack[--depth];
            e[i] = event(BP_RET, c->pc + 4, true, to, true, false);
            at = (at + 1) % SITES;
            continue;
        }
        if (r % 16 == 2) { /* a jump */
            at = c->fall_to;
            e[i] = event(BP_JUMP, c->pc + 4, true, s[at].pc - 8, false, false);
            continue;
        }
        bool taken;
        switch (c->kind) {
        case 0: taken = ++c->count % c->param != 0; break;
        case 1: taken = (r >> 8 & 255) < c->param; break;
        case 2: taken = c->param >> (c->count++ % (c->param >> 28)) & 1; break;
        default: taken = last; break;
        }
        last = taken;
        int to = taken ? c->taken_to : c->fall_to;
        e[i] = event(BP_COND, c->pc, taken, s[to].pc, false, false);
        at = to;
    }
}

/* FNV-1a of the predictor's saved state. */
static uint64_t digest(const bpred *b)
{
    ustate s = {0};
    bpred_save(b, &s);
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < s.len; i++) h = (h ^ s.data[i]) * 1099511628211ull;
    ustate_free(&s);
    return h;
}

int main(int argc, char **argv)
{
    int passes = argc > 3 ? atoi(argv[3]) : 10, chunks = argc > 4 ? atoi(argv[4]) : 400;
    bool chase = argc > 1 && !strcmp(argv[1], "chase"), mixed = argc > 1 && !strcmp(argv[1], "mixed");
    if ((!chase && !mixed) || passes < 1 || chunks < 1) {
        fprintf(stderr, "bpred_model: usage: bpred_model chase|mixed [CONFIG.ini [PASSES >= 1 [CHUNKS >= 1]]]\n");
        return 2;
    }
    uarch_config c;
    uarch_config_defaults(&c);
    char err[256];
    if (argc > 2 && (uarch_config_load(&c, argv[2], err, sizeof err) || uarch_config_check(&c, err, sizeof err))) {
        fprintf(stderr, "bpred_model: %s\n", err);
        return 2;
    }
    size_t n = (size_t)chunks * CHUNK;
    bp_event *e = malloc(n * sizeof *e);
    double *best = malloc((size_t)chunks * sizeof *best);
    if (!e || !best) {
        fprintf(stderr, "bpred_model: out of memory\n");
        return 2;
    }
    (chase ? chase_stream : mixed_stream)(e, n);
    bpred *b = bpred_new(&c);
    uint64_t h = 0;
    for (int k = 0; k < chunks; k++) best[k] = 1e9;
    for (int pass = 0; pass < passes; pass++) {
        for (int k = 0; k < chunks; k++) {
            double t0 = now();
            bpred_warm_events(b, &e[(size_t)k * CHUNK], CHUNK);
            double t = now() - t0;
            if (t < best[k]) best[k] = t;
        }
        bpred_warm_flush(b);
        h = h * 31 + digest(b);
    }
    double sum = 0;
    for (int k = 0; k < chunks; k++) sum += best[k];
    const bpred_stats *s = bpred_get_stats(b);
    printf("%s: %.2f ns per control transfer; conditional %llu, mispredicted %llu, BTB misses %llu, "
           "state digest %016llx\n",
           argv[1], sum / (double)n * 1e9, (unsigned long long)s->cond, (unsigned long long)s->cond_mispredicts,
           (unsigned long long)s->btb_misses, (unsigned long long)h);
    bpred_free(b);
    free(e);
    free(best);
    return 0;
}
