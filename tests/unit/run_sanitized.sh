#!/usr/bin/env bash
# Runs a Criterion test binary built with ASan and UBSan, and fails when a
# test fails or when any of its processes reported a sanitizer error.
#
# Criterion runs each test in a worker process and takes the test's result
# from the worker's messages, not from its exit status: LeakSanitizer's
# report, made as a leaking worker exits, would only be printed.  So every
# process writes its ASan/LSan reports to a file of its own here, and any
# such file fails the run.  (UBSan aborts on its first report, which
# Criterion already counts as a crash.)
#
# usage: run_sanitized.sh [--expect-leak FUNCTION] BINARY [ARGS...]
#   --expect-leak: the run must instead be failed by a leak whose allocation
#   stack names FUNCTION (proves that leaks in tests are still caught).
set -uo pipefail
expect=
if [ "${1:-}" = --expect-leak ]; then expect=$2; shift 2; fi
bin=$1; shift
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

ASAN_OPTIONS=detect_leaks=1:log_path=$logs/asan UBSAN_OPTIONS=print_stacktrace=1 "$bin" "$@"
status=$?
reports=("$logs"/asan.*)
[ -e "${reports[0]}" ] || reports=()

if [ -n "$expect" ]; then
    if [ ${#reports[@]} -gt 0 ] && grep -q 'LeakSanitizer: detected memory leaks' "${reports[@]}" \
       && grep -q "in $expect" "${reports[@]}"; then
        echo "run_sanitized: the deliberate leak in $expect was caught, as it must be"
        exit 0
    fi
    echo "run_sanitized: $bin leaks in $expect on purpose, but no leak report named it" >&2
    exit 1
fi
if [ ${#reports[@]} -gt 0 ]; then
    cat "${reports[@]}" >&2
    echo "run_sanitized: sanitizer reports from ${#reports[@]} process(es) of $bin" >&2
    exit 1
fi
exit $status
