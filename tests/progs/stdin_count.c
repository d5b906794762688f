/* stdin_count: read stdin to EOF with read(2) in odd-sized chunks and
 * print line count, byte count, a checksum and the longest line. */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    unsigned char buf[1000];
    uint64_t bytes = 0, lines = 0, cur = 0, longest = 0;
    uint32_t sum = 0;
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n; i++) {
            sum = (sum << 5 | sum >> 27) ^ buf[i];
            if (buf[i] == '\n') {
                lines++;
                if (cur > longest)
                    longest = cur;
                cur = 0;
            } else
                cur++;
        }
        bytes += (uint64_t)n;
    }
    if (n < 0) {
        perror("read");
        return 1;
    }
    if (cur > longest)
        longest = cur;
    printf("lines %llu bytes %llu checksum %08x longest %llu\n", (unsigned long long)lines,
           (unsigned long long)bytes, sum, (unsigned long long)longest);
    printf("read after EOF returns: %zd\n", read(0, buf, sizeof buf));
    return 0;
}
