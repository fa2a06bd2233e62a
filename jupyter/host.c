/* host.c — the session's host callbacks for Jupyter: where a cell's output
 * goes. Writes become iopub stream messages (coalesced, see iopub.h);
 * displays become execute_result, display_data or update_display_data;
 * io.read becomes an input_request (stdin_request.c); tf.clear_output an
 * iopub clear_output; os.exit a shutdown after the cell. Graphs are drawn
 * (the session renders them). */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "kernel.h"
#include "log.h"
#include "utf8.h"

static void host_write(void *ud, const char *stream, const char *data, size_t len) {
  mf_kernel *k = ud;
  if (!k->iopub) return; /* a finalizer printing after iopub was closed */
  mf_iopub_stream(k->iopub, mf_kernel_parent(k), stream && strcmp(stream, "stderr") == 0 ? "stderr" : "stdout",
                  data, len);
}

static bool is_json_mime(const char *mime) {
  size_t n = strlen(mime);
  return strcmp(mime, "application/json") == 0 || (n > 5 && strcmp(mime + n - 5, "+json") == 0);
}

/* Binary types travel base64-encoded, as the spec asks; SVG is text. */
static bool is_binary_mime(const char *mime) {
  return strncmp(mime, "image/", 6) == 0 && strcmp(mime, "image/svg+xml") != 0;
}

static json_t *base64(const char *data, size_t len) {
  if (len > (size_t)1 << 30) return NULL;
  unsigned char *out = malloc(4 * ((len + 2) / 3) + 1);
  if (!out) return NULL;
  int n = EVP_EncodeBlock(out, (const unsigned char *)data, (int)len);
  json_t *j = json_stringn((const char *)out, (size_t)n);
  free(out);
  return j;
}

/* The MIME bundle as Jupyter's `data` object. */
static json_t *bundle(const mf_display *d) {
  json_t *data = json_object();
  for (int i = 0; i < d->n; i++) {
    const char *mime = d->mimes[i];
    const char *v = d->data[i];
    size_t len = d->lens ? d->lens[i] : strlen(v);
    json_t *j = NULL;
    if (is_json_mime(mime)) j = json_loadb(v, len, JSON_DECODE_ANY, NULL);
    else if (is_binary_mime(mime)) j = base64(v, len);
    if (!j) j = mf_json_text(v, len);
    if (j) json_object_set_new(data, mime, j);
  }
  return data;
}

static const char *text_plain(const mf_display *d) {
  for (int i = 0; i < d->n; i++)
    if (strcmp(d->mimes[i], "text/plain") == 0) return d->data[i];
  return NULL;
}

static void host_display(void *ud, const mf_display *d) {
  mf_kernel *k = ud;
  if (!k->iopub) return;
  const char *parent = mf_kernel_parent(k);
  json_t *c;
  switch (d->kind) {
  case MF_DISPLAY_RESULT: {
    if (k->exec.silent) return; /* silent: no execute_result, by the spec */
    const char *tp = text_plain(d);
    free(k->exec.result_text);
    k->exec.result_text = tp ? strdup(tp) : NULL;
    c = json_pack("{s:i, s:o, s:o}", "execution_count", k->exec.execution_count, "data", bundle(d),
                  "metadata", json_object());
    mf_iopub_send(k->iopub, "execute_result", parent, c);
    return;
  }
  case MF_DISPLAY_DATA:
  case MF_DISPLAY_UPDATE: {
    const char *type = "display_data";
    if (d->kind == MF_DISPLAY_UPDATE) {
      if (d->display_id) type = "update_display_data";
      else mf_klog("display update without a display_id: sent as a new display");
    }
    c = json_pack("{s:o, s:o, s:o}", "data", bundle(d), "metadata", json_object(), "transient",
                  d->display_id ? json_pack("{s:s}", "display_id", d->display_id) : json_object());
    mf_iopub_send(k->iopub, type, parent, c);
    return;
  }
  }
  mf_klog("display of unknown kind %d ignored", (int)d->kind);
}

static char *host_input(void *ud, const char *prompt, bool password) {
  return mf_kernel_input(ud, prompt, password);
}

/* tf.clear_output: iopub clear_output, so a cell can redraw its output
 * (IPython's display.clear_output). */
static void host_clear_output(void *ud, bool wait) {
  mf_kernel *k = ud;
  mf_iopub_send(k->iopub, "clear_output", mf_kernel_parent(k), json_pack("{s:b}", "wait", wait));
}

/* os.exit in a cell would call C exit() under the kernel's running
 * threads, mid-message. Instead the session stops the cell with a
 * SystemExit error, and the kernel shuts down after the cell, exiting with
 * `status`. Only the flag: mf_kernel_request_shutdown would also interrupt,
 * and the interrupt would replace the cell's SystemExit with
 * InterruptedError. */
static const char *host_exit(void *ud, int status) {
  mf_kernel *k = ud;
  k->exit_status = status;
  atomic_store(&k->shutdown, 1);
  return "the kernel shuts down after this cell";
}

void mf_kernel_host_init(mf_kernel *k, mf_session_host *host) {
  memset(host, 0, sizeof *host);
  host->ud = k;
  host->write = host_write;
  host->display = host_display;
  host->input = host_input;
  host->color = false;
  host->frontend = "jupyter";
  host->draw_graphs = true;
  host->clear_output = host_clear_output;
  host->exit = host_exit;
}
