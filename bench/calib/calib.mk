# calib.mk: the programs of bench/calib/calib.sh, static riscv64 Linux
# programs built from the sources under bench/calib (vendor/README.md says
# where each vendored file comes from) into build/calib/. calib.sh runs
#     make -f bench/calib/calib.mk TARGETS...
# from the top directory; the targets name their parameters:
#   build/calib/coremark-N     CoreMark, ITERATIONS=N, performance-run seeds
#   build/calib/coremark-s32-N the same with ee_u32 a signed int (the variant
#                              Luffca measured on MegaBoom's RTL beside the default)
#   build/calib/dhrystone      Dhrystone 2.1; reads the number of runs on stdin
#   build/calib/embench-NAME   Embench-IoT's NAME with embench_main.c
#   build/calib/branch-random-OUTER, branch-predictable-OUTER
#                              branch_penalty.S, OUTER refills of 64 branches
#   build/calib/taken-BODY-ITERS  taken_loop.S, ITERS times a BODY-instruction loop

RVCC  ?= riscv64-linux-gnu-gcc
CAL   := bench/calib
V     := $(CAL)/vendor
O     := build/calib

# GCC 12 at -O2, as the published CoreMark figures were measured.
CAL_CFLAGS  := -static -O2 -march=rv64gc -mabi=lp64d
CAL_ASFLAGS := -static -nostdlib -march=rv64gc -mabi=lp64d

# CoreMark with the posix port, unchanged. SEED_VOLATILE: the performance
# run's seeds (0, 0, 0x66) and ITERATIONS are compiled in, so the program
# takes no arguments. FLAGS_STR, which CoreMark prints as "Compiler flags",
# is every flag that changes the code: those below and the -D flags.
CM_SRCS  := $(sort $(wildcard $(V)/coremark/core_*.c)) $(V)/coremark/posix/core_portme.c
CM_HDRS  := $(V)/coremark/coremark.h $(wildcard $(V)/coremark/posix/*.h)
cm_flags = $(CAL_CFLAGS) -DPERFORMANCE_RUN=1 -DSEED_METHOD=SEED_VOLATILE -DITERATIONS=$(1)
$(O)/coremark-%: $(CM_SRCS) $(CM_HDRS) $(CAL)/calib.mk
	@mkdir -p $(@D)
	$(RVCC) $(call cm_flags,$*) '-DFLAGS_STR="$(call cm_flags,$*)"' \
	    -I$(V)/coremark -I$(V)/coremark/posix -o $@ $(CM_SRCS)

# The signed variant: a copy of the posix port's core_portme.c and .h
# (core_portme.c includes its header from its own directory) whose ee_u32 is
# a signed int, found before the vendored port; the vendored files stay as
# they are.
S32 := $(O)/coremark-s32-port
$(S32)/core_portme.h: $(V)/coremark/posix/core_portme.h $(CAL)/calib.mk
	@mkdir -p $(@D)
	sed 's/^typedef unsigned int   ee_u32;/typedef signed int     ee_u32;/' $< > $@.tmp
	grep -q '^typedef signed int     ee_u32;' $@.tmp || { rm -f $@.tmp; echo "calib.mk: no ee_u32 typedef in $<" >&2; exit 1; }
	mv $@.tmp $@
$(S32)/core_portme.c: $(V)/coremark/posix/core_portme.c
	@mkdir -p $(@D)
	cp $< $@
CM_S32_SRCS := $(sort $(wildcard $(V)/coremark/core_*.c)) $(S32)/core_portme.c
$(O)/coremark-s32-%: $(CM_S32_SRCS) $(S32)/core_portme.h $(CM_HDRS) $(CAL)/calib.mk
	@mkdir -p $(@D)
	$(RVCC) $(call cm_flags,$*) '-DFLAGS_STR="$(call cm_flags,$*) ee_u32=int"' \
	    -I$(V)/coremark -I$(S32) -I$(V)/coremark/posix -o $@ $(CM_S32_SRCS)

# Dhrystone 2.1 as distributed: K&R C (-w: its many warnings are expected),
# the two modules compiled apart (the rule that forbids inlining across
# them), -DTIME: time(), whose declaration in dhry_1.c matches glibc's, where
# times() (the default) clashes with <sys/times.h>.
DHRY_FLAGS := $(CAL_CFLAGS) -DTIME -w
$(O)/dhry_%.o: $(V)/dhrystone/dhry_%.c $(V)/dhrystone/dhry.h $(CAL)/calib.mk
	@mkdir -p $(@D)
	$(RVCC) $(DHRY_FLAGS) -c -o $@ $<
$(O)/dhrystone: $(O)/dhry_1.o $(O)/dhry_2.o
	$(RVCC) $(CAL_CFLAGS) -o $@ $^

# Embench-IoT at its default scale (GLOBAL_SCALE_FACTOR=1, WARMUP_HEAT=1).
EB_FLAGS := $(CAL_CFLAGS) -DGLOBAL_SCALE_FACTOR=1 -DWARMUP_HEAT=1 -I$(V)/embench/support
EB_SUPPORT := $(V)/embench/support/beebsc.c $(CAL)/embench_main.c
.SECONDEXPANSION:
$(O)/embench-%: $$(wildcard $(V)/embench/src/%/*.c) $(EB_SUPPORT) $(wildcard $(V)/embench/support/*.h) $(CAL)/calib.mk
	@mkdir -p $(@D)
	@test -n "$(wildcard $(V)/embench/src/$*/*.c)" || { echo "calib.mk: no Embench sources for $*" >&2; exit 1; }
	$(RVCC) $(EB_FLAGS) -o $@ $(filter %.c,$^) -lm

# The microbenchmarks.
# The microbenchmarks: the stem is KIND-N (branch) or BODY-ITERS (taken).
stem = $(word $(1),$(subst -, ,$*))
$(O)/branch-%: $(CAL)/branch_penalty.S $(CAL)/calib.mk
	@mkdir -p $(@D)
	$(RVCC) $(CAL_ASFLAGS) -DRANDOM=$(if $(filter random,$(call stem,1)),1,0) -DOUTER=$(call stem,2) -o $@ $<
$(O)/taken-%: $(CAL)/taken_loop.S $(CAL)/calib.mk
	@mkdir -p $(@D)
	$(RVCC) $(CAL_ASFLAGS) -DBODY=$(call stem,1) -DITERS=$(call stem,2) -o $@ $<
