/* sort: three sorting algorithms on different data distributions.
 *
 * Phases (one cycle per unit of SIZE), each on a fresh 20 000-element array:
 *     QUICK  quicksort (median of three, insertion sort below 16) on
 *            uniformly random keys
 *     MERGE  top-down mergesort on nearly sorted keys (1% swapped)
 *     HEAP   heapsort on keys with few distinct values (0..15)
 * Cycle: QUICK MERGE QUICK HEAP MERGE QUICK.  Every result is checked
 * for order; the checksum mixes sampled elements.
 *
 * Size (retired instructions, measured with bbv --count-only): 20.8 M at
 * SIZE=1 (the test size); 0.05 M + 20.7 M per unit of SIZE, so
 * SIZE=100 is about 2.1 G.
 */
#include "common.h"
#include <string.h>

#define N 20000

static uint32_t data[N], tmp[N];

static void fill_random(uint32_t *a, int n, uint64_t *st)
{
    for (int i = 0; i < n; i++)
        a[i] = wl_rand(st);
}

static void fill_nearly_sorted(uint32_t *a, int n, uint64_t *st)
{
    for (int i = 0; i < n; i++)
        a[i] = (uint32_t)i * 3;
    for (int k = 0; k < n / 100; k++) {
        int i = wl_rand(st) % n, j = wl_rand(st) % n;
        uint32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static void fill_few_unique(uint32_t *a, int n, uint64_t *st)
{
    for (int i = 0; i < n; i++)
        a[i] = wl_rand(st) & 15;
}

static void insertion_sort(uint32_t *a, int n)
{
    for (int i = 1; i < n; i++) {
        uint32_t v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static void quick_sort(uint32_t *a, int n)
{
    while (n > 16) {
        int m = n / 2;
        /* median of three into a[m] */
        if (a[0] > a[m]) { uint32_t t = a[0]; a[0] = a[m]; a[m] = t; }
        if (a[m] > a[n - 1]) { uint32_t t = a[m]; a[m] = a[n - 1]; a[n - 1] = t; }
        if (a[0] > a[m]) { uint32_t t = a[0]; a[0] = a[m]; a[m] = t; }
        uint32_t pivot = a[m];
        int i = 0, j = n - 1;
        for (;;) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i >= j)
                break;
            uint32_t t = a[i]; a[i] = a[j]; a[j] = t;
            i++;
            j--;
        }
        /* recurse on the smaller part, loop on the larger */
        int left = j + 1;
        if (left < n - left) {
            quick_sort(a, left);
            a += left;
            n -= left;
        } else {
            quick_sort(a + left, n - left);
            n = left;
        }
    }
    insertion_sort(a, n);
}

static void merge_sort(uint32_t *a, uint32_t *t, int n)
{
    if (n < 2)
        return;
    int h = n / 2;
    merge_sort(a, t, h);
    merge_sort(a + h, t, n - h);
    if (a[h - 1] <= a[h])
        return;                                 /* already in order */
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        t[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < h)
        t[k++] = a[i++];
    while (j < n)
        t[k++] = a[j++];
    memcpy(a, t, (size_t)n * sizeof *a);
}

static void sift_down(uint32_t *a, int root, int n)
{
    for (;;) {
        int c = 2 * root + 1;
        if (c >= n)
            return;
        if (c + 1 < n && a[c + 1] > a[c])
            c++;
        if (a[root] >= a[c])
            return;
        uint32_t t = a[root]; a[root] = a[c]; a[c] = t;
        root = c;
    }
}

static void heap_sort(uint32_t *a, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--)
        sift_down(a, i, n);
    for (int e = n - 1; e > 0; e--) {
        uint32_t t = a[0]; a[0] = a[e]; a[e] = t;
        sift_down(a, 0, e);
    }
}

static uint64_t check(const uint32_t *a, int n)
{
    uint64_t sum = 0;
    for (int i = 1; i < n; i++)
        if (a[i - 1] > a[i]) {
            printf("NOT SORTED at %d\n", i);
            exit(1);
        }
    for (int i = 0; i < n; i += 97)
        sum = wl_mix(sum, a[i]);
    return sum;
}

int main(int argc, char **argv)
{
    long size = wl_size(argc, argv);
    uint64_t st = 2024;
    uint64_t q = 0, m = 0, h = 0;
    for (long u = 0; u < size; u++) {
        for (int k = 0; k < 6; k++) {
            switch ("QMQHMQ"[k]) {
            case 'Q':
                fill_random(data, N, &st);
                quick_sort(data, N);
                q = wl_mix(q, check(data, N));
                break;
            case 'M':
                fill_nearly_sorted(data, N, &st);
                merge_sort(data, tmp, N);
                m = wl_mix(m, check(data, N));
                break;
            case 'H':
                fill_few_unique(data, N, &st);
                heap_sort(data, N);
                h = wl_mix(h, check(data, N));
                break;
            }
        }
    }
    wl_print("quicksort", q);
    wl_print("mergesort", m);
    wl_print("heapsort", h);
    return 0;
}
