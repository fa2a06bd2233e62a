/* stdin_request.c — io.read() in a cell: an input_request on the stdin
 * channel, answered by the frontend's input_reply.
 *
 * The request goes to the client that sent the execute_request (same
 * routing identity on its stdin socket), and only when that request said
 * allow_stdin; otherwise the session is told input is unavailable and
 * raises its error. While waiting, an interrupt or shutdown ends the wait. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zmq.h>

#include "kernel.h"
#include "log.h"

char *mf_kernel_input(mf_kernel *k, const char *prompt, bool password) {
  const mf_request *req = k->exec.req;
  if (!req || !k->exec.allow_stdin || req->channel != MF_CH_SHELL) return NULL;
  /* What the cell printed before asking must show above the prompt. */
  mf_iopub_flush(k->iopub);
  void *s = k->sock[MF_CH_STDIN];
  /* A reply left over from an earlier, abandoned request would answer the
   * wrong question: drain first. */
  for (;;) {
    mf_frames old;
    if (mf_frames_recv(s, &old, ZMQ_DONTWAIT) < 0) break;
    mf_frames_free(&old);
  }
  json_t *c = json_pack("{s:s, s:b}", "prompt", prompt ? prompt : "", "password", password);
  if (mf_wire_send(&k->wire, s, req->msg.idents, req->msg.n_idents, "input_request",
                   req->msg.header_json, c, NULL) < 0)
    return NULL;
  while (!atomic_load(&k->interrupted) && !atomic_load(&k->shutdown)) {
    zmq_pollitem_t it = {s, 0, ZMQ_POLLIN, 0};
    int rc = zmq_poll(&it, 1, 50);
    if (rc < 0) {
      if (errno == EINTR) continue;
      mf_klog("stdin poll failed: %s", zmq_strerror(errno));
      return NULL;
    }
    if (rc == 0) continue;
    mf_frames fr;
    if (mf_frames_recv(s, &fr, ZMQ_DONTWAIT) < 0) continue;
    mf_msg msg;
    char why[160];
    if (mf_msg_parse(&k->wire, &fr, &msg, why, sizeof why) < 0) {
      mf_klog("dropped a message on stdin: %s", why);
      continue;
    }
    char *line = NULL;
    if (strcmp(msg.msg_type, "input_reply") == 0) {
      line = strdup(mf_json_get_str(msg.content, "value", ""));
      if (!line) mf_klog("out of memory reading input");
    } else {
      mf_klog("ignored a %s on stdin while waiting for input_reply", msg.msg_type);
    }
    bool done = strcmp(msg.msg_type, "input_reply") == 0;
    mf_msg_free(&msg);
    if (done) return line;
  }
  return NULL;
}
