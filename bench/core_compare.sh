#!/usr/bin/env bash
# core_compare.sh: what a change of the detailed core did to each bundled
# workload: CPI, the commit states, mispredicts, the wrong path's work per
# mispredict and TIP's instruction-level profile error (400 kHz, periodic),
# for a reference build and this one, side by side. Each run is
#   sim --full -q --guest-output none --sample tip --sample-hz 400000 -o R.json -- W
# with the workload's default arguments.
#
# Usage: bench/core_compare.sh --ref-bin DIR [-o FILE.md]
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
REF= OUT=
while [ $# -gt 0 ]; do
    case $1 in
    --ref-bin) REF=$2; shift 2 ;;
    -o) OUT=$2; shift 2 ;;
    -h|--help) print_help; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
[ -x "$REF/sim" ] || die "no reference sim in '$REF' (--ref-bin)"
[ -x "$BIN/sim" ] || die "build first (make build)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

for w in "$RVW"/*; do
    n=$(basename "$w")
    for b in ref new; do
        bin=$REF; [ $b = new ] && bin=$BIN
        "$bin/sim" --full -q --guest-output none --sample tip --sample-hz 400000 -o "$T/$n.$b.json" -- "$w" \
            >/dev/null 2>&1 || die "$bin/sim failed on $n"
    done
done
python3 - "$T" "$REF" ${OUT:+"$OUT"} <<'PY'
import glob, json, os, sys
T, ref = sys.argv[1], sys.argv[2]
lines = [f"# The detailed core against a reference build ({ref})", "",
         "Per bundled workload (default arguments): CPI, the share of cycles in each commit state, "
         "mispredicts per 1000 instructions, wrong-path instructions fetched / issued per mispredict, "
         "and TIP's instruction-level profile error at 400 kHz (periodic), reference -> this build.", "",
         "| workload | CPI | computing | stalled | flushed | drained | MPKI | wrong path / mispredict | TIP error |",
         "|---|---|---|---|---|---|---|---|---|"]
def load(p):
    return json.load(open(p))["results"][0]
for f in sorted(glob.glob(f"{T}/*.ref.json")):
    n = os.path.basename(f)[:-len(".ref.json")]
    a, b = load(f), load(f"{T}/{n}.new.json")
    def share(r, s): return 100 * r["states"][s] / r["cycles"]
    def mpki(r): return 1000 * r["events"]["branch_mispredicts"] / r["instructions"]
    def tip(r): return 100 * r["sampled"]["tip"]["error"]["instruction"]
    e = b["events"]; m = max(e["branch_mispredicts"], 1)
    cells = [f"{a['cpi']:.3f} -> {b['cpi']:.3f} ({100 * (b['cpi'] / a['cpi'] - 1):+.1f}%)"]
    cells += [f"{share(a, s):.1f} -> {share(b, s):.1f}" for s in ("computing", "stalled", "flushed", "drained")]
    cells += [f"{mpki(a):.2f} -> {mpki(b):.2f}",
              f"{e.get('wrong_path_fetched', 0) / m:.1f} / {e.get('wrong_path_issued', 0) / m:.1f}",
              f"{tip(a):.1f}% -> {tip(b):.1f}%"]
    lines.append(f"| {n} | " + " | ".join(cells) + " |")
text = "\n".join(lines) + "\n"
print(text, end="")
if len(sys.argv) > 3: open(sys.argv[3], "w").write(text)
PY
