#!/usr/bin/env bash
# Options beyond the basic run: --help, long forms, vector and matrix files,
# given initialisations, explicit k lists, -saveAll, coverage, VLI weights of a
# partial interval, noProject, sampling, sweeps and the JSON summary.
source "$(dirname "$0")/lib.sh"
SP=$BIN/simpoint
gcc -std=c11 -D_GNU_SOURCE -O2 "$TOP/bench/gen_bb.c" -o "$T/gen_bb" -lz
"$T/gen_bb" -n 600 -b 3000 -p 4 -m 50 -l 100000 -s 4 -o "$T/in.bb"
base() { "$SP" -loadFVFile "$T/in.bb" "$@"; }

# --help: exit 0, lists every SimPoint 3.2 option with its default
"$SP" --help > "$T/help"
for o in loadFVFile inputVectorsGzipped k maxK iters dim numInitSeeds initkm bicThreshold coveragePct \
         fixedLength sampleSize numFVs FVDim seedkm seedproj seedsample saveSimpoints saveSimpointWeights \
         saveLabels saveAll saveVectorWeights loadVectorWeights saveInitCtrs saveFinalCtrs loadInitCtrs \
         loadInitLabels saveVectorsTxtFmt saveVectorsBinFmt loadVectorsTxtFmt loadVectorsBinFmt \
         saveProjMatrixTxtFmt saveProjMatrixBinFmt loadProjMatrixTxtFmt loadProjMatrixBinFmt verbose; do
    grep -q -- "^  -$o[ ]" "$T/help" || fail "--help lacks -$o"
done
for d in "\[100\]" "\[15\]" "\[5\]" "\[samp\]" "\[0.9\]" "\[1.0\]" "\[on\]" "\[493575226\]" "\[2042712918\]" "\[385089224\]"; do
    grep -q "$d" "$T/help" || fail "--help lacks default $d"
done

# GNU long forms give the same result as SimPoint's spelling
base -maxK 10 -numInitSeeds 3 -saveSimpoints "$T/a.sp" -saveLabels "$T/a.l"
"$SP" --load-fv-file="$T/in.bb" --max-k 10 --num-init-seeds=3 --save-simpoints "$T/b.sp" --saveLabels="$T/b.l"
cmp -s "$T/a.sp" "$T/b.sp" && cmp -s "$T/a.l" "$T/b.l" || fail "long forms differ"

# projected vectors and projection matrix: save, load, same clustering
base -maxK 10 -saveSimpoints "$T/ref.sp" -saveLabels "$T/ref.l" -saveVectorsTxtFmt "$T/v.txt" \
    -saveVectorsBinFmt "$T/v.bin" -saveProjMatrixTxtFmt "$T/m.txt" -saveProjMatrixBinFmt "$T/m.bin" \
    -saveFinalCtrs "$T/fc" -saveInitCtrs "$T/ic" -saveVectorWeights "$T/vw"
expect_eq "vector file header" "600:w" "$(head -1 "$T/v.txt")"
expect_eq "matrix rows" "3000" "$(head -1 "$T/m.txt")"
expect_eq "vector weights" 600 "$(wc -l < "$T/vw")"
for f in "-loadVectorsTxtFmt $T/v.txt" "-loadVectorsBinFmt $T/v.bin" \
         "-loadFVFile $T/in.bb -loadProjMatrixTxtFmt $T/m.txt" "-loadFVFile $T/in.bb -loadProjMatrixBinFmt $T/m.bin"; do
    "$SP" $f -maxK 10 -saveSimpoints "$T/x.sp" -saveLabels "$T/x.l"
    cmp -s "$T/ref.sp" "$T/x.sp" && cmp -s "$T/ref.l" "$T/x.l" || fail "round trip differs: $f"
done
# a different seedproj gives a different matrix
base -maxK 10 -seedproj 7 -saveProjMatrixTxtFmt "$T/m7.txt"
cmp -s "$T/m.txt" "$T/m7.txt" && fail "-seedproj ignored"

# given initialisations: the final centres are a fixed point; labels give the same clustering
k=$(wc -l < "$T/ref.sp")
base -loadInitCtrs "$T/fc" -saveSimpoints "$T/c.sp" -saveLabels "$T/c.l" -json "$T/c.json"
cmp -s "$T/ref.sp" "$T/c.sp" || fail "-loadInitCtrs changed the clustering"
grep -q '"iterations": 1,' "$T/c.json" || fail "-loadInitCtrs: not converged at once"
cut -d' ' -f1 "$T/ref.l" > "$T/labels"
base -loadInitLabels "$T/labels" -saveSimpoints "$T/d.sp"
cmp -s "$T/ref.sp" "$T/d.sp" || fail "-loadInitLabels changed the clustering"
expect_status 1 "$SP" -loadFVFile "$T/in.bb" -loadInitCtrs "$T/fc" -maxK 4 2> /dev/null

# explicit k list and -saveAll names
base -k 5:3,8 -saveAll -saveSimpoints "$T/all.sp" -saveSimpointWeights "$T/all.w" -json "$T/all.json"
for f in all.sp.run_0_k_5 all.sp.run_1_k_4 all.sp.run_2_k_3 all.sp.run_3_k_8 all.w.run_3_k_8; do
    [ -s "$T/$f" ] || fail "-saveAll: no $f"
done
grep -c '"k":' "$T/all.json" | grep -qx 4 || fail "JSON runs"

# -coveragePct: .lpt files hold the heaviest clusters covering p, renormalised
base -maxK 10 -coveragePct 0.6 -saveSimpoints "$T/cv.sp" -saveSimpointWeights "$T/cv.w"
[ -s "$T/cv.sp.lpt0.6" ] && [ -s "$T/cv.w.lpt0.6" ] || fail "no .lpt0.6 files"
[ "$(wc -l < "$T/cv.w.lpt0.6")" -lt "$(wc -l < "$T/cv.w")" ] || fail "coverage kept every cluster"
awk '{ s += $1 } END { exit !(s > 0.99999 && s < 1.00001) }' "$T/cv.w.lpt0.6" || fail "lpt weights"

# VLI: with -fixedLength off a partial last interval (our bbv's comment) weighs by its length
{ cat "$T/in.bb"; echo "# partial interval: 25000 instructions"; head -1 "$T/in.bb" | \
  awk '{ n = split($0, p, " "); printf "T"; left = 25000; for (i = 1; i <= n; i++) { split(p[i], f, ":");
         c = int(f[3] / 4); if (i == n) c = left; left -= c; printf ":%s:%d ", f[2], c } print "" }'; } > "$T/part.bb"
"$SP" -loadFVFile "$T/part.bb" -maxK 10 -fixedLength off -saveVectorWeights "$T/pw" -json "$T/p.json"
grep -q '"partial_interval": 600,' "$T/p.json" || fail "partial interval not reported"
awk 'NR == 1 { a = $1 } NR == 601 { b = $1 } END { r = b / a; exit !(r > 0.2499 && r < 0.2501) }' "$T/pw" \
    || fail "partial interval weight is not a quarter"
"$SP" -loadFVFile "$T/part.bb" -maxK 10 -saveVectorWeights "$T/pw1"
expect_eq "fixed-length weights equal" 1 "$(sort -u "$T/pw1" | wc -l)"

# -dim noProject, -iters, -sampleSize, -numFVs/-FVDim
base -maxK 6 -dim noProject -iters off -saveSimpoints "$T/np.sp" -json "$T/np.json"
grep -q '"dimensions": 3000,' "$T/np.json" || fail "noProject dimensions"
base -maxK 10 -sampleSize 200 -saveSimpoints "$T/s.sp" -json "$T/s.json"
grep -q '"sampled": 200' "$T/s.json" || fail "-sampleSize"
base -maxK 10 -numFVs 600 -FVDim 3000 -saveSimpoints "$T/nf.sp"
cmp -s "$T/ref.sp" "$T/nf.sp" || fail "-numFVs changed the result"
expect_status 1 "$SP" -loadFVFile "$T/in.bb" -maxK 10 -numFVs 601 -FVDim 3000 2> /dev/null

# sweep: one file set per maxK (and threshold), a CSV row each, same as single runs
base --sweep-max-k 2,6,10 -saveSimpoints "$T/sw.sp" -saveSimpointWeights "$T/sw.w" --sweep-table "$T/sw.csv" -json "$T/sw.json"
expect_eq "sweep rows" 4 "$(wc -l < "$T/sw.csv")"
head -1 "$T/sw.csv" | grep -q '^max_k,bic_threshold,k,' || fail "sweep header"
for m in 2 6 10; do
    base -maxK $m -saveSimpoints "$T/one.sp" -saveSimpointWeights "$T/one.w"
    cmp -s "$T/one.sp" "$T/sw.sp.maxk_$m" && cmp -s "$T/one.w" "$T/sw.w.maxk_$m" || fail "sweep maxK $m differs from a single run"
done
base --sweep-max-k 3..5 --sweep-bic 0.5,0.9 -saveSimpoints "$T/sb.sp" > "$T/sb.csv"
[ -s "$T/sb.sp.maxk_4.bic_0.5" ] && [ -s "$T/sb.sp.maxk_5.bic_0.9" ] || fail "sweep-bic names"
expect_eq "sweep-bic rows" 7 "$(wc -l < "$T/sb.csv")"
# compat sweep equals separate compat runs
base --sweep-max-k 4,7 --compat -saveSimpoints "$T/cs.sp" > /dev/null
base -maxK 7 --compat -saveSimpoints "$T/c7.sp"
cmp -s "$T/c7.sp" "$T/cs.sp.maxk_7" || fail "compat sweep differs from a compat run"

# --compat: run r, restart t uses seed seedkm + numInitSeeds*r + 2t (SimPoint 3.2's sequence)
base -maxK 10 --compat -numInitSeeds 4 -seedkm 1000 -json "$T/cp.json"
if command -v python3 > /dev/null; then
    python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
for r, run in enumerate(d["runs"]): assert run["seed"] == 1000 + 4 * r + 2 * run["restart"], (r, run)' "$T/cp.json" \
        || fail "compat seeds"
fi

# JSON summary: parseable, with the promised fields
if command -v python3 > /dev/null; then
    python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert d["input"]["intervals"] == 600; assert d["chosen_k"] >= 1; assert all("bic" in r for r in d["runs"]); assert d["performance"]["total_seconds"] >= 0' "$T/all.json" || fail "JSON summary"
fi
echo "simpoint_options: ok"

# Two outputs on one file (issue 35 D8): refused before any work, however the
# file is named; nothing written. /dev/null may be shared.
(
    cd "$T" && touch old && ln -s old link
    for pair in "-saveSimpoints x -saveLabels x" "-saveSimpointWeights old --json link" "--sweep-table ./x -saveLabels x"; do
        set +e; base -maxK 3 $pair > /dev/null 2> err.txt; st=$?; set -e
        [ "$st" -eq 1 ] && grep -q "name the same file" err.txt || fail "simpoint $pair: status $st, $(cat err.txt)"
        [ ! -e x ] && [ ! -s old ] || fail "simpoint $pair wrote an output"
    done
    base -maxK 3 -saveSimpoints /dev/null -saveLabels /dev/null || fail "simpoint: /dev/null twice refused"
)
echo "ok   two outputs on one file are refused"
