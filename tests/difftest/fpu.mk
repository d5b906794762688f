# FPU differential test (tests/e2e/fpu_vs_qemu.sh): the same case lines answered by
# lib/fpu.c on the host and by the real F/D instructions under qemu-riscv64.
# The host oracle compiles lib/fpu.c itself, so it does not wait for the rest of lib/.
FPU_ORACLES := $(B)/difftest/fpu_oracle_host $(B)/difftest/fpu_oracle_rv

$(B)/difftest/fpu_oracle_host: tests/difftest/fpu_oracle_host.c lib/fpu.c lib/fpu.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ tests/difftest/fpu_oracle_host.c lib/fpu.c -lm

$(B)/difftest/fpu_oracle_rv: tests/difftest/fpu_oracle_rv.c
	@mkdir -p $(@D)
	$(RVCC) $(RVCFLAGS) -Wall -Wextra -Werror -o $@ $<

.PHONY: fpu-oracles
fpu-oracles: $(FPU_ORACLES)

build: $(FPU_ORACLES)
