/* handle_execute.c — execute_request: run a cell in the session.
 *
 * Order on iopub, as frontends expect: status busy, execute_input, the
 * cell's streams/displays as they happen, execute_result (a trailing
 * expression's value) or error, status idle; execute_reply on shell.
 *
 * silent: no execute_input, no execute_result, no history, the execution
 * count does not move (streams and errors still show, as in ipykernel).
 * The session says what a cell is (mf_session_run_cell): a help cell
 * (`name?`, `?name`, `??` for more detail) opens the pager with the text
 * of inspect and tf.help; an exit cell (`exit`, `quit`) replies with an
 * ask_exit payload, as ipykernel's `exit` does: jupyter console quits and
 * shuts the kernel down, a notebook ignores it. The kernel itself does not
 * exit: the frontend owns its lifecycle (a kernel that vanished right after
 * the cell would race the console reading the reply). os.exit is another
 * matter: host.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "log.h"
#include "utf8.h"

/* The session's traceback is one string; Jupyter wants a list of lines. */
static json_t *traceback_lines(const char *tb, const char *fallback) {
  json_t *a = json_array();
  const char *s = tb && *tb ? tb : fallback;
  while (s && *s) {
    const char *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) : strlen(s);
    json_array_append_new(a, mf_json_text(s, n));
    s = nl ? nl + 1 : NULL;
  }
  return a;
}

static json_t *error_fields(const mf_eval_result *r) {
  const char *ename = r->ename && *r->ename ? r->ename : "Error";
  const char *evalue = r->evalue ? r->evalue : "";
  char fallback[512];
  snprintf(fallback, sizeof fallback, "%s: %s", ename, evalue);
  return json_pack("{s:o, s:o, s:o}", "ename", mf_json_str(ename), "evalue", mf_json_str(evalue),
                   "traceback", traceback_lines(r->traceback, fallback));
}

/* A help cell opens the pager (ipykernel's "page" payload). An unknown
 * name has no page: the session printed that it is not found. */
static json_t *page(const char *text) {
  json_t *payload = json_array();
  if (text)
    json_array_append_new(payload, json_pack("{s:s, s:{s:o}, s:i}", "source", "page", "data",
                                             "text/plain", mf_json_str(text), "start", 0));
  return payload;
}

static json_t *user_expressions(mf_kernel *k, const json_t *exprs) {
  json_t *out = json_object();
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)exprs, key, v) {
    if (!json_is_string(v)) {
      json_object_set_new(out, key, json_pack("{s:s, s:s, s:s, s:[]}", "status", "error", "ename",
                                              "TypeError", "evalue", "expression is not a string",
                                              "traceback"));
      continue;
    }
    char *text = NULL;
    atomic_store(&k->busy, 1);
    mf_eval_result r = mf_session_eval_expression(k->session, json_string_value(v), &text);
    atomic_store(&k->busy, 0);
    json_t *res;
    if (r.status == MF_EVAL_OK) {
      res = json_pack("{s:s, s:{s:o}, s:{}}", "status", "ok", "data", "text/plain",
                      mf_json_str(text ? text : ""), "metadata");
    } else {
      res = error_fields(&r);
      json_object_set_new(res, "status", json_string("error"));
    }
    json_object_set_new(out, key, res);
    free(text);
    mf_eval_result_free(&r);
  }
  return out;
}

/* Why a cell cannot be run as Lua source text, or false: content that was
 * not JSON text (invalid UTF-8), or a code string holding a NUL byte (the
 * session takes C strings, so it would silently run a truncated cell). */
static bool rejected(const mf_request *req, char *why, size_t cap) {
  if (req->msg.content_error) {
    snprintf(why, cap, "the cell is not valid UTF-8 text (%s)", req->msg.content_error);
    return true;
  }
  const json_t *code = json_object_get(req->msg.content, "code");
  if (json_is_string(code) && strlen(json_string_value(code)) != json_string_length(code)) {
    const char *text = json_string_value(code);
    snprintf(why, cap, "the cell contains a NUL byte (\\0) after character %zu; cells must be text",
             mf_utf8_count(text, strlen(text)));
    return true;
  }
  return false;
}

void mf_handle_execute(mf_kernel *k, mf_request *req) {
  const json_t *c = req->msg.content;
  const char *code = mf_json_get_str(c, "code", "");
  char why[300];
  bool reject = rejected(req, why, sizeof why);
  bool silent = mf_json_get_bool(c, "silent", false);
  bool store = !silent && mf_json_get_bool(c, "store_history", true);
  bool stop_on_error = mf_json_get_bool(c, "stop_on_error", true);

  if (store) k->execution_count++;
  int count = k->execution_count;
  k->exec.silent = silent;
  /* Nobody is there to answer an input_request the client did not allow
   * (or that came relayed over control). */
  k->exec.allow_stdin = mf_json_get_bool(c, "allow_stdin", false) && req->channel == MF_CH_SHELL;
  k->exec.execution_count = count;
  free(k->exec.result_text);
  k->exec.result_text = NULL;
  atomic_store(&k->interrupted, 0);

  if (!silent)
    mf_iopub_send(k->iopub, "execute_input", req->msg.header_json,
                  json_pack("{s:o, s:i}", "code", mf_json_str(code), "execution_count", count));

  json_t *payload = NULL;
  mf_eval_result r = {.status = MF_EVAL_OK};
  if (reject) {
    r = (mf_eval_result){.status = MF_EVAL_ERROR, .ename = strdup("ValueError"),
                         .evalue = strdup(why)};
  } else {
    char chunk[32];
    snprintf(chunk, sizeof chunk, "=In[%d]", count);
    atomic_store(&k->busy, 1);
    r = mf_session_run_cell(k->session, code, chunk, !silent);
    atomic_store(&k->busy, 0);
  }
  if (r.status == MF_EVAL_HELP) payload = page(r.help);
  if (r.status == MF_EVAL_EXIT) payload = json_pack("[{s:s, s:b}]", "source", "ask_exit", "keepkernel", 0);
  if (r.status == MF_EVAL_INCOMPLETE) {
    /* The REPL would ask for another line; a cell is all there is. */
    r.status = MF_EVAL_ERROR;
    if (!r.ename) r.ename = strdup("SyntaxError");
    if (!r.evalue) r.evalue = strdup("unexpected end of cell: the last statement is unfinished");
  }
  mf_iopub_flush(k->iopub);

  json_t *reply;
  if (r.status == MF_EVAL_ERROR) {
    json_t *err = error_fields(&r);
    mf_iopub_send(k->iopub, "error", req->msg.header_json, json_deep_copy(err));
    reply = err;
    json_object_set_new(reply, "status", json_string("error"));
    json_object_set_new(reply, "execution_count", json_integer(count));
    json_object_set_new(reply, "user_expressions", json_object());
    json_object_set_new(reply, "payload", json_array());
    if (stop_on_error) mf_kernel_abort_queued(k);
  } else {
    const json_t *ue = json_object_get(c, "user_expressions");
    reply = json_pack("{s:s, s:i, s:o, s:o}", "status", "ok", "execution_count", count, "payload",
                      payload ? payload : json_array(), "user_expressions",
                      json_is_object(ue) ? user_expressions(k, ue) : json_object());
    payload = NULL;
  }
  json_decref(payload);
  mf_eval_result_free(&r);
  mf_kernel_reply(k, req, "execute_reply", reply);
  /* After the reply: the frontend does not wait on the disk. A rejected
   * cell is not text to keep. */
  if (store && !reject) mf_history_add(&k->history, count, code, k->exec.result_text);
}

void mf_handle_execute_aborted(mf_kernel *k, mf_request *req) {
  /* Just the status, as ipykernel sends: the cell never ran, so it has no
   * execution_count (the failed cell's would show on every later cell). */
  mf_kernel_reply(k, req, "execute_reply", json_pack("{s:s}", "status", "aborted"));
}
