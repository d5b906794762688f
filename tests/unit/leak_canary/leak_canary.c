/* A unit test that leaks on purpose, run by `make san-test` through
 * tests/unit/run_sanitized.sh --expect-leak: proves that the runner's
 * handling of Criterion's own leak (tests/unit/main.c) leaves the leaks of
 * the tests themselves detected.  Not part of the unit tests. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static char *leak_canary_keep(size_t n)
{
    char *p = malloc(n);
    if (p) memset(p, 0x5a, n);
    return p;
}

Test(leak_canary, forgets_its_buffer)
{
    char *volatile p = leak_canary_keep(77);
    cr_assert_not_null(p);
    p = NULL;
}

Test(leak_canary, frees_its_buffer)
{
    char *p = leak_canary_keep(5);
    cr_assert_not_null(p);
    free(p);
}
