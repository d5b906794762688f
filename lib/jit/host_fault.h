/* Turning the host's fault of a translated load or store into the guest's
 * (see host_fault.c). */
#ifndef RV_JIT_HOST_FAULT_H
#define RV_JIT_HOST_FAULT_H

#include <stddef.h>

#include "jit/jit.h"

/* Installs the SIGSEGV handler (once per process; jit_new). */
void host_fault_install(void);
/* Translated code of j, size bytes at code, is about to run p on this
 * thread (jit_run). */
void host_fault_running(rv_proc *p, const rv_jit *j, const void *code, size_t size);

#endif
