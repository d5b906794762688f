/* SonicBOOM's short-forwards-branch recoding ([core] sfb = 1): a short
 * forward conditional branch over simple integer instructions, when the
 * predictor does not predict it taken, becomes a predicated micro-op. It
 * never redirects fetch, so it is never mispredicted; the instructions it
 * jumps over are fetched either way and execute predicated on its outcome,
 * so their results depend on its operands. Reporting no outcome, it trains
 * the predictor as not taken, as BOOM's fetch target queue does
 * (core_bp_event), so it stays recoded. */
#ifndef SIM_SFB_H
#define SIM_SFB_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"
#include "mem.h"

typedef struct sfb_shadow {
    uint32_t rds;      /* integer registers the shadow writes, a bit each */
    uint8_t count;     /* instructions in the shadow */
} sfb_shadow;

/* Whether br can be recoded, as BOOM decides (decode.scala, frontend.scala):
 * a positive offset below a cache line, the target within two fetch packets
 * of the branch's packet (packet_bytes each), and every instruction in
 * between "shadowable": an integer ALU operation with an immediate, lui, or
 * a register-register one whose rs1 is its rd (or add rd, x0, rs2: a move).
 * Its shadow in *s. The code is read from guest memory; an unreadable
 * shadow is no shadow. */
bool sfb_recodable(const rv_mem *m, const rv_insn *br, unsigned packet_bytes, unsigned line_bytes, sfb_shadow *s);

#endif
