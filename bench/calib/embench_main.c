/* embench_main.c: a Linux user-mode harness for one Embench-IoT benchmark
 * (bench/calib). Embench's own support/main.c and board files target bare
 * metal boards; this harness calls the benchmark through the interface its
 * support.h declares and reports through the exit status, which sim records
 * in its result JSON: 0 when verify_benchmark accepts the result.
 *
 * Built with -DGLOBAL_SCALE_FACTOR and -DWARMUP_HEAT (Embench's defaults: 1
 * and 1), as Embench's build passes them. */
#include <stdio.h>
#include "support.h"

/* The board hooks: nothing to set up, and the simulator measures the whole
 * run, so the triggers that would start and stop a timer do nothing. */
void initialise_board(void) {}
void start_trigger(void) {}
void stop_trigger(void) {}

int main(void)
{
    volatile int result; /* volatile: the benchmark's result must be computed */

    initialise_board();
    initialise_benchmark();
    warm_caches(WARMUP_HEAT);
    start_trigger();
    result = benchmark();
    stop_trigger();
    if (!verify_benchmark(result)) {
        fprintf(stderr, "embench: verify_benchmark failed (result %d)\n", result);
        return 1;
    }
    return 0;
}
