#include "chunk_calls.h"

#include <stdlib.h>
#include <string.h>

#include "profilers/pair_map.h"
#include "util.h"

/* The stitched tree, its charges and the serial run's stack as it stands. */
typedef struct tree {
    call_profile *p;
    size_t node_cap, charge_cap, frame_cap;
    pair_map children, charge_at;
} tree;

/* The context a call from parent to pc enters, as callstack.c's child(). */
static uint32_t child(tree *t, uint32_t parent, uint64_t pc)
{
    call_profile *p = t->p;
    if (p->nodes[parent].depth >= CALLS_MAX_DEPTH) return parent;
    uint32_t n = pair_find(&t->children, parent, pc);
    if (n != PAIR_NONE) return n;
    p->nodes = grow_array(p->nodes, &t->node_cap, p->nnodes + 1, sizeof *p->nodes);
    n = (uint32_t)p->nnodes++;
    p->nodes[n] = (call_node){.pc = pc, .parent = parent, .depth = (uint16_t)(p->nodes[parent].depth + 1)};
    pair_insert(&t->children, parent, pc, n);
    return n;
}

/* A return past a chunk's base to pc, on the serial run's stack. */
static void return_to(tree *t, uint64_t pc)
{
    call_profile *p = t->p;
    for (size_t i = p->nframes; i-- > 0;)
        if (p->frames[i].ret == pc) {
            p->cur = p->frames[i].caller;
            p->nframes = i;
            return;
        }
    if (!p->nframes) p->cur = child(t, 0, pc);
}

static void charge(tree *t, uint32_t node, const call_charge *c)
{
    call_profile *p = t->p;
    uint32_t i = pair_find(&t->charge_at, node, c->pc);
    if (i == PAIR_NONE) {
        p->charges = grow_array(p->charges, &t->charge_cap, p->ncharges + 1, sizeof *p->charges);
        i = (uint32_t)p->ncharges++;
        p->charges[i] = (call_charge){.pc = c->pc, .node = node};
        pair_insert(&t->charge_at, node, c->pc, i);
    }
    for (int s = 0; s < ST_COUNT; s++) p->charges[i].units[s] += c->units[s];
}

/* Chunk k's profile onto the tree: its contexts mapped, its charges added,
 * its frames pushed. */
static void add_chunk(tree *t, const call_profile *c, size_t k)
{
    call_profile *p = t->p;
    uint32_t *map = malloc((c->nnodes ? c->nnodes : 1) * sizeof *map);
    if (!map) die("out of memory");
    map[0] = p->cur; /* before its first commit, the chunk is where the one before left off */
    bool first = k > 0;
    for (size_t i = 1; i < c->nnodes; i++) {
        const call_node *nd = &c->nodes[i];
        if (nd->parent) {
            map[i] = child(t, map[nd->parent], nd->pc);
        } else if (first) {
            map[i] = p->cur;
            first = false;
        } else {
            return_to(t, nd->pc);
            map[i] = p->cur;
        }
    }
    for (size_t i = 0; i < c->ncharges; i++) charge(t, map[c->charges[i].node], &c->charges[i]);
    p->frames = grow_array(p->frames, &t->frame_cap, p->nframes + c->nframes, sizeof *p->frames);
    for (size_t i = 0; i < c->nframes; i++)
        p->frames[p->nframes++] = (call_frame){.caller = map[c->frames[i].caller], .ret = c->frames[i].ret};
    p->cur = map[c->cur];
    free(map);
}

call_profile *call_profiles_stitch(const call_profile *const *chunks, size_t n)
{
    tree t = {0};
    if (!(t.p = calloc(1, sizeof *t.p))) die("out of memory");
    t.p->nodes = grow_array(NULL, &t.node_cap, 1, sizeof *t.p->nodes);
    t.p->nodes[0] = (call_node){0};
    t.p->nnodes = 1;
    for (size_t k = 0; k < n; k++) add_chunk(&t, chunks[k], k);
    pair_map_free(&t.children);
    pair_map_free(&t.charge_at);
    return t.p;
}
