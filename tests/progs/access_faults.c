/* access_faults: loads and stores that fault inside loops hot enough to run
 * as translated code, whose accesses leave the page check to the host
 * (lib/jit/host_fault.c): every load size (lb lbu lh lhu lw lwu ld flw fld)
 * and store size (sb sh sw sd fsw fsd) walking up to the first unmapped
 * byte, stores walking into a read-only page, a misaligned load and store
 * that cross into an unmapped page, loads from a page made PROT_NONE and
 * then readable again, and from an unmapped page mapped again. The handler
 * notes the signal, code and address and jumps out; the program prints how
 * far each walk got. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

enum { PAGE = 4096 };

static sigjmp_buf env;
static volatile int last_code;
static volatile uintptr_t last_addr;
static volatile long reached; /* loads done by the walk that faulted */

static void jump_out(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    last_code = si->si_code, last_addr = (uintptr_t)si->si_addr;
    siglongjmp(env, 1);
}

/* Three pages each, their ends unmapped (made before any hole, so that no
 * mapping lands in one): pages' second page is mapped again by a test. */
static char *pages, *ro;

/* Loads every T from `from` upwards until one faults; returns their sum. */
#define WALK(T)                                            \
    static double walk_##T(const char *from)               \
    {                                                      \
        double sum = 0;                                    \
        const volatile T *a = (const volatile T *)from;    \
        for (long i = 0;; i++) {                           \
            reached = i;                                   \
            sum += (double)a[i];                           \
        }                                                  \
        return sum;                                        \
    }
/* Stores T (zero) from `from` upwards until one faults. */
#define STORE_WALK(T)                                      \
    static double store_walk_##T(const char *from)         \
    {                                                      \
        volatile T *a = (volatile T *)from;                \
        for (long i = 0;; i++) {                           \
            reached = i;                                   \
            a[i] = (T)0;                                   \
        }                                                  \
        return 0;                                          \
    }
typedef int8_t i8;
typedef uint8_t u8;
typedef int16_t i16;
typedef uint16_t u16;
typedef int32_t i32;
typedef uint32_t u32;
typedef uint64_t u64;
WALK(i8) WALK(u8) WALK(i16) WALK(u16) WALK(i32) WALK(u32) WALK(u64) WALK(float) WALK(double)
STORE_WALK(u8) STORE_WALK(u16) STORE_WALK(u32) STORE_WALK(u64) STORE_WALK(float) STORE_WALK(double)

static const char *code_name(void)
{
    return last_code == SEGV_MAPERR ? "SEGV_MAPERR" : last_code == SEGV_ACCERR ? "SEGV_ACCERR" : "?";
}

/* Runs a walk from `from` and prints where it faulted, relative to base. */
static void report_near(const char *what, double (*walk)(const char *), const char *from, const char *base,
                        const char *base_name)
{
    reached = -1;
    if (sigsetjmp(env, 1) == 0) {
        printf("%-26s no fault (%g)\n", what, walk(from));
        return;
    }
    printf("%-26s %ld accesses, then SIGSEGV %s at %s+%ld\n", what, reached, code_name(), base_name,
           (long)(last_addr - (uintptr_t)base));
}

static void report(const char *what, double (*walk)(const char *), const char *from)
{
    report_near(what, walk, from, pages, "page");
}

static void misaligned(void)
{
    if (sigsetjmp(env, 1) == 0) {
        uint64_t v;
        __asm__ volatile("ld %0, 0(%1)" : "=r"(v) : "r"(pages + PAGE - 4) : "memory");
        printf("misaligned crossing ld: no fault (%llu)\n", (unsigned long long)v);
        return;
    }
    printf("misaligned crossing ld: SIGSEGV %s at page+%ld\n", code_name(), (long)(last_addr - (uintptr_t)pages));
    if (sigsetjmp(env, 1) == 0) {
        __asm__ volatile("sd %0, 0(%1)" : : "r"(~0ull), "r"(pages + PAGE - 2) : "memory");
        printf("misaligned crossing sd: no fault\n");
        return;
    }
    printf("misaligned crossing sd: SIGSEGV %s at page+%ld, bytes before it %d\n", code_name(),
           (long)(last_addr - (uintptr_t)pages), pages[PAGE - 2]);
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = jump_out;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);

    pages = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ro = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED || ro == MAP_FAILED)
        return 1;
    for (int i = 0; i < PAGE; i++)
        pages[i] = (char)(i * 7);
    munmap(pages + PAGE, 2 * PAGE);
    munmap(ro + 2 * PAGE, PAGE);

    static const struct {
        const char *what;
        double (*walk)(const char *);
        int from; /* offset in pages */
    } walks[] = {
        {"lb", walk_i8, 0}, {"lbu", walk_u8, 0}, {"lh", walk_i16, 0}, {"lhu", walk_u16, 0},
        {"lw", walk_i32, 0}, {"lwu", walk_u32, 0}, {"ld", walk_u64, 0}, {"flw", walk_float, 0},
        {"fld", walk_double, 0}, {"ld from mid-page", walk_u64, PAGE / 2},
        {"sb", store_walk_u8, 0}, {"sh", store_walk_u16, 0}, {"sw", store_walk_u32, 0},
        {"sd", store_walk_u64, 0}, {"fsw", store_walk_float, 0}, {"fsd", store_walk_double, 0},
    };
    for (size_t i = 0; i < sizeof walks / sizeof *walks; i++)
        report(walks[i].what, walks[i].walk, pages + walks[i].from);
    misaligned();

    mprotect(ro + PAGE, PAGE, PROT_READ);
    report_near("sd into a read-only page", store_walk_u64, ro + PAGE / 2, ro + PAGE, "that page");
    mprotect(ro + PAGE, PAGE, PROT_NONE);
    report_near("sb into a PROT_NONE page", store_walk_u8, ro + PAGE - 8, ro + PAGE, "that page");
    mprotect(ro + PAGE, PAGE, PROT_READ | PROT_WRITE);
    report_near("sw, writable again", store_walk_u32, ro, ro + PAGE, "that page");

    mprotect(pages, PAGE, PROT_NONE);
    report("ld, page PROT_NONE", walk_u64, pages);
    mprotect(pages, PAGE, PROT_READ);
    report("ld, readable again", walk_u64, pages);

    if (mmap(pages + PAGE, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
        return 1;
    report("ld, next page mapped", walk_u64, pages);
    report("lbu, next page mapped", walk_u8, pages);
    return 0;
}
