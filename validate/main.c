/* validate: ROIperf-style validation of SimPoint sampling against a full
 * detailed run. Options only; the work is in the modules (run.c drives them). */
#include "options.h"
#include "run.h"
#include "util.h"

int main(int argc, char **argv)
{
    util_progname = "validate";
    vd_options o;
    if (!vd_options_parse(&o, argc, argv))
        return 0;
    int status = o.sweep ? vd_run_sweep(&o) : vd_run_single(&o);
    vd_options_free(&o);
    return status;
}
