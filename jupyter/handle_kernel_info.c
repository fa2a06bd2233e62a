/* handle_kernel_info.c — kernel_info_request: who this kernel is and what
 * language it speaks. Pure data, so the control thread may answer it too. */
#include "kernel.h"

#ifndef MF_VERSION
#define MF_VERSION "0.0.0"
#endif

void mf_handle_kernel_info(mf_kernel *k, mf_request *req) {
  json_t *c = json_pack(
      "{s:s, s:s, s:s, s:s, s:b,"
      " s:{s:s, s:s, s:s, s:s, s:s, s:s, s:s},"
      " s:s, s:[{s:s, s:s}, {s:s, s:s}]}",
      "status", "ok", "protocol_version", MF_PROTOCOL_VERSION, "implementation",
      MF_KERNEL_IMPLEMENTATION, "implementation_version", MF_VERSION, "debugger", 0,
      "language_info", "name", "lua", "version", "5.4", "mimetype", "text/x-lua",
      "file_extension", ".lua", "codemirror_mode", "lua", "pygments_lexer", "lua",
      "nbconvert_exporter", "script",
      "banner",
      "moonflow " MF_VERSION " - TensorFlow's execution model in Lua 5.4.\n"
      "`tf` is loaded. tf.help(f) or `name?` shows help; %help lists the magics.\n"
      "%tutorial lists the lessons; `for step in tf.progress(100) do ... end` draws a progress bar.\n",
      "help_links", "text", "Lua 5.4 reference manual", "url", "https://www.lua.org/manual/5.4/",
      "text", "TensorFlow: tf.function guide", "url", "https://www.tensorflow.org/guide/function");
  mf_kernel_reply(k, req, "kernel_info_reply", c);
}
