/* handle_shutdown.c — shutdown_request (control, or shell from old
 * clients): reply, announce it on iopub, interrupt a running cell and leave
 * the main loop. A restart is the client's job (it starts a new process);
 * the kernel only echoes `restart` back. */
#include <errno.h>
#include <string.h>

#include <zmq.h>

#include "kernel.h"
#include "log.h"

void mf_handle_shutdown(mf_kernel *k, mf_request *req) {
  bool restart = mf_json_get_bool(req->msg.content, "restart", false);
  json_t *c = json_pack("{s:s, s:b}", "status", "ok", "restart", restart);
  mf_iopub_send(k->iopub, "shutdown_reply", req->msg.header_json, json_deep_copy(c));
  mf_kernel_reply(k, req, "shutdown_reply", c);
  mf_kernel_request_shutdown(k, restart);
  /* The main thread may be idle in zmq_poll: wake it. */
  if (req->on_control_thread &&
      zmq_send(k->relay_control, MF_RELAY_WAKE, strlen(MF_RELAY_WAKE), ZMQ_DONTWAIT) < 0 &&
      errno != ETERM)
    mf_klog("could not wake the main thread for shutdown: %s", zmq_strerror(errno));
}
