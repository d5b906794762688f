#include "psv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const psv_event_names[PSV_NEVENTS] = {
#define E(id, name, meaning) name,
    PSV_EVENTS(E)
#undef E
};

const char *const psv_event_meanings[PSV_NEVENTS] = {
#define E(id, name, meaning) meaning,
    PSV_EVENTS(E)
#undef E
};

char *psv_describe(uint16_t psv, char *buf, size_t size)
{
    if (!psv) {
        snprintf(buf, size, "Base");
        return buf;
    }
    size_t n = 0;
    buf[0] = 0;
    for (int e = 0; e < PSV_NEVENTS; e++)
        if (psv & (1u << e) && n < size)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", psv_event_names[e]);
    return buf;
}

int psv_parse(const char *list, uint16_t *mask)
{
    *mask = 0;
    if (!strcmp(list, "all")) {
        *mask = (uint16_t)((1u << PSV_NEVENTS) - 1);
        return 0;
    }
    char *copy = strdup(list);
    if (!copy) return -1;
    int rc = 0;
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int e = 0;
        while (e < PSV_NEVENTS && strcmp(psv_event_names[e], name)) e++;
        if (e == PSV_NEVENTS) rc = -1;
        else *mask |= (uint16_t)(1u << e);
    }
    free(copy);
    return rc;
}
