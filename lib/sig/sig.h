/* Linux signals for a single-threaded guest: actions, the blocked mask, the
 * queue of pending signals, the alternate stack, the timers that raise
 * signals on the deterministic clock, and delivery on the RISC-V Linux
 * signal frame. Both execution paths and the system-call layer call the
 * functions below at the same points, so a signal arrives at the same
 * instruction count in every stage:
 *  - before the instruction at which a timer expires (sig_due, sig_deliver),
 *  - at the return of the system call that raised or unblocked it,
 *  - at the instruction that faulted (sig_take_fault, then sig_deliver). */
#ifndef RV_SIG_H
#define RV_SIG_H

#include <stdbool.h>
#include <stdint.h>

enum {
    RV_NSIG = 64,
    RV_SIGQUEUE_MAX = 64,                        /* pending signals at once */
    RV_NITIMERS = 3,                             /* ITIMER_REAL, _VIRTUAL, _PROF */
    RV_NPOSIX_TIMERS = 32,                       /* timer_create ids 0..31 */
    RV_NTIMERS = RV_NITIMERS + RV_NPOSIX_TIMERS, /* rv_sigstate.timer[] */
};

/* Guest ABI values (asm-generic, riscv64). */
enum {
    G_SIG_DFL = 0, G_SIG_IGN = 1,
    G_SA_SIGINFO = 4, G_SA_ONSTACK = 0x08000000, G_SA_RESTART = 0x10000000, G_SA_NODEFER = 0x40000000,
    G_SA_RESETHAND = (int)0x80000000,
    G_SS_ONSTACK = 1, G_SS_DISABLE = 2, G_SS_AUTODISARM = (int)(1u << 31), G_MINSIGSTKSZ = 2048,
    G_SI_USER = 0, G_SI_KERNEL = 0x80, G_SI_QUEUE = -1, G_SI_TIMER = -2, G_SI_TKILL = -6,
    G_SEGV_MAPERR = 1, G_SEGV_ACCERR = 2, G_BUS_ADRALN = 1, G_BUS_ADRERR = 2, G_ILL_ILLOPC = 1, G_TRAP_BRKPT = 1,
    G_SIGEV_SIGNAL = 0, G_SIGEV_NONE = 1, G_SIGEV_THREAD = 2, G_SIGEV_THREAD_ID = 4,
};

/* Return values of interrupted system calls, as the kernel's: turned into
 * -EINTR or a restart of the call when the signal is delivered. */
enum { RV_ERESTARTSYS = 512, RV_ERESTARTNOINTR = 513, RV_ERESTARTNOHAND = 514, RV_ERESTART_RESTARTBLOCK = 516 };

typedef struct rv_sigaction {
    uint64_t handler, flags, mask; /* the kernel's struct sigaction (riscv has no sa_restorer) */
} rv_sigaction;

/* The guest's siginfo_t (128 bytes) as it lies in memory. */
typedef struct rv_siginfo {
    uint64_t w[16];
} rv_siginfo;

typedef struct rv_pending {
    int32_t sig;
    int32_t timer; /* index in rv_sigstate.timer of the timer that raised it, or -1 */
    rv_siginfo info;
} rv_pending;

enum rv_timer_clock { RV_CLOCK_REAL, RV_CLOCK_CPU };

/* An interval timer or a POSIX timer. Times are nanoseconds on its clock:
 * REAL is the guest's wall clock (instructions and sleeps), CPU counts
 * instructions only. */
typedef struct rv_timer {
    bool used;             /* a POSIX timer id in use (interval timers always are) */
    uint8_t clock;         /* enum rv_timer_clock */
    uint8_t notify;        /* G_SIGEV_SIGNAL or G_SIGEV_NONE */
    uint8_t sig;
    bool queued;           /* its signal is pending and not yet delivered */
    bool wall;             /* absolute times count from the epoch (CLOCK_REALTIME) */
    uint64_t expiry;       /* 0: disarmed */
    uint64_t interval;
    uint64_t value;        /* sigev_value */
    uint32_t overrun;      /* expirations while its signal was pending */
    uint32_t last_overrun; /* what timer_getoverrun reports */
} rv_timer;

typedef struct rv_sigstate {
    rv_sigaction action[RV_NSIG + 1];
    uint64_t blocked;
    uint64_t saved_mask;   /* rt_sigsuspend, ppoll, pselect6: the mask to put back after the wait */
    bool restore_mask;
    uint64_t ss_sp, ss_size;
    uint32_t ss_flags;     /* sigaltstack: G_SS_DISABLE or 0, with G_SS_AUTODISARM */
    uint32_t nqueued;
    rv_pending queue[RV_SIGQUEUE_MAX];
    rv_timer timer[RV_NTIMERS];
    uint64_t next_event;   /* derived: the instruction count at which signal work is due */
} rv_sigstate;

struct rv_proc;

static inline uint64_t sig_bit(int sig) { return UINT64_C(1) << (sig - 1); }

/* A fresh process's signal state: all default, nothing blocked or pending. */
void sig_init(rv_sigstate *s);

/* Raise sig with info (NULL: sent by the process itself with kill).
 * Ignored signals are discarded, a standard signal already pending is
 * merged. 0 or -EAGAIN when the queue is full. */
int sig_send(struct rv_proc *p, int sig, const rv_siginfo *info);
/* siginfo of a signal the process sent itself with this si_code. */
rv_siginfo sig_info_self(int sig, int code);

/* A fault (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE) at the current
 * instruction: true when a handler will take it (it is then pending and
 * sig_deliver runs the handler); false when it ends the process. */
bool sig_take_fault(struct rv_proc *p, int sig, int code, uint64_t addr);

/* Fire the timers that expired and deliver every deliverable signal:
 * handlers get a frame, default actions end the process or do nothing. */
void sig_deliver(struct rv_proc *p);
/* The same at the return of a system call, whose result is in a0 and whose
 * first argument was orig_a0: interrupted calls become -EINTR or restart. */
void sig_deliver_at_syscall(struct rv_proc *p, uint64_t orig_a0);

/* Recompute next_event after timers or the clock changed. */
void sig_update_event(struct rv_proc *p);

/* The clock a timer counts on, now. */
uint64_t sig_clock_now(const struct rv_proc *p, enum rv_timer_clock clock);

enum sig_wait_result { SIG_WAIT_SIGNAL, SIG_WAIT_TIMEOUT, SIG_WAIT_FOREVER };
/* The process waits (the guest's clock runs) until a signal in ~blocked |
 * also is pending or the wall clock reaches deadline (UINT64_MAX: none).
 * Only timers can raise a signal meanwhile: when none can, a wait without a
 * deadline would last forever, and the process is stopped with a message
 * naming the call (SIG_WAIT_FOREVER). */
enum sig_wait_result sig_wait(struct rv_proc *p, uint64_t also, uint64_t deadline, const char *call);

/* Could a signal in ~blocked | also end a wait: one is pending, or a
 * wall-clock timer will raise one? */
bool sig_may_arrive(const struct rv_proc *p, uint64_t also);

/* The pending signals (bit sig-1 for sig). */
uint64_t sig_pending(const rv_sigstate *s);
/* Take the first pending signal in mask out of the queue: its number (0 if
 * none) and info. */
int sig_dequeue(struct rv_proc *p, uint64_t mask, rv_siginfo *info);
/* Drop every pending instance of sig (it became ignored). */
void sig_discard(rv_sigstate *s, int sig);
/* Drop the pending signal timer idx raised (the timer is deleted). */
void sig_forget_timer(rv_sigstate *s, int idx);

/* The RISC-V signal frame (sig_frame.c). Push a frame for sig with
 * info and the mask to restore, and enter the handler; false if the frame
 * cannot be written (the caller then forces SIGSEGV). */
bool sig_frame_push(struct rv_proc *p, int sig, const rv_siginfo *info, uint64_t saved_mask);
/* rt_sigreturn: restore registers, mask and alternate stack from the frame
 * at sp; the value for a0, or false when the frame is unreadable. */
bool sig_frame_pop(struct rv_proc *p, uint64_t *a0);

/* Where sp is relative to the alternate stack: G_SS_ONSTACK, G_SS_DISABLE or 0. */
uint32_t sig_altstack_flags(const rv_sigstate *s, uint64_t sp);
/* sigaltstack's change, with the process at sp: 0 or -errno. */
int sig_altstack_set(rv_sigstate *s, uint64_t sp, uint64_t ss_sp, uint32_t ss_flags, uint64_t ss_size);

#endif
