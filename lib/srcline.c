#include "srcline.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct srclines {
    int fd;
    Dwarf *dw;
};

srclines *srclines_open(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    if (!dw) {
        close(fd);
        return NULL;
    }
    srclines *s = malloc(sizeof *s);
    if (!s) {
        dwarf_end(dw);
        close(fd);
        return NULL;
    }
    *s = (srclines){fd, dw};
    return s;
}

void srclines_close(srclines *s)
{
    if (!s) return;
    dwarf_end(s->dw);
    close(s->fd);
    free(s);
}

static const char *line_of(srclines *s, uint64_t pc, Dwarf_Die *cu, int *lineno)
{
    if (!s || !dwarf_addrdie(s->dw, pc, cu)) return NULL;
    Dwarf_Line *line = dwarf_getsrc_die(cu, pc);
    const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
    return file && dwarf_lineno(line, lineno) == 0 ? file : NULL;
}

int srclines_where(srclines *s, uint64_t pc, char *path, size_t size, int *lineno)
{
    Dwarf_Die cu;
    const char *file = line_of(s, pc, &cu, lineno);
    if (!file) return 0;
    Dwarf_Attribute at;
    const char *dir = file[0] == '/' ? NULL : dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));
    snprintf(path, size, "%s%s%s", dir ? dir : "", dir ? "/" : "", file);
    return 1;
}

int srclines_lookup(srclines *s, uint64_t pc, char *buf, size_t size)
{
    Dwarf_Die cu;
    int lineno;
    const char *file = line_of(s, pc, &cu, &lineno);
    if (!file) return 0;
    const char *base = strrchr(file, '/');
    snprintf(buf, size, "%s:%d", base ? base + 1 : file, lineno);
    return 1;
}
