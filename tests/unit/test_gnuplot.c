#include <criterion/criterion.h>
#include <string.h>

#include "gnuplot.h"

Test(gnuplot, text_cannot_run_commands_or_end_the_string)
{
    char buf[64];
    cr_expect_str_eq(gnuplot_text(buf, sizeof buf, "a`touch x`b"), "a'touch x'b");
    cr_expect_str_eq(gnuplot_text(buf, sizeof buf, "say \"hi\\\""), "say 'hi/'");
    cr_expect_str_eq(gnuplot_text(buf, sizeof buf, "two\nlines\t\x7f"), "two?lines??");
    cr_expect_str_eq(gnuplot_text(buf, sizeof buf, "$(id) @macro 'q' %d"), "$(id) @macro 'q' %d", "taken literally");
}

Test(gnuplot, text_is_truncated_to_the_buffer)
{
    char buf[4];
    cr_expect_str_eq(gnuplot_text(buf, sizeof buf, "abcdef"), "abc");
    cr_expect_str_eq(gnuplot_text(buf, sizeof buf, NULL), "");
    cr_expect_eq(gnuplot_text(buf, 0, "x"), buf, "nothing written into no room");
}
