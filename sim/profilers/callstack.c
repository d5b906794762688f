#include "callstack.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../core/decode_cache.h"
#include "pair_map.h"
#include "uarch/bpred.h"
#include "util.h"

struct callstack {
    const rv_mem *mem;
    decode_cache *decoded;
    bool started, seen_first;
    bool fresh;                /* a chunk's: a base node for every return past the base */
    size_t bases;              /* base nodes made so far */
    call_frame *stack;
    size_t depth, cap;
    uint32_t cur;              /* the context the next instruction runs in */
    bool pending_call, pending_ret;
    uint64_t pending_ret_addr; /* the pending call's return address */
    uint64_t last_pc;          /* the latest committed instruction, and its context */
    uint32_t last_node;
    call_node *nodes;          /* the calling-context tree */
    size_t nnodes, node_cap;
    pair_map children;         /* (parent, pc) -> node */
    call_charge *charges;
    size_t ncharges, charge_cap;
    pair_map charge_at;        /* (node, pc) -> charge */
};

static uint32_t new_node(callstack *cs, uint32_t parent, uint64_t pc)
{
    cs->nodes = grow_array(cs->nodes, &cs->node_cap, cs->nnodes + 1, sizeof *cs->nodes);
    uint32_t n = (uint32_t)cs->nnodes++;
    cs->nodes[n] = (call_node){.pc = pc, .parent = parent, .depth = n ? (uint16_t)(cs->nodes[parent].depth + 1) : 0};
    return n;
}

callstack *callstack_new(const rv_mem *m)
{
    callstack *cs = calloc(1, sizeof *cs);
    if (!cs || !(cs->decoded = malloc(sizeof *cs->decoded))) die("out of memory");
    decode_cache_init(cs->decoded);
    cs->mem = m;
    new_node(cs, 0, 0); /* outside every context */
    return cs;
}

void callstack_begin(callstack *cs, bool fresh)
{
    cs->started = true;
    if (!fresh) return;
    /* The warm-up's calls are forgotten, not the call or return its last
     * instruction leaves pending: it takes effect on the first measured one. */
    cs->fresh = true;
    cs->seen_first = false;
    cs->depth = 0;
    cs->cur = cs->last_node = 0;
    cs->last_pc = 0;
    cs->nnodes = 1;
    pair_map_free(&cs->children);
}

/* A new base: a node of its own in a chunk (while they are few), else shared by pc. */
static uint32_t child(callstack *cs, uint32_t parent, uint64_t pc);
static uint32_t base(callstack *cs, uint64_t pc)
{
    if (cs->fresh && cs->bases < CALLS_FRESH_BASES) {
        cs->bases++;
        return new_node(cs, 0, pc);
    }
    return child(cs, 0, pc);
}

/* The context a call from parent to pc enters (the deepest shares its own). */
static uint32_t child(callstack *cs, uint32_t parent, uint64_t pc)
{
    if (cs->nodes[parent].depth >= CALLS_MAX_DEPTH) return parent;
    uint32_t n = pair_find(&cs->children, parent, pc);
    if (n == PAIR_NONE) {
        n = new_node(cs, parent, pc);
        pair_insert(&cs->children, parent, pc, n);
    }
    return n;
}

/* A return to pc: pop to the newest frame that returns there. */
static void return_to(callstack *cs, uint64_t pc)
{
    for (size_t i = cs->depth; i-- > 0;)
        if (cs->stack[i].ret == pc) {
            cs->cur = cs->stack[i].caller;
            cs->depth = i;
            return;
        }
    if (!cs->depth) cs->cur = base(cs, pc); /* past the base: a new base, its callers unknown */
}

/* The instruction at pc commits: the context it runs in, once the call or
 * return before it has taken effect. */
static uint32_t enter(callstack *cs, uint64_t pc)
{
    if (!cs->seen_first) {
        cs->seen_first = true;
        cs->cur = base(cs, pc);
    }
    if (cs->pending_ret) return_to(cs, pc);
    if (cs->pending_call) {
        cs->stack = grow_array(cs->stack, &cs->cap, cs->depth + 1, sizeof *cs->stack);
        cs->stack[cs->depth++] = (call_frame){.caller = cs->cur, .ret = cs->pending_ret_addr};
        cs->cur = child(cs, cs->cur, pc);
    }
    cs->pending_call = cs->pending_ret = false;
    return cs->cur;
}

/* What the instruction at pc does to the stack, from the next one on. */
static void leave(callstack *cs, uint64_t pc)
{
    const decoded *d = decode_cache_fetch(cs->decoded, cs->mem, pc);
    if (!d) return;
    enum bp_kind kind = bpred_kind(&d->insn);
    /* A return that writes a link register too (a coroutine switch) pops, then pushes. */
    cs->pending_ret = kind == BP_RET;
    cs->pending_call = kind == BP_CALL || (kind == BP_RET && bpred_is_link(d->insn.rd));
    cs->pending_ret_addr = pc + d->insn.len;
}

static void charge(callstack *cs, uint32_t node, uint64_t pc, const uint64_t units[ST_COUNT])
{
    uint32_t i = pair_find(&cs->charge_at, node, pc);
    if (i == PAIR_NONE) {
        cs->charges = grow_array(cs->charges, &cs->charge_cap, cs->ncharges + 1, sizeof *cs->charges);
        i = (uint32_t)cs->ncharges++;
        cs->charges[i] = (call_charge){.pc = pc, .node = node};
        pair_insert(&cs->charge_at, node, pc, i);
    }
    for (int s = 0; s < ST_COUNT; s++) cs->charges[i].units[s] += units[s];
}

void callstack_attribute(void *ctx, uint64_t pc, uint16_t psv, const uint64_t units[ST_COUNT], uint64_t commits)
{
    (void)psv;
    callstack *cs = ctx;
    uint32_t node;
    if (commits) {
        node = enter(cs, pc);
        leave(cs, pc);
        cs->last_pc = pc, cs->last_node = node;
    } else {
        /* A flush's cycles: the flusher committed last, in its own context
         * (a mispredicted return's is the callee's). */
        node = pc == cs->last_pc ? cs->last_node : cs->cur;
    }
    if (cs->started) charge(cs, node, pc, units);
}

void callstack_finish(callstack *cs, call_profile *out)
{
    *out = (call_profile){.nodes = cs->nodes, .nnodes = cs->nnodes, .charges = cs->charges, .ncharges = cs->ncharges,
                          .frames = cs->stack, .nframes = cs->depth, .cur = cs->cur};
    pair_map_free(&cs->children);
    pair_map_free(&cs->charge_at);
    free(cs->decoded);
    free(cs);
}

void call_profile_free(call_profile *p)
{
    if (!p) return;
    free(p->nodes);
    free(p->charges);
    free(p->frames);
    *p = (call_profile){0};
}
