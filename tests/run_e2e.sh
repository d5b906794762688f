#!/usr/bin/env bash
# Run every tests/e2e/*.sh, or the ones named (tests/run_e2e.sh NAME...),
# each exits 0 on success, and print a closing "e2e: N passed, M failed"
# line. Runs two at a time (the CI machine has 2 cores), the longest first
# by the durations of the last run (build/e2e-times/, one file per tool
# directory $BIN; a test not timed yet counts as longest), so that the two
# finish about together.
set -u
cd "$(dirname "$0")/.."
export TOP=$PWD
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
# python3 resolved once to the interpreter it starts: a version manager's shim
# (pyenv's) takes a fraction of a second a call, and the tests make hundreds.
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$py" ]; then
    mkdir "$results/bin" && printf '#!/bin/bash\nexec %q "$@"\n' "$py" > "$results/bin/python3" &&
        chmod +x "$results/bin/python3" && export PATH=$results/bin:$PATH
fi
run_one() {
    local t=$1 name; name=$(basename "$t" .sh)
    local start=$SECONDS
    if bash "$t" >"$results/$name.log" 2>&1; then
        echo "PASS $name ($((SECONDS - start)) s)"; touch "$results/$name.pass"
    else
        echo "FAIL $name ($((SECONDS - start)) s)"; sed 's/^/    /' "$results/$name.log" | tail -40
    fi
    echo "$name $((SECONDS - start))" > "$results/$name.time"
}
export -f run_one; export results
times=$TOP/build/e2e-times/$(realpath -m --relative-to="$TOP" "${BIN:-build/bin}" | tr / _)
if [ $# -gt 0 ]; then
    tests=$(printf 'tests/e2e/%s.sh\n' "$@")
    for t in $tests; do [ -f "$t" ] || { echo "no test $t"; exit 1; }; done
else
    tests=$(ls tests/e2e/*.sh | grep -v '/lib.sh$')
fi
# longest_first: the test paths on stdin, longest first by $times (untimed first).
longest_first() {
    awk 'FILENAME != "-" { took[$1] = $2; next }
        { n = $0; sub(/.*\//, "", n); sub(/\.sh$/, "", n); print (n in took ? took[n] : 1e9), $0 }' \
        <(cat "$times" 2>/dev/null) - | sort -s -k1,1nr | cut -d' ' -f2-
}
echo "$tests" | longest_first | xargs -P 2 -I{} bash -c 'run_one {}'
# The durations for the next run (a test not run now keeps its last one).
mkdir -p "$(dirname "$times")"
cat "$results"/*.time "$times" 2>/dev/null | awk '!seen[$1]++' | sort > "$times.tmp.$$" && mv "$times.tmp.$$" "$times"
total=$(echo "$tests" | wc -l)
passed=$(ls "$results"/*.pass 2>/dev/null | wc -l)
echo "e2e: $passed passed, $((total - passed)) failed"
[ "$passed" -eq "$total" ]
