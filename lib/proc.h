/* A guest process: architectural state, memory, operating-system state and
 * the decoded-code cache, plus how it stopped. */
#ifndef RV_PROC_H
#define RV_PROC_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "decode.h"
#include "mem.h"
#include "sig/sig.h"

typedef struct rv_cpu {
    uint64_t x[33];   /* x[32] absorbs writes to x0 (RV_X_SINK) */
    uint64_t f[32];   /* raw 64-bit; single values NaN-boxed */
    uint64_t pc;
    uint64_t block_pc; /* start of the decoded block pc is in when a run stopped
                          inside one (== pc at a block boundary), so a resumed run
                          sees the same blocks as an uninterrupted one */
    uint64_t icount;  /* retired instructions */
    uint32_t fflags;  /* accrued exceptions */
    uint32_t frm;     /* dynamic rounding mode */
    uint64_t reservation, reservation_value; /* LR/SC address and the value loaded */
    bool has_reservation;
} rv_cpu;

/* A digest of the registers and pc: two runs at the same instruction count
 * with different digests went different ways (sim's chunks against the
 * functional pass). */
static inline uint64_t rv_cpu_digest(const rv_cpu *c)
{
    uint64_t h = c->pc * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 32; i++) h = (h ^ c->x[i]) * 0x100000001b3ull, h = (h ^ c->f[i]) * 0x100000001b3ull;
    return h ^ h >> 29;
}

enum { RV_MAX_FDS = 256 };

/* The guest's identity: its pid (a session and process group of their
 * own are made by setsid/setpgid), its parent's, and its uid and gid. */
enum { GUEST_PID = 1000, GUEST_PPID = 999, GUEST_UID = 1000 };

/* Where the guest finds its own program, whatever its host path: a run
 * must not depend on how the path was spelled or where the program lies
 * (the C library reads its own path). argv[0] is the name alone, as a
 * shell gives it for a program found on PATH. */
#define RV_GUEST_BIN "/guest/bin"

/* The guest's working directory at start, whatever directory the user runs
 * in: getcwd, /proc/self/cwd and every host path below the directory the
 * run started in read as paths below it (and paths the guest names below it
 * lead there), so that no count depends on where a tool was started. */
#define RV_GUEST_CWD "/guest/work"

typedef struct rv_file {
    int host_fd;  /* -1 when the guest descriptor is closed */
    int flags;    /* guest open flags */
    bool is_std;  /* one of the emulator's own stdin/stdout/stderr */
    char *path;   /* host path as opened (absolute), NULL for std streams */
    bool random;  /* /dev/random, /dev/urandom (or /dev/hwrng): reads come from
                     the guest's own stream (rng_state), never from the host */
    bool spooled; /* a piped stdin read ahead into a private file (ckpt_fds.h):
                     it still reads as a pipe */
    bool owned;   /* a standard stream on a host fd of its own (a spool, or a
                     restored stdin file), closed with the process */
    uint64_t ofd; /* its open file description (shared by dups), for locks; 0: unknown */
} rv_file;

/* A file lock (lib/sys/sys_lock.c): a byte range of a file, held by the
 * process (owner 0: its POSIX record locks) or by an open file description
 * (OFD record locks, and flock locks, which are apart from record locks). */
typedef struct rv_lock {
    uint64_t dev, ino;
    uint64_t owner;
    uint64_t start, end; /* inclusive; end UINT64_MAX: to the end of the file */
    uint8_t type;        /* F_RDLCK or F_WRLCK */
    bool flock;
} rv_lock;

enum { RV_NLIMITS = 16 }; /* RLIMIT_CPU .. RLIMIT_RTTIME */

/* What the process-attribute calls (setpgid, setrlimit, prctl, nice...)
 * set; it changes nothing else in the emulation but the descriptor limit. */
typedef struct rv_task {
    int32_t pgid, sid;     /* the parent's until setpgid/setsid */
    int32_t nice;
    int32_t pdeathsig;
    uint64_t rlimit[RV_NLIMITS][2]; /* soft, hard (UINT64_MAX: infinity) */
    char name[16];         /* PR_SET_NAME; the program's base name at first */
    bool dumpable, no_new_privs, child_subreaper;
    uint64_t timerslack_ns;
} rv_task;

/* A list of host paths (canonical). */
typedef struct rv_paths {
    char **v;
    size_t n;
} rv_paths;

typedef struct rv_os {
    rv_file files[RV_MAX_FDS];
    int cwd_fd;            /* host directory fd standing for the guest's cwd */
    char *cwd;             /* its absolute path as the guest sees it (getcwd) */
    char *cwd_root;        /* the host directory the guest knows as RV_GUEST_CWD;
                              NULL: none (restored from a checkpoint taken before
                              there was one: the guest sees host paths) */
    char **write_roots;    /* absolute directories the guest may modify */
    int nwrite_roots;
    uint64_t brk_start, brk;
    uint64_t mmap_top;     /* top-down mmap allocation starts below this */
    uint64_t stack_top;
    char *exe_path;        /* the program on the host (absolute) */
    char *guest_exe;       /* the path the guest knows it by: RV_GUEST_BIN "/" its name */
    char *cmdline, *environ; /* NUL-separated, as /proc/self/cmdline and environ show them */
    size_t cmdline_len, environ_len;
    uint64_t rng_state;    /* the deterministic random stream: getrandom, AT_RANDOM,
                              /dev/random and /dev/urandom */
    rv_sigstate sig;       /* actions, masks, pending signals, timers */
    uint64_t tid_address;
    rv_task task;          /* process group, session, limits, name, scheduling */
    rv_lock *locks;        /* the file locks held */
    size_t nlocks, cap_locks;
    uint64_t last_ofd;     /* the last open file description number given */
    uint64_t slept_ns;     /* sleeping advances the clock by the time asked for */
    bool syscall_enosys;   /* unknown system calls return -ENOSYS instead of stopping */
    bool strace;           /* every system call logged on stderr (--strace) */
    unsigned umask;
    struct path_recorder *history; /* a chunked run's functional pass: records the paths it changes
                                     (lib/sys/path_history.c), NULL otherwise */
    struct {               /* a run restored from a chunk's checkpoint (lib/sys/sys_apart.c): */
        bool on;           /* the files it writes are private copies, the host's never written */
        struct path_view *history; /* the pass's paths as they were at the checkpoint
                                      (NULL: as the host has them) */
        rv_paths gone;     /* the paths the run has removed (and not made again) */
        rv_paths made;     /* the directories it has made (which the pass has made before it) */
    } apart;
} rv_os;

enum rv_stop {
    RV_RUNNING = 0,
    RV_STOP_EXIT,   /* exit/exit_group: exit_status = the code */
    RV_STOP_SIGNAL, /* killed (fault, abort, ...): exit_status = 128 + signal */
    RV_STOP_LIMIT,  /* reached the requested instruction count */
};

typedef struct rv_code rv_code; /* decoded-block cache (code.h) */

/* How the fast path runs whole blocks: translated to host code (the
 * default), interpreted, or both with their results compared (a debugging
 * mode: jit_check.c). */
enum rv_exec_mode { RV_EXEC_TRANSLATE, RV_EXEC_INTERPRET, RV_EXEC_CHECK };

typedef struct rv_proc {
    rv_cpu cpu;
    rv_mem mem;
    rv_os os;
    rv_code *code;
    enum rv_exec_mode exec_mode;
    struct {                    /* shared by the fast path and translated code */
        struct rv_block *last;  /* the block that ran last, when translated code returns */
        uint64_t chain_limit;   /* chain to the next block only up to this count */
        struct rv_block *const *fast; /* the code cache's pc -> block table (code.h) */
    } jit;
    uint64_t code_changes_seen; /* mem.code_changes when the cache was last valid */
    bool flush_code;            /* fence.i or code remapped: flush at block end */
    enum rv_stop stop;
    int exit_status;            /* as a shell shows it */
    int signal;                 /* for RV_STOP_SIGNAL */
    char message[256];          /* why it stopped, for fatal stops */
    struct rv_undo *undo;       /* --jit-check: the stepping path logs its stores here */
    struct rv_trace *trace;     /* memory accesses of the fast path, when a hook wants them (exec.h) */
    jmp_buf *trap;              /* where a fault inside an instruction unwinds to */
    const struct rv_insn *trap_insn; /* the faulting instruction (its idx: its block position) */
    struct {                    /* a run whose hook sees every block (exec_fast.c, code_exit_slow) */
        void (*fn)(void *ctx, struct rv_block *b, uint32_t first, uint64_t start_icount, uint32_t executed);
        void *ctx;
        uint64_t limit;         /* translated code goes on past a block up to this count; 0: never */
    } hook;
} rv_proc;

/* The deterministic clock: every retired instruction is one nanosecond, and
 * a sleep adds the time it asked for. */
#define RV_CLOCK_EPOCH_SEC INT64_C(1704067200) /* 2024-01-01T00:00:00Z */
#define RV_TIMEBASE_HZ 10000000                /* rdtime ticks per second */

/* A fault inside instruction in (which does not retire), with its si_code
 * and address: unwind to the run loop, which runs the program's handler for
 * the signal, or stops the process with the signal and the reason. */
_Noreturn void rv_trap(rv_proc *p, const rv_insn *in, int signal, int code, uint64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* The faults of the instruction semantics (exec_common.h), out of line:
 * they are cold, and translated code (jit.c) cannot hold their messages. */
_Noreturn void rv_fault_load(rv_proc *p, const rv_insn *in, uint64_t addr, unsigned bytes);
_Noreturn void rv_fault_store(rv_proc *p, const rv_insn *in, uint64_t addr, unsigned bytes);
_Noreturn void rv_fault_misaligned(rv_proc *p, const rv_insn *in, uint64_t addr);
_Noreturn void rv_fault_rounding_mode(rv_proc *p, const rv_insn *in, unsigned rm);
/* An unsupported CSR, or (write) a write to a read-only one. */
_Noreturn void rv_fault_csr(rv_proc *p, const rv_insn *in, unsigned csr, bool write);
_Noreturn void rv_fault_illegal(rv_proc *p, const rv_insn *in, const char *why);
_Noreturn void rv_fault_breakpoint(rv_proc *p, const rv_insn *in);
/* Terminate the process by a signal from outside an instruction's semantics
 * (abort(), an unsupported system call): the current instruction retires. */
void rv_kill(rv_proc *p, int signal, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* exit/exit_group. */
void rv_exit(rv_proc *p, int code);

/* ------------------------------------------------------------ creation */

typedef struct rv_proc_options {
    const char *exe;                /* program path on the host */
    int argc;                       /* guest argv (argv[0] as the user gave it) */
    char *const *argv;
    int envc;                       /* guest environment: empty unless given */
    char *const *envp;
    const char *const *write_dirs;  /* besides the cwd, where the guest may write */
    int nwrite_dirs;
    bool syscall_enosys;
    bool strace;                    /* log every system call on stderr */
    enum rv_exec_mode exec_mode;
    bool host_files;                /* a checkpoint restores with the host's files as they are,
                                       written there, even one that would keep them apart
                                       (checkpoint --run: the program goes on on the host) */
} rv_proc_options;

struct rv_elf_info;
/* Load the program and build its initial state. Returns 0, or -1 with a
 * one-line reason in err; either way p is then for rv_proc_destroy. */
int rv_proc_init(rv_proc *p, const rv_proc_options *o, struct rv_elf_info *info, char *err, size_t errlen);
/* An empty process that rv_proc_destroy accepts (no descriptors, no memory). */
void rv_proc_clear(rv_proc *p);
/* Everything of rv_proc_init but loading the program and building its stack
 * (standard streams, cwd, writable directories, argv/env copies): the first
 * step of restoring a checkpoint too. */
int rv_proc_prepare(rv_proc *p, const rv_proc_options *o, char *err, size_t errlen);
void rv_proc_destroy(rv_proc *p);

#endif
