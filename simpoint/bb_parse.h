/* The SimPoint .bb text format, one interval per "T" line:
 *     T:id:count :id:count ...
 * Spacing is free, ids are unsorted non-negative integers, counts are
 * non-negative numbers (instructions executed in the block). Other lines
 * (comments, PinPoints markers, Valgrind trailers) are not intervals. */
#ifndef SP_BB_PARSE_H
#define SP_BB_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define BB_MAX_ID 0x7fffffffu

typedef struct bb_pair {
    uint32_t id;
    double count;
} bb_pair;

/* What one parsed T line holds, besides its pairs. */
typedef struct bb_line_info {
    size_t npairs;
    uint32_t min_id, max_id;
    double sum; /* counts summed in file order */
    const char *error; /* NULL, or a static description of the first problem */
    size_t error_col;  /* 1-based column of the problem */
} bb_line_info;

/* Most pairs a line of len bytes can hold (every pair takes at least ":i:c"). */
static inline size_t bb_max_pairs(size_t len)
{
    return len / 4 + 1;
}

/* Parse the T line s[0..len) (no newline) into pairs, which must have room for
 * bb_max_pairs(len). Returns false and fills info->error on malformed input. */
_Bool bb_parse_interval(const char *s, size_t len, bb_pair *pairs, bb_line_info *info);

/* If s[0..len) is our bbv's "# partial interval: <len> instructions" comment,
 * return that length, else 0. */
uint64_t bb_partial_marker(const char *s, size_t len);

#endif
