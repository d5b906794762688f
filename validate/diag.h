/* Problems found while reading and checking inputs. Readers and checks do not
 * exit: they record the first error ("FILE:LINE: reason") and any number of
 * warnings, so that tests can call them and main() decides what to do. */
#ifndef VD_DIAG_H
#define VD_DIAG_H

#include <stdbool.h>
#include <stddef.h>

typedef struct vd_diag {
    char *error;     /* the first error, or NULL */
    char **warnings; /* in the order found */
    size_t nwarnings;
    bool echo;       /* also print warnings on stderr as they come */
} vd_diag;

/* Record an error unless one is already recorded; always returns false so
 * that readers can write `return vd_fail(d, ...);`. */
bool vd_fail(vd_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vd_warn(vd_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vd_diag_free(vd_diag *d);

/* Allocation that dies on exhaustion (there is nothing sensible to do then). */
void *vd_malloc(size_t n);
void *vd_calloc(size_t n, size_t size);
void *vd_realloc(void *p, size_t n);
char *vd_strdup(const char *s);
/* A printf into a new string. */
char *vd_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
