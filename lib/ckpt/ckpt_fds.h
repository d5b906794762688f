/* The open descriptors of a checkpointed process (the "files" list of the OS
 * section). Each guest descriptor is one of:
 *   std   the emulator's own stdin/stdout/stderr: the restoring run's are used;
 *         a regular-file stdin resumes at its offset, a piped stdin carries
 *         what the program has not read yet (see ckpt_fds_spool_stdin);
 *   file  a regular file reopened by path at its offset; in a chunk's
 *         checkpoint one the program writes also carries its contents
 *         ("data", up to CKPT_MAX_FILE_CONTENTS): restored as a private
 *         copy of them, the host's file left alone;
 *   dir   a directory reopened by path at its getdents position;
 *   dev   /dev/null, /dev/zero, /dev/full, /dev/random or /dev/urandom;
 *   pipe  one end of a pipe the program created, with the bytes it holds;
 *   fifo  a named FIFO reopened by path, with the bytes it holds;
 *   data  a file no path names any more (deleted, memfd, a generated
 *         /proc/self file): its contents travel in the checkpoint;
 * and may share its open file description (offset, flags) with a lower one
 * ("same_as": dup, dup2, F_DUPFD). Anything else is refused when the
 * checkpoint is taken, so that every checkpoint written can be restored.
 * Bytes (pipe contents, unread stdin, data files, carried files) go to the
 * FDAT section. */
#ifndef RV_CKPT_FDS_H
#define RV_CKPT_FDS_H

#include <jansson.h>
#include <stddef.h>

#include "proc.h"

/* Bytes carried besides memory pages: entries refer to [offset, length). */
typedef struct ckpt_blob {
    unsigned char *data;
    size_t len, cap;
} ckpt_blob;

/* At most this many bytes of descriptor data per checkpoint. */
#define CKPT_MAX_FD_DATA (UINT64_C(1) << 30)
/* A file the program writes is carried by its contents up to this size
 * when it may read it back too (O_RDWR), up to the smaller one when it only
 * writes it (an output the program does not read: carried by every chunk's
 * checkpoint, its bytes would cost the functional pass in proportion to the
 * output times the chunks); a larger one is reopened by path. */
#define CKPT_MAX_FILE_CONTENTS (UINT64_C(64) << 20)
#define CKPT_MAX_WRITTEN_CONTENTS (UINT64_C(1) << 20)

/* A process whose stdin is a pipe, FIFO or socket: read it to its end into a
 * private file that fd 0 then reads on, so that the checkpoint can carry
 * what the program has not read yet and the run goes on unchanged. Idempotent.
 * 0, or -1 with a reason (too large, read error). */
int ckpt_fds_spool_stdin(rv_proc *p, char *err, size_t errlen);

/* Describe every open descriptor; data goes to blob (with carry_written,
 * the contents of the regular files the program writes too). NULL with the
 * reason when one could not be restored. */
json_t *ckpt_fds_save(const rv_proc *p, ckpt_blob *blob, bool carry_written, char *err, size_t errlen);

/* A chunk's checkpoint is restored into a run kept apart from the host's
 * files (lib/sys/sys_apart.c): the OS section's "apart" object, whose
 * "history" names the functional pass's file history (lib/sys/path_history.c),
 * a directory beside the checkpoint, when the pass keeps one (os->history,
 * which learns that a checkpoint was taken). */
json_t *ckpt_apart_save(const rv_os *os);
/* 0 when apart is absent (the files are the host's) or well formed, else -1 with the reason. */
int ckpt_apart_check(json_t *apart, char *err, size_t errlen);
/* os kept apart as the (checked) object says (absent: not), seeing the
 * history as it was at instruction `since` (none beside the checkpoint: the
 * host's paths as they are); -1 with the reason when it cannot be read. */
int ckpt_apart_restore(rv_os *os, json_t *apart, const char *ckpt_path, uint64_t since, char *err, size_t errlen);

/* The same for a run that goes on on the host's files (checkpoint --run,
 * rv_proc_options.host_files): not kept apart, but the paths the pass
 * changed after the checkpoint are put back as they were there first
 * (path_history_put_back), those p may write. 0, or -1 with the reason. */
int ckpt_host_files_restore(rv_proc *p, json_t *apart, const char *ckpt_path, uint64_t since, char *err,
                            size_t errlen);

/* The structure of a saved list (what --info can check without the host). */
int ckpt_fds_check(json_t *files, size_t blob_len, char *err, size_t errlen);

/* Reopen the descriptors in p (after rv_proc_prepare): paths are untrusted,
 * so files that may be written must be in the writable directories, and
 * each reopened path must still be what was saved (a file, a directory, the
 * device). 0, or -1 with a one-line reason. */
int ckpt_fds_restore(rv_proc *p, json_t *files, const unsigned char *blob, size_t blob_len, char *err,
                     size_t errlen);

/* The file locks held and the last open-file-description number given
 * (lock owners are such numbers, kept by the restored descriptors). */
json_t *ckpt_locks_save(const rv_os *os);
/* 0, or -1 with a reason; NULL j (an older checkpoint): no locks. */
int ckpt_locks_restore(rv_os *os, json_t *j, char *err, size_t errlen);

/* Append len bytes to the blob; false when CKPT_MAX_FD_DATA would be passed. */
bool ckpt_blob_append(ckpt_blob *b, const void *data, size_t len);
void ckpt_blob_free(ckpt_blob *b);

#endif
