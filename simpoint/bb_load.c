#include "bb_load.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bb_source.h"
#include "progress.h"
#include "util.h"
#include "sp_alloc.h"

#define BATCH_BYTES (8u << 20)
#define READ_CHUNK (1u << 20)
/* Largest dense matrix accepted for -dim noProject. */
#define MAX_DENSE_BYTES (UINT64_C(16) << 30)

/* ------------------------------------------------------- batches of lines */

typedef struct reader {
    bb_source src;
    char *buf;
    size_t cap, len, used; /* buf[used..len) not yet handed out */
    bool eof;
    uint64_t bytes;
} reader;

static void reader_open(reader *r, const char *path)
{
    memset(r, 0, sizeof *r);
    bb_source_open(&r->src, path);
    r->cap = BATCH_BYTES + READ_CHUNK;
    r->buf = sp_malloc(r->cap);
}

static void reader_read_more(reader *r)
{
    if (r->cap - r->len < READ_CHUNK)
        r->buf = sp_realloc_array(r->buf, r->cap *= 2, 1);
    size_t n = bb_source_read(&r->src, r->buf + r->len, READ_CHUNK);
    if (n == 0)
        r->eof = true;
    r->len += n;
    r->bytes += n;
}

/* Next run of complete lines; the last line of the file may lack '\n'.
 * Returns false at the end of input. */
static bool reader_next(reader *r, const char **data, size_t *len)
{
    memmove(r->buf, r->buf + r->used, r->len - r->used);
    r->len -= r->used;
    r->used = 0;
    size_t scanned = 0;
    for (;;) {
        while (!r->eof && r->len < BATCH_BYTES)
            reader_read_more(r);
        char *nl = NULL;
        for (size_t i = r->len; i > scanned; i--)
            if (r->buf[i - 1] == '\n') {
                nl = r->buf + i - 1;
                break;
            }
        if (nl) {
            r->used = (size_t)(nl - r->buf) + 1;
            break;
        }
        if (r->eof) {
            r->used = r->len;
            break;
        }
        scanned = r->len; /* one line longer than a batch: keep reading */
        reader_read_more(r);
    }
    *data = r->buf;
    *len = r->used;
    return r->used > 0;
}

static void reader_close(reader *r)
{
    bb_source_close(&r->src);
    free(r->buf);
}

/* --------------------------------------------------------- parsing a batch */

typedef struct tline {
    const char *s;
    size_t len;
    long lineno;
    size_t pool_off;
    uint64_t partial; /* announced by a "# partial interval: N" comment, else 0 */
    bb_line_info info;
} tline;

typedef struct loader {
    const char *path;
    const bb_load_options *opt;
    projection *proj;
    bb_input *in;
    size_t n;              /* intervals so far */
    long lineno;           /* lines so far */
    uint64_t pending_partial; /* a marker seen, for the next T line */
    bool seen_interval;
    /* -dim noProject: the normalised rows, sparse, until the end */
    bb_pair *sparse;
    size_t sparse_len, sparse_cap;
    size_t *sparse_start;
    /* per-batch scratch */
    tline *lines;
    size_t nlines, lines_cap;
    bb_pair *pool;
    size_t pool_cap;
} loader;

static void collect_lines(loader *L, const char *data, size_t len)
{
    L->nlines = 0;
    size_t pool = 0;
    const char *p = data, *end = data + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        bool terminated = nl != NULL;
        size_t llen = terminated ? (size_t)(nl - p) : (size_t)(end - p);
        L->lineno++;
        if (llen > 0 && p[0] == '#') {
            uint64_t m = bb_partial_marker(p, llen);
            if (m)
                L->pending_partial = m;
        } else if (llen > 0 && p[0] == 'T') {
            if (!terminated && L->opt->compat) {
                warn("%s:%ld: last line has no newline; dropped as SimPoint 3.2 does", L->path,
                     L->lineno);
            } else {
                if (L->nlines == L->lines_cap)
                    L->lines = sp_realloc_array(L->lines, L->lines_cap = L->lines_cap * 2 + 256,
                                              sizeof *L->lines);
                L->lines[L->nlines++] = (tline){p, llen, L->lineno, pool, L->pending_partial, {0}};
                L->pending_partial = 0;
                pool += bb_max_pairs(llen);
            }
        }
        p += llen + terminated;
    }
    if (pool > L->pool_cap) {
        free(L->pool);
        L->pool = sp_malloc(pool * sizeof *L->pool);
        L->pool_cap = pool;
    }
}

/* Checks that need the lines in order: errors (the first one wins), the id base,
 * the partial-interval marker. Returns the largest (shifted) id of the batch. */
static uint32_t check_lines(loader *L)
{
    uint32_t max_id = 0;
    bb_input *in = L->in;
    for (size_t i = 0; i < L->nlines; i++) {
        const tline *t = &L->lines[i];
        if (t->info.error)
            die("%s:%ld:%zu: %s", L->path, t->lineno, t->info.error_col, t->info.error);
        if (!L->seen_interval) {
            L->seen_interval = true;
            in->zero_based = t->info.min_id == 0;
        } else if (t->info.min_id == 0 && !in->zero_based) {
            die("%s:%ld: block id 0 in a file whose first interval has none (ids must be 1-based, "
                "or 0-based from the first interval as QEMU writes them)", L->path, t->lineno);
        }
        uint32_t top = t->info.max_id + in->zero_based;
        if (top > max_id)
            max_id = top;
        if (t->partial) {
            in->partial_index = (long)(L->n + i);
            in->partial_len = t->partial;
            if ((double)t->partial != t->info.sum)
                warn("%s:%ld: partial interval holds %.0f instructions, its comment says %llu",
                     L->path, t->lineno, t->info.sum, (unsigned long long)t->partial);
        }
    }
    return max_id;
}

static void keep_sparse(loader *L, const tline *t)
{
    const bb_pair *src = L->pool + t->pool_off;
    size_t need = L->sparse_len + t->info.npairs;
    if (need > L->sparse_cap) {
        L->sparse_cap = need * 2;
        L->sparse = sp_realloc_array(L->sparse, L->sparse_cap, sizeof *L->sparse);
    }
    for (size_t j = 0; j < t->info.npairs; j++)
        L->sparse[L->sparse_len++] = (bb_pair){src[j].id + L->in->zero_based, src[j].count / t->info.sum};
}

static void process_batch(loader *L, const char *data, size_t len)
{
    collect_lines(L, data, len);
    long nl = (long)L->nlines;
#pragma omp parallel for schedule(dynamic, 16)
    for (long i = 0; i < nl; i++) {
        tline *t = &L->lines[i];
        bb_parse_interval(t->s, t->len, L->pool + t->pool_off, &t->info);
    }
    uint32_t max_id = check_lines(L);
    bb_input *in = L->in;
    if (max_id > in->num_blocks)
        in->num_blocks = max_id;
    size_t first = L->n;
    L->n += L->nlines;
    in->row_sums = sp_realloc_array(in->row_sums, L->n ? L->n : 1, sizeof *in->row_sums);
    for (size_t i = 0; i < L->nlines; i++)
        in->row_sums[first + i] = L->lines[i].info.sum;
    if (!L->proj) {
        L->sparse_start = sp_realloc_array(L->sparse_start, L->n + 1, sizeof *L->sparse_start);
        for (size_t i = 0; i < L->nlines; i++) {
            L->sparse_start[first + i] = L->sparse_len;
            keep_sparse(L, &L->lines[i]);
        }
        L->sparse_start[L->n] = L->sparse_len;
        return;
    }
    if (!projection_ensure_rows(L->proj, in->num_blocks))
        die("%s: block id %u is beyond the %zu rows of the loaded projection matrix", L->path,
            in->num_blocks, L->proj->m.n);
    dataset_reserve(&in->vectors, L->n);
    unsigned shift = in->zero_based;
#pragma omp parallel for schedule(dynamic, 16)
    for (long i = 0; i < nl; i++) {
        tline *t = &L->lines[i];
        projection_apply(L->proj, L->pool + t->pool_off, t->info.npairs, t->info.sum, shift,
                         dataset_row(&in->vectors, first + (size_t)i));
    }
}

static void densify(loader *L)
{
    bb_input *in = L->in;
    size_t d = in->num_blocks;
    if ((uint64_t)L->n * d * sizeof(double) > MAX_DENSE_BYTES)
        die("%s: -dim noProject needs a %zu x %zu dense matrix (over 16 GiB); use a projection",
            L->path, L->n, d);
    dataset_init(&in->vectors, L->n, d, false);
    for (size_t i = 0; i < L->n; i++) {
        double *row = dataset_row(&in->vectors, i);
        for (size_t j = L->sparse_start[i]; j < L->sparse_start[i + 1]; j++)
            row[L->sparse[j].id - 1] += L->sparse[j].count;
    }
}

void bb_load(const char *path, projection *proj, const bb_load_options *opt, bb_input *in)
{
    memset(in, 0, sizeof *in);
    in->partial_index = -1;
    if (proj)
        in->vectors.d = proj->m.d;
    loader L = {.path = path, .opt = opt, .proj = proj, .in = in};
    reader r;
    reader_open(&r, path);
    progress pg;
    progress_init(&pg, "simpoint: reading", opt->progress, 0);
    double instructions = 0;
    const char *data;
    size_t len;
    while (reader_next(&r, &data, &len)) {
        process_batch(&L, data, len);
        for (size_t i = 0; i < L.nlines; i++)
            instructions += L.lines[i].info.sum;
        progress_update(&pg, (uint64_t)instructions);
    }
    progress_finish(&pg, (uint64_t)instructions);
    in->bytes = r.bytes;
    reader_close(&r);
    if (L.n == 0)
        die("%s: no intervals (no line starts with 'T')", path);
    if (!proj)
        densify(&L);
    in->vectors.n = L.n;
    free(L.lines);
    free(L.pool);
    free(L.sparse);
    free(L.sparse_start);
}

void bb_input_free(bb_input *in)
{
    dataset_free(&in->vectors);
    free(in->row_sums);
    in->row_sums = NULL;
}
