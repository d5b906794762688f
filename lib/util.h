/* Small helpers shared by every tool: error reporting and argument parsing. */
#ifndef RV_UTIL_H
#define RV_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

/* Name printed before every error ("bbv: ..."); set once by main(). */
extern const char *util_progname;

/* Exit status of die(): 1 by default; tools that run a guest program and
 * mirror its exit status use 125 so their own failures stay distinguishable. */
extern int util_die_status;

/* Print "prog: message" on stderr, remove pending temporary outputs, exit(status). */
noreturn void die_status(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* die_status(util_die_status, ...). */
noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* ARG of option OPT names a directory or a prefix of several files: '-'
 * (standard output elsewhere) cannot stand for it. Returns arg. */
const char *not_stdout(const char *opt, const char *arg, const char *what);
/* "prog: warning: message" on stderr. */
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse a non-negative count with an optional decimal suffix k, M, G or T
 * (100M = 100000000). Returns false on anything else or on overflow. */
bool parse_count(const char *s, uint64_t *out);
/* Parse a comma-separated list of counts; returns the number parsed, 0 on error. */
int parse_count_list(const char *s, uint64_t *out, int max);
/* Parse a signed decimal integer / a finite double; false on trailing junk. */
bool parse_int(const char *s, long long *out);
bool parse_double(const char *s, double *out);

/* Seconds since an arbitrary fixed point (monotonic clock). */
double now_seconds(void);

/* The larger of two counts, and later - earlier or 0 (cycles between two
 * events that may be out of order). */
static inline uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t cycles_after(uint64_t later, uint64_t earlier) { return later > earlier ? later - earlier : 0; }

/* The largest s with 2^s <= v (0 for 0 and 1). */
static inline int floor_log2(uint64_t v) { return 63 - __builtin_clzll(v | 1); }

/* splitmix64: a seeded stream of random numbers, the same on every host. */
uint64_t splitmix64_next(uint64_t *state);

/* Where temporary files go: $TMPDIR, else /tmp. */
const char *temp_dir(void);

/* strdup that dies when out of memory. */
char *xstrdup(const char *s);

/* An array p of *cap elements of `size` bytes, grown (doubling, at least
 * 256) so that it holds `need`; dies when out of memory. */
void *grow_array(void *p, size_t *cap, size_t need, size_t size);

#endif
