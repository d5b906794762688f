/* simpoint: choose simulation points from basic-block vectors (SimPoint 3.2
 * compatible). Options only; the work is in the modules (run.c drives them). */
#include "options.h"
#include "session.h"
#include "util.h"

int main(int argc, char **argv)
{
    util_progname = "simpoint";
    sp_options o;
    sp_options_defaults(&o);
    if (!sp_options_parse(&o, argc, argv))
        return 0;
    int status = simpoint_run(&o);
    sp_options_free(&o);
    return status;
}
