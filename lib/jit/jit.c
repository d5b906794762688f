/* Copy-and-patch translation of decoded blocks (see jit.h, stencils.c). */
#include "jit/jit.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "exec_common.h"
#include "jit/jit_stencil.h"
#include "jit_stencils.inc"

enum {
    CODE_BYTES = 64 << 20, /* reserved; pages are only touched as code is written */
    NHELPERS = sizeof jit_helpers / sizeof *jit_helpers,
};

struct rv_jit {
    uint8_t *base;  /* helper slots, then code */
    size_t used, size;
    bool full;
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
    free(j);
}

void jit_reset(rv_jit *j)
{
    j->used = (sizeof jit_helpers + 63) & ~(size_t)63;
    j->full = false;
}

bool jit_full(const rv_jit *j)
{
    return j->full;
}

static bool has_continue(const jit_stencil *s)
{
    for (unsigned i = 0; i < s->nrelocs; i++)
        if (s->relocs[i].hole == JIT_HOLE_CONTINUE)
            return true;
    return false;
}

/* The tail jump to the next stencil is the last instruction: it can go. */
static bool ends_in_continue(const jit_stencil *s)
{
    for (unsigned i = 0; i < s->nrelocs; i++)
        if (s->relocs[i].hole == JIT_HOLE_CONTINUE && s->relocs[i].offset + 4u == s->size)
            return true;
    return false;
}

static uint64_t hole_value(const jit_reloc *r, const rv_insn *in)
{
    switch ((enum jit_hole)r->hole) {
    case JIT_HOLE_RD: return (uint64_t)in->rd * 8;
    case JIT_HOLE_RS1: return (uint64_t)in->rs1 * 8;
    case JIT_HOLE_RS2: return (uint64_t)in->rs2 * 8;
    case JIT_HOLE_RS3: return (uint64_t)in->rs3 * 8;
    case JIT_HOLE_IMM: return (uint64_t)in->imm;
    case JIT_HOLE_PC: return in->pc;
    case JIT_HOLE_INSN: return (uint64_t)(uintptr_t)in;
    case JIT_HOLE_CONTINUE:
    case JIT_HOLE_HELPER: break;
    }
    abort(); /* the generator emits no other holes */
}

/* Copy stencil s for instruction in to `at`; `next` is where the next
 * stencil starts. */
static void emit(rv_jit *j, uint8_t *at, const jit_stencil *s, const rv_insn *in, uint8_t *next)
{
    memcpy(at, s->code, next - at < s->size ? (size_t)(next - at) : s->size);
    for (unsigned i = 0; i < s->nrelocs; i++) {
        const jit_reloc *r = &s->relocs[i];
        uint8_t *field = at + r->offset;
        if (r->hole == JIT_HOLE_CONTINUE) {
            if (field + 4 >= next)
                continue; /* dropped: the next stencil follows */
            /* jmp *slot(%rip) (ff 25 rel32) -> jmp rel32 (e9) + nop */
            int32_t rel = (int32_t)(next - (field - 2 + 5));
            field[-2] = 0xe9;
            memcpy(field - 1, &rel, 4);
            field[3] = 0x90;
            continue;
        }
        if (r->hole == JIT_HOLE_HELPER) {
            uint8_t *slot = j->base + r->helper * sizeof(void (*)(void));
            int32_t rel = (int32_t)(slot + r->addend - field);
            memcpy(field, &rel, 4);
            continue;
        }
        uint64_t v = hole_value(r, in) + (uint64_t)(int64_t)r->addend;
        if (r->patch == JIT_PATCH_ABS64) {
            memcpy(field, &v, 8);
        } else {
            uint32_t w = (uint32_t)v;
            memcpy(field, &w, 4);
        }
    }
}

/* The instructions a block runs: its n, plus the synthetic fallthrough when
 * the last one does not leave the block. */
static uint32_t block_length(const rv_block *b)
{
    return b->n + (b->n && (rv_ops[b->insns[b->n - 1].op].flags & RVF_CTRL) ? 0 : 1);
}

/* A value that does not fit its field makes the block untranslatable (the
 * register offsets and 32-bit fields are small by construction). */
static bool fits(const jit_stencil *s, const rv_insn *in)
{
    for (unsigned i = 0; i < s->nrelocs; i++) {
        const jit_reloc *r = &s->relocs[i];
        if (r->patch != JIT_PATCH_ABS32S && r->patch != JIT_PATCH_ABS32)
            continue;
        int64_t v = (int64_t)(hole_value(r, in) + (uint64_t)(int64_t)r->addend);
        if (r->patch == JIT_PATCH_ABS32S ? v != (int32_t)v : (uint64_t)v > UINT32_MAX)
            return false;
    }
    return true;
}

rv_jit_code jit_translate(rv_jit *j, const rv_block *b)
{
    uint32_t len = block_length(b);
    size_t total = 0;
    for (uint32_t i = 0; i < len; i++) {
        const jit_stencil *s = &jit_stencils[b->insns[i].op];
        bool last = i + 1 == len;
        if (!s->code || !fits(s, &b->insns[i]) || (last && has_continue(s)))
            return NULL;
        total += s->size - (!last && ends_in_continue(s) ? 6 : 0);
    }
    if (total > j->size - j->used) {
        j->full = true;
        return NULL;
    }
    uint8_t *start = j->base + j->used, *at = start;
    for (uint32_t i = 0; i < len; i++) {
        const jit_stencil *s = &jit_stencils[b->insns[i].op];
        bool last = i + 1 == len;
        uint8_t *next = at + s->size - (!last && ends_in_continue(s) ? 6 : 0);
        emit(j, at, s, &b->insns[i], next);
        at = next;
    }
    j->used = ((size_t)(at - j->base) + 15) & ~(size_t)15;
    rv_jit_code code;
    memcpy(&code, &start, sizeof code); /* object pointer to function pointer */
    return code;
}
