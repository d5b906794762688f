#!/usr/bin/env bash
# Outputs are byte-identical for any thread count and for both k-means
# variants (Hamerly's bounds are exact), in search, list, sweep and compat modes.
source "$(dirname "$0")/lib.sh"
SP=$BIN/simpoint
gcc -std=c11 -D_GNU_SOURCE -O2 "$TOP/bench/gen_bb.c" -o "$T/gen_bb" -lz
# overlapping phases (high noise): many k-means iterations, many changes of label
"$T/gen_bb" -n 4000 -b 5000 -p 9 -m 40 -e 0.9 -s 3 -o "$T/in.bb"

run() { # run DIR ARGS...
    local d=$T/$1; shift
    mkdir -p "$d"
    "$SP" -loadFVFile "$T/in.bb" -saveSimpoints "$d/sp" -saveSimpointWeights "$d/w" -saveLabels "$d/l" \
        -saveFinalCtrs "$d/fc" -coveragePct 0.9 "$@"
}
for mode in "search:-maxK 25 -saveAll" "list:-k 2:3:20,33" "compat:-maxK 25 --compat -fixedLength off" \
            "ff:-maxK 12 -initkm ff -dim 40" "pp:-maxK 12 -initkm pp -sampleSize 1500" \
            "sweep:--sweep-max-k 2..12:5 --sweep-bic 0.8,0.95 --sweep-table SWEEP"; do
    name=${mode%%:*} args=${mode#*:}
    args=${args//SWEEP/$T/NAME/table.csv}
    OMP_NUM_THREADS=1 run "$name.t1" ${args//NAME/$name.t1}
    OMP_NUM_THREADS=2 run "$name.t2" ${args//NAME/$name.t2} --kmeans hamerly
    OMP_NUM_THREADS=2 run "$name.lloyd" ${args//NAME/$name.lloyd} --kmeans lloyd
    [ -n "$(ls "$T/$name.t1")" ] || fail "$name: no outputs"
    diff -r "$T/$name.t1" "$T/$name.t2" > /dev/null || fail "$name: 1 vs 2 threads differ"
    diff -r "$T/$name.t1" "$T/$name.lloyd" > /dev/null || fail "$name: hamerly vs lloyd differ"
done
# --threads overrides OMP_NUM_THREADS, same result
OMP_NUM_THREADS=1 run threads --threads 2 -maxK 25 -saveAll
diff -r "$T/search.t1" "$T/threads" > /dev/null || fail "--threads 2 differs"
echo "simpoint_determinism: ok"
