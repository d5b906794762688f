/* DRAM timing: a fixed access latency, a bounded number of outstanding
 * reads and one channel that moves a line at a time at the configured
 * bandwidth.
 *
 * The channel keeps the intervals it is reserved for rather than one "free
 * from" time: the core makes requests in program order, not time order, so
 * a request made at an earlier cycle than the last one can still use an idle
 * gap instead of queueing behind transfers that happen after it. For
 * requests in time order this is exactly "data arrives at max(start +
 * latency, channel free + transfer time)". Channel time is fixed point, so
 * a transfer time that is not a whole number of cycles adds up exactly. */
#ifndef RV_UARCH_DRAM_H
#define RV_UARCH_DRAM_H

#include <stdint.h>

#include "uarch/busy.h"
#include "uarch/config.h"

#define DRAM_FRAC_BITS 16   /* channel times are in 1/65536 cycles */

typedef struct dram_interval {
    uint64_t begin, end;    /* fixed point */
} dram_interval;

typedef struct dram {
    uint64_t latency;       /* cycles from the request to the data, on an idle channel */
    uint64_t transfer;      /* channel time of one line, fixed point */
    busy_pool requests;     /* outstanding reads */
    dram_interval *channel; /* reserved channel time, sorted, disjoint */
    unsigned nchannel, channel_cap;
} dram;

void dram_init(dram *d, const uarch_config *c);
void dram_free(dram *d);

/* A line read requested at cycle t: the cycle it arrives. */
uint64_t dram_read(dram *d, uint64_t t);
/* A dirty line written back at cycle t: takes channel time in the first gap
 * from t on, but no request slot (the write buffer absorbs it). */
void dram_write(dram *d, uint64_t t);

/* Forget all reservations. */
void dram_quiesce(dram *d);

#endif
