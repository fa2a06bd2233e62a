/* handle_history.c — history_request: tail, range and search over the
 * cells run with store_history, this kernel's and earlier ones' (history.c). */
#include "kernel.h"

void mf_handle_history(mf_kernel *k, mf_request *req) {
  json_t *reply = json_pack("{s:s, s:o}", "status", "ok", "history",
                            mf_history_query(&k->history, req->msg.content));
  mf_kernel_reply(k, req, "history_reply", reply);
}
