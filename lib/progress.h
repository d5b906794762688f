/* Progress lines on stderr for long runs: shown when stderr is a terminal or
 * when forced (--progress), otherwise silent. */
#ifndef RV_PROGRESS_H
#define RV_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct progress {
    bool enabled;
    bool tty;
    double start, last;
    uint64_t total; /* expected instructions, 0 if unknown (no ETA) */
    const char *what;
} progress;

/* force: --progress given. total: expected work in instructions or 0. */
void progress_init(progress *p, const char *what, bool force, uint64_t total);
/* Cheap to call often: prints at most twice a second. */
void progress_update(progress *p, uint64_t done);
/* Clear the status line on the terminal, if one is shown, so that the
 * guest's output does not run into it (it is drawn again at the next
 * update). Cheap when there is nothing to clear. */
void progress_clear(void);
/* Final line (terminal: clears the status line). */
void progress_finish(progress *p, uint64_t done);

#endif
