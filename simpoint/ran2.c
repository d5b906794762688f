#include "ran2.h"

#include <limits.h>

enum {
    IM1 = 2147483563, IM2 = 2147483399, IMM1 = IM1 - 1,
    IA1 = 40014, IA2 = 40692, IQ1 = 53668, IQ2 = 52774, IR1 = 12211, IR2 = 3791,
    NDIV = 1 + IMM1 / RAN2_NTAB,
};
#define AM (1.0 / IM1)
#define RNMX (1.0 - 1.2e-7)

/* One step of x = a*x mod m without overflow (Schrage's method). */
static long schrage(long x, long a, long q, long r, long m)
{
    long k = x / q;
    x = a * (x - k * q) - k * r;
    return x < 0 ? x + m : x;
}

void ran2_seed(ran2 *r, int32_t seed)
{
    long s = seed < 0 ? -(long)seed : (long)seed;
    if (s < 1)
        s = 1;
    r->idum = r->idum2 = s;
    /* Warm up 8 steps, then fill the shuffle table from the top down. */
    for (int j = RAN2_NTAB + 7; j >= 0; j--) {
        r->idum = schrage(r->idum, IA1, IQ1, IR1, IM1);
        if (j < RAN2_NTAB)
            r->iv[j] = r->idum;
    }
    r->iy = r->iv[0];
}

float ran2_float(ran2 *r)
{
    r->idum = schrage(r->idum, IA1, IQ1, IR1, IM1);
    r->idum2 = schrage(r->idum2, IA2, IQ2, IR2, IM2);
    int j = (int)(r->iy / NDIV);
    r->iy = r->iv[j] - r->idum2;
    r->iv[j] = r->idum;
    if (r->iy < 1)
        r->iy += IMM1;
    float temp = (float)(AM * (double)r->iy);
    return (double)temp > RNMX ? (float)RNMX : temp;
}

int32_t ran2_int(ran2 *r)
{
    float f = ran2_float(r) * (float)INT_MAX;
    return (int32_t)f;
}
