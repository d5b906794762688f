#!/usr/bin/env bash
# make install: the tools under PREFIX/lib/rvsample/bin, the scripts and the
# core configurations beside them, and rvsample-NAME links on PREFIX/bin (no
# bare sim or validate on PATH); the installed pipeline finds the installed
# tools and configuration through its link, with nothing from the build tree.
source "$(dirname "$0")/lib.sh"
make -s -C "$TOP" install DESTDIR="$T/inst" PREFIX=/opt/rvs > "$T/make.log" 2>&1 || { cat "$T/make.log"; fail "make install failed"; }
P=$T/inst/opt/rvs
for t in bbv simpoint checkpoint sim validate pipeline sweep; do
    [ -x "$P/bin/rvsample-$t" ] || fail "no $P/bin/rvsample-$t"
done
[ -z "$(ls "$P/bin" | grep -v '^rvsample-')" ] || fail "unprefixed names on PREFIX/bin: $(ls "$P/bin")"
[ -f "$P/share/rvsample/configs/boom-tip.ini" ] || fail "configurations not under PREFIX/share/rvsample"
# The format documents the help texts name are installed, and sim's help names where.
for d in README.md RESULTS.md ARCHITECTURE.md; do
    [ -s "$P/share/doc/rvsample/$d" ] || fail "$d not under PREFIX/share/doc/rvsample"
done
"$P/bin/rvsample-sim" --help > "$T/help.txt"
grep -q "PREFIX/share/doc/rvsample/RESULTS.md" "$T/help.txt" || fail "sim --help does not say where RESULTS.md is installed"
cp "$RV/workloads/phases" "$T/phases"
cd "$T"
env -u BIN PATH=/usr/bin:/bin "$P/bin/rvsample-pipeline" -o out -i 1M -k 5 -- ./phases 1 > log.txt 2>&1 ||
    { tail -20 log.txt; fail "the installed pipeline failed"; }
grep -q "validate: done" out/pipeline.log || fail "the installed pipeline did not reach validate"
! grep -q "$TOP/build" out/logs/*.log out/pipeline.log || fail "the installed pipeline used the build tree"
# Its help names it as it was run and the installed tools, not the source tree's.
"$P/bin/rvsample-pipeline" -h > pipeline_help.txt
grep -q "^Usage: $P/bin/rvsample-pipeline " pipeline_help.txt || fail "help: $(head -1 pipeline_help.txt)"
grep -qF "Tools come from $(readlink -f "$P/lib/rvsample/bin") (or \$BIN), core configurations from $(readlink -f "$P/share/rvsample/configs")." \
    pipeline_help.txt || fail "help: $(grep 'Tools come' pipeline_help.txt)"
! grep -q "build/bin\|scripts/pipeline.sh" pipeline_help.txt || fail "the installed help names the source tree"
"$P/bin/rvsample-sweep" -h > sweep_help.txt
grep -q "^Usage: $P/bin/rvsample-sweep " sweep_help.txt || fail "sweep help: $(head -1 sweep_help.txt)"
grep -qF "Tools come from $(readlink -f "$P/lib/rvsample/bin") (or \$BIN)" sweep_help.txt ||
    fail "sweep help: $(grep 'Tools come' sweep_help.txt)"
! grep -q "build/bin\|scripts/sweep.sh" sweep_help.txt || fail "the installed sweep help names the source tree"
"$P/bin/rvsample-sim" --list-params -c "$P/share/rvsample/configs/boom-tip.ini" > /dev/null || fail "rvsample-sim does not run"
echo "ok   installed under PREFIX/lib/rvsample with rvsample-* links; the pipeline runs from the install alone"
