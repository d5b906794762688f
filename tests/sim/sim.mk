# Microbenchmarks of the detailed core (tests/sim/*.S, built into
# build/rv/sim/NAME; macros.h is shared), used by tests/e2e/sim_known_answers.sh,
# tests/e2e/sim_invariants.sh and bench/bench_sim.sh.
SIMPROGS := $(patsubst tests/sim/%.S,$(B)/rv/sim/%,$(wildcard tests/sim/*.S))

$(B)/rv/sim/%: tests/sim/%.S tests/sim/macros.h
	@mkdir -p $(@D)
	$(RVCC) $(RVASFLAGS) -o $@ $<

.PHONY: sim-programs
sim-programs: $(SIMPROGS)
rv-programs: $(SIMPROGS)
