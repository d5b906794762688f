#include "uarch/dram.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define ONE_CYCLE ((uint64_t)1 << DRAM_FRAC_BITS)


void dram_init(dram *d, const uarch_config *c)
{
    *d = (dram){0};
    /* ns x MHz / 1000 = cycles; a partial cycle is a whole one */
    d->latency = ((uint64_t)c->dram_latency_ns * (uint64_t)c->freq_mhz + 999) / 1000;
    /* MB/s over MHz is bytes per cycle */
    uint64_t bytes_fp = ((uint64_t)c->line_bytes * (uint64_t)c->freq_mhz) << DRAM_FRAC_BITS;
    d->transfer = max_u64(1, (bytes_fp + (uint64_t)c->dram_mb_per_s / 2) / (uint64_t)c->dram_mb_per_s);
    busy_pool_init(&d->requests, (unsigned)c->dram_queue);
    /* at least enough history for every outstanding read and a write-back
     * each (see channel_reserve); anything older is long past */
    d->channel_cap = 4 * (unsigned)c->dram_queue + 32;
    d->channel = malloc(d->channel_cap * sizeof *d->channel);
    if (!d->channel) die("out of memory");
}

void dram_free(dram *d)
{
    busy_pool_free(&d->requests);
    free(d->channel);
}

void dram_quiesce(dram *d)
{
    busy_pool_clear(&d->requests);
    d->nchannel = 0;
}

/* Reserve the channel for one transfer in the first gap that starts at or
 * after `earliest` (fixed point); returns the transfer's start. */
static uint64_t channel_reserve(dram *d, uint64_t earliest)
{
    /* the first reservation still running at `earliest` (ends are sorted too) */
    unsigned lo = 0, hi = d->nchannel;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (d->channel[mid].end <= earliest)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint64_t begin = earliest;
    unsigned at = lo;
    for (; at < d->nchannel && d->channel[at].begin < begin + d->transfer; at++)
        begin = d->channel[at].end;

    if (d->nchannel == d->channel_cap) {
        /* forget the older half at once: one move per half a history
         * rather than one per transfer */
        unsigned drop = d->channel_cap / 2;
        if (at < drop)
            return begin;   /* among what is forgotten anyway */
        memmove(d->channel, d->channel + drop, (d->nchannel - drop) * sizeof *d->channel);
        d->nchannel -= drop;
        at -= drop;
    }
    memmove(d->channel + at + 1, d->channel + at, (d->nchannel - at) * sizeof *d->channel);
    d->nchannel++;
    d->channel[at] = (dram_interval){begin, begin + d->transfer};
    return begin;
}

uint64_t dram_read(dram *d, uint64_t t)
{
    unsigned slot;
    uint64_t start = busy_pool_claim(&d->requests, t, &slot);
    /* the transfer ends the access: it cannot begin before the latency
     * minus its own length has passed, nor before the request */
    uint64_t start_fp = start << DRAM_FRAC_BITS;
    uint64_t data_fp = (start + d->latency) << DRAM_FRAC_BITS;
    uint64_t earliest = data_fp > start_fp + d->transfer ? data_fp - d->transfer : start_fp;
    uint64_t end_fp = channel_reserve(d, earliest) + d->transfer;
    uint64_t ready = max_u64(start + d->latency, (end_fp + ONE_CYCLE - 1) >> DRAM_FRAC_BITS);
    busy_pool_hold(&d->requests, slot, ready);
    return ready;
}

void dram_write(dram *d, uint64_t t) { channel_reserve(d, t << DRAM_FRAC_BITS); }
