/* The Linux system-call layer (lib/sys/). */
#ifndef RV_SYSCALL_H
#define RV_SYSCALL_H

#include "proc.h"

/* Perform the system call in a7 with arguments a0-a5; the result goes to a0.
 * May stop the process (exit, abort, unsupported call). */
void rv_syscall(rv_proc *p);
/* Name of a RISC-V Linux system call number, or NULL. */
const char *rv_syscall_name(uint64_t nr);

#endif
