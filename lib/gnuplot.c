#include "gnuplot.h"

#include <stdarg.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s;
    if (vasprintf(&s, fmt, ap) < 0) die("out of memory");
    va_end(ap);
    return s;
}

static void say(gnuplot *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(gnuplot *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s;
    if (vasprintf(&s, fmt, ap) < 0) die("out of memory");
    va_end(ap);
    if (g->warn) g->warn(g->ctx, s);
    else warn("%s", s);
    free(s);
}

static bool has_terminal(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
        if ((p == list || p[-1] == ' ' || p[-1] == '\n') && (p[n] == ' ' || p[n] == '\t'))
            return true;
    return false;
}

void gnuplot_probe(gnuplot *g)
{
    if (g->probed)
        return;
    g->probed = true;
    FILE *p = popen("gnuplot -e 'set terminal' 2>&1 </dev/null", "r");
    char *list = NULL;
    size_t cap = 0;
    if (p) {
        ssize_t n = getdelim(&list, &cap, '\0', p);
        int status = pclose(p);
        g->found = n > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    if (g->found) {
        g->svg = has_terminal(list, "svg");
        g->png = has_terminal(list, "pngcairo") ? "pngcairo" : has_terminal(list, "png") ? "png" : NULL;
    }
    free(list);
    if (!g->found)
        say(g, "gnuplot not found (Debian: gnuplot-nox): plots are written as .gp scripts and .dat data only");
    else if (!g->svg || !g->png)
        say(g, "gnuplot has no %s terminal: %s plots are not drawn", g->svg ? "png" : "svg",
                g->svg ? "PNG" : "SVG");
}

static void write_file(const char *path, const char *text)
{
    outfile *o = outfile_open(path);
    outfile_write(o, text, strlen(text));
    outfile_commit(o);
}

/* The PNG's font is a point smaller than the SVG's: pngcairo draws text
 * larger, and both must fit the same layout. */
static char *script(const gnuplot *g, const char *name, const char *body)
{
    const char *png = g->png ? g->png : "pngcairo";
    return format(
        "# %s.gp: `gnuplot %s.gp` in this directory draws %s.svg and %s.png.\n"
        "if (!exists(\"out\")) out = \"%s\"\n"
        "if (!exists(\"formats\")) formats = \"svg png\"\n"
        "do for [fmt in formats] {\n"
        "if (fmt eq \"svg\") { set terminal svg size 960,540 dynamic noenhanced background rgb \"white\" "
        "font \"sans,11\" }\n"
        "if (fmt eq \"png\") { set terminal %s size 960,540 noenhanced background rgb \"white\" font \"sans,10\" }\n"
        "set output out.\".\".fmt\n"
        "%s"
        "set output\n"
        "}\n",
        name, name, name, name, name, png, body);
}

/* Did gnuplot finish the image? It may exit 0 after a failed write (a full
 * disk): a PNG ends with its IEND chunk, an SVG with its closing tag. */
static bool image_complete(const char *path, const char *fmt)
{
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    unsigned char tail[16] = {0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    bool ok = fd >= 0 && fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof tail &&
              pread(fd, tail, sizeof tail, st.st_size - (off_t)sizeof tail) == (ssize_t)sizeof tail;
    if (fd >= 0)
        close(fd);
    if (!ok)
        return false;
    if (strcmp(fmt, "png") == 0)
        return memcmp(tail + 4, iend, sizeof iend) == 0;
    return memmem(tail, sizeof tail, "</svg>", 6) != NULL;
}

/* gnuplot SCRIPT in DIR, drawing OUT.<fmt> for FORMATS; its output in LOG. */
static bool run_gnuplot(const char *dir, const char *script_name, const char *out, const char *formats,
                        const char *log)
{
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (chdir(dir) != 0 || fd < 0)
            _exit(126);
        dup2(fd, 1);
        dup2(fd, 2);
        char *vars = format("out=\"%s\"; formats=\"%s\"", out, formats);
        execlp("gnuplot", "gnuplot", "-e", vars, script_name, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void gnuplot_plot(gnuplot *g, const char *dir, const char *name, const char *data, const char *body)
{
    gnuplot_probe(g);
    char *dat = format("%s/%s.dat", dir, name), *gp = format("%s/%s.gp", dir, name);
    char *text = script(g, name, body);
    write_file(dat, data);
    write_file(gp, text);
    if (g->found && (g->svg || g->png)) {
        const char *fmts[] = {g->svg ? "svg" : NULL, g->png ? "png" : NULL};
        char *log = format("%s/%s.log", dir, name), *tmp = format("%s.tmp%d", name, (int)getpid());
        char *formats = format("%s %s", fmts[0] ? fmts[0] : "", fmts[1] ? fmts[1] : "");
        char *gp_name = format("%s.gp", name);
        bool ok = run_gnuplot(dir, gp_name, tmp, formats, log);
        for (int i = 0; i < 2; i++) {
            if (!fmts[i])
                continue;
            char *from = format("%s/%s.%s", dir, tmp, fmts[i]), *to = format("%s/%s.%s", dir, name, fmts[i]);
            if (ok && image_complete(from, fmts[i]) && rename(from, to) == 0)
                outfile_track(to);
            else
                ok = false;
            unlink(from);
            free(from);
            free(to);
        }
        if (ok) {
            unlink(log);
        } else {
            say(g, "gnuplot could not draw %s/%s (see %s)", dir, name, log);
            outfile_track(log); /* an output like the others: a failed command removes it */
        }
        free(log);
        free(tmp);
        free(formats);
        free(gp_name);
    }
    free(dat);
    free(gp);
    free(text);
}

/* Both terminals' text (svg "sans,11", pngcairo "sans,10") is about this
 * size, in pixels. */
enum { CHAR_WIDTH = 7, LINE_HEIGHT = 15 };

gnuplot_xtics gnuplot_fit_xtics(size_t n, size_t longest, int col, int width)
{
    gnuplot_xtics t = {.step = 1};
    size_t level = n * (longest + 2) * CHAR_WIDTH, upright = n * LINE_HEIGHT;
    t.upright = level > (size_t)width;
    if (t.upright && upright > (size_t)width)
        t.step = (unsigned)((upright + (size_t)width - 1) / (size_t)width);
    t.height_lines = t.upright ? (int)((longest * CHAR_WIDTH + LINE_HEIGHT - 1) / LINE_HEIGHT) + 1 : 1;
    snprintf(t.set, sizeof t.set, "set xtics scale 0 %s\n", t.upright ? "rotate by 90 right" : "norotate");
    if (t.step > 1)
        snprintf(t.label, sizeof t.label, "(int($0) %% %u == 0 ? strcol(%d) : \"\")", t.step, col);
    else
        snprintf(t.label, sizeof t.label, "%d", col);
    return t;
}

const char *gnuplot_colour(size_t i)
{
    /* ColorBrewer's Paired (its pale yellow made teal), dark ones first. */
    static const char *const colours[GNUPLOT_COLOURS] = {
        "#1f78b4", "#e31a1c", "#33a02c", "#ff7f00", "#6a3d9a", "#b15928",
        "#a6cee3", "#fb9a99", "#b2df8a", "#fdbf6f", "#cab2d6", "#17becf",
    };
    return i < GNUPLOT_COLOURS ? colours[i] : NULL;
}

const char *gnuplot_text(char *buf, size_t n, const char *s)
{
    size_t i = 0;
    for (; s && s[i] && i + 1 < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        buf[i] = ch == '`' || ch == '"' ? '\'' : ch == '\\' ? '/' : ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
    }
    if (n) buf[i] = 0;
    return buf;
}
