/* The stratified estimate of CPI and its 95% confidence interval from the
 * regions alone: clusters as strata, each measured by its representative and
 * the extra members checkpoint --extra-per-cluster drew at random. With one
 * member of a cluster simulated, its spread is unknown and no interval can
 * be given; the reason says which cluster. */
#ifndef SIM_STRATIFY_H
#define SIM_STRATIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "run.h"

typedef struct stratified {
    bool given;            /* an interval could be computed */
    double cpi, lo, hi;    /* sum_c W_c mean_c / sum W, and the 95% interval */
    size_t clusters, members;
    char why[192];         /* when not given */
} stratified;

stratified stratify(const sim_result *res, size_t n);

#endif
