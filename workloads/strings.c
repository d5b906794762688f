/* strings: hashing and string processing over a generated text.
 *
 * A deterministic pseudo-English text (about 24 KB, words built from
 * syllables, one sentence per line) is generated once.  Phases:
 *     HASH   insert every word into an open-addressing hash table
 *            (FNV-1a) counting frequencies, then look up probe words
 *     TOKEN  strtok_r over a copy of the text, length histogram
 *     SEARCH strstr for several patterns, memcmp of line pairs
 *     REGEX  a tiny backtracking matcher (literals . * + ? ^ $) per line
 *     WC     a wc-like scan (ctype) of characters, words and lines
 * Cycle (per unit of SIZE): HASH TOKEN SEARCH HASH REGEX WC TOKEN REGEX.
 *
 * Size (retired instructions, measured with bbv --count-only): 34.1 M at
 * SIZE=1 (the test size); 0.48 M + 33.6 M per unit of SIZE, so
 * SIZE=100 is about 3.4 G.
 */
#include "common.h"
#include <ctype.h>
#include <string.h>

#define TEXT_MAX 32768
static char text[TEXT_MAX];
static char work[TEXT_MAX];
static size_t text_len;

static const char *syll[] = {"ka", "lo", "mi", "ne", "ru", "sta", "ther", "on",
                             "ing", "al", "pre", "vis", "tor", "en", "qu", "is"};

static void gen_text(uint64_t *st)
{
    size_t n = 0;
    while (n < TEXT_MAX - 200) {
        int words = 4 + wl_rand(st) % 10;
        for (int w = 0; w < words; w++) {
            int ns = 1 + wl_rand(st) % 3;
            for (int s = 0; s < ns; s++) {
                const char *p = syll[wl_rand(st) % 16];
                while (*p)
                    text[n++] = *p++;
            }
            if (w == 0)
                text[n - 1] = (char)toupper((unsigned char)text[n - 1]);
            text[n++] = (w + 1 < words) ? (wl_rand(st) % 9 == 0 ? ',' : ' ') : '.';
            if (text[n - 1] == ',')
                text[n++] = ' ';
        }
        text[n++] = '\n';
    }
    text[n] = '\0';
    text_len = n;
}

/* ---- HASH ---- */
#define HSIZE 4096
struct slot {
    char word[24];
    uint32_t count;
};
static struct slot table[HSIZE];

static uint32_t fnv1a(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static struct slot *lookup(const char *w, size_t n, int insert)
{
    uint32_t h = fnv1a(w, n) & (HSIZE - 1);
    for (;;) {
        struct slot *s = &table[h];
        if (s->word[0] == '\0') {
            if (!insert)
                return NULL;
            memcpy(s->word, w, n);
            s->word[n] = '\0';
            return s;
        }
        if (strlen(s->word) == n && memcmp(s->word, w, n) == 0)
            return s;
        h = (h + 1) & (HSIZE - 1);
    }
}

static uint64_t phase_hash(void)
{
    memset(table, 0, sizeof table);
    uint64_t sum = 0;
    size_t i = 0;
    while (i < text_len) {
        while (i < text_len && !isalpha((unsigned char)text[i]))
            i++;
        size_t j = i;
        while (j < text_len && isalpha((unsigned char)text[j]))
            j++;
        if (j > i && j - i < sizeof table[0].word)
            lookup(text + i, j - i, 1)->count++;
        i = j;
    }
    static const char *probes[] = {"kalo", "thering", "mi", "stastasta", "onal",
                                   "previs", "nothere", "quis", "torenru"};
    for (int r = 0; r < 40; r++)
        for (size_t p = 0; p < sizeof probes / sizeof *probes; p++) {
            struct slot *s = lookup(probes[p], strlen(probes[p]), 0);
            sum = wl_mix(sum, s ? s->count : 0);
        }
    for (int h = 0; h < HSIZE; h++)
        if (table[h].count)
            sum += (uint64_t)table[h].count * (uint64_t)h;
    return sum;
}

/* ---- TOKEN ---- */
static uint64_t phase_token(void)
{
    memcpy(work, text, text_len + 1);
    uint32_t hist[32] = {0};
    char *save = NULL;
    for (char *t = strtok_r(work, " ,.\n", &save); t; t = strtok_r(NULL, " ,.\n", &save))
        hist[strlen(t) & 31]++;
    uint64_t sum = 0;
    for (int i = 0; i < 32; i++)
        sum = wl_mix(sum, hist[i]);
    return sum;
}

/* ---- SEARCH ---- */
static uint64_t phase_search(void)
{
    static const char *pats[] = {"thering", "Kalo", "stavis", "qu", "ing.", "on, "};
    uint64_t sum = 0;
    for (int r = 0; r < 4; r++)
        for (size_t p = 0; p < sizeof pats / sizeof *pats; p++) {
            uint32_t hits = 0;
            for (const char *s = text; (s = strstr(s, pats[p])) != NULL; s++)
                hits++;
            sum = wl_mix(sum, hits);
        }
    /* compare each line with the next one */
    const char *prev = text;
    for (const char *nl = strchr(text, '\n'); nl && nl[1]; nl = strchr(nl + 1, '\n')) {
        const char *cur = nl + 1;
        size_t la = (size_t)(nl - prev), lb = strcspn(cur, "\n");
        int c = memcmp(prev, cur, la < lb ? la : lb);
        sum = wl_mix(sum, (uint64_t)(c < 0 ? 1 : c > 0 ? 2 : 3));
        prev = cur;
    }
    return sum;
}

/* ---- REGEX: c matches literally, '.' any char, x* x+ x? repeat x;
 * '^' anchors at the start, '$' at the end of the subject. ---- */
static int match_here(const char *re, const char *s, const char *end);

static int match_repeat(char c, int min, const char *re, const char *s, const char *end)
{
    const char *t = s;
    while (t < end && (*t == c || c == '.'))
        t++;                                     /* greedy, then back off */
    for (; t >= s + min; t--)
        if (match_here(re, t, end))
            return 1;
    return 0;
}

static int match_here(const char *re, const char *s, const char *end)
{
    for (;;) {
        if (re[0] == '\0')
            return 1;
        if (re[1] == '*')
            return match_repeat(re[0], 0, re + 2, s, end);
        if (re[1] == '+')
            return match_repeat(re[0], 1, re + 2, s, end);
        if (re[1] == '?') {
            if (s < end && (re[0] == '.' || *s == re[0]) && match_here(re + 2, s + 1, end))
                return 1;
            re += 2;
            continue;
        }
        if (re[0] == '$' && re[1] == '\0')
            return s == end;
        if (s < end && (re[0] == '.' || re[0] == *s)) {
            re++;
            s++;
            continue;
        }
        return 0;
    }
}

static int re_match(const char *re, const char *s, const char *end)
{
    if (re[0] == '^')
        return match_here(re + 1, s, end);
    do {
        if (match_here(re, s, end))
            return 1;
    } while (s++ < end);
    return 0;
}

static uint64_t phase_regex(void)
{
    static const char *res[] = {"^K.*ing", "the+r", "o.?n,", "sta.*vis",
                                "qu.s", "ru.*ru.*ru", "ing.$", "^Qu.*,.*,"};
    uint64_t sum = 0;
    for (size_t r = 0; r < sizeof res / sizeof *res; r++) {
        uint32_t n = 0;
        const char *line = text;
        while (*line) {
            const char *end = strchr(line, '\n');
            if (re_match(res[r], line, end))
                n++;
            line = end + 1;
        }
        sum = wl_mix(sum, n);
    }
    return sum;
}

/* ---- WC ---- */
static uint64_t phase_wc(void)
{
    uint64_t chars = 0, words = 0, lines = 0, upper = 0, punct = 0;
    for (int r = 0; r < 3; r++) {
        int inword = 0;
        for (size_t i = 0; i < text_len; i++) {
            unsigned char c = (unsigned char)text[i];
            chars++;
            if (c == '\n')
                lines++;
            if (isupper(c))
                upper++;
            if (ispunct(c))
                punct++;
            if (isspace(c))
                inword = 0;
            else if (!inword) {
                inword = 1;
                words++;
            }
        }
    }
    return wl_mix(wl_mix(wl_mix(wl_mix(chars, words), lines), upper), punct);
}

int main(int argc, char **argv)
{
    long size = wl_size(argc, argv);
    uint64_t st = 99;
    gen_text(&st);
    uint64_t h = 0, t = 0, s = 0, r = 0, w = 0;
    for (long u = 0; u < size; u++) {
        text[u % text_len] = (text[u % text_len] == 'a') ? 'o' : text[u % text_len];
        h = wl_mix(h, phase_hash());
        t = wl_mix(t, phase_token());
        s = wl_mix(s, phase_search());
        h = wl_mix(h, phase_hash());
        r = wl_mix(r, phase_regex());
        w = wl_mix(w, phase_wc());
        t = wl_mix(t, phase_token());
        r = wl_mix(r, phase_regex());
    }
    wl_print("hash", h);
    wl_print("tokenise", t);
    wl_print("search", s);
    wl_print("regex", r);
    wl_print("wordcount", w);
    return 0;
}
