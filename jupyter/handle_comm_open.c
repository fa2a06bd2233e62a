/* handle_comm_open.c — comm_open: this kernel registers no comm targets,
 * so every comm a frontend opens is closed at once with a comm_close on
 * iopub, as ipykernel does for an unknown target; the frontend then drops
 * the comm instead of waiting on it. */
#include "kernel.h"
#include "log.h"
#include "utf8.h"

void mf_handle_comm_open(mf_kernel *k, mf_request *req) {
  const json_t *c = req->msg.content;
  const char *id = mf_json_get_str(c, "comm_id", NULL);
  mf_klog("closed a comm_open to unknown target '%s'", mf_json_get_str(c, "target_name", "?"));
  if (!id) return;
  mf_iopub_send(k->iopub, "comm_close", req->msg.header_json,
                json_pack("{s:o, s:{}}", "comm_id", mf_json_str(id), "data"));
}
