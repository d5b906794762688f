#include "srcline.h"

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

int srclines_lookup(srclines *s, uint64_t pc, char *buf, size_t size)
{
    Dwarf_Die cu;
    if (!s || !dwarf_addrdie(s->dw, pc, &cu)) return 0;
    Dwarf_Line *line = dwarf_getsrc_die(&cu, pc);
    int lineno;
    const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
    if (!file || dwarf_lineno(line, &lineno) != 0) return 0;
    const char *base = strrchr(file, '/');
    snprintf(buf, size, "%s:%d", base ? base + 1 : file, lineno);
    return 1;
}
