/* The detailed core's cache of decoded instructions and their operands, by
 * pc, checked against the instruction's bits (code may change): the
 * correct path's instructions come decoded from the functional model but
 * their operands are needed again at every fetch; the wrong path's are
 * decoded from guest memory at every fetch. */
#ifndef SIM_DECODE_CACHE_H
#define SIM_DECODE_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"
#include "mem.h"

enum { DECODE_CACHE_BITS = 12 };

typedef struct decoded {
    uint64_t pc;               /* 1: empty (pcs are even) */
    rv_insn insn;
    rv_operands ops;
    bool spec_runnable;        /* rv_spec_runnable: the wrong path asks at every fetch */
} decoded;

typedef struct decode_cache {
    decoded e[1u << DECODE_CACHE_BITS];
} decode_cache;

void decode_cache_init(decode_cache *dc);
/* in's operands (rv_insn_operands). */
rv_operands decode_cache_operands(decode_cache *dc, const rv_insn *in);
/* The instruction at pc in guest memory, decoded, or NULL when the guest
 * may not execute there. */
const decoded *decode_cache_fetch(decode_cache *dc, const rv_mem *m, uint64_t pc);

#endif
