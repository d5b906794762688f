#include "pics.h"

#include "../core/psv.h"

void pics_init(pics_golden *g, uint32_t units)
{
    *g = (pics_golden){.units = units};
}

void pics_begin(pics_golden *g) { g->started = true; }

void pics_free(pics_golden *g)
{
    cost_table_free(&g->table);
    *g = (pics_golden){0};
}

void pics_attribute(void *ctx, uint64_t pc, uint16_t psv, const uint64_t units[ST_COUNT], uint64_t commits)
{
    pics_golden *g = ctx;
    if (!g->started) return;
    cost *c = cost_at(&g->table, pics_key(pc, psv));
    for (int s = 0; s < ST_COUNT; s++) c->units[s] += units[s];
    c->commits += commits;
    if (commits && units[ST_STALLED] && !(psv & PSV_TEA)) {
        uint64_t cycles = units[ST_STALLED] / g->units;
        g->no_event_stalls[cycles < PICS_STALL_BUCKETS ? cycles : PICS_STALL_BUCKETS]++;
    }
}

double pics_no_event_stall_percentile(const uint64_t hist[PICS_STALL_BUCKETS + 1], double p)
{
    uint64_t total = 0;
    for (int i = 0; i <= PICS_STALL_BUCKETS; i++) total += hist[i];
    if (!total) return 0;
    uint64_t want = (uint64_t)(p * (double)total + 0.5), seen = 0;
    for (int i = 0; i <= PICS_STALL_BUCKETS; i++) {
        seen += hist[i];
        if (seen >= want && seen) return i;
    }
    return PICS_STALL_BUCKETS;
}
