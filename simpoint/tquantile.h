/* Quantiles of Student's t distribution, for intervals whose variance is
 * estimated from few points (twostage.h). */
#ifndef SP_TQUANTILE_H
#define SP_TQUANTILE_H

/* The p-quantile (0.5 <= p < 1) of Student's t with df > 0 degrees of
 * freedom (not necessarily whole: Satterthwaite's), accurate to about 1e-6;
 * infinite df: the normal's. */
double t_quantile(double p, double df);

#endif
