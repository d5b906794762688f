/* The unit tests' runner: Criterion's own main, but for one thing under
 * LeakSanitizer.  Criterion 2.4's runner leaks a few bytes of its own
 * (48 in criterion_run_all_tests with --jobs 2), which would fail every
 * sanitizer run.  Leak checking is switched off for the runner's thread
 * while it runs the tests, and only there: the tests themselves run in
 * worker processes that Criterion starts without passing through main, so
 * their leaks are still found (and tests/unit/run_sanitized.sh fails on
 * them).  An LSan suppression could not be this precise: every test's
 * allocations have libcriterion frames on their stack too. */
#include <criterion/criterion.h>
#include <stdbool.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define RUNNER_LEAKS_IGNORED_BEGIN() __lsan_disable()
#define RUNNER_LEAKS_IGNORED_END() __lsan_enable()
#else
#define RUNNER_LEAKS_IGNORED_BEGIN() ((void)0)
#define RUNNER_LEAKS_IGNORED_END() ((void)0)
#endif

int main(int argc, char *argv[])
{
    struct criterion_test_set *tests = criterion_initialize();
    int status = 0;
    if (criterion_handle_args(argc, argv, true)) {
        RUNNER_LEAKS_IGNORED_BEGIN();
        status = criterion_run_all_tests(tests) ? 0 : 1;
        RUNNER_LEAKS_IGNORED_END();
    }
    criterion_finalize(tests);
    return status;
}
