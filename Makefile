# Sampled-simulation toolkit for RISC-V (RV64GC Linux user mode).
# `make deps` installs missing Debian packages; every other target runs it first.

PREFIX   ?= /usr/local
CC       ?= gcc
RVCC     ?= riscv64-linux-gnu-gcc
B        := build

WARN     := -Wall -Wextra -Werror
# -frounding-math / -ffp-contract=off: guest FP semantics depend on the host
# rounding mode and on every operation being rounded exactly once.
CFLAGS_COMMON := -std=c11 -D_GNU_SOURCE -g $(WARN) -frounding-math -ffp-contract=off \
                 -fopenmp -Ilib -I$(B)/gen -MMD -MP
# Link-time optimisation: the detailed core's stages, the predictor, the
# caches and the decoder are small files calling each other every cycle;
# inlining across them makes sim --full 3-9% faster (bench/results/sim_ab.txt).
# Objects are LTO-only, so whatever links build/rel/*.a needs -flto too.
CFLAGS   ?= -O2 -flto=auto
LDLIBS   := -ldw -lelf -lz -ljansson -linih -lm -fopenmp
SANFLAGS := -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer

RVCFLAGS := -static -O2 -g -march=rv64gc -mabi=lp64d
RVASFLAGS := -static -nostdlib -march=rv64gc -mabi=lp64d

.DEFAULT_GOAL := all
.PHONY: all deps build test unit-test san-test e2e-test bench calib demo install clean rv-programs san-e2e fuzz FORCE
FORCE:

deps:
	@scripts/deps.sh

all: deps
	@$(MAKE) --no-print-directory build

# ---------------------------------------------------------------- host code
# The translator's stencils are not part of the library: they are compiled
# on their own and read by a generator, which writes them as tables.
STENCIL_SRCS := lib/jit/stencils.c lib/jit/gen_stencils.c
LIB_SRCS   := $(filter-out $(STENCIL_SRCS),$(wildcard lib/*.c lib/*/*.c))
TOOLS      := $(patsubst %/main.c,%,$(wildcard */main.c))
GEN_HDRS   := $(B)/gen/syscall_names.h $(B)/gen/jit_stencils.inc

obj = $(patsubst %.c,$(B)/$(1)/%.o,$(2))

$(B)/gen/syscall_names.h: scripts/gen_syscall_names.sh
	@mkdir -p $(@D)
	scripts/gen_syscall_names.sh $(RVCC) > $@.tmp && mv $@.tmp $@

# Stencils: optimised whatever the variant, no sanitizers, and compiled so
# that their holes are relocations jit.c can patch (medium code model: small
# holes as 32-bit displacements, the others as 64-bit immediates; host calls
# through a slot; one section per stencil).
STENCIL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -frounding-math -ffp-contract=off -Ilib -I$(B)/gen -MMD -MP \
                  -O2 -fno-pic -mcmodel=medium -fno-plt -fno-asynchronous-unwind-tables -fno-jump-tables \
                  -fomit-frame-pointer -fno-stack-protector -fcf-protection=none -ffunction-sections

# Variants: for runs that note memory accesses (traced: functional warming)
# and for the others (plain); each also with loads and stores whose page
# check is left to the host (_hc, see lib/jit/host_fault.c).
# Each variant's stencils come in three versions (JIT_ACC, see stencils.c),
# compiled apart: in one unit, the compiler's inlining budget would run out.
STENCIL_VARIANTS := plain traced plain_hc traced_hc
STENCIL_OBJS := $(foreach v,$(STENCIL_VARIANTS),$(foreach a,0 1 2,$(B)/gen/stencils_$(v).$(a).o))
stencil_flags = -DJIT_TRACED=$(if $(findstring traced,$(1)),1,0) -DJIT_HOST_CHECKED=$(if $(findstring _hc,$(1)),1,0) \
                -DJIT_ACC=$(subst .,,$(suffix $(1)))
$(STENCIL_OBJS): $(B)/gen/stencils_%.o: lib/jit/stencils.c $(B)/gen/syscall_names.h
	@mkdir -p $(@D)
	$(CC) $(STENCIL_CFLAGS) $(call stencil_flags,$*) -c $< -o $@
$(B)/gen/gen_stencils: lib/jit/gen_stencils.c lib/jit/jit_stencil.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -Ilib -o $@ $< -lelf
$(B)/gen/jit_stencils.inc: $(B)/gen/gen_stencils $(STENCIL_OBJS)
	$(B)/gen/gen_stencils $(foreach o,$(STENCIL_OBJS),$(basename $(subst stencils_,,$(notdir $(basename $(o)))))=$(o)) \
	    > $@.tmp && mv $@.tmp $@

# $(1) = variant dir (rel or san), $(2) = extra CFLAGS. A variant's objects
# are compiled again when its flags change (recorded in $(B)/$(1)/flags).
define VARIANT
$(B)/$(1)/flags: FORCE
	@mkdir -p $$(@D)
	@echo '$$(CFLAGS_COMMON) $(2)' | cmp -s - $$@ || echo '$$(CFLAGS_COMMON) $(2)' > $$@

$(B)/$(1)/%.o: %.c $(B)/$(1)/flags | $(GEN_HDRS)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_COMMON) $(2) -c $$< -o $$@

$(B)/$(1)/librv.a: $(call obj,$(1),$(LIB_SRCS))
	@rm -f $$@; ar rcs $$@ $$^

$(foreach t,$(TOOLS),
$(B)/$(1)/lib$(t).a: $(call obj,$(1),$(filter-out $(t)/main.c,$(wildcard $(t)/*.c $(t)/*/*.c)))
	@mkdir -p $$(@D); rm -f $$@; $$(if $$^,ar rcs $$@ $$^,printf '!<arch>\n' > $$@)
)

$(B)/$(1)/unit_tests: $(call obj,$(1),$(wildcard tests/unit/*.c)) $(foreach t,$(TOOLS),$(B)/$(1)/lib$(t).a) $(B)/$(1)/librv.a
	$$(CC) $(2) -o $$@ $$(filter %.o,$$^) $(foreach t,$(TOOLS),$(B)/$(1)/lib$(t).a) $(B)/$(1)/librv.a -lcriterion $$(LDLIBS)
endef

$(eval $(call VARIANT,rel,$(CFLAGS)))
$(eval $(call VARIANT,san,$(SANFLAGS)))

# Linked beside and renamed into place: a tool that tests or scripts are
# running is never missing, even while a concurrent make relinks it.
$(B)/bin/%: $(B)/rel/%/main.o $(B)/rel/lib%.a $(B)/rel/librv.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@.tmp $^ $(LDLIBS) && mv -f $@.tmp $@

# The tools under ASan and UBSan, for the end-to-end tests of san-e2e.
$(B)/san/bin/%: $(B)/san/%/main.o $(B)/san/lib%.a $(B)/san/librv.a
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) -o $@.tmp $^ $(LDLIBS) && mv -f $@.tmp $@

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ------------------------------------------------------- RISC-V guest programs
WORKLOADS := $(patsubst workloads/%.c,$(B)/rv/workloads/%,$(wildcard workloads/*.c))
PROGS     := $(patsubst tests/progs/%.c,$(B)/rv/progs/%,$(wildcard tests/progs/*.c))
ASMPROGS  := $(patsubst tests/asm/%.S,$(B)/rv/asm/%,$(wildcard tests/asm/*.S))

$(B)/rv/workloads/%: workloads/%.c $(wildcard workloads/*.h)
	@mkdir -p $(@D)
	$(RVCC) $(RVCFLAGS) -o $@ $< -lm
$(B)/rv/progs/%: tests/progs/%.c $(wildcard tests/progs/*.h)
	@mkdir -p $(@D)
	$(RVCC) $(RVCFLAGS) -o $@ $< -lm
$(B)/rv/asm/%: tests/asm/%.S
	@mkdir -p $(@D)
	$(RVCC) $(RVASFLAGS) -o $@ $<

rv-programs: $(WORKLOADS) $(PROGS) $(ASMPROGS)

build: $(addprefix $(B)/bin/,$(TOOLS)) $(B)/rel/unit_tests rv-programs

# ------------------------------------------------------------------- targets
test: deps
	@$(MAKE) --no-print-directory build $(B)/san/unit_tests $(B)/san/leak_canary $(addprefix $(B)/san/bin/,$(TOOLS))
	@$(MAKE) --no-print-directory unit-test san-test e2e-test san-e2e

# Each runs the tests as the sources are now (the binary is rebuilt if stale).
unit-test: $(B)/rel/unit_tests
	$(B)/rel/unit_tests --jobs 2

# First a test binary that leaks on purpose: the run must catch its leak.
san-test: $(B)/san/unit_tests $(B)/san/leak_canary
	tests/unit/run_sanitized.sh --expect-leak leak_canary_keep $(B)/san/leak_canary --jobs 2
	tests/unit/run_sanitized.sh $(B)/san/unit_tests --jobs 2

$(B)/san/leak_canary: $(B)/san/tests/unit/leak_canary/leak_canary.o $(B)/san/tests/unit/main.o
	$(CC) $(SANFLAGS) -o $@ $^ -lcriterion

e2e-test:
	tests/run_e2e.sh

# The end-to-end tests that feed the tools bad, hostile and unusual input
# (and a pipeline), once more on the sanitizer build: any ASan or UBSan
# report fails them (exit status 223, and UBSan aborts).
SAN_E2E := hostile_input checkpoint_errors checkpoint_descriptors checkpoint_signals checkpoint_hostile bbv_bad_input \
           simpoint_errors simpoint_formats validate_errors validate_known output_targets out_of_scope pipeline bbv_proxy \
           tip_case_study sim_regions fuzz_parsers sim_bad_options
san-e2e:
	BIN=$(CURDIR)/$(B)/san/bin ASAN_OPTIONS=detect_leaks=0:exitcode=223 UBSAN_OPTIONS=print_stacktrace=1 \
	    tests/run_e2e.sh $(SAN_E2E)

# A long fuzzing campaign on the sanitizer build (findings in tests/fuzz/findings/).
fuzz: build $(B)/san/bin/bbv $(B)/san/bin/sim $(B)/san/bin/simpoint $(B)/san/bin/checkpoint $(B)/san/bin/validate
	BIN=$(CURDIR)/$(B)/san/bin FUZZ_RUNS=$${FUZZ_RUNS:-2000} FUZZ_SEED=$${FUZZ_SEED:-$$(date +%s)} \
	    bash tests/e2e/fuzz_parsers.sh

bench: all
	bench/run_all.sh

# The detailed core against SonicBOOM's published figures: bench/results/calib.md.
calib: all
	bench/calib/calib.sh

demo: all
	scripts/demo.sh

# PREFIX/lib/rvsample holds the tools (bin/), the scripts and the core
# configurations (configs/, from PREFIX/share/rvsample/configs); PREFIX/bin
# gets rvsample-NAME links, so that generic names like sim and validate do
# not collide with other software on PATH.
LIBDIR := $(PREFIX)/lib/rvsample
install: all
	install -d $(DESTDIR)$(LIBDIR)/bin $(DESTDIR)$(LIBDIR)/scripts $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(PREFIX)/share/rvsample/configs $(DESTDIR)$(PREFIX)/share/doc/rvsample
	install -m 755 $(addprefix $(B)/bin/,$(TOOLS)) $(DESTDIR)$(LIBDIR)/bin/
	install -m 755 scripts/pipeline.sh scripts/sweep.sh $(DESTDIR)$(LIBDIR)/scripts/
	install -m 644 scripts/engine.sh $(DESTDIR)$(LIBDIR)/scripts/
	install -m 644 configs/*.ini $(DESTDIR)$(PREFIX)/share/rvsample/configs/
	install -m 644 README.md sim/RESULTS.md docs/ARCHITECTURE.md $(DESTDIR)$(PREFIX)/share/doc/rvsample/
	ln -sfn ../../share/rvsample/configs $(DESTDIR)$(LIBDIR)/configs
	for t in $(TOOLS); do ln -sfn ../lib/rvsample/bin/$$t $(DESTDIR)$(PREFIX)/bin/rvsample-$$t; done
	for s in pipeline sweep; do ln -sfn ../lib/rvsample/scripts/$$s.sh $(DESTDIR)$(PREFIX)/bin/rvsample-$$s; done

clean:
	rm -rf $(B)

# Fragments owned by test suites and benchmarks (extra host tools, rules).
-include $(wildcard tests/*/*.mk bench/*.mk)
