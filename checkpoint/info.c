#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "ckpt/ckpt.h"
#include "json_out.h"
#include "modes.h"
#include "util.h"

/* The size of the warm micro-architectural state (checkpoint --warm), 0
 * when the checkpoint holds none. */
static size_t warm_state_size(const char *path)
{
    void *data = NULL;
    size_t len = 0;
    char err[512];
    if (ckpt_read_warm(path, &data, &len, err, sizeof err)) return 0;
    free(data);
    return len ? len : 1;
}

int show_checkpoint(const ckpt_options *o, const char *path)
{
    ckpt_meta m;
    char err[512];
    if (ckpt_read_meta(path, &m, err, sizeof err)) {
        ckpt_meta_free(&m);
        die("%s", err);
    }
    size_t warm = warm_state_size(path);
    if (o->json) {
        json_t *regions = ckpt_regions_json(m.regions, m.nregions);
        json_t *j = json_pack("{s:s, s:i, s:s, s:I, s:I, s:I, s:I, s:o, s:I, s:I, s:I}", "checkpoint", path,
                              "format_version", 1, "program", m.program, "elf_crc32", (json_int_t)m.elf_crc,
                              "elf_size", (json_int_t)m.elf_size, "icount", (json_int_t)m.icount, "pc",
                              (json_int_t)m.pc, "regions", regions, "mappings", (json_int_t)m.vmas, "nonzero_pages",
                              (json_int_t)m.pages, "open_files", (json_int_t)m.files);
        json_object_set_new(j, "warm_state", json_boolean(warm));
        json_object_set_new(j, "warm_state_bytes", json_integer((json_int_t)warm));
        json_write_file("-", j);
        json_decref(j);
    } else {
        printf("checkpoint: %s (format version 1)\n", path);
        printf("program:    %s (CRC32 %08x, %llu bytes)\n", m.program, m.elf_crc, (unsigned long long)m.elf_size);
        printf("position:   %llu instructions retired, pc 0x%llx\n", (unsigned long long)m.icount,
               (unsigned long long)m.pc);
        for (int i = 0; i < m.nregions; i++) {
            const ckpt_region *r = &m.regions[i];
            if (r->simpoint >= 0)
                printf("region:     simpoint %lld (cluster %lld, weight %g): interval %llu, warm-up %llu\n",
                       r->simpoint, r->cluster, r->weight, (unsigned long long)r->interval,
                       (unsigned long long)r->warmup);
            else
                printf("region:     at instruction %llu\n", (unsigned long long)r->start);
        }
        printf("memory:     %llu mappings, %llu non-zero pages (%.1f MiB)\n", (unsigned long long)m.vmas,
               (unsigned long long)m.pages, (double)m.pages * 4096 / (1 << 20));
        printf("files:      %llu open\n", (unsigned long long)m.files);
        if (warm)
            printf("warm state: yes, %zu bytes of caches, TLBs and predictors (checkpoint --warm; sim --warmup "
                   "checkpoint)\n", warm);
        else
            printf("warm state: none (taken without --warm: sim warms functionally or in detail)\n");
    }
    ckpt_meta_free(&m);
    return 0;
}
