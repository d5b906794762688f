/* The detailed core's configuration: the UARCH_PARAMS table turned into a
 * descriptor array that the INI and --set parsers, the checks, the digest
 * and the dumps all walk, so a new parameter needs only its table row. */
#include "uarch/config.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "decode.h"
#include "util.h"

typedef struct param {
    const char *section, *key, *name, *help; /* name is "section.key" */
    size_t offset;
    int def, lo, hi;
} param;

static const param params[] = {
#define UARCH_DESC(field, sec, key, def, lo, hi, help) \
    {#sec, #key, #sec "." #key, help, offsetof(uarch_config, field), def, lo, hi},
    UARCH_PARAMS(UARCH_DESC)
#undef UARCH_DESC
};
#define NPARAMS (sizeof params / sizeof params[0])
#define FOR_EACH_PARAM(p) for (const param *p = params; p < params + NPARAMS; p++)

/* Tests compare whole configs with memcmp: the struct must be the ints alone. */
_Static_assert(sizeof(uarch_config) == NPARAMS * sizeof(int), "uarch_config has padding");

static int get(const uarch_config *c, const param *p)
{
    return *(const int *)((const char *)c + p->offset);
}

static void put(uarch_config *c, const param *p, int v)
{
    *(int *)((char *)c + p->offset) = v;
}

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static const param *find(const char *name)
{
    FOR_EACH_PARAM(p)
        if (!strcmp(p->name, name))
            return p;
    return NULL;
}

/* The first parameter of a section (len bytes of sec), NULL if none. */
static const param *section_start(const char *sec, size_t len)
{
    FOR_EACH_PARAM(p)
        if (!strncmp(p->section, sec, len) && !p->section[len])
            return p;
    return NULL;
}

/* Levenshtein distance; names too long for the row count as far apart. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b), row[64];
    if (n >= 64 || m >= 64)
        return SIZE_MAX;
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j], d = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < d)
                d = up + 1;
            if (row[j - 1] + 1 < d)
                d = row[j - 1] + 1;
            diag = up;
            row[j] = d;
        }
    }
    return row[m];
}

/* What an unknown name most likely meant: the same key in the one section
 * that has it ("core.fetch_width"), else a close misspelling. */
static const param *nearest(const char *name)
{
    const char *dot = strchr(name, '.'), *key = dot ? dot + 1 : name;
    const param *best = NULL, *same_key = NULL;
    size_t best_d = strlen(name) / 4 + 2, same = 0;
    FOR_EACH_PARAM(p) {
        size_t d = edit_distance(name, p->name);
        if (d < best_d)
            best_d = d, best = p;
        if (!strcmp(p->key, key))
            same++, same_key = p;
    }
    return same == 1 ? same_key : best;
}

static void describe_unknown(char *msg, size_t len, const char *name)
{
    char where[128] = "", hint[96] = "";
    const char *dot = strchr(name, '.');
    if (dot && !section_start(name, (size_t)(dot - name)))
        snprintf(where, sizeof where, ": there is no section [%.*s]", (int)(dot - name), name);
    const param *guess = nearest(name);
    if (guess)
        snprintf(hint, sizeof hint, " (did you mean '%s'?)", guess->name);
    snprintf(msg, len, "unknown key '%s'%s%s", name, where, hint);
}

static void describe_range(char *msg, size_t len, const param *p, const char *text)
{
    snprintf(msg, len, "%s = %s is out of range [%d, %d]", p->name, text, p->lo, p->hi);
}

/* Parse text (trimmed) as p's value into c; false with the reason in msg. */
static bool assign(uarch_config *c, const param *p, const char *text, char *msg, size_t len)
{
    long long v;
    if (!parse_int(text, &v)) {
        /* parse_int also refuses overflow: digits alone are a range error. */
        const char *d = text + (*text == '-' || *text == '+');
        if (!*d || d[strspn(d, "0123456789")]) {
            snprintf(msg, len, "%s: '%s' is not an integer", p->name, text);
            return false;
        }
        v = *text == '-' ? LLONG_MIN : LLONG_MAX;
    }
    if (v < p->lo || v > p->hi) {
        describe_range(msg, len, p, text);
        return false;
    }
    put(c, p, (int)v);
    return true;
}

void uarch_config_defaults(uarch_config *c)
{
    FOR_EACH_PARAM(p)
        put(c, p, p->def);
}

/* ------------------------------------------------------------- INI files */

typedef struct loader {
    uarch_config cfg;     /* working copy: the caller's changes only on success */
    FILE *f;
    char *text;           /* the line read, before inih gets it */
    size_t text_cap;
    int line;             /* lines read, counted as inih counts them (one per read) */
    int err_line;         /* first line the reader or handler rejected, 0 if none */
    char msg[512];
    int set_on[NPARAMS];  /* line that set each key, to refuse a second setting */
} loader;

/* inih's handler gets no line number (that is fixed when the library is
 * built), so this reader counts lines for it, and refuses what inih would
 * silently misread: over-long lines (split into several) and NUL bytes (the
 * end of the line to C's string functions). */
static char *read_line(char *buf, int size, void *stream)
{
    loader *l = stream;
    ssize_t n = getline(&l->text, &l->text_cap, l->f);
    if (n < 0)
        return NULL;
    l->line++;
    size_t len = (size_t)n - (l->text[n - 1] == '\n');
    const char *why = memchr(l->text, '\0', len) ? "NUL byte in a text file"
                      : len > (size_t)size - 1  ? "line longer than %d characters"
                                                 : NULL;
    if (why && !l->err_line) {
        l->err_line = l->line;
        snprintf(l->msg, sizeof l->msg, why, size - 1);
    }
    if (why)
        len = 0;
    memcpy(buf, l->text, len);
    buf[len] = '\0';
    return buf;
}

static int on_pair(void *user, const char *section, const char *key, const char *value)
{
    loader *l = user;
    if (l->err_line)
        return 1; /* only the first error is reported */
    if (!*section) {
        snprintf(l->msg, sizeof l->msg, "key '%s' is outside any [section]", key);
        goto bad;
    }
    char name[128], text[256];
    snprintf(name, sizeof name, "%s.%s", section, key);
    const param *p = find(name);
    if (!p) {
        describe_unknown(l->msg, sizeof l->msg, name);
        goto bad;
    }
    int *set_on = &l->set_on[p - params];
    if (*set_on) {
        snprintf(l->msg, sizeof l->msg, "%s is set twice (first on line %d)", p->name, *set_on);
        goto bad;
    }
    /* inih strips only ';' inline comments; values are integers, so a '#'
     * anywhere starts one too. */
    snprintf(text, sizeof text, "%s", value);
    text[strcspn(text, "#")] = '\0';
    if (!assign(&l->cfg, p, trim(text), l->msg, sizeof l->msg))
        goto bad;
    *set_on = l->line;
    return 1;
bad:
    l->err_line = l->line;
    return 0;
}

int uarch_config_load(uarch_config *c, const char *path, char *err, size_t errlen)
{
    loader l = {.cfg = *c};
    l.f = fopen(path, "r");
    if (!l.f)
        return fail(err, errlen, "%s: %s", path, strerror(errno));
    int rc = ini_parse_stream(read_line, &l, on_pair, &l);
    bool io_error = ferror(l.f);
    fclose(l.f);
    free(l.text);
    if (io_error)
        return fail(err, errlen, "%s: read error", path);
    if (rc < 0)
        return fail(err, errlen, "%s: out of memory", path);
    /* inih reports the first bad line, ours or a syntax error it found alone. */
    if (rc > 0 && (!l.err_line || rc < l.err_line))
        return fail(err, errlen, "%s:%d: expected '[section]' or 'key = value'", path, rc);
    if (l.err_line)
        return fail(err, errlen, "%s:%d: %s", path, l.err_line, l.msg);
    *c = l.cfg;
    return 0;
}

int uarch_config_set(uarch_config *c, const char *assignment, char *err, size_t errlen)
{
    char buf[256], msg[512];
    if ((size_t)snprintf(buf, sizeof buf, "%s", assignment) >= sizeof buf)
        return fail(err, errlen, "--set '%.40s...': too long", assignment);
    char *eq = strchr(buf, '=');
    if (!eq)
        return fail(err, errlen, "--set '%s': expected section.key=value", buf);
    *eq = '\0';
    const char *name = trim(buf), *text = trim(eq + 1);
    const param *p = find(name);
    if (!p)
        describe_unknown(msg, sizeof msg, name);
    if (!p || !assign(c, p, text, msg, sizeof msg))
        return fail(err, errlen, "--set: %s", msg);
    return 0;
}

/* ---------------------------------------------------------------- checks */

static bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static const param *by_offset(size_t offset)
{
    FOR_EACH_PARAM(p)
        if (p->offset == offset)
            return p;
    return NULL;
}

#define OFF(field) offsetof(uarch_config, field)

/* value(small) + slack <= value(big), or the sentence's reason. */
static const struct limit {
    size_t small, big;
    int slack;
    const char *why;
} limits[] = {
    {OFF(fetch_width), OFF(fetch_buffer), 0, "the fetch buffer must hold a whole fetch packet"},
    {OFF(decode_width), OFF(rob_entries), 0, "the ROB must take a whole decode group"},
    {OFF(commit_width), OFF(rob_entries), 0, "the ROB cannot commit more than it holds"},
    {OFF(iq_int_issue), OFF(iq_int_entries), 0, "a queue cannot issue more than it holds"},
    {OFF(iq_mem_issue), OFF(iq_mem_entries), 0, "a queue cannot issue more than it holds"},
    {OFF(iq_fp_issue), OFF(iq_fp_entries), 0, "a queue cannot issue more than it holds"},
    {OFF(decode_width), OFF(int_phys_regs), 32,
     "renaming a decode group needs that many free registers beyond the 32 architectural ones"},
    {OFF(decode_width), OFF(fp_phys_regs), 32,
     "renaming a decode group needs that many free registers beyond the 32 architectural ones"},
    {OFF(bp_tage_min_hist), OFF(bp_tage_max_hist), 0, "the history lengths grow from min to max"},
};

int uarch_config_check(const uarch_config *c, char *err, size_t errlen)
{
    FOR_EACH_PARAM(p) {
        int v = get(c, p);
        if (v < p->lo || v > p->hi) {
            char text[16];
            snprintf(text, sizeof text, "%d", v);
            describe_range(err, err ? errlen : 0, p, text);
            return -1;
        }
    }
    for (const struct limit *l = limits; l < limits + sizeof limits / sizeof limits[0]; l++) {
        const param *s = by_offset(l->small), *b = by_offset(l->big);
        if (get(c, s) + l->slack <= get(c, b))
            continue;
        char plus[16] = "";
        if (l->slack)
            snprintf(plus, sizeof plus, " + %d", l->slack);
        return fail(err, errlen, "%s = %d%s exceeds %s = %d: %s.", s->name, get(c, s), plus,
                    b->name, get(c, b), l->why);
    }

    if (!is_pow2((uint64_t)c->line_bytes))
        return fail(err, errlen, "cache.line_bytes = %d is not a power of two.", c->line_bytes);
    const struct { const char *name; int kib, ways; } caches[] = {
        {"l1i", c->l1i_kib, c->l1i_ways}, {"l1d", c->l1d_kib, c->l1d_ways},
        {"l2", c->l2_kib, c->l2_ways},    {"llc", c->llc_kib, c->llc_ways},
    };
    for (size_t i = 0; i < sizeof caches / sizeof caches[0]; i++) {
        uint64_t bytes = (uint64_t)caches[i].kib * 1024, way_line = (uint64_t)caches[i].ways * (uint64_t)c->line_bytes;
        if (bytes && (bytes % way_line || !is_pow2(bytes / way_line)))
            return fail(err, errlen,
                        "%s.size_kib = %d in %s.ways = %d of %d-byte lines makes %.10g sets, "
                        "which is not a power of two.",
                        caches[i].name, caches[i].kib, caches[i].name, caches[i].ways,
                        c->line_bytes, (double)bytes / (double)way_line);
    }
    if (c->bp_btb_entries % c->bp_btb_ways || !is_pow2((uint64_t)(c->bp_btb_entries / c->bp_btb_ways)))
        return fail(err, errlen,
                    "bpred.btb_entries = %d in bpred.btb_ways = %d makes %.10g sets, which is not a power of two.",
                    c->bp_btb_entries, c->bp_btb_ways, (double)c->bp_btb_entries / c->bp_btb_ways);
    if (c->l2tlb_entries && !is_pow2((uint64_t)c->l2tlb_entries))
        return fail(err, errlen, "l2tlb.entries = %d is not a power of two (or 0 for none).",
                    c->l2tlb_entries);
    return 0;
}

/* ----------------------------------------------------------------- dumps */

/* Geometry: what the functional warming model builds depends on these
 * sections' values, except their latencies and MSHRs (timing only). */
static bool shapes_state(const param *p)
{
    static const char *const sections[] = {"bpred", "cache", "l1i", "l1d", "l2", "llc", "prefetch", "itlb", "dtlb", "l2tlb"};
    if (!strcmp(p->key, "latency") || !strcmp(p->key, "mshrs"))
        return false;
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (!strcmp(p->section, sections[i]))
            return true;
    return false;
}

/* FNV-1a over "section.key=value\n" lines (of every parameter, or of the
 * state-shaping ones): independent of the struct's layout and the host's
 * byte order. */
static uint64_t digest(const uarch_config *c, bool state_only)
{
    uint64_t h = 0xcbf29ce484222325u;
    FOR_EACH_PARAM(p) {
        if (state_only && !shapes_state(p))
            continue;
        char line[128];
        int n = snprintf(line, sizeof line, "%s=%d\n", p->name, get(c, p));
        for (int i = 0; i < n; i++)
            h = (h ^ (unsigned char)line[i]) * 0x100000001b3u;
    }
    return h;
}

uint64_t uarch_config_digest(const uarch_config *c) { return digest(c, false); }
uint64_t uarch_state_digest(const uarch_config *c) { return digest(c, true); }

int uarch_param_count(void) { return (int)NPARAMS; }

int uarch_param_index(const char *name)
{
    const param *p = find(name);
    return p ? (int)(p - params) : -1;
}

const char *uarch_param_name(int i) { return params[i].name; }
int uarch_param_get(const uarch_config *c, int i) { return get(c, &params[i]); }
void uarch_param_put(uarch_config *c, int i, int v) { put(c, &params[i], v); }
bool uarch_param_shapes_state(int i) { return shapes_state(&params[i]); }

void uarch_param_range(int i, int *lo, int *hi)
{
    *lo = params[i].lo;
    *hi = params[i].hi;
}

json_t *uarch_config_json(const uarch_config *c)
{
    json_t *o = json_object();
    FOR_EACH_PARAM(p) {
        if (!o || json_object_set_new(o, p->name, json_integer(get(c, p)))) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

/* An INI file (sections in table order), so the listing loads back. */
void uarch_config_print(const uarch_config *c, FILE *out)
{
    FOR_EACH_PARAM(s) {
        if (section_start(s->section, strlen(s->section)) != s)
            continue; /* printed with its section's first key */
        fprintf(out, "%s[%s]\n", s == params ? "" : "\n", s->section);
        for (const param *p = s; p < params + NPARAMS; p++)
            if (!strcmp(p->section, s->section))
                fprintf(out, "%-20s = %-7d ; %s\n", p->key, get(c, p), p->help);
    }
}

bool uarch_long_class(unsigned cls)
{
    switch (cls) {
    case CLS_MUL: case CLS_DIV: case CLS_FADD: case CLS_FMUL: case CLS_FMA: case CLS_FDIV: case CLS_FSQRT:
    case CLS_FCVT: case CLS_FMOVE: case CLS_FMISC: return true;
    default: return false;
    }
}

bool uarch_flushes_as_csr(const rv_insn *in)
{
    enum { CSR_FFLAGS = 0x001, CSR_FRM = 0x002, CSR_FCSR = 0x003 };
    bool fp_status = rv_ops[in->op].cls == CLS_CSR && (in->imm == CSR_FFLAGS || in->imm == CSR_FRM || in->imm == CSR_FCSR);
    return fp_status || in->op == RV_OP_fence_i;
}

unsigned uarch_unit_latency(const uarch_config *c, unsigned cls)
{
    switch (cls) {
    case CLS_MUL: return (unsigned)c->lat_mul;
    case CLS_DIV: return (unsigned)c->lat_div;
    case CLS_FADD: return (unsigned)c->lat_fadd;
    case CLS_FMUL: return (unsigned)c->lat_fmul;
    case CLS_FMA: return (unsigned)c->lat_fma;
    case CLS_FDIV: return (unsigned)c->lat_fdiv;
    case CLS_FSQRT: return (unsigned)c->lat_fsqrt;
    case CLS_FCVT: case CLS_FMOVE: return (unsigned)c->lat_fcvt;
    case CLS_FMISC: return (unsigned)c->lat_fmisc;
    case CLS_CSR: return (unsigned)c->lat_csr;
    default: return (unsigned)c->lat_alu;
    }
}
