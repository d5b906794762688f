/* What the functional pass of a chunked full run did to the host's paths,
 * for the chunks restored before it did it (issue 38).
 *
 * A chunk is simulated from a checkpoint while (or after) the pass runs on:
 * it must see the host's files as they were at its checkpoint, not as the
 * pass has left them since. So the pass records, just before it first
 * changes a path after each checkpoint (creates, truncates, removes or
 * renames over it), what the path was: nothing, a regular file (kept in the
 * history: a hard link to it, or a copy when the change truncates it in
 * place) or something else (a directory, a symbolic link). A chunk restored
 * at instruction C looks a path up on the host first, then in the history:
 * the first record at or after C is what the path was at C; without one the
 * host's path is as it was then (the record is written before the change,
 * so a lookup never sees a change without its record).
 *
 * The history is a directory beside the checkpoints: "journal", the records
 * in the order the pass made them, and the files they keep, numbered
 * (checkpoint/FORMAT.md, "File history"). What the pass writes into a file
 * in place, without truncating it, is not recorded, and a file the chunk
 * has open from its checkpoint on is the host's: the checkpoint carries the
 * files the program has open for writing, and a chunk that reads one the
 * pass has changed since ends elsewhere than the pass (sim says so). */
#ifndef RV_PATH_HISTORY_H
#define RV_PATH_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------ the pass: recording */

typedef struct path_recorder path_recorder;

/* A new, empty history in the directory dir, made if needed (dies with the
 * reason when it cannot be); temporary: removed with the command's outputs
 * if it fails (outfile_track). */
path_recorder *path_history_create(const char *dir, bool temporary);
/* The history's directory. */
const char *path_recorder_dir(const path_recorder *r);
/* A checkpoint was taken: the next change of every path is recorded. */
void path_history_mark(path_recorder *r);

enum path_change {
    PATH_CREATE,   /* may create it (open O_CREAT, mkdir, link, symlink): nothing to keep if there */
    PATH_TRUNCATE, /* empties the file in place (open O_TRUNC): kept as a copy */
    PATH_REMOVE,   /* the name will stop naming what it names (unlink, rename from or over) */
};
/* The pass is about to change the path (relative to dirfd) with the system
 * call at instruction `at`. */
void path_history_before(path_recorder *r, uint64_t at, int dirfd, const char *path, enum path_change how);
/* The pass ends before the program does (checkpoint's, at its last
 * point): every path it changed goes back to what it was when it began,
 * as a program that did not run would leave it, the changes recorded
 * (at instruction `at`) for the runs restored from its checkpoints. What
 * it wrote into a file in place stays written, and the directories it made
 * stay (a checkpoint's working directory may be one). */
void path_history_undo(path_recorder *r, uint64_t at);
/* Closes the journal; the directory stays (path_history_remove). */
void path_recorder_close(path_recorder *r);

/* On stable storage, as far as recorded (for readers on other hosts). */
void path_history_sync(const char *dir);
/* Remove a history's directory and what it holds. */
void path_history_remove(const char *dir);

/* ------------------------------------------------- a chunk: consulting */

typedef struct path_view path_view;

/* The history in dir as a run restored at instruction `since` sees it: NULL
 * with the reason when it cannot be read. */
path_view *path_history_open(const char *dir, uint64_t since, char *err, size_t errlen);

enum path_then {
    PATH_AS_NOW,   /* not changed since: the host's path is what it was */
    PATH_ABSENT,   /* nothing was there */
    PATH_FILE,     /* a regular file, whose bytes the history keeps (*kept: its path) */
    PATH_OTHER,    /* something else was there (a directory, a symbolic link) */
};
/* What the canonical path `target` was at the view's instruction; call
 * after looking the host's path up. kept: PATH_MAX bytes. */
enum path_then path_history_then(path_view *v, const char *target, char *kept);
/* A run that goes on from the view's instruction on the host's files
 * (checkpoint --run): every path the pass changed since goes back to what
 * it was then (directories and links as they are). allowed(ctx, path):
 * may the run write path. 0, or -1 with the reason. */
int path_history_put_back(path_view *v, bool (*allowed)(void *ctx, const char *path), void *ctx, char *err,
                          size_t errlen);
void path_view_close(path_view *v);

#endif
