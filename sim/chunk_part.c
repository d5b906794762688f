#include "chunk_part.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "outfile.h"
#include "util.h"

static const char MAGIC[16] = "rvsample part 2\n";

/* The build's shapes: a part from a build with other counters, states or
 * widths cannot be read as this one's. */
static const uint64_t SHAPES[] = {STK_COUNT, EV_COUNT, ST_COUNT, PROBE_MAX_WIDTH, PICS_STALL_BUCKETS};
enum { NSHAPES = sizeof SHAPES / sizeof SHAPES[0] };

/* CRC32 of n bytes, in pieces zlib's length type holds. */
static uint32_t crc_of(const unsigned char *p, size_t n)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    for (size_t at = 0; at < n;) {
        size_t len = n - at < (1u << 30) ? n - at : (1u << 30);
        crc = crc32(crc, p + at, (uInt)len);
        at += len;
    }
    return (uint32_t)crc;
}

/* ------------------------------------------------------------- writing */

typedef struct wbuf {
    unsigned char *p;
    size_t n, cap;
} wbuf;

static void put(wbuf *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        while (b->n + n > b->cap) b->cap = b->cap ? 2 * b->cap : 4096;
        if (!(b->p = realloc(b->p, b->cap))) die("out of memory");
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

static void put_u64(wbuf *b, uint64_t v)
{
    unsigned char le[8];
    for (int i = 0; i < 8; i++) le[i] = (unsigned char)(v >> (8 * i));
    put(b, le, 8);
}

static void put_f64(wbuf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    put_u64(b, u);
}

/* A string, or NULL (length UINT64_MAX). */
static void put_str(wbuf *b, const char *s)
{
    put_u64(b, s ? strlen(s) : UINT64_MAX);
    if (s) put(b, s, strlen(s));
}

static void put_counters(wbuf *b, const counters *c)
{
    put_u64(b, c->instructions);
    put_u64(b, c->cycles);
    for (int i = 0; i < STK_COUNT; i++) put_u64(b, c->stack[i]);
    for (int i = 0; i < EV_COUNT; i++) put_u64(b, c->events[i]);
}

static void put_costs(wbuf *b, const cost *c, size_t n)
{
    put_u64(b, n);
    for (size_t i = 0; i < n; i++) {
        put_u64(b, c[i].key);
        put_u64(b, c[i].commits);
        for (int s = 0; s < ST_COUNT; s++) put_u64(b, c[i].units[s]);
        put_u64(b, c[i].execs);
        put_u64(b, c[i].bits);
    }
}

static void put_record(wbuf *b, const sample_record *r)
{
    put_u64(b, r->cycle);
    put_u64(b, r->weight);
    put_u64(b, r->state);
    put_u64(b, r->flags);
    put_u64(b, r->n);
    put_u64(b, r->oldest);
    for (int i = 0; i < PROBE_MAX_WIDTH; i++) {
        put_u64(b, r->pc[i]);
        put_u64(b, r->valid[i]);
        put_u64(b, r->psv[i]);
    }
}

static void put_sampled(wbuf *b, const sampled_run *s)
{
    put_u64(b, s->cfg.period);
    put_u64(b, s->cfg.random);
    put_u64(b, s->cfg.seed);
    put_f64(b, s->cfg.hz);
    put_u64(b, s->cfg.min_samples);
    put_u64(b, s->cfg.psv_extra);
    put_u64(b, s->cfg.continued);
    put_u64(b, s->units);
    put_u64(b, s->spanned);
    put_u64(b, (uint64_t)s->nprofs);
    for (int i = 0; i < s->nprofs; i++) {
        const sampled_profile *p = &s->profs[i];
        put_str(b, p->name);
        put_u64(b, p->events);
        put_u64(b, p->samples);
        put_u64(b, p->dropped);
        put_u64(b, p->carry);
        put_u64(b, p->has_first);
        put_record(b, &p->first);
        put_costs(b, p->pcs, p->npcs);
    }
}

/* ProfileMe's per-pc figures and totals. */
static void put_profileme(wbuf *b, const profileme_result *r)
{
    put_u64(b, r->cfg.interval);
    put_u64(b, r->cfg.window);
    put_u64(b, r->cfg.seed);
    put_u64(b, r->cfg.issue_width);
    put_u64(b, r->samples);
    put_u64(b, r->pairs);
    put_u64(b, r->instances);
    put_u64(b, r->npcs);
    for (size_t i = 0; i < r->npcs; i++) {
        const pm_pc *p = &r->pcs[i];
        put_u64(b, p->pc);
        put_u64(b, p->samples);
        for (int e = 0; e < PM_EVENTS; e++) put_u64(b, p->exact[e]), put_u64(b, p->sampled[e]);
        for (int l = 0; l < PM_LATENCIES; l++) put_u64(b, p->exact_latency[l]), put_u64(b, p->sampled_latency[l]);
        put_u64(b, p->useful_fwd);
        put_u64(b, p->useful_bwd);
        put_u64(b, p->pair_latency);
        put_u64(b, p->exact_useful);
        put_u64(b, p->exact_progress);
    }
}

/* The chunk's calling contexts (sim/chunk_calls.h). */
static void put_calls(wbuf *b, const call_profile *c)
{
    put_u64(b, c->nnodes);
    for (size_t i = 0; i < c->nnodes; i++) {
        put_u64(b, c->nodes[i].pc);
        put_u64(b, c->nodes[i].parent);
        put_u64(b, c->nodes[i].depth);
    }
    put_u64(b, c->ncharges);
    for (size_t i = 0; i < c->ncharges; i++) {
        put_u64(b, c->charges[i].pc);
        put_u64(b, c->charges[i].node);
        for (int s = 0; s < ST_COUNT; s++) put_u64(b, c->charges[i].units[s]);
    }
    put_u64(b, c->nframes);
    for (size_t i = 0; i < c->nframes; i++) {
        put_u64(b, c->frames[i].caller);
        put_u64(b, c->frames[i].ret);
    }
    put_u64(b, c->cur);
}

void chunk_part_write(const char *path, const chunk_part *m, const sim_result *r)
{
    wbuf b = {0};
    for (int i = 0; i < NSHAPES; i++) put_u64(&b, SHAPES[i]);
    put_u64(&b, m->index);
    put_u64(&b, m->count);
    put_u64(&b, m->region.start);
    put_u64(&b, m->region.warmup);
    put_u64(&b, m->region.interval);
    put_u64(&b, m->elf_crc);
    put_u64(&b, m->config_digest);
    put_f64(&b, m->started);
    put_f64(&b, m->ended);
    put_str(&b, r->program);
    put_str(&b, r->stopped_by);
    put_u64(&b, (uint64_t)(int64_t)r->exit_status);
    put_str(&b, r->message);
    put_u64(&b, r->start);
    put_u64(&b, r->units);
    put_u64(&b, r->elf_bias);
    put_f64(&b, r->seconds);
    put_counters(&b, &r->c);
    put_costs(&b, r->pcs, r->npcs);
    put_costs(&b, r->blocks, r->nblocks);
    put_u64(&b, r->pics != NULL);
    if (r->pics) {
        put_costs(&b, r->pics, r->npics);
        for (int i = 0; i <= PICS_STALL_BUCKETS; i++) put_u64(&b, r->no_event_stalls[i]);
    }
    put_u64(&b, r->log.n);
    for (size_t i = 0; i < r->log.n; i++) put_counters(&b, &r->log.rows[i]);
    put_u64(&b, (uint64_t)r->nsampled);
    for (int i = 0; i < r->nsampled; i++) put_sampled(&b, &r->sampled[i]);
    put_u64(&b, r->calls != NULL);
    if (r->calls) put_calls(&b, r->calls);
    put_u64(&b, r->profileme != NULL);
    if (r->profileme) put_profileme(&b, r->profileme);

    outfile *o = outfile_open(path);
    outfile_write(o, MAGIC, sizeof MAGIC);
    unsigned char tail[12];
    uint64_t len = b.n;
    uint32_t crc = crc_of(b.p, b.n);
    for (int i = 0; i < 8; i++) tail[i] = (unsigned char)(len >> (8 * i));
    for (int i = 0; i < 4; i++) tail[8 + i] = (unsigned char)(crc >> (8 * i));
    outfile_write(o, tail, 8);
    outfile_write(o, b.p, b.n);
    outfile_write(o, tail + 8, 4);
    outfile_commit(o);
    free(b.p);
}

/* ------------------------------------------------------------- reading */

typedef struct rbuf {
    const unsigned char *p;
    size_t n, at;
    const char *bad;             /* what did not parse, or NULL */
} rbuf;

static uint64_t get_u64(rbuf *b)
{
    if (b->bad || b->n - b->at < 8) {
        if (!b->bad) b->bad = "it ends early";
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)b->p[b->at + i] << (8 * i);
    b->at += 8;
    return v;
}

/* A value that must be at most max. */
static uint64_t get_max(rbuf *b, uint64_t max, const char *what)
{
    uint64_t v = get_u64(b);
    if (v > max && !b->bad) b->bad = what;
    return b->bad ? 0 : v;
}

static double get_f64(rbuf *b)
{
    uint64_t u = get_u64(b);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static char *get_str(rbuf *b)
{
    uint64_t len = get_u64(b);
    if (b->bad || len == UINT64_MAX) return NULL;
    if (len > b->n - b->at) {
        b->bad = "a string runs past its end";
        return NULL;
    }
    char *s = malloc(len + 1);
    if (!s) die("out of memory");
    memcpy(s, b->p + b->at, len);
    s[len] = 0;
    b->at += len;
    return s;
}

/* A count of items of at least `min_bytes` each, no more than are left. */
static size_t get_count(rbuf *b, size_t min_bytes)
{
    uint64_t n = get_u64(b);
    if (!b->bad && n > (b->n - b->at) / min_bytes) b->bad = "a count is larger than the file";
    return b->bad ? 0 : (size_t)n;
}

static void get_counters(rbuf *b, counters *c)
{
    c->instructions = get_u64(b);
    c->cycles = get_u64(b);
    for (int i = 0; i < STK_COUNT; i++) c->stack[i] = get_u64(b);
    for (int i = 0; i < EV_COUNT; i++) c->events[i] = get_u64(b);
}

static cost *get_costs(rbuf *b, size_t *n)
{
    *n = get_count(b, (4 + ST_COUNT) * 8);
    cost *c = calloc(*n ? *n : 1, sizeof *c);
    if (!c) die("out of memory");
    for (size_t i = 0; i < *n; i++) {
        c[i].key = get_u64(b);
        c[i].commits = get_u64(b);
        for (int s = 0; s < ST_COUNT; s++) c[i].units[s] = get_u64(b);
        c[i].execs = get_u64(b);
        c[i].bits = (uint32_t)get_max(b, UINT32_MAX, "an encoding is over 32 bits");
    }
    return c;
}

static void get_record(rbuf *b, sample_record *r)
{
    r->cycle = get_u64(b);
    r->weight = get_u64(b);
    r->state = (uint8_t)get_max(b, ST_COUNT - 1, "a sample's state is unknown");
    r->flags = (uint8_t)get_max(b, UINT8_MAX, "a sample's flags are unknown");
    r->n = (uint8_t)get_max(b, PROBE_MAX_WIDTH, "a sample has too many entries");
    r->oldest = (uint8_t)get_max(b, PROBE_MAX_WIDTH - 1, "a sample's oldest entry is out of range");
    for (int i = 0; i < PROBE_MAX_WIDTH; i++) {
        r->pc[i] = get_u64(b);
        r->valid[i] = get_max(b, 1, "a sample's valid flag is not 0 or 1");
        r->psv[i] = (uint16_t)get_max(b, UINT16_MAX, "a sample's PSV is over 16 bits");
    }
}

static void get_sampled(rbuf *b, sampled_run *s)
{
    s->cfg.period = get_u64(b);
    s->cfg.random = get_max(b, 1, "a sampler's mode is unknown");
    s->cfg.seed = get_u64(b);
    s->cfg.hz = get_f64(b);
    s->cfg.min_samples = get_u64(b);
    s->cfg.psv_extra = (uint16_t)get_max(b, UINT16_MAX, "a sampler's PSV bits are over 16 bits");
    s->cfg.continued = get_max(b, 1, "a sampler's mode is unknown");
    s->units = (uint32_t)get_max(b, UINT32_MAX, "units per cycle over 32 bits");
    s->spanned = get_u64(b);
    s->nprofs = (int)get_count(b, 8 * (7 + 3 * PROBE_MAX_WIDTH));
    if (!(s->profs = calloc((size_t)(s->nprofs ? s->nprofs : 1), sizeof *s->profs))) die("out of memory");
    for (int i = 0; i < s->nprofs && !b->bad; i++) {
        sampled_profile *p = &s->profs[i];
        char *name = get_str(b);
        const profiler_policy *pol = name ? profiler_policy_find(name) : NULL;
        free(name);
        if (!pol && !b->bad) b->bad = "a profiler is unknown";
        p->name = pol ? pol->name : NULL;
        p->events = (uint16_t)get_max(b, UINT16_MAX, "a profiler's events are over 16 bits");
        p->samples = get_u64(b);
        p->dropped = get_u64(b);
        p->carry = get_u64(b);
        p->has_first = get_max(b, 1, "a profiler's first record flag is not 0 or 1");
        get_record(b, &p->first);
        p->pcs = get_costs(b, &p->npcs);
    }
}

static profileme_result *get_profileme(rbuf *b)
{
    profileme_result *r = calloc(1, sizeof *r);
    if (!r) die("out of memory");
    r->cfg.interval = get_u64(b);
    r->cfg.window = (uint32_t)get_max(b, UINT32_MAX, "ProfileMe's window is over 32 bits");
    r->cfg.seed = get_u64(b);
    r->cfg.issue_width = (uint32_t)get_max(b, UINT32_MAX, "ProfileMe's issue width is over 32 bits");
    r->samples = get_u64(b);
    r->pairs = get_u64(b);
    r->instances = get_u64(b);
    r->npcs = get_count(b, 8 * (7 + 2 * PM_EVENTS + 2 * PM_LATENCIES));
    if (!(r->pcs = calloc(r->npcs ? r->npcs : 1, sizeof *r->pcs))) die("out of memory");
    for (size_t i = 0; i < r->npcs; i++) {
        pm_pc *p = &r->pcs[i];
        p->pc = get_u64(b);
        p->samples = get_u64(b);
        for (int e = 0; e < PM_EVENTS; e++) p->exact[e] = get_u64(b), p->sampled[e] = get_u64(b);
        for (int l = 0; l < PM_LATENCIES; l++) p->exact_latency[l] = get_u64(b), p->sampled_latency[l] = get_u64(b);
        p->useful_fwd = get_u64(b);
        p->useful_bwd = get_u64(b);
        p->pair_latency = get_u64(b);
        p->exact_useful = get_u64(b);
        p->exact_progress = get_u64(b);
    }
    if (!b->bad && !r->cfg.interval) b->bad = "ProfileMe's interval is 0";
    return r;
}

static call_profile *get_calls(rbuf *b)
{
    call_profile *c = calloc(1, sizeof *c);
    if (!c) die("out of memory");
    c->nnodes = get_count(b, 3 * 8);
    if (!(c->nodes = calloc(c->nnodes ? c->nnodes : 1, sizeof *c->nodes))) die("out of memory");
    for (size_t i = 0; i < c->nnodes; i++) {
        c->nodes[i].pc = get_u64(b);
        c->nodes[i].parent = (uint32_t)get_max(b, i ? i - 1 : 0, "a calling context's parent comes after it");
        c->nodes[i].depth = (uint16_t)get_max(b, CALLS_MAX_DEPTH, "a calling context is too deep");
    }
    uint64_t last = c->nnodes ? c->nnodes - 1 : 0;
    c->ncharges = get_count(b, (2 + ST_COUNT) * 8);
    if (!(c->charges = calloc(c->ncharges ? c->ncharges : 1, sizeof *c->charges))) die("out of memory");
    for (size_t i = 0; i < c->ncharges; i++) {
        c->charges[i].pc = get_u64(b);
        c->charges[i].node = (uint32_t)get_max(b, last, "a charge's calling context is out of range");
        for (int s = 0; s < ST_COUNT; s++) c->charges[i].units[s] = get_u64(b);
    }
    c->nframes = get_count(b, 2 * 8);
    if (!(c->frames = calloc(c->nframes ? c->nframes : 1, sizeof *c->frames))) die("out of memory");
    for (size_t i = 0; i < c->nframes; i++) {
        c->frames[i].caller = (uint32_t)get_max(b, last, "a frame's calling context is out of range");
        c->frames[i].ret = get_u64(b);
    }
    c->cur = (uint32_t)get_max(b, last, "the current calling context is out of range");
    if (!b->bad && !c->nnodes) b->bad = "no calling-context tree";
    return c;
}

/* The run's end, as one of the names sim_result uses. */
static const char *stop_name(rbuf *b)
{
    static const char *const names[] = {"exit", "fault", "limit", "error"};
    char *s = get_str(b);
    const char *found = NULL;
    for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i])) found = names[i];
    if (!found && !b->bad) b->bad = "how the run stopped is unknown";
    free(s);
    return found;
}

static void get_result(rbuf *b, chunk_part *m, sim_result *r)
{
    for (int i = 0; i < NSHAPES; i++)
        if (get_u64(b) != SHAPES[i] && !b->bad) b->bad = "it comes from another build of sim (other counters or widths)";
    m->index = get_u64(b);
    m->count = get_u64(b);
    m->region = (ckpt_region){.simpoint = (int)m->index, .cluster = -1};
    m->region.start = get_u64(b);
    m->region.warmup = get_u64(b);
    m->region.interval = get_u64(b);
    m->elf_crc = (uint32_t)get_max(b, UINT32_MAX, "the program's CRC is over 32 bits");
    m->config_digest = get_u64(b);
    m->started = get_f64(b);
    m->ended = get_f64(b);
    r->program = get_str(b);
    r->stopped_by = stop_name(b);
    r->exit_status = (int)(int64_t)get_u64(b);
    r->message = get_str(b);
    r->start = get_u64(b);
    r->units = (uint32_t)get_max(b, UINT32_MAX, "units per cycle over 32 bits");
    r->elf_bias = get_u64(b);
    r->seconds = get_f64(b);
    r->warmup = WARMUP_CHECKPOINT_DETAILED;
    get_counters(b, &r->c);
    r->pcs = get_costs(b, &r->npcs);
    r->blocks = get_costs(b, &r->nblocks);
    if (get_max(b, 1, "the PICS flag is not 0 or 1")) {
        r->pics = get_costs(b, &r->npics);
        if (!(r->no_event_stalls = calloc(PICS_STALL_BUCKETS + 1, sizeof *r->no_event_stalls))) die("out of memory");
        for (int i = 0; i <= PICS_STALL_BUCKETS; i++) r->no_event_stalls[i] = get_u64(b);
    }
    size_t rows = get_count(b, 8 * (2 + STK_COUNT + EV_COUNT));
    for (size_t i = 0; i < rows && !b->bad; i++) {
        counters c;
        get_counters(b, &c);
        interval_rows_append(&r->log, &c);
    }
    r->nsampled = (int)get_count(b, 8 * 10);
    if (r->nsampled && !(r->sampled = calloc((size_t)r->nsampled, sizeof *r->sampled))) die("out of memory");
    for (int i = 0; i < r->nsampled && !b->bad; i++) get_sampled(b, &r->sampled[i]);
    if (get_max(b, 1, "the calling contexts' flag is not 0 or 1")) r->calls = get_calls(b);
    if (get_max(b, 1, "the ProfileMe flag is not 0 or 1")) r->profileme = get_profileme(b);
    if (!b->bad && b->at != b->n) b->bad = "bytes follow its end";
    if (!b->bad && (!r->program || (m->count && m->index >= m->count))) b->bad = "its chunk is out of range";
}

static int fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char why[256];
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s: not a chunk part of this sim (sim --stitch --part): %s", path, why);
    return -1;
}

static unsigned char *read_all(const char *path, size_t *n, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char *p = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n == cap && !(p = realloc(p, cap = cap ? 2 * cap : 1 << 16))) die("out of memory");
        size_t got = fread(p + *n, 1, cap - *n, f);
        *n += got;
        if (got == 0) break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: read error", path);
        free(p);
        return NULL;
    }
    return p;
}

int chunk_part_read(const char *path, chunk_part *m, sim_result *r, char *err, size_t errlen)
{
    size_t n;
    unsigned char *p = read_all(path, &n, err, errlen);
    if (!p) return -1;
    *m = (chunk_part){0};
    *r = (sim_result){0};
    int rc = -1;
    if (n < sizeof MAGIC + 12 || memcmp(p, MAGIC, sizeof MAGIC)) {
        fail(err, errlen, path, n >= sizeof MAGIC && !memcmp(p, MAGIC, sizeof MAGIC) ? "it is truncated" : "no part header");
        goto out;
    }
    uint64_t len = 0;
    for (int i = 0; i < 8; i++) len |= (uint64_t)p[sizeof MAGIC + i] << (8 * i);
    if (len != n - sizeof MAGIC - 12) {
        fail(err, errlen, path, "%zu bytes where its header says %" PRIu64 " (truncated?)", n - sizeof MAGIC - 12, len);
        goto out;
    }
    const unsigned char *payload = p + sizeof MAGIC + 8;
    uint32_t crc = 0;
    for (int i = 0; i < 4; i++) crc |= (uint32_t)payload[len + (size_t)i] << (8 * i);
    if (crc != crc_of(payload, (size_t)len)) {
        fail(err, errlen, path, "its CRC32 does not match (damaged)");
        goto out;
    }
    rbuf b = {.p = payload, .n = (size_t)len};
    get_result(&b, m, r);
    if (b.bad) {
        fail(err, errlen, path, "%s", b.bad);
        sim_result_free(r);
        goto out;
    }
    r->checkpoint = NULL;
    rc = 0;
out:
    free(p);
    return rc;
}

bool chunk_part_is(const char *path)
{
    FILE *f = fopen(path, "rb");
    char head[sizeof MAGIC];
    bool yes = f && fread(head, 1, sizeof head, f) == sizeof head && !memcmp(head, MAGIC, sizeof MAGIC);
    if (f) fclose(f);
    return yes;
}
