# Per-region totals and CPI statistics of a CSV log (floating point, printf).
NR > 1 {
    cpi = $5 / $4
    n[$2]++; insts[$2] += $4; cycles[$2] += $5
    sum[$2] += cpi; sq[$2] += cpi * cpi
    if (!($2 in lo) || cpi < lo[$2]) lo[$2] = cpi
    if (cpi > hi[$2]) hi[$2] = cpi
    prog[$3] += $4
}
END {
    for (r in n) {
        mean = sum[r] / n[r]
        printf "%-6s %5d rows  CPI %.6f  mean %.6f  sd %.6f  range %.4f..%.4f\n", r, n[r],
            cycles[r] / insts[r], mean, sqrt(sq[r] / n[r] - mean * mean), lo[r], hi[r]
    }
    for (p in prog) if (prog[p] > best) { best = prog[p]; top = p }
    printf "busiest program: %s (%d instructions)\n", top, best
}
