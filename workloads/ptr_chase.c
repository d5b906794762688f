/* ptr_chase: pointer chasing over growing working sets.
 *
 * Four linked lists of 64-byte nodes (one node per cache line), each
 * linked in one random cycle (Sattolo's shuffle), so every step is a
 * dependent load to an unpredictable line:
 *     4 KB (64 nodes), 64 KB (1 Ki), 1 MB (16 Ki), 16 MB (256 Ki nodes).
 * Each working set is walked by its own copy of the chase loop (a macro
 * instantiates one function per set), so the phases have distinct basic
 * blocks as well as distinct cache behaviour.
 *
 * Phases: BUILD once (about 9.5 M instructions, touching 17 MB), then per
 * unit of SIZE: 4K 64K 1M 16M 4K 1M 64K 16M (400 000 steps each).
 * Size (retired instructions, measured with bbv --count-only): 25.5 M at
 * SIZE=1 (the test size); 9.52 M + 16.0 M per unit of SIZE, so
 * SIZE=100 is about 1.6 G. Memory: 17 MB. Built with -DCHASE_ONLY=N, it
 * walks one of the sets alone (see main).
 */
#include "common.h"

struct node {
    struct node *next;
    uint64_t val;
    uint64_t pad[6];
};

#define STEPS 400000

static struct node *build(size_t n, uint64_t *st)
{
    struct node *a = malloc(n * sizeof *a);
    size_t *perm = malloc(n * sizeof *perm);
    if (!a || !perm) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    /* Sattolo: a uniformly random permutation that is a single cycle. */
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = wl_rand(st) % i;
        size_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < n; i++) {
        a[perm[i]].next = &a[perm[(i + 1) % n]];
        a[perm[i]].val = i * 2654435761u;
    }
    free(perm);
    return a;
}

/* One chase loop per working set: same code, different addresses
 * (noipa keeps GCC from folding the identical copies into one). */
#define DEFINE_CHASE(NAME)                                               \
    static __attribute__((noinline, noipa)) uint64_t NAME(struct node **pp,     \
                                                   long steps)          \
    {                                                                    \
        struct node *p = *pp;                                            \
        uint64_t sum = 0;                                                \
        for (long i = 0; i < steps; i++) {                               \
            sum += p->val;                                               \
            p = p->next;                                                 \
        }                                                                \
        *pp = p;                                                         \
        return sum;                                                      \
    }
DEFINE_CHASE(chase_4k)
DEFINE_CHASE(chase_64k)
DEFINE_CHASE(chase_1m)
DEFINE_CHASE(chase_16m)

int main(int argc, char **argv)
{
    long size = wl_size(argc, argv);
    uint64_t st = 7;
    struct node *p4k = build(64, &st);
    struct node *p64k = build(1024, &st);
    struct node *p1m = build(16384, &st);
    struct node *p16m = build(262144, &st);

    uint64_t s4k = 0, s64k = 0, s1m = 0, s16m = 0;
#ifdef CHASE_ONLY
    /* One working set alone (0: 4 KB ... 3: 16 MB) for as many steps as
     * the four take by default: bench/bench_memory_bound.sh measures each. */
    for (long u = 0; u < 8 * size; u++) {
        switch (CHASE_ONLY) {
        case 0: s4k = wl_mix(s4k, chase_4k(&p4k, STEPS)); break;
        case 1: s64k = wl_mix(s64k, chase_64k(&p64k, STEPS)); break;
        case 2: s1m = wl_mix(s1m, chase_1m(&p1m, STEPS)); break;
        default: s16m = wl_mix(s16m, chase_16m(&p16m, STEPS)); break;
        }
    }
#else
    for (long u = 0; u < size; u++) {
        s4k = wl_mix(s4k, chase_4k(&p4k, STEPS));
        s64k = wl_mix(s64k, chase_64k(&p64k, STEPS));
        s1m = wl_mix(s1m, chase_1m(&p1m, STEPS));
        s16m = wl_mix(s16m, chase_16m(&p16m, STEPS));
        s4k = wl_mix(s4k, chase_4k(&p4k, STEPS));
        s1m = wl_mix(s1m, chase_1m(&p1m, STEPS));
        s64k = wl_mix(s64k, chase_64k(&p64k, STEPS));
        s16m = wl_mix(s16m, chase_16m(&p16m, STEPS));
    }
#endif
    wl_print("chase-4K", s4k);
    wl_print("chase-64K", s64k);
    wl_print("chase-1M", s1m);
    wl_print("chase-16M", s16m);
    return 0;
}
