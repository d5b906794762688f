/* A growable byte buffer for saving and restoring warm micro-architectural
 * state (caches, TLBs, predictors) into a checkpoint section. */
#ifndef RV_UARCH_STATE_H
#define RV_UARCH_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ustate {
    uint8_t *data;
    size_t len, cap; /* bytes written / allocated */
    size_t pos;      /* read position */
    bool bad;        /* a read ran past the end or a check failed */
} ustate;

void ustate_put(ustate *s, const void *p, size_t n);
void ustate_put_u64(ustate *s, uint64_t v);
/* Reads set s->bad (and fill zeros) when fewer than n bytes remain. */
void ustate_get(ustate *s, void *p, size_t n);
uint64_t ustate_get_u64(ustate *s);
/* Read a u64 and mark the state bad unless it equals want (sizes, tags). */
void ustate_expect_u64(ustate *s, uint64_t want);
void ustate_free(ustate *s);

#endif
