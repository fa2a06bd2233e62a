/* interrupt.h — cooperative interruption (Ctrl-C, Jupyter interrupt).
 *
 * A signal handler only sets the flag; long kernels and the executor poll it
 * and fail with MF_ERR_INTERRUPTED, so the session survives. */
#ifndef MF_INTERRUPT_H
#define MF_INTERRUPT_H

#include <signal.h>

#include "error.h"

extern volatile sig_atomic_t mf_interrupt_flag;

static inline void mf_interrupt_request(void) { mf_interrupt_flag = 1; }
static inline void mf_interrupt_clear(void) { mf_interrupt_flag = 0; }
/* Fails (and clears the flag) when an interrupt is pending. */
mf_status mf_interrupt_check(mf_error *err);

#endif
