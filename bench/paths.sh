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
