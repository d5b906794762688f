/* Code that writes code, as a JIT does: the translator must notice.
 *  - a function written into an executable page, called, rewritten in
 *    place (fence.i) and called again, many times over (a hot block whose
 *    translation goes stale each time);
 *  - the page unmapped and another mapped at the same address with other
 *    code;
 *  - the page made non-executable: calling it faults (SIGSEGV, caught);
 *    made executable again, it runs. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

typedef long (*fn)(long);

static void fence_i(void)
{
    __asm__ volatile("fence.i" ::: "memory");
}

/* addi a0, a0, imm (12-bit signed) */
static uint32_t addi_a0(int imm)
{
    return ((uint32_t)imm & 0xfff) << 20 | 10u << 15 | 10u << 7 | 0x13;
}

/* slli a0, a0, sh */
static uint32_t slli_a0(unsigned sh)
{
    return (sh & 63) << 20 | 1u << 12 | 10u << 15 | 10u << 7 | 0x13;
}

static const uint32_t RET = 0x00008067; /* jalr x0, 0(ra) */

/* Write a function of n instructions (then ret) at code. */
static void emit(uint32_t *code, const uint32_t *insns, int n)
{
    memcpy(code, insns, (size_t)n * 4);
    code[n] = RET;
    fence_i();
}

static sigjmp_buf on_fault;

static void segv(int sig)
{
    (void)sig;
    siglongjmp(on_fault, 1);
}

int main(void)
{
    uint32_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        return 1;
    fn f = (fn)(uintptr_t)page;

    /* rewrite the immediate of a hot function 200 times */
    long sum = 0;
    for (int k = 0; k < 200; k++) {
        uint32_t body[4] = {addi_a0(k), addi_a0(1), addi_a0(-k / 2), addi_a0(3)};
        emit(page, body, 4);
        for (int rep = 0; rep < 50; rep++)
            sum += f(rep);
    }
    printf("rewritten in place: sum %ld\n", sum);

    /* the same page, longer and shorter functions: blocks of other lengths */
    for (int n = 1; n <= 60; n += 7) {
        uint32_t body[64];
        for (int i = 0; i < n; i++)
            body[i] = i % 5 == 4 ? slli_a0(1) : addi_a0(i);
        emit(page, body, n);
        printf("%2d instructions: f(1) = %ld\n", n, f(1));
    }

    /* unmap, and map other code at the same address */
    munmap(page, 4096);
    uint32_t *again = mmap(page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                           -1, 0);
    printf("remapped at the same address: %s\n", again == page ? "yes" : "no");
    uint32_t other[2] = {slli_a0(4), addi_a0(7)};
    emit(again, other, 2);
    printf("new code: f(2) = %ld\n", f(2));

    /* not executable: the call faults; executable again: it runs */
    signal(SIGSEGV, segv);
    mprotect(again, 4096, PROT_READ | PROT_WRITE);
    if (sigsetjmp(on_fault, 1) == 0)
        printf("call without PROT_EXEC returned %ld\n", f(3));
    else
        printf("call without PROT_EXEC: SIGSEGV\n");
    mprotect(again, 4096, PROT_READ | PROT_EXEC);
    printf("PROT_EXEC again: f(3) = %ld\n", f(3));
    return 0;
}
