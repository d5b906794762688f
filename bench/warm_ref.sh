#!/usr/bin/env bash
# warm_ref.sh [COMMIT]: print the directory of checkpoint and sim binaries
# built from COMMIT (default 4ebd8ae, the last commit before functional
# warming was made faster), building them the first time into
# build/warm-ref-COMMIT from a clean export of the commit. The reference for
# bench/warm_identity.sh (same results) and bench/bench_warm.sh (speed).
set -u -o pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
commit=${1:-4ebd8ae}
dir=$TOP/build/warm-ref-$commit
if [ ! -x "$dir/build/bin/sim" ] || [ ! -x "$dir/build/bin/checkpoint" ]; then
    echo "building the reference ($commit) in $dir" >&2
    rm -rf "$dir" && mkdir -p "$dir" &&
        git -C "$TOP" archive "$commit" | tar -x -C "$dir" &&
        make -s -C "$dir" -j2 build/bin/checkpoint build/bin/sim >&2 ||
        { echo "warm_ref: could not build the reference from $commit" >&2; exit 2; }
fi
echo "$dir/build/bin"
