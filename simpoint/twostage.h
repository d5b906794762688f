/* Two-stage sampling (issue 37): after the points of a design have been
 * simulated, their CPIs say how far the estimate can be trusted, and where
 * more points would tighten it, without a full run.
 *
 * The design is SimPoint's: strata (the clusters written, --points' strata
 * among them), each standing in by its point, estimate sum_g W_g CPI_g.
 * A stratum g leaves the variance W_g^2 f_h M_g, where
 *
 *     M_g = kappa^2 P_g^2 + rho^2
 *
 * is what the proxy predicts: P_g the spread of proxy CPI over its
 * intervals, kappa how much CPI varies per unit of proxy CPI, rho the spread
 * the proxy does not see (both relative to the estimate). The points say how
 * far to believe it. Where a k-means cluster h has two points or more, they
 * measure its spread of CPI (sum of squares Syy_h about their mean, df_h
 * degrees of freedom) and of proxy CPI (Sxx_h): the program's kappa^2 is
 * sum Syy / sum Sxx, drawn to a prior with the weight of kappa_weight pairs
 * 5% of the mean proxy CPI apart: the prior is the larger of kappa and of
 * how much more the points' CPIs vary than their proxy CPIs across the whole
 * design (by weight), so that a program whose clusters differ in CPI more
 * than their proxy says starts wide; and cluster h's factor f_h is its
 * measured spread against the model's, (nu_cluster M_h + Syy_h) /
 * ((nu_cluster + df_h) M_h), M_h the model's variance over the whole
 * cluster: the clusters whose points disagree more than their proxy CPIs
 * say get wider (and more points), those that agree narrower; the others
 * keep f = 1. The 95% interval is +- z x the standard error, z calibrated on
 * the tuning set (bench/accuracy_eval.sh).
 *
 * ts_refine, the second stage, splits strata where that variance is largest
 * until the predicted half-width is within the target or the budget is
 * spent: the widest stratum of a cluster is cut at its weighted median of
 * proxy CPI, the new point is the interval nearest the cluster's centre on
 * the side its point is not on, and the cluster's strata become the
 * intervals nearest each point in proxy CPI. Points already simulated keep
 * their stratum ids (their weights change); new ones get new ids. */
#ifndef SP_TWOSTAGE_H
#define SP_TWOSTAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "output.h"

typedef struct ts_model {
    double kappa;        /* CPI per unit of proxy CPI, before the points say (at least) */
    double kappa_weight; /* its weight: as many pairs of points 5% of the mean proxy CPI apart */
    double rho;          /* the spread the proxy does not see, relative to the CPI */
    double nu_cluster;   /* the model's weight in a cluster's spread, in degrees of freedom */
    double z;            /* the 95% interval's half-width in standard errors */
} ts_model;

extern const ts_model ts_model_default;

typedef struct ts_input {
    size_t n;
    const double *w;     /* interval weights, summing to 1 */
    const double *proxy; /* proxy CPI per interval */
    const double *dist2; /* squared distance to the k-means centre */
    const int *cluster;  /* k-means cluster per interval */
    const double *cpi;   /* measured CPI per interval, NAN where not simulated */
} ts_input;

typedef struct ts_interval {
    bool complete;       /* every point of the design measured */
    size_t points, measured;
    double estimate;     /* sum_g W_g CPI_g (complete designs) */
    double se, half;     /* relative standard error and 95% half-width */
    double kappa;        /* the program's, from its points */
    double pairs;        /* degrees of freedom of the clusters' disagreement */
} ts_interval;

/* The estimate and its interval for design ch. */
ts_interval ts_estimate(const ts_input *in, const sp_choice *ch, const ts_model *m);

/* Add points to ch until the predicted half-width is at most target
 * (relative; 0: no target, spend the budget) or it has budget points; every
 * point of ch must be measured. Returns how many were added (their strata
 * are ch's last ones); *half: the half-width predicted for the new design
 * from the points measured (NAN when they do not give an estimate). */
size_t ts_refine(const ts_input *in, sp_choice *ch, const ts_model *m, size_t budget, double target, double *half);

#endif
