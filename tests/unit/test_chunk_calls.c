/* Inclusive time across chunks (sim/chunk_calls.h): two chunks' calling
 * contexts, each begun fresh, re-rooted into the serial run's tree. main
 * (0x100) calls f (0x200, returning to 0x104); chunk 1 starts inside f,
 * returns past its base to main, and main calls g (0x300, returning to
 * 0x108). Stitched: f and g under main, every charge on its serial context,
 * the stack at the end main's call of g. */
#include <criterion/criterion.h>

#include "../../sim/chunk_calls.h"

static const uint64_t one[ST_COUNT] = {1};

static call_charge at(uint64_t pc, uint32_t node, uint64_t times)
{
    call_charge c = {.pc = pc, .node = node};
    for (int s = 0; s < ST_COUNT; s++) c.units[s] = one[s] * times;
    return c;
}

/* The stitched charge of (pc, node), 0 if none. */
static uint64_t charged(const call_profile *p, uint64_t pc, uint32_t node)
{
    for (size_t i = 0; i < p->ncharges; i++)
        if (p->charges[i].pc == pc && p->charges[i].node == node) return p->charges[i].units[0];
    return 0;
}

/* The node under parent entered at pc (UINT32_MAX if none). */
static uint32_t node_of(const call_profile *p, uint32_t parent, uint64_t pc)
{
    for (size_t i = 1; i < p->nnodes; i++)
        if (p->nodes[i].parent == parent && p->nodes[i].pc == pc) return (uint32_t)i;
    return UINT32_MAX;
}

Test(chunk_calls, a_chunk_is_rerooted_on_the_stack_the_one_before_left)
{
    call_node n0[] = {{0}, {.pc = 0x100, .parent = 0, .depth = 1}, {.pc = 0x200, .parent = 1, .depth = 2}};
    call_charge c0[] = {at(0x100, 1, 5), at(0x200, 2, 3)};
    call_frame f0[] = {{.caller = 1, .ret = 0x104}};
    call_profile p0 = {n0, 3, c0, 2, f0, 1, 2};
    /* chunk 1: its first base is f where chunk 0 left it, the second a return past it to main */
    call_node n1[] = {{0}, {.pc = 0x204, .parent = 0, .depth = 1}, {.pc = 0x104, .parent = 0, .depth = 1},
                      {.pc = 0x300, .parent = 2, .depth = 2}};
    call_charge c1[] = {at(0x204, 1, 2), at(0x104, 2, 1), at(0x300, 3, 4)};
    call_frame f1[] = {{.caller = 2, .ret = 0x108}};
    call_profile p1 = {n1, 4, c1, 3, f1, 1, 3};
    const call_profile *chunks[] = {&p0, &p1};
    call_profile *s = call_profiles_stitch(chunks, 2);

    uint32_t m = node_of(s, 0, 0x100), f = node_of(s, m, 0x200), g = node_of(s, m, 0x300);
    cr_assert_eq(s->nnodes, 4, "root, main, f and g: %zu nodes", s->nnodes);
    cr_assert(m != UINT32_MAX && f != UINT32_MAX && g != UINT32_MAX);
    cr_assert_eq(charged(s, 0x100, m), 5);
    cr_assert_eq(charged(s, 0x200, f), 3);
    cr_assert_eq(charged(s, 0x204, f), 2, "chunk 1's first instructions run in chunk 0's f");
    cr_assert_eq(charged(s, 0x104, m), 1, "the return past chunk 1's base is to chunk 0's main");
    cr_assert_eq(charged(s, 0x300, g), 4);
    cr_assert_eq(s->nframes, 1);
    cr_assert_eq(s->frames[0].caller, m);
    cr_assert_eq(s->frames[0].ret, 0x108);
    cr_assert_eq(s->cur, g);
    call_profile_free(s);
    free(s);
}

Test(chunk_calls, one_chunk_is_its_own_tree)
{
    call_node n0[] = {{0}, {.pc = 0x100, .parent = 0, .depth = 1}, {.pc = 0x200, .parent = 1, .depth = 2}};
    call_charge c0[] = {at(0x100, 1, 5), at(0x200, 2, 3)};
    call_profile p0 = {n0, 3, c0, 2, NULL, 0, 1};
    const call_profile *chunks[] = {&p0};
    call_profile *s = call_profiles_stitch(chunks, 1);
    cr_assert_eq(s->nnodes, 3);
    uint32_t m = node_of(s, 0, 0x100);
    cr_assert_eq(charged(s, 0x200, node_of(s, m, 0x200)), 3);
    cr_assert_eq(s->cur, m);
    call_profile_free(s);
    free(s);
}
