#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outfile.h"

static bool has_terminal(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
        if ((p == list || p[-1] == ' ' || p[-1] == '\n') && (p[n] == ' ' || p[n] == '\t'))
            return true;
    return false;
}

void vd_gnuplot_probe(vd_gnuplot *g, vd_diag *d)
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
        vd_warn(d, "gnuplot not found (Debian: gnuplot-nox): plots are written as .gp scripts and .dat data only");
    else if (!g->svg || !g->png)
        vd_warn(d, "gnuplot has no %s terminal: %s plots are not drawn", g->svg ? "png" : "svg",
                g->svg ? "PNG" : "SVG");
}

static void write_file(const char *path, const char *text)
{
    outfile *o = outfile_open(path);
    outfile_write(o, text, strlen(text));
    outfile_commit(o);
}

static char *script(const vd_gnuplot *g, const char *name, const char *body)
{
    const char *png = g->png ? g->png : "pngcairo";
    return vd_format(
        "# %s.gp, written by validate: `gnuplot %s.gp` in this directory draws %s.svg and %s.png.\n"
        "if (!exists(\"out\")) out = \"%s\"\n"
        "if (!exists(\"formats\")) formats = \"svg png\"\n"
        "do for [fmt in formats] {\n"
        "if (fmt eq \"svg\") { set terminal svg size 960,540 dynamic noenhanced background rgb \"white\" "
        "font \"sans,11\" }\n"
        "if (fmt eq \"png\") { set terminal %s size 960,540 noenhanced background rgb \"white\" }\n"
        "set output out.\".\".fmt\n"
        "%s"
        "set output\n"
        "}\n",
        name, name, name, name, name, png, body);
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
        char *vars = vd_format("out=\"%s\"; formats=\"%s\"", out, formats);
        execlp("gnuplot", "gnuplot", "-e", vars, script_name, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void vd_plot(vd_gnuplot *g, const char *dir, const char *name, const char *data, const char *body, vd_diag *d)
{
    vd_gnuplot_probe(g, d);
    char *dat = vd_format("%s/%s.dat", dir, name), *gp = vd_format("%s/%s.gp", dir, name);
    char *text = script(g, name, body);
    write_file(dat, data);
    write_file(gp, text);
    if (g->found && (g->svg || g->png)) {
        const char *fmts[] = {g->svg ? "svg" : NULL, g->png ? "png" : NULL};
        char *log = vd_format("%s/%s.log", dir, name), *tmp = vd_format("%s.tmp%d", name, (int)getpid());
        char *formats = vd_format("%s %s", fmts[0] ? fmts[0] : "", fmts[1] ? fmts[1] : "");
        char *gp_name = vd_format("%s.gp", name);
        bool ok = run_gnuplot(dir, gp_name, tmp, formats, log);
        for (int i = 0; i < 2; i++) {
            if (!fmts[i])
                continue;
            char *from = vd_format("%s/%s.%s", dir, tmp, fmts[i]), *to = vd_format("%s/%s.%s", dir, name, fmts[i]);
            struct stat st;
            if (ok && stat(from, &st) == 0 && st.st_size > 0)
                ok = rename(from, to) == 0;
            else
                ok = false;
            unlink(from);
            free(from);
            free(to);
        }
        if (ok)
            unlink(log);
        else
            vd_warn(d, "gnuplot could not draw %s/%s (see %s)", dir, name, log);
        free(log);
        free(tmp);
        free(formats);
        free(gp_name);
    }
    free(dat);
    free(gp);
    free(text);
}
