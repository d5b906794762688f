/* bbv --proxy's per-interval metrics (lib/proxy.c): the penalties taken
 * from the configuration, the long-latency operations counted per timing
 * class from decoded blocks, their exposed latency (the dataflow model),
 * and the line written per interval. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proxy.h"

/* addi a0,a0,1; mul a0,a0,a1; div a0,a0,a1; fadd.d fa0,fa0,fa1; fdiv.d fa0,fa0,fa1; fld fa0,0(a0) */
static const uint32_t BLOCK[] = {0x00150513, 0x02b50533, 0x02b54533, 0x02b57553, 0x1ab57553, 0x00053507};
enum { NBLOCK = sizeof BLOCK / sizeof BLOCK[0] };

static rv_block *block_of(const uint32_t *bits, int n)
{
    rv_block *b = calloc(1, sizeof *b + (size_t)n * sizeof(rv_insn));
    cr_assert(b);
    b->n = (uint32_t)n;
    for (int i = 0; i < n; i++)
        rv_decode(&b->insns[i], 0x1000 + 4 * (uint64_t)i, (uint16_t)(bits[i] & 0xffff), (uint16_t)(bits[i] >> 16));
    return b;
}

static proxy_penalties defaults(uarch_config *c)
{
    uarch_config_defaults(c);
    proxy_penalties p;
    proxy_penalties_of(c, &p);
    return p;
}

Test(proxy, penalties_charge_a_long_operation_its_latency_beyond_a_cycle)
{
    uarch_config c;
    proxy_penalties p = defaults(&c);
    cr_assert_float_eq(p.op[CLS_MUL], c.lat_mul - 1, 1e-12);
    cr_assert_float_eq(p.op[CLS_DIV], c.lat_div - 1, 1e-12);
    cr_assert_float_eq(p.op[CLS_FMA], c.lat_fma - 1, 1e-12);
    cr_assert_float_eq(p.op[CLS_FSQRT], c.lat_fsqrt - 1, 1e-12);
    cr_assert_float_eq(p.op[CLS_FMOVE], c.lat_fcvt - 1, 1e-12);
    /* an ALU's cycle, memory accesses (their misses are counted) */
    cr_assert_eq(p.op[CLS_ALU], 0);
    cr_assert_eq(p.op[CLS_LOAD], 0);
    cr_assert_eq(p.op[CLS_FLOAD], 0);
    c.lat_fadd = 9;
    proxy_penalties_of(&c, &p);
    cr_assert_float_eq(p.op[CLS_FADD], 8, 1e-12, "the configuration's latency, not a constant");
}

Test(proxy, count_ops_counts_the_retired_positions_by_class)
{
    rv_block *b = block_of(BLOCK, NBLOCK);
    uint64_t ops[CLS_COUNT] = {0};
    proxy_count_ops(ops, NULL, b, 0, NBLOCK);
    cr_assert_eq(ops[CLS_ALU], 1);
    cr_assert_eq(ops[CLS_MUL], 1);
    cr_assert_eq(ops[CLS_DIV], 1);
    cr_assert_eq(ops[CLS_FADD], 1);
    cr_assert_eq(ops[CLS_FDIV], 1);
    cr_assert_eq(ops[CLS_FLOAD], 1);
    /* a block run in part: positions 2 and 3 only (div, fadd.d) */
    memset(ops, 0, sizeof ops);
    proxy_count_ops(ops, NULL, b, 2, 2);
    uint64_t all = 0;
    for (int k = 0; k < CLS_COUNT; k++)
        all += ops[k];
    cr_assert_eq(all, 2);
    cr_assert_eq(ops[CLS_DIV], 1);
    cr_assert_eq(ops[CLS_FADD], 1);
    free(b);
}

Test(proxy, long_cpi_is_the_operations_cycles_per_instruction_and_leaves_proxy_cpi_alone)
{
    uarch_config c;
    proxy_penalties p = defaults(&c);
    proxy_counts n = {.insts = 1000, .l1d_misses = 10};
    n.ops[CLS_MUL] = 100;
    n.ops[CLS_FDIV] = 5;
    n.ops[CLS_ALU] = 800;
    double expect = (100.0 * (c.lat_mul - 1) + 5.0 * (c.lat_fdiv - 1)) / 1000;
    cr_assert_float_eq(proxy_long_cpi(&n, &p), expect, 1e-12);
    cr_assert_float_eq(proxy_cpi(&n, &p), 1 + 10 * p.l1_miss / 1000, 1e-12);
    proxy_counts none = {0};
    cr_assert_eq(proxy_long_cpi(&none, &p), 0, "no instructions: no cost");
}

Test(proxy, counts_sub_subtracts_the_operations_too)
{
    proxy_counts a = {.insts = 50, .mispredicts = 7}, b = {.insts = 20, .mispredicts = 3};
    a.ops[CLS_FMA] = 12;
    b.ops[CLS_FMA] = 2;
    a.ops[CLS_DIV] = 4;
    proxy_counts d = proxy_counts_sub(&a, &b);
    cr_assert_eq(d.insts, 30);
    cr_assert_eq(d.mispredicts, 4);
    cr_assert_eq(d.ops[CLS_FMA], 10);
    cr_assert_eq(d.ops[CLS_DIV], 4);
}

/* The header names every column of the line, and the operations' columns
 * group the classes as README says. */
Test(proxy, a_line_has_a_value_under_every_header_column)
{
    uarch_config c;
    proxy_penalties p = defaults(&c);
    char path[] = "/tmp/test_proxy_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    outfile *o = outfile_open(path);
    proxy_write_header(o, "cfg.ini", &c, 1000);
    proxy_counts n = {.insts = 1000};
    n.ops[CLS_MUL] = 3;
    n.ops[CLS_DIV] = 2;
    n.ops[CLS_FADD] = 5;
    n.ops[CLS_FCVT] = 1;
    n.ops[CLS_FMOVE] = 1;
    n.ops[CLS_FDIV] = 4;
    n.ops[CLS_FSQRT] = 1;
    proxy_write_line(o, 7, &n, &p);
    outfile_commit(o);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    char head[1024] = "", line[1024] = "", buf[1024];
    while (fgets(buf, sizeof buf, f))
        if (buf[0] != '#')
            strcpy(head[0] ? line : head, buf);
    fclose(f);
    unlink(path);
    char *names[32], *values[32], *s1 = NULL, *s2 = NULL;
    int nn = 0, nv = 0;
    for (char *t = strtok_r(head, "\t\n", &s1); t && nn < 32; t = strtok_r(NULL, "\t\n", &s1))
        names[nn++] = t;
    for (char *t = strtok_r(line, "\t\n", &s2); t && nv < 32; t = strtok_r(NULL, "\t\n", &s2))
        values[nv++] = t;
    cr_assert_eq(nn, nv);
    const char *want[][2] = {{"interval", "7"}, {"instructions", "1000"}, {"int_muls", "3"}, {"int_divs", "2"},
                             {"fp_ops", "7"}, {"fp_divs", "5"}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        int i = 0;
        while (i < nn && strcmp(names[i], want[w][0]) != 0)
            i++;
        cr_assert(i < nn, "no %s column", want[w][0]);
        cr_assert_str_eq(values[i], want[w][1], "%s", want[w][0]);
    }
    cr_assert_str_eq(names[nn - 2], "long_cpi");
    cr_assert_float_eq(atof(values[nv - 2]), proxy_long_cpi(&n, &p), 1e-6);
    cr_assert_str_eq(names[nn - 1], "exposed_cpi");
}

/* ------------------------------------------- the exposure model (exposed_cpi)
 *
 * With the defaults (4-wide dispatch, a 128-entry ROB: instruction i + 128
 * dispatches (i + 128) / 4 cycles in at the earliest, and not before i is
 * done; fdiv 20 cycles on one unpipelined unit, fadd 4 pipelined, 2 FP
 * issues a cycle; a dependent reads a long result regread_stages + 2 = 3
 * cycles after it is done), each stream below is followed by independent
 * ALU instructions, and the cycles dispatch waits are known by hand. */

enum { FADD = 0x01, FDIV = 0x0d, FA0 = 10, FA1 = 11 };
static uint32_t fp_op(unsigned funct7, unsigned rd, unsigned rs1, unsigned rs2)
{
    return funct7 << 25 | rs2 << 20 | rs1 << 15 | 7u << 12 | rd << 7 | 0x53;
}
static const uint32_t ADDI = 0x00150513; /* addi a0, a0, 1 */

/* The model's stall, in cycles, after bits[0..n) and `tail` addi. */
static double exposed_cycles(const uint32_t *bits, int n, int tail)
{
    uarch_config c;
    proxy_penalties p = defaults(&c);
    proxy_exposure *x = malloc(sizeof *x);
    cr_assert(x);
    proxy_exposure_init(x, &c);
    rv_insn in;
    for (int i = 0; i < n + tail; i++) {
        uint32_t b = i < n ? bits[i] : ADDI;
        rv_decode(&in, 0x1000 + 4 * (uint64_t)i, (uint16_t)(b & 0xffff), (uint16_t)(b >> 16));
        proxy_exposure_step(x, &in);
    }
    double cycles = (double)x->stalled * p.exposed_unit;
    free(x);
    return cycles;
}

Test(proxy, a_chain_of_four_fdivs_is_exposed_beyond_the_window)
{
    /* fa0 = fa0 / fa1, four times: the last done at 3 x (20 + 3) + 20 =
     * 89 cycles; the instruction 128 after it dispatches at 131 / 4 */
    uint32_t chain[4];
    for (int i = 0; i < 4; i++)
        chain[i] = fp_op(FDIV, FA0, FA0, FA1);
    cr_assert_float_eq(exposed_cycles(chain, 4, 200), 89 - 131 / 4.0, 1e-9);
}

Test(proxy, four_independent_fdivs_wait_for_the_unpipelined_divider)
{
    /* fa2..fa5 = fa0 / fa1: no dependence, but one divider: done at 80 */
    uint32_t indep[4];
    for (int i = 0; i < 4; i++)
        indep[i] = fp_op(FDIV, FA1 + 1 + (unsigned)i, FA0, FA1);
    cr_assert_float_eq(exposed_cycles(indep, 4, 200), 4 * 20 - 131 / 4.0, 1e-9);
}

Test(proxy, independent_fadds_overlap_and_a_long_chain_of_them_does_not)
{
    uint32_t ops[8];
    for (int i = 0; i < 8; i++)
        ops[i] = fp_op(FADD, FA1 + 1 + (unsigned)(i % 4), FA0, FA1);
    cr_assert_float_eq(exposed_cycles(ops, 4, 200), 0, 1e-12, "four independent: within the window");
    cr_assert_float_eq(exposed_cycles(ops, 8, 200), 0, 1e-12, "eight independent: within it too");
    for (int i = 0; i < 8; i++)
        ops[i] = fp_op(FADD, FA0, FA0, FA1);
    cr_assert_float_eq(exposed_cycles(ops, 4, 200), 0, 1e-12, "a chain of four: 3 x 7 + 4 = 25 cycles < 32.75");
    /* a chain of eight: done at 7 x 7 + 4 = 53, against 135 / 4 */
    cr_assert_float_eq(exposed_cycles(ops, 8, 200), 53 - 135 / 4.0, 1e-9);
}

Test(proxy, fp_operations_issue_two_a_cycle)
{
    /* independent fadds every other instruction: the FP queue's pace, no
     * wait; every instruction one: twice the pace, the window fills */
    enum { N = 400 };
    uint32_t *ops = malloc(N * sizeof *ops);
    cr_assert(ops);
    for (int i = 0; i < N; i++)
        ops[i] = i % 2 ? ADDI : fp_op(FADD, FA1 + 1 + (unsigned)(i / 2 % 4), FA0, FA1);
    cr_assert_float_eq(exposed_cycles(ops, N, 200), 0, 1e-12);
    for (int i = 0; i < N; i++)
        ops[i] = fp_op(FADD, FA1 + 1 + (unsigned)(i % 4), FA0, FA1);
    /* the last issues at (N - 1) / 2 cycles, done 4 later; the instruction
     * 128 after it would dispatch at (N - 1 + 128) / 4 */
    cr_assert_float_eq(exposed_cycles(ops, N, 200), (N - 1) / 2.0 + 4 - (N - 1 + 128) / 4.0, 1e-9);
    free(ops);
}

/* A serialising instruction (every CSR access) waits for the reorder buffer
 * to drain and holds dispatch until it commits, a cycle after it is done;
 * one that flushes (the FP status register's) adds the pipeline's refill:
 * flush_penalty + l1i latency + pipeline_depth + decode_stages = 10 cycles. */
enum { FRFLAGS = 0x00102573, RDINSTRET = 0xc0202573 };

Test(proxy, a_csr_access_drains_the_window_and_an_fp_one_refills_the_pipeline)
{
    uint32_t ops[5];
    for (int i = 0; i < 4; i++)
        ops[i] = fp_op(FDIV, FA0, FA0, FA1);
    /* after the chain (done at 89): the next instruction dispatches at 89 + 1
     * (+ 10), not at 5 / 4 */
    ops[4] = RDINSTRET;
    cr_assert_float_eq(exposed_cycles(ops, 5, 200), 89 + 1 - 5 / 4.0, 1e-9);
    ops[4] = FRFLAGS;
    cr_assert_float_eq(exposed_cycles(ops, 5, 200), 89 + 1 + 10 - 5 / 4.0, 1e-9);
    /* alone: its own cycle and the refill, less its dispatch slot */
    cr_assert_float_eq(exposed_cycles(ops + 4, 1, 200), 1 + 10 - 1 / 4.0, 1e-9);
}

Test(proxy, count_ops_feeds_the_model_across_blocks)
{
    /* the chain of four fdivs in one block, the addis in another: the same
     * stall as one instruction at a time, and the counts as before */
    uint32_t chain[4], tail[200];
    for (int i = 0; i < 4; i++)
        chain[i] = fp_op(FDIV, FA0, FA0, FA1);
    for (int i = 0; i < 200; i++)
        tail[i] = ADDI;
    rv_block *a = block_of(chain, 4), *b = block_of(tail, 200);
    uarch_config c;
    proxy_penalties p = defaults(&c);
    proxy_exposure *x = malloc(sizeof *x);
    cr_assert(x);
    proxy_exposure_init(x, &c);
    uint64_t ops[CLS_COUNT] = {0};
    proxy_count_ops(ops, x, b, 0, 200); /* idle: nothing to wait for */
    cr_assert_eq(x->stalled, 0);
    proxy_count_ops(ops, x, a, 0, 4);
    proxy_count_ops(ops, x, b, 0, 200);
    cr_assert_eq(ops[CLS_FDIV], 4);
    cr_assert_eq(ops[CLS_ALU], 400);
    cr_assert_float_eq((double)x->stalled * p.exposed_unit, 89 - 131 / 4.0, 1e-9);
    proxy_counts n = {.insts = 404, .exposed = x->stalled};
    cr_assert_float_eq(proxy_exposed_cpi(&n, &p), (89 - 131 / 4.0) / 404, 1e-12);
    free(x);
    free(a);
    free(b);
}
