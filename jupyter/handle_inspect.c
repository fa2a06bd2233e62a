/* handle_inspect.c — inspect_request (shift-tab): the docstring of the name
 * at the cursor, the same text tf.help returns. */
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "utf8.h"

void mf_handle_inspect(mf_kernel *k, mf_request *req) {
  const json_t *c = req->msg.content;
  const char *code = mf_json_get_str(c, "code", "");
  size_t len = strlen(code);
  long long cp = mf_json_get_int(c, "cursor_pos", -1);
  size_t cursor = cp < 0 ? len : mf_utf8_byte_offset(code, len, (size_t)cp);
  int detail = (int)mf_json_get_int(c, "detail_level", 0) ? 1 : 0;
  char *text = mf_session_inspect(k->session, code, cursor, detail);
  json_t *data = json_object();
  if (text) json_object_set_new(data, "text/plain", mf_json_str(text));
  json_t *reply = json_pack("{s:s, s:b, s:o, s:{}}", "status", "ok", "found", text != NULL, "data",
                            data, "metadata");
  free(text);
  mf_kernel_reply(k, req, "inspect_reply", reply);
}
