/* The process state a checkpoint keeps besides memory and files (inside the
 * OS section): signal actions, masks, pending signals, the alternate stack,
 * timers, and the process group, session, limits and name. */
#ifndef RV_CKPT_TASK_H
#define RV_CKPT_TASK_H

#include <jansson.h>
#include <stddef.h>

#include "proc.h"

json_t *ckpt_task_json(const rv_proc *p);
/* Restore it from the OS section (j: its "task" member; NULL in checkpoints
 * older than it, which only recorded the signal actions in "sigactions").
 * 0, or -1 with a one-line reason. */
int ckpt_task_restore(rv_proc *p, json_t *j, json_t *legacy_sigactions, char *err, size_t errlen);

/* The checkpoint's JSON encoding of 64-bit values (ckpt.c): hex strings,
 * read back from strings or integers; get_u64 clears *ok when absent. */
json_t *json_u64(uint64_t v);
uint64_t get_u64(json_t *obj, const char *key, bool *ok);

#endif
