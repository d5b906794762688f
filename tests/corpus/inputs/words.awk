# Word frequencies of the text on standard input, the 10 most frequent.
{ for (i = 1; i <= NF; i++) { w = tolower($i); gsub(/[^a-z0-9]/, "", w); if (w != "") f[w]++ } }
END {
    for (k = 0; k < 10; k++) {
        best = ""; for (w in f) if (best == "" || f[w] > f[best] || (f[w] == f[best] && w < best)) best = w
        printf "%5d %s\n", f[best], best; delete f[best]
    }
}
