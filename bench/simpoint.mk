# Host helpers of the simpoint benchmark (bench/bench_simpoint.sh).
$(B)/bench/gen_bb: bench/gen_bb.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ $< -lz

bench-simpoint: $(B)/bin/simpoint $(B)/bench/gen_bb
	bench/bench_simpoint.sh
.PHONY: bench-simpoint
