/* The detailed core's configuration: every parameter of the pipeline, the
 * branch predictor, the caches, the TLBs and DRAM, with its INI name
 * (section.key), default (the TIP paper's SonicBOOM, Table A.1) and the
 * range of values that make sense. One table drives the struct, the INI and
 * --set parsers, validation and the JSON dump. */
#ifndef RV_UARCH_CONFIG_H
#define RV_UARCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* P(field, section, key, default, min, max, help)
 * All values are integers; booleans are 0/1. Latencies are in core cycles
 * unless the name says otherwise. The TAGE defaults are SonicBOOM's TAGE-L
 * tables (tage.scala's BoomTageParams: 128 or 256 sets of a bank's four
 * entries, two banks; tags of 7 to 9 bits), see tage_table_geometry. */
#define UARCH_PARAMS(P) \
    P(freq_mhz,         core,     freq_mhz,        3200,  100, 10000, "core clock, MHz (converts DRAM ns to cycles)") \
    P(fetch_width,      frontend, fetch_width,     8,     1,   16,    "instructions fetched per cycle") \
    P(fetch_buffer,     frontend, fetch_buffer,    32,    1,   256,   "fetch buffer entries (instructions)") \
    P(ftq_entries,      frontend, ftq_entries,     40,    1,   256,   "fetch target queue entries (fetch packets in flight)") \
    P(max_branches,     frontend, max_branches,    20,    1,   256,   "outstanding unresolved branches") \
    P(icache_to_decode, frontend, pipeline_depth,  3,     1,   32,    "cycles from fetch to decode on an I-cache hit") \
    P(redirect_penalty, frontend, redirect_penalty,3,     0,   64,    "cycles from a mispredicted branch's execution to the corrected fetch") \
    P(flush_penalty,    frontend, flush_penalty,   4,     0,   64,    "cycles from a flush at commit to the refetch") \
    P(decode_width,     core,     decode_width,    4,     1,   16,    "decode/rename/dispatch width") \
    P(decode_stages,    core,     decode_stages,   2,     0,   16,    "pipeline stages from decode to dispatch (decode, rename)") \
    P(sfb,              core,     sfb,             0,     0,   1,     "short-forwards-branch recoding: short forward branches become predicated micro-ops") \
    P(wrong_path,       core,     wrong_path,      1,     0,   1,     "after a misprediction, fetch and execute the predicted path until the branch resolves") \
    P(regread_stages,   core,     regread_stages,  1,     0,   16,    "pipeline stages from issue to execute (register read)") \
    P(commit_width,     core,     commit_width,    4,     1,   8,     "instructions committed per cycle") \
    P(rob_entries,      rob,      entries,         128,   4,   1024,  "reorder buffer entries") \
    P(int_phys_regs,    regs,     int_phys,        128,   33,  1024,  "integer physical registers") \
    P(fp_phys_regs,     regs,     fp_phys,         128,   33,  1024,  "floating-point physical registers") \
    P(iq_int_entries,   iq,       int_entries,     40,    1,   256,   "integer issue queue entries") \
    P(iq_int_issue,     iq,       int_issue,       4,     1,   16,    "integer issue width") \
    P(iq_mem_entries,   iq,       mem_entries,     24,    1,   256,   "memory issue queue entries") \
    P(iq_mem_issue,     iq,       mem_issue,       2,     1,   16,    "memory issue width") \
    P(iq_fp_entries,    iq,       fp_entries,      32,    1,   256,   "floating-point issue queue entries") \
    P(iq_fp_issue,      iq,       fp_issue,        2,     1,   16,    "floating-point issue width") \
    P(ldq_entries,      lsq,      load_entries,    32,    1,   256,   "load queue entries") \
    P(stq_entries,      lsq,      store_entries,   32,    1,   256,   "store queue entries") \
    P(lat_alu,          fu,       alu,             1,     1,   64,    "integer ALU and branch latency") \
    P(lat_mul,          fu,       mul,             3,     1,   64,    "integer multiply latency (pipelined)") \
    P(lat_div,          fu,       div,             20,    1,   256,   "integer divide latency (not pipelined)") \
    P(div_units,        fu,       div_units,       1,     1,   8,     "integer dividers") \
    P(lat_fadd,         fu,       fadd,            4,     1,   64,    "FP add/sub latency") \
    P(lat_fmul,         fu,       fmul,            4,     1,   64,    "FP multiply latency") \
    P(lat_fma,          fu,       fma,             4,     1,   64,    "FP fused multiply-add latency") \
    P(lat_fdiv,         fu,       fdiv,            20,    1,   256,   "FP divide latency (not pipelined)") \
    P(lat_fsqrt,        fu,       fsqrt,           24,    1,   256,   "FP square root latency (not pipelined)") \
    P(fdiv_units,       fu,       fdiv_units,      1,     1,   8,     "FP divide/sqrt units") \
    P(lat_fcvt,         fu,       fcvt,            2,     1,   64,    "FP conversions and int<->fp moves") \
    P(lat_fmisc,        fu,       fmisc,           2,     1,   64,    "FP compare, min/max, sign injection, classify") \
    P(lat_csr,          fu,       csr,             1,     1,   64,    "CSR access latency") \
    P(bp_tage_tables,   bpred,    tage_tables,     6,     1,   16,    "TAGE tagged tables") \
    P(bp_tage_log_entries, bpred, tage_log_entries,10,    4,   20,    "log2 entries per TAGE tagged table (but the large ones)") \
    P(bp_tage_large_tables, bpred, tage_large_tables, 12, 0,   65535, "TAGE tables with twice the entries, a bit each from the shortest history's") \
    P(bp_tage_tag_bits, bpred,    tage_tag_bits,   7,     4,   16,    "TAGE tag bits of the shortest history's table") \
    P(bp_tage_tag_growth, bpred,  tage_tag_growth, 2,     0,   16,    "TAGE tables per extra tag bit, longer histories having more (0: all alike)") \
    P(bp_tage_min_hist, bpred,    tage_min_history,2,     1,   64,    "shortest TAGE history length") \
    P(bp_tage_max_hist, bpred,    tage_max_history,64,    2,   1024,  "longest TAGE history length") \
    P(bp_bimodal_log_entries, bpred, bimodal_log_entries, 14, 4, 24,  "log2 entries of the TAGE base predictor") \
    P(bp_bim_log_entries, bpred,  bim_log_entries, 14,    4,   24,    "log2 entries of the BIM, the BTB stage's 2-bit direction counters") \
    P(bp_btb_entries,   bpred,    btb_entries,     512,   1,   65536, "BTB entries") \
    P(bp_ubtb_entries,  bpred,    ubtb_entries,    16,    1,   256,   "micro-BTB entries (fully associative; a hit redirects fetch at once)") \
    P(bp_btb_ways,      bpred,    btb_ways,        4,     1,   64,    "BTB associativity") \
    P(bp_loop_sets,     bpred,    loop_sets,       16,    0,   1024,  "loop predictor entries a branch slot of a fetch bank (TAGE-L's L; 0: none)") \
    P(bp_ras_entries,   bpred,    ras_entries,     32,    1,   1024,  "return address stack entries") \
    P(bp_warm_delay,    bpred,    warm_train_delay, 0,    0,   63,    "functional warming trains a conditional branch after this many younger ones are predicted (the core trains at commit)") \
    P(line_bytes,       cache,    line_bytes,      64,    16,  256,   "cache line size, all levels") \
    P(l1i_kib,          l1i,      size_kib,        32,    1,   65536, "L1 instruction cache size, KiB") \
    P(l1i_ways,         l1i,      ways,            8,     1,   64,    "L1 instruction cache associativity") \
    P(l1i_latency,      l1i,      latency,         1,     1,   64,    "L1 instruction cache hit latency (beyond the fetch pipeline)") \
    P(l1i_mshrs,        l1i,      mshrs,           2,     1,   64,    "L1 instruction cache outstanding misses") \
    P(l1d_kib,          l1d,      size_kib,        32,    1,   65536, "L1 data cache size, KiB") \
    P(l1d_ways,         l1d,      ways,            8,     1,   64,    "L1 data cache associativity") \
    P(l1d_latency,      l1d,      latency,         4,     1,   64,    "L1 data cache load-to-use latency") \
    P(l1d_mshrs,        l1d,      mshrs,           8,     1,   64,    "L1 data cache MSHRs") \
    P(l2_kib,           l2,       size_kib,        512,   0,   1048576, "L2 size, KiB (0: no L2)") \
    P(l2_ways,          l2,       ways,            8,     1,   64,    "L2 associativity") \
    P(l2_latency,       l2,       latency,         14,    1,   256,   "L2 hit latency, added to the L1 miss") \
    P(l2_mshrs,         l2,       mshrs,           12,    1,   256,   "L2 MSHRs") \
    P(llc_kib,          llc,      size_kib,        4096,  0,   1048576, "LLC size, KiB (0: no LLC)") \
    P(llc_ways,         llc,      ways,            8,     1,   64,    "LLC associativity") \
    P(llc_latency,      llc,      latency,         30,    1,   512,   "LLC hit latency, added to the L2 miss") \
    P(llc_mshrs,        llc,      mshrs,           8,     1,   256,   "LLC MSHRs") \
    P(prefetch_next_line, prefetch, next_line,     1,     0,   1,     "next-line prefetch into L1D on an L1D miss") \
    P(itlb_entries,     itlb,     entries,         32,    1,   4096,  "L1 I-TLB entries (fully associative)") \
    P(dtlb_entries,     dtlb,     entries,         32,    1,   4096,  "L1 D-TLB entries (fully associative)") \
    P(l2tlb_entries,    l2tlb,    entries,         512,   0,   65536, "L2 TLB entries (direct-mapped; 0: none)") \
    P(l2tlb_latency,    l2tlb,    latency,         4,     1,   64,    "L2 TLB hit latency") \
    P(ptw_latency,      ptw,      latency,         60,    1,   4096,  "page-table walk latency after an L2 TLB miss") \
    P(dram_latency_ns,  dram,     latency_ns,      42,    1,   10000, "DRAM access latency, ns (14-14-14 @ 1 GHz)") \
    P(dram_mb_per_s,    dram,     bandwidth_mb_s,  25600, 100, 1000000, "DRAM bandwidth, MB/s") \
    P(dram_queue,       dram,     max_requests,    32,    1,   1024,  "outstanding DRAM requests") \
    P(ideal_bpred,      ideal,    branch_prediction, 0,   0,   1,     "limit study: every branch predicted, no BTB miss") \
    P(ideal_l1i,        ideal,    l1i,             0,     0,   1,     "limit study: every instruction fetch hits the L1I") \
    P(ideal_l1d,        ideal,    l1d,             0,     0,   1,     "limit study: every data access hits the L1D") \
    P(ideal_tlb,        ideal,    tlb,             0,     0,   1,     "limit study: every translation hits the L1 TLBs") \
    P(ideal_short_alu,  ideal,    short_alu,       0,     0,   1,     "limit study: single-cycle integer operations take no time") \
    P(ideal_long_alu,   ideal,    long_alu,        0,     0,   1,     "limit study: multiply, divide and FP operations take no time")

typedef struct uarch_config {
#define UARCH_FIELD(field, sec, key, def, lo, hi, help) int field;
    UARCH_PARAMS(UARCH_FIELD)
#undef UARCH_FIELD
} uarch_config;

/* The defaults above. */
void uarch_config_defaults(uarch_config *c);

/* Read an INI file over c. Unknown sections or keys, non-integers and
 * values out of range are errors: 0, or -1 with a one-line reason in err
 * naming file, line and key. */
int uarch_config_load(uarch_config *c, const char *path, char *err, size_t errlen);

/* Apply one override "section.key=value" (the --set option). 0 or -1. */
int uarch_config_set(uarch_config *c, const char *assignment, char *err, size_t errlen);

/* Cross-parameter checks (power-of-two sets, ways dividing sizes, widths not
 * above structure sizes...). 0 or -1 with the reason. */
int uarch_config_check(const uarch_config *c, char *err, size_t errlen);

/* A stable 64-bit digest of all values. */
uint64_t uarch_config_digest(const uarch_config *c);

/* A digest of the values that shape what warming builds (cache, TLB and
 * predictor geometry): warm state carries over between configurations
 * that agree on it, whatever their latencies, widths or sizes of queues. */
uint64_t uarch_state_digest(const uarch_config *c);

/* Parameters by index 0..uarch_param_count()-1, for tools that vary them. */
int uarch_param_count(void);
int uarch_param_index(const char *name);        /* "section.key"; -1 if unknown */
const char *uarch_param_name(int i);
int uarch_param_get(const uarch_config *c, int i);
void uarch_param_put(uarch_config *c, int i, int v);
void uarch_param_range(int i, int *lo, int *hi);
bool uarch_param_shapes_state(int i);

/* A fetch packet's bytes (fetch width counts 16-bit parcels), and those of
 * one bank of it: SonicBOOM's I-cache reads a packet of more than 8 bytes
 * as two banks, a smaller one as one (frontend.scala, nBanks). */
static inline unsigned uarch_fetch_packet_bytes(const uarch_config *c) { return 2u * (unsigned)c->fetch_width; }
/* Operation classes (decode.h's CLS_*) with a functional unit of their own
 * whose latency is fu.* (multiplier, divider, FP units), and the latency
 * a class's unit gives it: those, the CSR unit's, else an integer ALU's
 * (a memory access's latency is the caches'). */
bool uarch_long_class(unsigned cls);
unsigned uarch_unit_latency(const uarch_config *c, unsigned cls);
/* Does the core flush its pipeline after the instruction commits, as it
 * does for a CSR write it cannot rename? An access to the FP status
 * register (fflags, frm, fcsr), which SonicBOOM does not rename, and
 * fence.i. (A system call flushes too, as an exception.) */
struct rv_insn;
bool uarch_flushes_as_csr(const struct rv_insn *in);

static inline unsigned uarch_fetch_bank_bytes(const uarch_config *c)
{
    unsigned packet = uarch_fetch_packet_bytes(c);
    return packet > 8 ? packet / 2 : packet;
}

/* All parameters as a JSON object {"section.key": value, ...}. */
struct json_t;
struct json_t *uarch_config_json(const uarch_config *c);

/* Write the values as an INI file that loads back: a [section] header, then
 * "key = value   ; help" lines, sections in table order (--list-params). */
#include <stdio.h>
void uarch_config_print(const uarch_config *c, FILE *out);

#endif
