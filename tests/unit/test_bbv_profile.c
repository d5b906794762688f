/* A client of bbv_profile_run (bbv --proxy's warming model) sees every
 * retired instruction, block by block in order, and every interval as it
 * closes, and the .bb lines are byte for byte those of a run without it. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bbv_profile.h"
#include "quiet_guest.h"

#define PROGRAM "build/rv/workloads/sort"
enum { LIMIT = 2000003 };
static const uint64_t sizes[] = {997, 100000};

typedef struct client {
    uint64_t next;          /* the count the next block must start at */
    uint64_t whole, parts;  /* blocks seen whole, in part */
    uint64_t closed[2];     /* intervals closed per series */
    bool broken;
} client;

static void on_block(void *ctx, rv_block *b, uint32_t first, uint64_t start, uint32_t executed)
{
    client *c = ctx;
    c->broken |= start != c->next || first + executed > b->n;
    c->next = start + executed;
    if (first == 0 && executed == b->n)
        c->whole++;
    else
        c->parts++;
}

static void on_closed(void *ctx, int series, uint64_t index, uint64_t retired)
{
    client *c = ctx;
    uint64_t end = (index + 1) * sizes[series]; /* the last, partial interval ends at LIMIT */
    c->broken |= index != c->closed[series] || retired != (end < LIMIT ? end : LIMIT);
    c->closed[series]++;
}

/* Profile the first LIMIT instructions into DIR/<size>.bb (with c as client unless NULL). */
static void profile(const char *dir, client *c)
{
    rv_proc p;
    char path[512];
    start_quiet_guest(&p, PROGRAM, "1", RV_EXEC_TRANSLATE);
    outfile *outs[2];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%llu.bb", dir, (unsigned long long)sizes[i]);
        outs[i] = outfile_open(path);
    }
    bbv_profile bp;
    bbv_profile_init(&bp, sizes, outs, 2);
    if (c)
        bbv_profile_attach(&bp, &(bbv_client){.block = on_block, .closed = on_closed, .ctx = c});
    bbv_profile_run(&bp, &p, LIMIT);
    bbv_profile_finish(&bp, false);
    for (int i = 0; i < 2; i++)
        outfile_commit(outs[i]);
    bbv_profile_free(&bp);
    rv_proc_destroy(&p);
}

static char *slurp(const char *dir, uint64_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%llu.bb", dir, (unsigned long long)size);
    FILE *f = fopen(path, "r");
    cr_assert(f, "%s", path);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    int ch;
    while ((ch = getc(f)) != EOF)
        putc(ch, m);
    fclose(m);
    fclose(f);
    return text;
}

Test(bbv_profile, a_client_sees_every_block_and_interval_and_changes_no_line)
{
    char plain[] = "/tmp/bbvp_plainXXXXXX", with[] = "/tmp/bbvp_clientXXXXXX";
    cr_assert(mkdtemp(plain) && mkdtemp(with));
    client c = {0};
    profile(plain, NULL);
    profile(with, &c);
    cr_expect(!c.broken, "blocks not contiguous or intervals out of order");
    cr_expect_eq(c.next, LIMIT, "the client saw %llu instructions", (unsigned long long)c.next);
    cr_expect(c.whole > 0 && c.parts > 0, "boundaries inside blocks give parts");
    /* the partial interval is closed too */
    cr_expect_eq(c.closed[0], LIMIT / 997 + 1);
    cr_expect_eq(c.closed[1], LIMIT / 100000 + 1);
    for (int i = 0; i < 2; i++) {
        char *a = slurp(plain, sizes[i]), *b = slurp(with, sizes[i]);
        cr_expect_str_eq(a, b, "the .bb lines at %llu differ with a client", (unsigned long long)sizes[i]);
        free(a);
        free(b);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", plain, with);
    cr_expect_eq(system(cmd), 0);
}
