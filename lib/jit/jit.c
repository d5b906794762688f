/* Copy-and-patch translation of decoded blocks (see jit.h, stencils.c). */
#include "jit/jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "code.h"
#include "exec/exec_common.h"
#include "jit/host_fault.h"
#include "jit/jit_stencil.h"
#include "jit_stencils.inc"

/* The stencils of one variant (gen_stencils). */
typedef struct jit_variant {
    const jit_stencil (*ops)[JIT_ACC_VERSIONS]; /* by operation, then enum jit_acc */
    const jit_stencil *exit, *exit_slow, *exit_system, *exit_to, *exit_to_slow, *enter;
} jit_variant;

#define VARIANT(traced, counted)                                                                      \
    {jit_stencils_##traced, &jit_##traced##_block_exit_##counted, &jit_##traced##_block_exit_slow,             \
     &jit_##traced##_block_exit_system_##counted,                                                            \
     &jit_##traced##_block_exit_to_##counted, &jit_##traced##_block_exit_to_slow, &jit_##traced##_block_enter}
/* [traced][counting] */
static const jit_variant variants[2][2] = {
    {VARIANT(plain, uncounted), VARIANT(plain, counted)},
    {VARIANT(traced, uncounted), VARIANT(traced, counted)},
};
#undef VARIANT
/* [traced]: the variants whose loads and stores leave the page check to the
 * host; only the plain loads and stores (access_bytes) are taken from them. */
static const jit_stencil (*const host_checked_ops[2])[JIT_ACC_VERSIONS] = {jit_stencils_plain_hc,
                                                                          jit_stencils_traced_hc};

/* The size of a plain load's or store's access (its LOAD or STORE in
 * isa/semantics.def), else 0. */
static unsigned access_bytes(unsigned op)
{
    switch (op) {
    case RV_OP_lb: case RV_OP_lbu: case RV_OP_sb: return 1;
    case RV_OP_lh: case RV_OP_lhu: case RV_OP_sh: return 2;
    case RV_OP_lw: case RV_OP_lwu: case RV_OP_flw: case RV_OP_sw: case RV_OP_fsw: return 4;
    case RV_OP_ld: case RV_OP_fld: case RV_OP_sd: case RV_OP_fsd: return 8;
    default: return 0;
    }
}

static bool is_store(unsigned op)
{
    return op == RV_OP_sb || op == RV_OP_sh || op == RV_OP_sw || op == RV_OP_sd || op == RV_OP_fsw || op == RV_OP_fsd;
}

/* Where a load or store whose page check the host does was copied
 * (jit_host_access_at). */
typedef struct host_access {
    uint32_t at, size; /* offset in the code buffer, bytes */
    const rv_insn *in;
} host_access;

/* Where the jumps of a stencil being copied go, and the successor of a
 * block_exit_to. */
typedef struct jit_aim {
    const uint8_t *exit;  /* the block's exit; a branch's when not taken */
    const uint8_t *taken; /* a branch's exit when taken */
    uint64_t target;      /* block_exit_to(_slow): the successor's pc */
} jit_aim;

enum {
    CODE_BYTES = 64 << 20, /* reserved; pages are only touched as code is written */
    NHELPERS = sizeof jit_helpers / sizeof *jit_helpers,
};

struct rv_jit {
    uint8_t *base;  /* helper slots, a return instruction, then code */
    size_t used, size;
    size_t ret_stub; /* offset of the return: where unchained exits go */
    size_t enter;    /* offset of block_enter (the same in both variants), how code is run */
    bool full;
    const jit_variant *v; /* of every translation since the last reset */
    rv_jit_kind kind;     /* the same */
    host_access *accesses; /* in the order of their code */
    size_t naccesses, cap_accesses;
    FILE *perf_map; /* RVSAMPLE_PERF_MAP set: /tmp/perf-PID.map, for perf report */
};

rv_jit *jit_new(void)
{
    void *m = mmap(NULL, CODE_BYTES, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    rv_jit *j = calloc(1, sizeof *j);
    if (!j) {
        munmap(m, CODE_BYTES);
        return NULL;
    }
    j->base = m;
    j->size = CODE_BYTES;
    host_fault_install();
    if (getenv("RVSAMPLE_PERF_MAP")) {
        char path[64];
        snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
        j->perf_map = fopen(path, "a");
    }
    /* The stencils call host functions through `call *slot(%rip)`: the slots
     * sit in front of the code, always within reach. */
    memcpy(j->base, jit_helpers, sizeof jit_helpers);
    jit_reset(j);
    return j;
}

void jit_free(rv_jit *j)
{
    if (!j)
        return;
    munmap(j->base, j->size);
    free(j->accesses);
    if (j->perf_map)
        fclose(j->perf_map);
    free(j);
}

void jit_reset(rv_jit *j)
{
    j->ret_stub = sizeof jit_helpers;
    j->base[j->ret_stub] = 0xc3; /* ret */
    j->enter = (j->ret_stub + 1 + 15) & ~(size_t)15;
    memcpy(j->base + j->enter, variants[0][0].enter->code, variants[0][0].enter->size);
    j->used = (j->enter + variants[0][0].enter->size + 63) & ~(size_t)63;
    j->full = false;
    j->v = NULL;
    j->naccesses = 0;
}

bool jit_full(const rv_jit *j)
{
    return j->full;
}

static bool has_hole(const jit_stencil *s, enum jit_hole hole)
{
    for (unsigned i = 0; i < s->nrelocs; i++)
        if (s->relocs[i].hole == hole)
            return true;
    return false;
}

static const jit_reloc *find_hole(const jit_stencil *s, enum jit_hole hole)
{
    for (unsigned i = 0; i < s->nrelocs; i++)
        if (s->relocs[i].hole == hole)
            return &s->relocs[i];
    abort(); /* the exit stencil has every hole jit_chain patches */
}

/* The hole of s's final jump, or -1 when it does not end in one. */
static int final_jump(const jit_stencil *s)
{
    for (unsigned i = 0; i < s->nrelocs; i++)
        if (s->relocs[i].offset + 4u == s->size && s->relocs[i].hole != JIT_HOLE_HELPER)
            return s->relocs[i].hole;
    return -1;
}

/* Bytes of s that are copied: all but a final jump through hole `follows`,
 * the one aimed at what comes next (the next stencil, or after the last
 * instruction the exit placed first). */
static unsigned copied_size(const jit_stencil *s, enum jit_hole follows)
{
    return final_jump(s) == (int)follows ? s->size - 6u : s->size;
}

static uint64_t hole_value(const jit_reloc *r, const rv_insn *in, const rv_block *b, const jit_aim *aim)
{
    switch ((enum jit_hole)r->hole) {
    case JIT_HOLE_RD: return (uint64_t)in->rd * 8;
    case JIT_HOLE_RS1: return (uint64_t)in->rs1 * 8;
    case JIT_HOLE_RS2: return (uint64_t)in->rs2 * 8;
    case JIT_HOLE_RS3: return (uint64_t)in->rs3 * 8;
    case JIT_HOLE_IMM: return (uint64_t)in->imm;
    case JIT_HOLE_SIMM: return (uint64_t)(in->imm + JIT_SIMM_BIAS);
    case JIT_HOLE_PC: return in->pc;
    case JIT_HOLE_INSN: return (uint64_t)(uintptr_t)in;
    case JIT_HOLE_LEN: return in->len;
    case JIT_HOLE_N: return b->n;
    case JIT_HOLE_BLOCK: return (uint64_t)(uintptr_t)b;
    case JIT_HOLE_TARGET0:
    case JIT_HOLE_TARGET1: return aim->target; /* a block_exit's are odd (no pc) until jit_chain fills them */
    default: abort(); /* jumps and helpers are not values */
    }
}

/* jmp *slot(%rip) (ff 25 rel32, the field at `field`) -> jmp rel32 (e9) + nop */
static void aim_jump(uint8_t *field, const uint8_t *target)
{
    int32_t rel = (int32_t)(target - (field - 2 + 5));
    field[-2] = 0xe9;
    memcpy(field - 1, &rel, 4);
    field[3] = 0x90;
}

/* Copy stencil s for instruction in of block b to `at`, `size` bytes of it,
 * its jumps aimed as `aim` says. */
static void emit(rv_jit *j, uint8_t *at, unsigned size, const jit_stencil *s, const rv_insn *in, const rv_block *b,
                 const jit_aim *aim)
{
    memcpy(at, s->code, size);
    for (unsigned i = 0; i < s->nrelocs; i++) {
        const jit_reloc *r = &s->relocs[i];
        uint8_t *field = at + r->offset;
        if (r->offset + 4u > size)
            continue; /* the dropped final jump */
        switch ((enum jit_hole)r->hole) {
        case JIT_HOLE_CONTINUE:
        case JIT_HOLE_SLOW: /* block_exit_to_slow follows block_exit_to */
        case JIT_HOLE_GOTO: aim_jump(field, at + size); continue; /* unchained: the slow path */
        case JIT_HOLE_EXIT:
        case JIT_HOLE_NOT_TAKEN: aim_jump(field, aim->exit); continue;
        case JIT_HOLE_TAKEN: aim_jump(field, aim->taken); continue;
        case JIT_HOLE_CHAIN0:
        case JIT_HOLE_CHAIN1: aim_jump(field, j->base + j->ret_stub); continue;
        case JIT_HOLE_HELPER: {
            uint8_t *slot = j->base + r->helper * sizeof(void (*)(void));
            int32_t rel = (int32_t)(slot + r->addend - field);
            memcpy(field, &rel, 4);
            continue;
        }
        default: break;
        }
        uint64_t v = hole_value(r, in, b, aim) + (uint64_t)(int64_t)r->addend;
        if (r->patch == JIT_PATCH_ABS64) {
            memcpy(field, &v, 8);
        } else {
            uint32_t w = (uint32_t)v;
            memcpy(field, &w, 4);
        }
    }
}

/* A conditional branch's stencil, copied without its final jump (to the
 * exit placed next), ends in
 *     jcc end (rel8); jmp other exit (rel32); padding; end:
 * which costs the other exit two taken jumps. Turned into
 *     j!cc other exit (rel32); nops; end:
 * it costs one. */
static void fill_nops(uint8_t *at, const uint8_t *end)
{
    /* the recommended multi-byte nops, by length */
    static const uint8_t nops[8][8] = {
        {0x90}, {0x66, 0x90}, {0x0f, 0x1f, 0x00}, {0x0f, 0x1f, 0x40, 0x00}, {0x0f, 0x1f, 0x44, 0x00, 0x00},
        {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00}, {0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00},
        {0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
    };
    while (at < end) {
        size_t n = (size_t)(end - at) < 8 ? (size_t)(end - at) : 8;
        memcpy(at, nops[n - 1], n);
        at += n;
    }
}

static void fuse_branch(uint8_t *code, unsigned size, const jit_stencil *s)
{
    int jmp = -1;
    for (unsigned i = 0; i < s->nrelocs; i++)
        if ((s->relocs[i].hole == JIT_HOLE_TAKEN || s->relocs[i].hole == JIT_HOLE_NOT_TAKEN) &&
            s->relocs[i].offset + 4u <= size)
            jmp = s->relocs[i].offset - 2; /* aim_jump made it e9 rel32, 90 */
    if (jmp < 2 || (code[jmp - 2] & 0xf0) != 0x70 || code[jmp] != 0xe9 || jmp + (int8_t)code[jmp - 1] != (int)size)
        return;
    int32_t rel;
    memcpy(&rel, code + jmp + 1, 4);
    const uint8_t *target = code + jmp + 5 + rel;
    uint8_t *jcc = code + jmp - 2;
    uint8_t cc = jcc[0] & 0x0f;
    rel = (int32_t)(target - (jcc + 6));
    jcc[0] = 0x0f;
    jcc[1] = (uint8_t)(0x80 | (cc ^ 1));
    memcpy(jcc + 2, &rel, 4);
    fill_nops(jcc + 6, code + size);
}

/* The instructions a block runs: its n, plus the synthetic fallthrough when
 * the last one does not leave the block. */
static uint32_t block_length(const rv_block *b)
{
    return b->n + (b->n && (rv_ops[b->insns[b->n - 1].op].flags & RVF_CTRL) ? 0 : 1);
}

/* A value that does not fit its field makes the block untranslatable (the
 * register offsets and 32-bit fields are small by construction). */
static bool fits(const jit_stencil *s, const rv_insn *in, const rv_block *b)
{
    for (unsigned i = 0; i < s->nrelocs; i++) {
        const jit_reloc *r = &s->relocs[i];
        if (r->patch != JIT_PATCH_ABS32S && r->patch != JIT_PATCH_ABS32)
            continue;
        int64_t v = (int64_t)(hole_value(r, in, b, &(jit_aim){.target = 1}) + (uint64_t)(int64_t)r->addend);
        if (r->patch == JIT_PATCH_ABS32S ? v != (int32_t)v : (uint64_t)v > UINT32_MAX)
            return false;
    }
    return true;
}

void jit_run(rv_jit *j, rv_proc *p, rv_jit_code code)
{
    void (*enter)(rv_proc *, uint64_t *, rv_jit_code);
    uint8_t *at = j->base + j->enter;
    memcpy(&enter, &at, sizeof enter); /* object pointer to function pointer */
    host_fault_running(p, j, j->base, j->size);
    enter(p, p->cpu.x, code);
}

/* The exits of b, last the last instruction's stencil: 0 for one exit to a
 * computed pc (or through a system instruction), else the successors known
 * when translating, in the order of their exits: a conditional branch's two
 * (its final jump goes to the first, placed right after it), a direct
 * jump's or the next block's one. *follows is the hole of the jump aimed at
 * the first exit. */
static unsigned static_targets(const rv_block *b, uint32_t len, const jit_stencil *last_stencil, uint64_t t[2],
                               enum jit_hole *follows)
{
    const rv_insn *last = &b->insns[len - 1];
    *follows = JIT_HOLE_EXIT;
    if (b->ends_in_system)
        return 0;
    switch (last->op) {
    case RV_OP_fallthrough: t[0] = last->pc; return 1;
    case RV_OP_jal: t[0] = last->pc + (uint64_t)last->imm; return 1;
    case RV_OP_beq: case RV_OP_bne: case RV_OP_blt: case RV_OP_bge: case RV_OP_bltu: case RV_OP_bgeu: {
        uint64_t taken = last->pc + (uint64_t)last->imm, not_taken = last->pc + last->len;
        bool taken_first = final_jump(last_stencil) == JIT_HOLE_TAKEN;
        *follows = taken_first ? JIT_HOLE_TAKEN : JIT_HOLE_NOT_TAKEN;
        t[0] = taken_first ? taken : not_taken;
        t[1] = taken_first ? not_taken : taken;
        return 2;
    }
    default: return 0;
    }
}

static size_t static_exit_size(const jit_variant *v)
{
    return (size_t)v->exit_to->size + v->exit_to_slow->size;
}

static void perf_map_entry(rv_jit *j, const uint8_t *at, unsigned size, const char *what, uint64_t pc)
{
    if (j->perf_map && size)
        fprintf(j->perf_map, "%lx %x %s@%llx\n", (unsigned long)(uintptr_t)at, size, what, (unsigned long long)pc);
}

/* The stencil of instruction in, in translations of kind k, in version acc
 * (only the illegal instruction has none: left to the interpreter). */
static const jit_stencil *op_stencil(const jit_variant *v, rv_jit_kind k, const rv_insn *in, enum jit_acc acc)
{
    const jit_stencil *versions = k.host_checks && access_bytes(in->op) ? host_checked_ops[k.traced][in->op]
                                                                          : v->ops[in->op];
    return &versions[acc];
}

/* The version of its stencil instruction in takes (stencils.c), given
 * *acc_reg, the integer register whose value the stencils before it pass on
 * (-1 when unknown: at the start of a block, after a write to x0); then
 * *acc_reg past in. */
static enum jit_acc acc_version(const rv_insn *in, int *acc_reg)
{
    rv_operands o = rv_insn_operands(in);
    enum jit_acc v = *acc_reg < 0                ? JIT_ACC_NONE
                     : o.src[0] == *acc_reg ? JIT_ACC_RS1
                     : o.src[1] == *acc_reg ? JIT_ACC_RS2
                                            : JIT_ACC_NONE;
    if (o.dst < RV_REG_F0)
        *acc_reg = o.dst;
    else if (in->rd == RV_X_SINK)
        *acc_reg = -1; /* the value written to x0's sink */
    return v;
}

static void note_host_access(rv_jit *j, const uint8_t *at, unsigned size, const rv_insn *in)
{
    if (j->naccesses == j->cap_accesses) {
        j->cap_accesses = j->cap_accesses ? 2 * j->cap_accesses : 4096;
        j->accesses = realloc(j->accesses, j->cap_accesses * sizeof *j->accesses);
        if (!j->accesses)
            abort();
    }
    j->accesses[j->naccesses++] = (host_access){(uint32_t)(at - j->base), size, in};
}

const rv_insn *jit_host_access_at(const rv_jit *j, uintptr_t pc, unsigned *bytes, bool *store)
{
    if (pc < (uintptr_t)j->base || pc >= (uintptr_t)j->base + j->used)
        return NULL;
    uint32_t off = (uint32_t)(pc - (uintptr_t)j->base);
    size_t lo = 0, hi = j->naccesses; /* the first access that starts after off */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (j->accesses[mid].at <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || off >= j->accesses[lo - 1].at + j->accesses[lo - 1].size)
        return NULL;
    const rv_insn *in = j->accesses[lo - 1].in;
    *bytes = access_bytes(in->op);
    *store = is_store(in->op);
    return in;
}

rv_jit_code jit_translate(rv_jit *j, rv_block *b, rv_jit_kind kind)
{
    const jit_variant *v = &variants[kind.traced][kind.counting];
    if (j->v && memcmp(&j->kind, &kind, sizeof kind) != 0)
        abort(); /* the caller resets between kinds */
    j->v = v;
    j->kind = kind;
    uint32_t len = block_length(b);
    uint64_t targets[2];
    enum jit_hole follows;
    /* The last instruction's version does not change its jumps. */
    unsigned nstatic = static_targets(b, len, op_stencil(v, kind, &b->insns[len - 1], JIT_ACC_NONE), targets, &follows);
    /* one exit to a computed pc (and its slow path), one through a system
     * instruction, or one per known successor (each with its slow path) */
    const jit_stencil *exit_stencil = b->ends_in_system ? v->exit_system : v->exit;
    size_t exits_size = nstatic          ? nstatic * static_exit_size(v)
                        : b->ends_in_system ? exit_stencil->size
                                            : (size_t)exit_stencil->size + v->exit_slow->size;
    size_t total = exits_size;
    int acc_reg = -1;
    for (uint32_t i = 0; i < len; i++) {
        const jit_stencil *s = op_stencil(v, kind, &b->insns[i], acc_version(&b->insns[i], &acc_reg));
        bool last = i + 1 == len;
        if (!s->code || !fits(s, &b->insns[i], b) || (last && has_hole(s, JIT_HOLE_CONTINUE)))
            return NULL;
        total += copied_size(s, last ? follows : JIT_HOLE_CONTINUE);
    }
    if (total > j->size - j->used) {
        j->full = true;
        return NULL;
    }
    uint8_t *start = j->base + j->used, *exit = start + total - exits_size, *at = start;
    jit_aim aim = {.exit = exit, .taken = exit + static_exit_size(v), .target = 1};
    if (follows == JIT_HOLE_TAKEN) {
        aim.taken = exit;
        aim.exit = exit + static_exit_size(v);
    }
    acc_reg = -1;
    for (uint32_t i = 0; i < len; i++) {
        const jit_stencil *s = op_stencil(v, kind, &b->insns[i], acc_version(&b->insns[i], &acc_reg));
        unsigned size = copied_size(s, i + 1 == len ? follows : JIT_HOLE_CONTINUE);
        emit(j, at, size, s, &b->insns[i], b, &aim);
        if (i + 1 == len && nstatic == 2)
            fuse_branch(at, size, s);
        if (kind.host_checks && access_bytes(b->insns[i].op))
            note_host_access(j, at, size, &b->insns[i]);
        perf_map_entry(j, at, size, rv_ops[b->insns[i].op].name, b->insns[i].pc);
        at += size;
    }
    if (nstatic) {
        for (unsigned k = 0; k < nstatic; k++) {
            jit_aim to = {.target = targets[k]};
            emit(j, at, v->exit_to->size, v->exit_to, &b->insns[0], b, &to);
            emit(j, at + v->exit_to->size, v->exit_to_slow->size, v->exit_to_slow, &b->insns[0], b, &to);
            perf_map_entry(j, at, (unsigned)static_exit_size(v), "exit", b->pc);
            at += static_exit_size(v);
        }
    } else {
        emit(j, exit, exit_stencil->size, exit_stencil, &b->insns[0], b, &aim);
        if (!b->ends_in_system)
            emit(j, exit + exit_stencil->size, v->exit_slow->size, v->exit_slow, &b->insns[0], b, &aim);
        perf_map_entry(j, exit, (unsigned)exits_size, "exit", b->pc);
    }
    b->jit_exit = b->ends_in_system ? NULL : exit;
    b->jit_static_exits = (uint8_t)nstatic;
    b->jit_chains = 0;
    j->used = ((size_t)(exit + exits_size - j->base) + 15) & ~(size_t)15;
    rv_jit_code code;
    memcpy(&code, &start, sizeof code); /* object pointer to function pointer */
    return code;
}

/* The value a stencil at `code` holds in hole h (patched with its addend). */
static uint64_t patched_value(const jit_stencil *s, const uint8_t *code, enum jit_hole h)
{
    const jit_reloc *r = find_hole(s, h);
    uint64_t v;
    memcpy(&v, code + r->offset, 8);
    return v - (uint64_t)(int64_t)r->addend;
}

/* Where the (direct) jump of a stencil at `code` in hole h goes. */
static const uint8_t *jump_target(const jit_stencil *s, const uint8_t *code, enum jit_hole h)
{
    const uint8_t *field = code + find_hole(s, h)->offset;
    int32_t rel;
    memcpy(&rel, field - 1, 4);
    return field - 2 + 5 + rel;
}

/* b's static exit to pc, or NULL. */
static uint8_t *static_exit(const rv_jit *j, const rv_block *b, uint64_t pc)
{
    for (unsigned k = 0; k < b->jit_static_exits; k++) {
        uint8_t *e = b->jit_exit + k * static_exit_size(j->v);
        if (patched_value(j->v->exit_to_slow, e + j->v->exit_to->size, JIT_HOLE_TARGET0) == pc)
            return e;
    }
    return NULL;
}

static bool static_exit_chained(const rv_jit *j, const uint8_t *e)
{
    return jump_target(j->v->exit_to, e, JIT_HOLE_GOTO) != e + j->v->exit_to->size;
}

bool jit_chained(const rv_jit *j, const rv_block *b, uint64_t pc)
{
    if (!b->jit_exit)
        return false;
    if (b->jit_static_exits) {
        const uint8_t *e = static_exit(j, b, pc);
        return !e || static_exit_chained(j, e); /* no exit to pc: nothing to chain */
    }
    return patched_value(j->v->exit, b->jit_exit, JIT_HOLE_TARGET0) == pc ||
           patched_value(j->v->exit, b->jit_exit, JIT_HOLE_TARGET1) == pc;
}

void jit_chain(rv_jit *j, rv_block *from, uint64_t pc, rv_block *to)
{
    uint8_t *code;
    memcpy(&code, &to->jit, sizeof code);
    if (from->jit_static_exits) {
        uint8_t *e = static_exit(j, from, pc);
        if (e && !static_exit_chained(j, e))
            aim_jump(e + find_hole(j->v->exit_to, JIT_HOLE_GOTO)->offset, code);
        return;
    }
    static const enum jit_hole holes[2][2] = {{JIT_HOLE_TARGET0, JIT_HOLE_CHAIN0}, {JIT_HOLE_TARGET1, JIT_HOLE_CHAIN1}};
    /* The first free slot. Patching code costs the host a pipeline flush,
     * so a block that leaves for many places (a return, an interpreter's
     * dispatch) keeps its first two. */
    if (from->jit_chains == 2 ||
        (from->jit_chains == 1 && patched_value(j->v->exit, from->jit_exit, JIT_HOLE_TARGET0) == pc))
        return;
    const enum jit_hole *h = holes[from->jit_chains++];
    uint8_t *exit = from->jit_exit;
    uint64_t target = pc + (uint64_t)(int64_t)find_hole(j->v->exit, h[0])->addend;
    memcpy(exit + find_hole(j->v->exit, h[0])->offset, &target, 8);
    aim_jump(exit + find_hole(j->v->exit, h[1])->offset, code);
}
