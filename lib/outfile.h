/* Output files that appear complete or not at all: data goes to a temporary
 * file beside the target, which is renamed over it only by outfile_commit().
 * A failed write, a die() or SIGINT/SIGTERM/SIGHUP removes the temporary,
 * and the outputs the command already put in place with it: a command that
 * fails leaves none of its outputs, only its one-line error.
 * "-" (standard output) and targets that are not regular files (/dev/null,
 * FIFOs, terminals) are written in place. */
#ifndef RV_OUTFILE_H
#define RV_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct outfile outfile;

/* Open PATH for writing; gzip-compressed when the name ends in ".gz".
 * Dies with a one-line reason when the temporary cannot be created. */
outfile *outfile_open(const char *path);
void outfile_write(outfile *o, const void *data, size_t len);
void outfile_printf(outfile *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Flush, check every write, rename into place and free. Dies on error
 * (disk full, ...) after removing the temporary. */
void outfile_commit(outfile *o);
/* Remove the temporary and free. */
void outfile_abort(outfile *o);
/* Die now, with outfile_open's one-line reason, if PATH could not be
 * written later: a long run fails before it starts. Standard output and
 * targets that are not regular files are left alone. */
void outfile_probe(const char *path);
/* Count a file put in place by other means (a plot gnuplot drew) among the
 * outputs a failure removes; an empty directory too (tracked before what
 * goes into it, which is removed first). */
void outfile_track(const char *path);
/* Abort every outfile still open and remove the outputs already put in
 * place (used by die() and the signal handlers). */
void outfile_abort_all(void);
const char *outfile_path(const outfile *o);

#endif
