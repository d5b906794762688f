/* call_tree: a known call structure for sim's inclusive time
 * (tests/e2e/sim_inclusive.sh). main calls f, which calls the leaf g twice
 * and nothing else; main also calls rec, which calls itself down to depth
 * 8, and the leaf solo, which nobody else calls. So inclusive(g) = self(g),
 * inclusive(f) = self(f) + self(g), inclusive(rec) = self(rec) (recursion
 * counted once), and main's inclusive time is all of the run from main on.
 * Argument: rounds (default 2000). */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noipa))

static volatile long sink;

NOINLINE static long g(long x)
{
    long s = x;
    for (int i = 0; i < 40; i++) s = s * 31 + i;
    return s;
}

NOINLINE static long f(long x)
{
    long s = x;
    for (int i = 0; i < 10; i++) s = s * 29 + i;
    s += g(x);
    s ^= g(s);
    return s + 1;
}

NOINLINE static long rec(long depth, long x)
{
    long s = x * 3 + depth;
    for (int i = 0; i < 5; i++) s = s * 7 + i;
    if (depth < 8) s = (rec(depth + 1, s) >> 1) ^ s; /* not a tail call: recursion stays */
    return s + 1;
}

NOINLINE static long solo(long x)
{
    long s = x;
    for (int i = 0; i < 20; i++) s = (s >> 1) + i;
    return s;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 2000, s = 0;
    for (long i = 0; i < rounds; i++) {
        s += f(i);
        s += rec(0, s);
        s += solo(s);
    }
    sink = s;
    printf("%ld\n", s & 0xffff);
    return 0;
}
