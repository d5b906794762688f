# Programs of the memory-bound benchmark (bench/bench_memory_bound.sh):
# workloads/ptr_chase.c whole and with one working set alone (-DCHASE_ONLY=N),
# for RISC-V and, to know the host's own speed on the same code, for the host.
CHASE_VARIANTS := all 0 1 2 3
chase_only = $(if $(filter all,$(1)),,-DCHASE_ONLY=$(1))

$(B)/bench/chase/rv_%: workloads/ptr_chase.c $(wildcard workloads/*.h)
	@mkdir -p $(@D)
	$(RVCC) $(RVCFLAGS) $(call chase_only,$*) -o $@ $< -lm
$(B)/bench/chase/host_%: workloads/ptr_chase.c $(wildcard workloads/*.h)
	@mkdir -p $(@D)
	$(CC) -O2 $(call chase_only,$*) -o $@ $< -lm

bench-chase-programs: $(foreach v,$(CHASE_VARIANTS),$(B)/bench/chase/rv_$(v) $(B)/bench/chase/host_$(v))
.PHONY: bench-chase-programs
