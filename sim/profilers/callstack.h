/* Inclusive time per function (perf report --children), which the golden
 * attribution alone cannot give: it has no call stacks. A consumer of the
 * core's attribution probe, which tells every committed instruction in
 * commit order with the golden time charged to it (its share of its commit
 * cycle and the Stalled and Drained cycles it collected), then the Flushed
 * cycles of a flush. From the committed instructions it keeps a shadow call
 * stack: a call (jal/jalr writing ra or t0) pushes a frame, a return (as
 * lib/uarch/bpred.h's bpred_kind classifies it) pops to the frame it
 * returns to. Each charge goes to the calling context the instruction ran
 * in (a node of the calling-context tree: the path of calls down to it)
 * and to the instruction's own pc; the report rolls that up to functions,
 * each function on the path counted once (sim/report/report_inclusive.c).
 *
 * The stack starts empty: a region's run does not know the calls before
 * its first instruction, so its base context is the function running then,
 * and a return past it starts a new base at the function returned to (its
 * callers unknown). A return to no frame with frames on the stack (a signal
 * handler's return into the trampoline) leaves the stack as it is. Contexts
 * deeper than CALLS_MAX_DEPTH calls share the deepest one.
 *
 * A chunk of a chunked full run (callstack_begin's `fresh`) starts its
 * stack and tree empty at its first measured instruction, and gives every
 * return past its base a base node of its own, in order (up to
 * CALLS_FRESH_BASES; then they are shared as above): with the stack the
 * chunk before ended with, sim/chunk_calls.c maps each base to the context
 * the serial run was in there, and so every context to the serial run's. */
#ifndef SIM_CALLSTACK_H
#define SIM_CALLSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/probe.h"
#include "mem.h"

enum { CALLS_MAX_DEPTH = 256, CALLS_FRESH_BASES = 4096 };

/* Node 0 is outside every context (no function); every other node is a
 * call: its parent's node and a pc of the function it entered (the first
 * instruction committed after the call, or the base's first). */
typedef struct call_node {
    uint64_t pc;
    uint32_t parent;
    uint16_t depth;            /* calls from node 0 */
} call_node;

/* Golden time of the instructions at pc that ran in context node. */
typedef struct call_charge {
    uint64_t pc;
    uint32_t node;
    uint64_t units[ST_COUNT];
} call_charge;

/* A call not yet returned from: the context it was made in, and where it
 * returns to. */
typedef struct call_frame {
    uint32_t caller;
    uint64_t ret;
} call_frame;

typedef struct call_profile {
    call_node *nodes;
    size_t nnodes;
    call_charge *charges;
    size_t ncharges;
    call_frame *frames;        /* the stack at the end, oldest first */
    size_t nframes;
    uint32_t cur;              /* the context the next instruction would run in */
} call_profile;

typedef struct callstack callstack;

/* Decodes committed instructions from the guest memory m. */
callstack *callstack_new(const rv_mem *m);
/* Charges count from here on (the stack is kept from the start; with
 * fresh, as a chunk's, it starts here, empty, with bases of their own). */
void callstack_begin(callstack *cs, bool fresh);
attribution_fn callstack_attribute;
/* The profile, moved out; cs freed. */
void callstack_finish(callstack *cs, call_profile *out);
void call_profile_free(call_profile *p);

#endif
