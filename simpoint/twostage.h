/* Two-stage sampling (issue 37): after the points of a design have been
 * simulated, their CPIs say how far the estimate can be trusted, and where
 * more points would tighten it, without a full run.
 *
 * The design is SimPoint's: strata (the clusters written, --points' strata
 * among them), each standing in by its point, estimate sum_g W_g CPI_g: a
 * stratified sample of one interval per stratum. Were the point drawn at
 * random from its stratum, stratum g would leave the variance W_g^2 S_g^2,
 * S_g^2 the variance of CPI over its intervals. The proxy CPI x is known
 * for every interval; within a k-means cluster h (intervals running the
 * same code) CPI is taken as proportional to it, CPI = c_h x e^u, u what
 * the proxy does not see, with variance sigma^2. Then
 *
 *     S_g^2 = c_h^2 (P_g^2 + x_g^2 sigma^2)
 *
 * P_g^2 the variance of proxy CPI over the stratum (known), c_h the
 * geometric mean of CPI / proxy CPI at the cluster's points. sigma^2 comes
 * from the clusters with two points or more, whose log ratios differ by u
 * (and by how much their strata differ beyond their proxy CPI: it errs
 * wide): sum_h SS_h over sum_h (n_h - 1) degrees of freedom, the collapsed
 * strata estimator (Cochran 5A.12). Where no cluster has two points, the
 * clusters are collapsed in pairs, neighbours in proxy CPI at their points
 * (wider still: it holds how the clusters' ratios differ). Most designs
 * have few pairs, so
 * sigma^2 has a conjugate prior, a scaled inverse chi-square with prior_df
 * degrees of freedom and scale prior_sd^2, fitted by marginal likelihood to
 * the tuning set's points (bench/accuracy_eval.sh): the posterior is
 * (prior_df prior_sd^2 + sum SS_h) / (prior_df + sum (n_h - 1)). The 95%
 * interval is +- t x the standard error, t Student's quantile with
 * Satterthwaite's degrees of freedom for the variance (its sigma^2 part
 * estimated with prior_df + pairs): no constant is fitted to coverage.
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
    double level;        /* the interval's confidence (0.95) */
    double prior_df;     /* sigma^2's prior: its degrees of freedom */
    double prior_sd;     /* and its scale, sigma's prior guess (log ratio) */
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
    double df;           /* the variance's degrees of freedom (Satterthwaite's) */
    double z;            /* t's quantile at them */
    double pairs;        /* sigma^2's degrees of freedom from the points */
    double resid_ss;     /* and their sum of squares, sum_h SS_h */
    double resid_sd;     /* sigma, its posterior estimate */
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
