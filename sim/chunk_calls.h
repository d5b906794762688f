/* Inclusive time across the chunks of a chunked full run: each chunk's
 * calling contexts (sim/profilers/callstack.h, begun fresh) re-rooted on
 * the stack the chunks before it ended with, into the serial run's
 * calling-context tree. Chunk k's bases, in order: the first is the context
 * the serial run was in at the chunk's first instruction (chunk 0's: a base
 * of the program's first pc); each later one, a return past the chunk's
 * base, pops the inherited stack as the serial run's return would (to the
 * newest frame returning there; a new base when the stack is empty; no
 * change when no frame matches). Every other context is its parent's
 * context's call to the same pc, charges go to the mapped context, and the
 * chunk's own frames, mapped, go on top of what is left of the stack.
 *
 * Exact (the serial run's tree, charges off only by the chunks' timing)
 * but where the serial run's stack would not be rebuilt: a return that no
 * frame of the chunk's own matches but an inherited one does while the
 * chunk's own stack is not empty (a signal handler's return into the
 * trampoline), more than CALLS_FRESH_BASES returns past one chunk's base,
 * and the cycles a flush charges before a chunk's first commit (to the
 * context inherited, where the serial run charges the flusher's). */
#ifndef SIM_CHUNK_CALLS_H
#define SIM_CHUNK_CALLS_H

#include <stddef.h>

#include "profilers/callstack.h"

/* The chunks' profiles, in chunk order, into one (a new allocation). */
call_profile *call_profiles_stitch(const call_profile *const *chunks, size_t n);

#endif
