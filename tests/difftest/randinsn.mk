# Random-instruction differential tester (tests/e2e/random_insns_vs_qemu.sh):
# a host program that writes random RV64GC assembly programs and compares
# their state dumps.
$(B)/difftest/randinsn_gen: tests/difftest/randinsn_gen.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ $<

build: $(B)/difftest/randinsn_gen
