/* sig_faults: guest faults delivered to the program's handlers: SIGSEGV
 * (unmapped, and a write to a read-only page the handler then makes
 * writable), SIGBUS (a misaligned atomic), SIGILL and SIGTRAP (the handler
 * steps over the instruction by editing the ucontext), and a stack
 * overflow caught on an alternate signal stack. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

static sigjmp_buf env;
static volatile int last_sig, last_code;
static volatile uintptr_t last_addr;

static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO | flags;
    sigaction(sig, &sa, NULL);
}

static void jump_out(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    last_sig = sig, last_code = si->si_code, last_addr = (uintptr_t)si->si_addr;
    siglongjmp(env, 1);
}

static char *volatile page;

static void unprotect(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    last_sig = sig, last_code = si->si_code, last_addr = (uintptr_t)si->si_addr;
    mprotect(page, 4096, PROT_READ | PROT_WRITE); /* the store runs again and succeeds */
}

/* Step over the faulting instruction (its length from its low bits). */
static void skip(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    last_sig = sig, last_code = si->si_code;
    uintptr_t pc = uc->uc_mcontext.__gregs[REG_PC];
    last_addr = (uintptr_t)si->si_addr == pc;
    uc->uc_mcontext.__gregs[REG_PC] = pc + ((*(uint16_t *)pc & 3) == 3 ? 4 : 2);
}

static const char *code_name(int sig, int code)
{
    if (sig == SIGSEGV)
        return code == SEGV_MAPERR ? "SEGV_MAPERR" : code == SEGV_ACCERR ? "SEGV_ACCERR" : "?";
    if (sig == SIGBUS)
        return code == BUS_ADRALN ? "BUS_ADRALN" : "?";
    if (sig == SIGILL)
        return code == ILL_ILLOPC ? "ILL_ILLOPC" : "?";
    if (sig == SIGTRAP)
        return code == TRAP_BRKPT ? "TRAP_BRKPT" : "?";
    return "?";
}

static void report(const char *what, int reached)
{
    printf("%s: signal %d, %s, reached %d\n", what, last_sig, code_name(last_sig, last_code), reached);
    last_sig = 0;
}

static volatile char *volatile target;

static void test_segv(void)
{
    install(SIGSEGV, jump_out, 0);
    int reached = 0;
    target = (char *)0x10;
    if (!sigsetjmp(env, 1)) {
        *target = 1;
        reached = 1;
    }
    printf("store to 0x10: si_addr 0x%lx\n", (unsigned long)last_addr);
    report("  store", reached);

    target = (char *)0x1234;
    if (!sigsetjmp(env, 1)) {
        (void)*target;
        reached = 1;
    }
    printf("load from 0x1234: si_addr 0x%lx\n", (unsigned long)last_addr);
    report("  load", reached);

    page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    install(SIGSEGV, unprotect, 0);
    page[100] = 42;
    __asm__ volatile("" ::: "memory"); /* the handler's effects are seen after the store */
    printf("write to a read-only page: handler made it writable, value %d, si_addr is page + %ld\n", page[100],
           (long)(last_addr - (uintptr_t)page));
    report("  its signal", 1);
    munmap(page, 4096);
}

static void test_bus_ill_trap(void)
{
    install(SIGBUS, jump_out, 0);
    static uint32_t words[4];
    int reached = 0;
    if (!sigsetjmp(env, 1)) {
        __asm__ volatile("amoadd.w zero, %1, (%0)" ::"r"((char *)words + 1), "r"(1) : "memory");
        reached = 1;
    }
    report("misaligned amoadd.w", reached);

    install(SIGILL, skip, 0);
    __asm__ volatile(".4byte 0xffffffff");
    printf("illegal instruction: si_addr is the pc %d\n", (int)last_addr);
    report("  skipped by the handler", 1);

    install(SIGTRAP, skip, 0);
    __asm__ volatile(".option push\n.option norvc\nebreak\n.option pop");
    printf("ebreak: si_addr is the pc %d\n", (int)last_addr);
    report("  skipped by the handler", 1);
}

static char altstack[64 * 1024];
static volatile int on_alt;

static void overflow_handler(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    char here;
    on_alt = &here > altstack && &here < altstack + sizeof altstack;
    stack_t cur;
    sigaltstack(NULL, &cur);
    on_alt = on_alt && (cur.ss_flags & SS_ONSTACK);
    last_sig = sig, last_code = si->si_code;
    siglongjmp(env, 1);
}

static int recurse(volatile char *prev, int n)
{
    volatile char buf[1024];
    buf[0] = (char)n;
    buf[1023] = prev ? prev[0] : 0;
    return recurse(buf, n + 1) + buf[1023];
}

static void test_altstack(void)
{
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0}, old;
    sigaltstack(NULL, &old);
    printf("sigaltstack at start: disabled %d\n", (old.ss_flags & SS_DISABLE) != 0);
    stack_t tiny = {.ss_sp = altstack, .ss_size = 100, .ss_flags = 0};
    printf("a stack below MINSIGSTKSZ refused: %d\n", sigaltstack(&tiny, NULL) == -1);
    sigaltstack(&ss, NULL);
    sigaltstack(NULL, &old);
    printf("after: flags %d, size right %d\n", old.ss_flags, old.ss_size == sizeof altstack);
    install(SIGSEGV, overflow_handler, SA_ONSTACK);
    if (!sigsetjmp(env, 1))
        recurse(NULL, 0);
    /* (si_code not shown: qemu maps a guard page below the stack and says
     * SEGV_ACCERR; Linux has no mapping there and says SEGV_MAPERR.) */
    printf("stack overflow: signal %d\n", last_sig);
    printf("  handler ran on the alternate stack: %d\n", on_alt);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_segv();
    test_bus_ill_trap();
    test_altstack();
    return 0;
}
