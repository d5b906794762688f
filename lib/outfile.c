#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util.h"

struct outfile {
    char *path;
    char *tmp;                 /* NULL when writing straight to the target */
    FILE *plain;
    gzFile gz;
    bool failed;
    outfile *next;
};

/* Open outfiles, for cleanup on die() and on signals. */
static outfile *open_list;
static volatile sig_atomic_t handlers_installed;

/* The files this process has put in place: a command that fails removes
 * them too, so that it leaves nothing that looks like a result. */
static char **published;
static size_t npublished, cap_published;

void outfile_track(const char *path)
{
    if (npublished == cap_published) {
        size_t cap = cap_published ? 2 * cap_published : 16;
        char **grown = realloc(published, cap * sizeof *grown);
        if (!grown)
            return; /* only the clean-up after a failure is lost */
        published = grown, cap_published = cap;
    }
    char *copy = strdup(path);
    if (copy)
        published[npublished++] = copy;
}

/* A tracked directory goes once what was tracked in it has (the newest
 * first); unlink and rmdir are safe in a signal handler. */
static void remove_published(const char *path)
{
    if (unlink(path) != 0 && errno == EISDIR)
        rmdir(path);
}

static void unlink_all_tmp(void)
{
    for (outfile *o = open_list; o; o = o->next)
        if (o->tmp)
            unlink(o->tmp);
    for (size_t i = npublished; i-- > 0;)
        remove_published(published[i]);
}

static void on_signal(int sig)
{
    unlink_all_tmp();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    /* Past a file-size limit (ulimit -f), write fails with EFBIG and the
     * usual error path removes the temporaries, instead of a core dump. */
    signal(SIGXFSZ, SIG_IGN);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue; /* ignored on purpose (nohup, background job): keep it so */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(sigs[i], &sa, NULL);
    }
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* "-", a device, a FIFO or a terminal is written in place: renaming a
 * temporary over /dev/null would replace the device with a file. */
static int open_direct(const char *path)
{
    if (strcmp(path, "-") == 0)
        return dup(STDOUT_FILENO);
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return -2;
    return open(path, O_WRONLY | O_CLOEXEC);
}

outfile *outfile_open(const char *path)
{
    install_handlers();
    if (!*path)
        die("empty output file name");
    outfile *o = calloc(1, sizeof *o);
    if (!o)
        die("out of memory");
    o->path = strdup(path);
    if (!o->path)
        die("out of memory");
    int fd = open_direct(path);
    if (fd == -2) {
        size_t n = strlen(path) + 16;
        o->tmp = malloc(n);
        if (!o->tmp)
            die("out of memory");
        snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
        fd = mkstemp(o->tmp);
        if (fd >= 0)
            fchmod(fd, 0644);
    }
    if (fd < 0)
        die("cannot write %s: %s", path, strerror(errno));
    if (ends_with(path, ".gz"))
        o->gz = gzdopen(fd, "wb6");
    else
        o->plain = fdopen(fd, "w");
    if (!o->gz && !o->plain) {
        close(fd);
        if (o->tmp)
            unlink(o->tmp);
        die("cannot write %s: %s", path, strerror(errno));
    }
    o->next = open_list;
    open_list = o;
    return o;
}

void outfile_write(outfile *o, const void *data, size_t len)
{
    if (o->failed || len == 0)
        return;
    if (o->gz) {
        while (len > 0) {
            unsigned chunk = len > (1u << 30) ? (1u << 30) : (unsigned)len;
            if (gzwrite(o->gz, data, chunk) != (int)chunk) {
                o->failed = true;
                return;
            }
            data = (const char *)data + chunk;
            len -= chunk;
        }
    } else if (fwrite(data, 1, len, o->plain) != len) {
        o->failed = true;
    }
}

void outfile_printf(outfile *o, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        o->failed = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        outfile_write(o, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big)
        die("out of memory");
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    outfile_write(o, big, (size_t)n);
    free(big);
}

static void unlink_from_list(outfile *o)
{
    for (outfile **p = &open_list; *p; p = &(*p)->next)
        if (*p == o) {
            *p = o->next;
            return;
        }
}

static void destroy(outfile *o)
{
    unlink_from_list(o);
    free(o->path);
    free(o->tmp);
    free(o);
}

static bool close_stream(outfile *o)
{
    bool ok = !o->failed;
    if (o->gz) {
        ok = gzclose(o->gz) == Z_OK && ok;
        o->gz = NULL;
    } else if (o->plain) {
        ok = fflush(o->plain) == 0 && ok;
        ok = (!o->tmp || fsync(fileno(o->plain)) == 0) && ok;
        ok = fclose(o->plain) == 0 && ok;
        o->plain = NULL;
    }
    return ok;
}

void outfile_commit(outfile *o)
{
    int saved = 0;
    bool ok = close_stream(o);
    if (!ok)
        saved = errno ? errno : EIO;
    if (ok && o->tmp && rename(o->tmp, o->path) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        if (o->tmp)
            unlink(o->tmp);
        char *path = strdup(o->path);
        destroy(o);
        die("cannot write %s: %s", path ? path : "output", strerror(saved));
    }
    if (o->tmp)
        outfile_track(o->path);
    destroy(o);
}

void outfile_abort(outfile *o)
{
    close_stream(o);
    if (o->tmp)
        unlink(o->tmp);
    destroy(o);
}

void outfile_probe(const char *path)
{
    struct stat st;
    if (!path || !strcmp(path, "-") || (stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
        return;
    outfile_abort(outfile_open(path));
}

void outfile_abort_all(void)
{
    while (open_list)
        outfile_abort(open_list);
    for (size_t i = npublished; i-- > 0;) {
        remove_published(published[i]);
        free(published[i]);
    }
    npublished = 0;
}

const char *outfile_path(const outfile *o)
{
    return o->path;
}
