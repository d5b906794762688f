/* qsort_bsearch: qsort of ints, doubles, strings and structs
 * (stability-independent keys), then bsearch hits and misses. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t st = 12345;
static uint32_t rnd(void)
{
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(st >> 32);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_double_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct rec {
    int key;
    char name[12];
};

static int cmp_rec(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return strcmp(x->name, y->name);
}

int main(void)
{
    enum { N = 50000 };
    static int v[N];
    for (int i = 0; i < N; i++)
        v[i] = (int)(rnd() % 1000000) - 500000;
    qsort(v, N, sizeof *v, cmp_int);
    int sorted = 1;
    for (int i = 1; i < N; i++)
        if (v[i - 1] > v[i])
            sorted = 0;
    printf("ints sorted: %s, min %d, median %d, max %d\n", sorted ? "yes" : "no", v[0],
           v[N / 2], v[N - 1]);

    int hits = 0, misses = 0;
    for (int k = -500000; k < 500000; k += 37) {
        int *f = bsearch(&k, v, N, sizeof *v, cmp_int);
        if (f) {
            hits++;
            if (*f != k)
                printf("bsearch returned wrong element\n");
        } else
            misses++;
    }
    printf("bsearch: %d hits, %d misses\n", hits, misses);
    int first = v[0], last = v[N - 1], out = 600000;
    printf("bsearch first/last/absent: %s %s %s\n",
           bsearch(&first, v, N, sizeof *v, cmp_int) ? "found" : "missing",
           bsearch(&last, v, N, sizeof *v, cmp_int) ? "found" : "missing",
           bsearch(&out, v, N, sizeof *v, cmp_int) ? "found" : "missing");

    static double d[1000];
    for (int i = 0; i < 1000; i++)
        d[i] = (rnd() % 100000) / 7.0 - 5000.0;
    qsort(d, 1000, sizeof *d, cmp_double_desc);
    printf("doubles descending: first %.6f last %.6f\n", d[0], d[999]);

    static const char *words[] = {"pear", "apple", "fig", "banana", "kiwi", "cherry",
                                  "date", "grape", "lemon", "mango", "apple2", "Zebra"};
    const char *w[12];
    memcpy(w, words, sizeof w);
    qsort(w, 12, sizeof *w, cmp_str);
    printf("strings:");
    for (int i = 0; i < 12; i++)
        printf(" %s", w[i]);
    printf("\n");
    const char *key = "kiwi";
    const char **f = bsearch(&key, w, 12, sizeof *w, cmp_str);
    printf("bsearch kiwi at index %d\n", f ? (int)(f - w) : -1);

    static struct rec r[2000];
    for (int i = 0; i < 2000; i++) {
        r[i].key = (int)(rnd() % 50);
        snprintf(r[i].name, sizeof r[i].name, "n%05u", rnd() % 100000);
    }
    qsort(r, 2000, sizeof *r, cmp_rec);
    unsigned long h = 0;
    for (int i = 0; i < 2000; i++)
        h = h * 31 + (unsigned long)r[i].key + (unsigned char)r[i].name[3];
    printf("structs: first %d/%s last %d/%s hash %lu\n", r[0].key, r[0].name, r[1999].key,
           r[1999].name, h);
    qsort(r, 0, sizeof *r, cmp_rec);               /* empty array */
    printf("empty qsort: ok\n");
    return 0;
}
