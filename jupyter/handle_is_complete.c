/* handle_is_complete.c — is_complete_request: the REPL's continuation rule
 * (the session's), so a console asks for another line exactly when the
 * terminal REPL would. */
#include <stdlib.h>

#include "kernel.h"
#include "utf8.h"

void mf_handle_is_complete(mf_kernel *k, mf_request *req) {
  const char *code = mf_json_get_str(req->msg.content, "code", "");
  char *indent = NULL;
  mf_completeness st = mf_session_is_complete(k->session, code, &indent);
  json_t *reply;
  switch (st) {
  case MF_CODE_COMPLETE: reply = json_pack("{s:s}", "status", "complete"); break;
  case MF_CODE_INCOMPLETE:
    reply = json_pack("{s:s, s:o}", "status", "incomplete", "indent", mf_json_str(indent ? indent : ""));
    break;
  case MF_CODE_INVALID: reply = json_pack("{s:s}", "status", "invalid"); break;
  default: reply = json_pack("{s:s}", "status", "unknown"); break;
  }
  free(indent);
  mf_kernel_reply(k, req, "is_complete_reply", reply);
}
