# Sourced by the bench scripts: the shell settings they share and where the
# build puts the tools, the bundled workloads and the corpus programs.
set -u -o pipefail
export LC_ALL=C # '.' as the decimal point in $EPOCHREALTIME and awk
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=$TOP/build/bin
RVW=$TOP/build/rv/workloads
CORPUS_BIN=$TOP/build/corpus/bin

# The script's name for its messages, a fatal error, and its --help: the
# header comment after the #! line.
SCRIPT=$(basename "$0" .sh)
die() { echo "$SCRIPT: $*" >&2; exit 2; }
print_help() { awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; }

# Timings and the figures taken from them.
# wall_seconds OUT CMD...: the wall seconds CMD takes (stdin $STDIN, else
# /dev/null; stdout to OUT, stderr to OUT.err)
wall_seconds() {
    local out=$1 t0 t1
    shift
    t0=$EPOCHREALTIME
    "$@" <"${STDIN:-/dev/null}" >"$out" 2>"$out.err"
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
fastest() { printf '%s\n' "$@" | sort -g | head -n 1; }
largest() { printf '%s\n' "$@" | sort -g | tail -n 1; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# json_mips FILE SECTION: the mips of a section of a checkpoints.json
json_mips() { sed -n "/\"$2\"/,/}/s/.*\"mips\": \([0-9.]*\).*/\1/p" "$1" | head -n 1; }

# build_against SRC_TOP SOURCE OUT: a bench program (bench/SOURCE) built
# against SRC_TOP's headers and library (SRC_TOP/build/rel/librv.a)
build_against() {
    [ -f "$1/build/rel/librv.a" ] || die "no $1/build/rel/librv.a (make build there)"
    mkdir -p "$(dirname "$3")"
    cc -std=c11 -D_GNU_SOURCE -O2 -flto=auto -Wall -Wextra -Werror -fopenmp -I"$1/lib" -I"$1/build/gen" -o "$3" \
        "$TOP/bench/$2" "$1/build/rel/librv.a" -ldw -lelf -lz -ljansson -linih -lm -fopenmp ||
        die "could not build bench/$2 against $1"
}

# config_for BIN_DIR INI: the path of INI as BIN_DIR's build can read it: INI
# itself, or (a reference build older than one of INI's keys refuses the key)
# a copy in $T without the keys BIN_DIR's sim --list-params does not name,
# which that build then takes at its own defaults.
config_for() {
    local bin=$1 ini=$2 out known
    out=$T/config_for.$(printf '%s' "$bin$ini" | cksum | cut -d' ' -f1).ini
    known=$("$bin/sim" --list-params | awk '/^\[/ { sec = $1 } /^[a-z]/ { print sec $1 }') ||
        die "no sim --list-params in $bin"
    awk -v known="$known" 'BEGIN { n = split(known, k, "\n"); for (i = 1; i <= n; i++) ok[k[i]] = 1 }
        /^\[/ { sec = $1 }
        /^[a-z]/ && !((sec $1) in ok) { skip = 1; next }
        /^[a-z[]/ { skip = 0 }
        !skip { print }' "$ini" >"$out"
    if cmp -s "$ini" "$out"; then echo "$ini"; else echo "$out"; fi
}
