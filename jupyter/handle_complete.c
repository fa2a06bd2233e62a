/* handle_complete.c — complete_request: tab completion from the session
 * (globals, table fields, tf.*, methods after `.`/`:`). Jupyter counts the
 * cursor in code points, the session in bytes; converted both ways. */
#include <string.h>

#include "kernel.h"
#include "utf8.h"

void mf_handle_complete(mf_kernel *k, mf_request *req) {
  const json_t *c = req->msg.content;
  const char *code = mf_json_get_str(c, "code", "");
  size_t len = strlen(code);
  long long cp = mf_json_get_int(c, "cursor_pos", -1);
  size_t cursor = cp < 0 ? len : mf_utf8_byte_offset(code, len, (size_t)cp);
  char **matches = NULL;
  size_t start = cursor, end = cursor;
  int n = mf_session_complete(k->session, code, cursor, &matches, &start, &end);
  json_t *list = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(list, mf_json_str(matches[i]));
  if (n > 0) mf_session_free_matches(matches, n);
  if (n <= 0 || end > len || start > end) start = end = cursor; /* distrust a bad range */
  json_t *reply = json_pack("{s:s, s:o, s:I, s:I, s:{}}", "status", "ok", "matches", list,
                            "cursor_start", (json_int_t)mf_utf8_count(code, start), "cursor_end",
                            (json_int_t)mf_utf8_count(code, end), "metadata");
  mf_kernel_reply(k, req, "complete_reply", reply);
}
