/* The checkpoint container and process save/restore. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ckpt/ckpt.h"
#include "ckpt/ckpt_file.h"
#include "exec/exec.h"
#include "loader.h"

static char dir[] = "/tmp/test_ckpt_XXXXXX";

static void make_dir(void)
{
    strcpy(dir, "/tmp/test_ckpt_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(ckpt_file, .init = make_dir, .fini = remove_dir);
TestSuite(ckpt, .init = make_dir, .fini = remove_dir);

static void write_two_sections(const char *path)
{
    outfile *o = outfile_open(path);
    ckpt_write_header(o, 2);
    ckpt_write_section(o, CKPT_META, "{\"a\":1}", 7);
    static unsigned char big[100000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (unsigned char)(i * 7 % 251);
    ckpt_write_section(o, CKPT_PAGES, big, sizeof big);
    outfile_commit(o);
}

Test(ckpt_file, round_trip)
{
    char path[64], err[256];
    snprintf(path, sizeof path, "%s/a.ckpt", dir);
    write_two_sections(path);
    ckpt_section *s;
    int n;
    cr_assert_eq(ckpt_read(path, &s, &n, err, sizeof err), 0, "%s", err);
    cr_assert_eq(n, 2);
    const ckpt_section *meta = ckpt_find(s, n, CKPT_META), *pages = ckpt_find(s, n, CKPT_PAGES);
    cr_assert(meta && pages && !ckpt_find(s, n, CKPT_CPU));
    cr_assert_eq(meta->len, 7);
    cr_assert_eq(memcmp(meta->data, "{\"a\":1}", 7), 0);
    cr_assert_eq(pages->len, 100000);
    cr_assert_eq(pages->data[99999], (unsigned char)(99999 * 7 % 251));
    ckpt_sections_free(s, n);
}

/* Every single-byte corruption and every truncation is detected. */
Test(ckpt_file, any_damage_is_detected)
{
    char path[64], bad[64], err[256];
    snprintf(path, sizeof path, "%s/a.ckpt", dir);
    snprintf(bad, sizeof bad, "%s/bad.ckpt", dir);
    write_two_sections(path);
    FILE *f = fopen(path, "rb");
    unsigned char data[4096];
    size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    cr_assert_lt(len, sizeof data, "test file unexpectedly large");
    for (size_t cut = 0; cut < len; cut += 7) {
        f = fopen(bad, "wb");
        fwrite(data, 1, cut, f);
        fclose(f);
        ckpt_section *s;
        int n;
        cr_assert_eq(ckpt_read(bad, &s, &n, err, sizeof err), -1, "truncation at %zu not detected", cut);
    }
    for (size_t at = 0; at < len; at++) {
        data[at] ^= 0x20;
        f = fopen(bad, "wb");
        fwrite(data, 1, len, f);
        fclose(f);
        data[at] ^= 0x20;
        ckpt_section *s;
        int n;
        cr_assert_eq(ckpt_read(bad, &s, &n, err, sizeof err), -1, "flipped byte %zu not detected", at);
        cr_assert(strstr(err, "corrupted") || strstr(err, "not a checkpoint") || strstr(err, "version") ||
                      strstr(err, "truncated"),
                  "unclear message: %s", err);
    }
}

static void start_program(rv_proc *p, const char *exe)
{
    char *argv[] = {(char *)exe, "1"};
    rv_proc_options o = {.exe = exe, .argc = 2, .argv = argv};
    rv_elf_info info;
    char err[256];
    cr_assert_eq(rv_proc_init(p, &o, &info, err, sizeof err), 0, "%s", err);
    /* The test runner's stdin may be a pipe, which only `checkpoint` reads ahead. */
    p->os.files[0].host_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    p->os.files[1].host_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
}

/* Saving then restoring gives the same registers, memory map and memory,
 * and both continue identically. */
Test(ckpt, save_restore_round_trip)
{
    const char *exe = "build/rv/workloads/sort";
    rv_proc a, b;
    start_program(&a, exe);
    cr_assert_eq(rv_run(&a, 3000001, NULL, NULL), RV_RUN_LIMIT);
    char path[64], err[256];
    snprintf(path, sizeof path, "%s/p.ckpt", dir);
    ckpt_region r = {.simpoint = 5, .cluster = 2, .weight = 0.25, .interval = 1000000, .warmup = 2000000, .start = 3000001};
    ckpt_save(&a, path, &r, 1);

    rv_proc_options o = {0};
    ckpt_meta m;
    cr_assert_eq(ckpt_restore(&b, path, &o, &m, err, sizeof err), 0, "%s", err);
    b.os.files[1].host_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    cr_assert_eq(m.nregions, 1);
    cr_assert_eq(m.regions[0].simpoint, 5);
    cr_assert_eq(m.regions[0].warmup, 2000000);
    cr_assert_eq(m.icount, 3000001);
    cr_assert_eq(memcmp(a.cpu.x, b.cpu.x, 32 * 8), 0);
    cr_assert_eq(memcmp(a.cpu.f, b.cpu.f, sizeof a.cpu.f), 0);
    cr_assert_eq(a.cpu.pc, b.cpu.pc);
    cr_assert_eq(a.cpu.block_pc, b.cpu.block_pc);
    cr_assert_eq(a.cpu.icount, b.cpu.icount);
    cr_assert_eq(a.os.brk, b.os.brk);
    cr_assert_eq(a.mem.nvmas, b.mem.nvmas);
    for (size_t i = 0; i < a.mem.nvmas; i++) {
        const rv_vma *x = &a.mem.vmas[i], *y = &b.mem.vmas[i];
        cr_assert(x->start == y->start && x->end == y->end && x->prot == y->prot, "mapping %zu differs", i);
        cr_assert_eq(memcmp(mem_host(&a.mem, x->start), mem_host(&b.mem, y->start), x->end - x->start), 0,
                     "memory of mapping %zu differs", i);
    }
    /* Both continue the same way to the end. */
    rv_run(&a, UINT64_MAX, NULL, NULL);
    rv_run(&b, UINT64_MAX, NULL, NULL);
    cr_assert_eq(a.stop, RV_STOP_EXIT);
    cr_assert_eq(b.stop, RV_STOP_EXIT);
    cr_assert_eq(a.cpu.icount, b.cpu.icount);
    cr_assert_eq(a.exit_status, b.exit_status);
    ckpt_meta_free(&m);
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

Test(ckpt, wrong_program_is_refused)
{
    rv_proc a, b;
    start_program(&a, "build/rv/asm/loop_simple");
    rv_run(&a, 100, NULL, NULL);
    char path[64], err[256];
    snprintf(path, sizeof path, "%s/p.ckpt", dir);
    ckpt_save(&a, path, NULL, 0);
    rv_proc_options o = {.exe = "build/rv/asm/nested_loops"};
    ckpt_meta m;
    cr_assert_eq(ckpt_restore(&b, path, &o, &m, err, sizeof err), -1);
    cr_assert(strstr(err, "different program"), "%s", err);
    ckpt_meta_free(&m);
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}
