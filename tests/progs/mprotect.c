/* mprotect: make an anonymous page read-only, read it, make it writable
 * again, write it; PROT_NONE then back.  (The fault on writing a
 * read-only page is not tested here: see segfault.c.) */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static const char *yes(int c)
{
    return c ? "yes" : "no";
}

int main(void)
{
    char *p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap: %s\n", yes(p != MAP_FAILED));
    strcpy(p + 4096, "protected page");
    printf("mprotect PROT_READ: %s\n", yes(mprotect(p + 4096, 4096, PROT_READ) == 0));
    printf("read-only page reads: %s\n", yes(strcmp(p + 4096, "protected page") == 0));
    p[0] = 'a';
    p[2 * 4096] = 'c';
    printf("neighbour pages still writable: %s\n", yes(p[0] == 'a' && p[2 * 4096] == 'c'));
    printf("mprotect PROT_NONE: %s\n", yes(mprotect(p + 4096, 4096, PROT_NONE) == 0));
    printf("mprotect back to RW: %s\n",
           yes(mprotect(p + 4096, 4096, PROT_READ | PROT_WRITE) == 0));
    p[4096] = 'P';
    printf("write after restoring: %s\n", yes(strcmp(p + 4096, "Protected page") == 0));
    printf("mprotect unaligned address fails: %s\n", yes(mprotect(p + 1, 4096, PROT_READ) != 0));
    printf("munmap: %s\n", yes(munmap(p, 3 * 4096) == 0));
    return 0;
}
