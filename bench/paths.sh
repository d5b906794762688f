# Sourced by the bench scripts: the shell settings they share and where the
# build puts the tools, the bundled workloads and the corpus programs.
set -u -o pipefail
export LC_ALL=C # '.' as the decimal point in $EPOCHREALTIME and awk
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=$TOP/build/bin
RVW=$TOP/build/rv/workloads
CORPUS_BIN=$TOP/build/corpus/bin
