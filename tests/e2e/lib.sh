# Sourced by the end-to-end tests: paths and small assertion helpers.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BIN=${BIN:-$TOP/build/bin}   # make san-e2e points it at the sanitizer build
RV=$TOP/build/rv
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_eq WHAT EXPECTED ACTUAL
expect_eq() { [ "$2" == "$3" ] || fail "$1: expected '$2', got '$3'"; }
# expect_status STATUS cmd...: run cmd, check its exit status
expect_status() {
    local want=$1; shift
    set +e; "$@"; local got=$?; set -e
    [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want"
}
