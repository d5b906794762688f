#include "progress.h"

#include <stdio.h>
#include <unistd.h>

#include "util.h"

/* A status line is on the terminal now (only the main thread draws). */
static bool line_shown;

void progress_clear(void)
{
    if (!line_shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    line_shown = false;
}

void progress_init(progress *p, const char *what, bool force, uint64_t total)
{
    p->tty = isatty(STDERR_FILENO);
    p->enabled = force || p->tty;
    p->start = p->last = now_seconds();
    p->total = total;
    p->what = what;
}

static void print_line(progress *p, uint64_t done, double now, const char *end)
{
    double elapsed = now - p->start;
    double mips = elapsed > 0 ? (double)done / elapsed / 1e6 : 0.0;
    fprintf(stderr, "%s%s: %.3f G insts, %.0f MIPS, %.1f s", p->tty ? "\r\033[K" : "", p->what,
            (double)done / 1e9, mips, elapsed);
    if (p->total > done && done > 0)
        fprintf(stderr, ", %.0f%%, ETA %.0f s", 100.0 * (double)done / (double)p->total,
                elapsed * (double)(p->total - done) / (double)done);
    fputs(end, stderr);
    fflush(stderr);
    line_shown = p->tty && !*end;
}

void progress_update(progress *p, uint64_t done)
{
    if (!p->enabled)
        return;
    double now = now_seconds();
    if (now - p->last < 0.5)
        return;
    p->last = now;
    print_line(p, done, now, p->tty ? "" : "\n");
}

void progress_finish(progress *p, uint64_t done)
{
    if (!p->enabled)
        return;
    if (p->tty)
        progress_clear();
    else
        print_line(p, done, now_seconds(), "\n");
    fflush(stderr);
}
