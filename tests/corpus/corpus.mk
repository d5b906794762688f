# The corpus of real programs (tests/corpus/): Debian source packages
# cross-built static for riscv64 into a cache keyed by package version.
.PHONY: corpus corpus-results

corpus: deps
	@tests/corpus/build.sh

# tests/corpus/RESULTS.md: every corpus program against qemu and through the pipeline.
corpus-results: corpus
	@$(MAKE) --no-print-directory build
	tests/corpus/results.sh > tests/corpus/RESULTS.md.tmp && mv tests/corpus/RESULTS.md.tmp tests/corpus/RESULTS.md

# make test runs the corpus tests, so it builds the corpus first.
test: corpus
