# Guest programs the loader unit tests (tests/unit/test_loader.c) load:
#  - dynamic_hello: a dynamically linked RISC-V executable, which must be refused;
#  - static_pie_mem_amo: tests/asm/mem_amo.S linked as a static PIE (ET_DYN without
#    PT_INTERP), which must load at RV_STATIC_PIE_BASE and run to its exit status.
#    (Debian's riscv64 cross glibc has no rcrt1.o, so a libc static-pie cannot be
#    linked; the assembly program is position independent and needs no relocation.)
# Built with the cross compiler so that the tests themselves need no toolchain
# (order-only: a rebuilt guest program does not relink the test binary).
UNIT_RV_PROGS := $(B)/rv/unit/dynamic_hello $(B)/rv/unit/static_pie_mem_amo

$(B)/rv/unit/dynamic_hello: tests/progs/argv_env.c
	@mkdir -p $(@D)
	$(RVCC) -O2 -march=rv64gc -mabi=lp64d -o $@ $<

$(B)/rv/unit/static_pie_mem_amo: tests/asm/mem_amo.S
	@mkdir -p $(@D)
	$(RVCC) -static-pie -nostdlib -Wl,--no-dynamic-linker -march=rv64gc -mabi=lp64d -o $@ $<

$(B)/rel/unit_tests $(B)/san/unit_tests: | $(UNIT_RV_PROGS) $(B)/rv/asm/loop_simple $(B)/rv/workloads/sort \
    $(B)/rv/progs/sig_faults $(B)/rv/progs/self_modify

rv-programs: $(UNIT_RV_PROGS)
