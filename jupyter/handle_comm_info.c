/* handle_comm_info.c — comm_info_request: this kernel opens no comms, so
 * the answer is always an empty set (widgets are not supported). */
#include "kernel.h"

void mf_handle_comm_info(mf_kernel *k, mf_request *req) {
  mf_kernel_reply(k, req, "comm_info_reply", json_pack("{s:s, s:{}}", "status", "ok", "comms"));
}
