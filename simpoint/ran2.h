/* Numerical Recipes' ran2 (L'Ecuyer's two-generator combination with a
 * Bays-Durham shuffle), the generator SimPoint 3.2 uses for every random
 * choice. Reproduced exactly, including its float rounding, so that --compat
 * runs draw the same numbers as the original. */
#ifndef SP_RAN2_H
#define SP_RAN2_H

#include <stdint.h>

#define RAN2_NTAB 32

typedef struct ran2 {
    long idum, idum2, iy;
    long iv[RAN2_NTAB];
} ran2;

/* Seed like SimPoint's Random(seed): the sign is ignored and 0 acts as 1. */
void ran2_seed(ran2 *r, int32_t seed);
/* Uniform float in (0, 1): the shuffled value scaled by 1/IM1, rounded to float. */
float ran2_float(ran2 *r);
/* (int)(ran2_float() * INT_MAX), evaluated in float as SimPoint 3.2 does. */
int32_t ran2_int(ran2 *r);

#endif
