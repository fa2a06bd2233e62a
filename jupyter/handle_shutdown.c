/* handle_shutdown.c — shutdown_request (control, or shell from old
 * clients): reply, announce it on iopub, interrupt a running cell and leave
 * the main loop. A restart is the client's job (it starts a new process);
 * the kernel only echoes `restart` back.
 *
 * A shutdown_request that arrives while the kernel is still starting, or
 * that is dated before this process began, is ignored: jupyter_client
 * restarts a kernel on the same ports, and a request it sent the previous
 * process can still sit in its socket and reach the new one, which would
 * then exit as soon as it started. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zmq.h>

#include "kernel.h"
#include "log.h"

/* The header's ISO 8601 date ("2024-01-01T00:00:00.123456Z", or with a
 * +hh:mm offset) in seconds since the epoch; false when absent or unreadable. */
static bool header_date(const json_t *header, double *when) {
  const char *d = mf_json_get_str(header, "date", NULL);
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  const char *rest = d ? strptime(d, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
  if (!rest) return false;
  double frac = 0;
  if (*rest == '.') frac = strtod(rest, (char **)&rest);
  long offset = 0;
  int hh, mm;
  if ((*rest == '+' || *rest == '-') && sscanf(rest + 1, "%2d:%2d", &hh, &mm) == 2)
    offset = (*rest == '-' ? -1 : 1) * (hh * 3600L + mm * 60L);
  else if (*rest != 'Z' && *rest != '\0')
    return false;
  *when = (double)timegm(&tm) - (double)offset + frac;
  return true;
}

static bool before_start(const mf_kernel *k, const mf_request *req) {
  if (!atomic_load(&k->started)) return true;
  double when;
  double start = (double)k->started_at.tv_sec + (double)k->started_at.tv_nsec * 1e-9;
  return header_date(req->msg.header, &when) && when < start;
}

void mf_handle_shutdown(mf_kernel *k, mf_request *req) {
  if (before_start(k, req)) {
    mf_klog("ignored a shutdown_request sent before this kernel started (one meant for the "
            "kernel it replaces)");
    return;
  }
  bool restart = mf_json_get_bool(req->msg.content, "restart", false);
  json_t *c = json_pack("{s:s, s:b}", "status", "ok", "restart", restart);
  mf_iopub_send(k->iopub, "shutdown_reply", req->msg.header_json, json_deep_copy(c));
  mf_kernel_reply(k, req, "shutdown_reply", c);
  mf_kernel_request_shutdown(k, restart);
  /* The main thread may be idle in zmq_poll: wake it. */
  if (req->on_control_thread &&
      zmq_send(k->relay_control, MF_RELAY_WAKE, strlen(MF_RELAY_WAKE), ZMQ_DONTWAIT) < 0 &&
      errno != ETERM)
    mf_klog("could not wake the main thread for shutdown: %s", zmq_strerror(errno));
}
