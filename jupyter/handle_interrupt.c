/* handle_interrupt.c — interrupt_request (interrupt_mode "message"): the
 * running cell stops with InterruptedError at the session's next hook; the
 * session, its variables and the kernel process survive. Served on the
 * control thread, so it works while the main thread is busy. */
#include "kernel.h"

void mf_handle_interrupt(mf_kernel *k, mf_request *req) {
  mf_kernel_interrupt(k);
  mf_kernel_reply(k, req, "interrupt_reply", json_pack("{s:s}", "status", "ok"));
}
