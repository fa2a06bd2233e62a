/* control.c — the control channel's thread.
 *
 * interrupt_request, shutdown_request and kernel_info_request are answered
 * here at once, whatever the main thread is doing: that is the point of the
 * control channel (an interrupt must reach a cell stuck in
 * `while true do end`). Their handlers touch only atomics, iopub (locked)
 * and the control socket, never the Lua state.
 *
 * Every other control request needs the session, so it is relayed to the
 * main thread over an inproc pair; the main thread serves it between cells
 * and sends its reply back over the pair, and this thread forwards the
 * reply to the control socket it owns.
 *
 * It also watches the process that launched the kernel (JPY_PARENT_PID, set
 * by jupyter_client): when that process dies the kernel shuts down rather
 * than live on as an orphan nobody can reach — as ipykernel does. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zmq.h>

#include "kernel.h"
#include "log.h"

static bool served_here(const char *type) {
  return strcmp(type, "interrupt_request") == 0 || strcmp(type, "shutdown_request") == 0 ||
         strcmp(type, "kernel_info_request") == 0;
}

static void from_client(mf_kernel *k, void *ctl, void *relay) {
  mf_frames fr;
  if (mf_frames_recv(ctl, &fr, ZMQ_DONTWAIT) < 0) {
    if (errno != EAGAIN && errno != EINTR && errno != ETERM && errno != EMSGSIZE)
      mf_klog("receive on control failed: %s", zmq_strerror(errno));
    return;
  }
  mf_request req = {.reply_sock = ctl, .channel = MF_CH_CONTROL, .on_control_thread = true};
  char why[160];
  if (mf_msg_parse(&k->wire, &fr, &req.msg, why, sizeof why) < 0) {
    mf_klog("dropped a message on control: %s", why);
    return;
  }
  if (served_here(req.msg.msg_type))
    mf_kernel_dispatch(k, &req);
  else if (mf_frames_send(relay, &req.msg.raw) < 0 && errno != ETERM)
    mf_klog("could not relay %s to the main thread: %s", req.msg.msg_type, zmq_strerror(errno));
  mf_msg_free(&req.msg);
}

/* Forwards a reply from the main thread; false when told to stop. */
static bool from_main(void *relay, void *ctl) {
  mf_frames fr;
  if (mf_frames_recv(relay, &fr, ZMQ_DONTWAIT) < 0) return true;
  if (fr.n == 1 && fr.f[0].len == strlen(MF_RELAY_STOP) &&
      memcmp(fr.f[0].data, MF_RELAY_STOP, fr.f[0].len) == 0) {
    mf_frames_free(&fr);
    return false;
  }
  if (mf_frames_send(ctl, &fr) < 0 && errno != ETERM)
    mf_klog("could not send a relayed control reply: %s", zmq_strerror(errno));
  mf_frames_free(&fr);
  return true;
}

/* The parent to watch, or 0: only when Jupyter says who it is and the
 * kernel was not already adopted by init (then there is nothing to see). */
static pid_t watched_parent(void) {
  const char *env = getenv("JPY_PARENT_PID");
  pid_t ppid = getppid();
  if (!env || !*env || ppid <= 1) return 0;
  return ppid;
}

static void parent_gone(mf_kernel *k, void *relay) {
  mf_klog("the process that started the kernel has exited: shutting down");
  mf_kernel_request_shutdown(k, false);
  if (zmq_send(relay, MF_RELAY_WAKE, strlen(MF_RELAY_WAKE), ZMQ_DONTWAIT) < 0 && errno != ETERM)
    mf_klog("could not wake the main thread for shutdown: %s", zmq_strerror(errno));
}

static void *control_main(void *arg) {
  mf_kernel *k = arg;
  void *ctl = k->sock[MF_CH_CONTROL], *relay = k->relay_control;
  pid_t parent = watched_parent();
  for (;;) {
    zmq_pollitem_t items[2] = {{ctl, 0, ZMQ_POLLIN, 0}, {relay, 0, ZMQ_POLLIN, 0}};
    int rc = zmq_poll(items, 2, parent ? 1000 : -1);
    if (rc < 0) {
      if (errno == EINTR) continue;
      if (errno != ETERM) mf_klog("control poll failed: %s", zmq_strerror(errno));
      break;
    }
    if (parent && getppid() != parent) {
      parent = 0; /* once */
      parent_gone(k, relay);
    }
    if (items[0].revents & ZMQ_POLLIN) from_client(k, ctl, relay);
    if ((items[1].revents & ZMQ_POLLIN) && !from_main(relay, ctl)) break;
  }
  zmq_close(ctl);
  zmq_close(relay);
  return NULL;
}

int mf_control_start(mf_kernel *k, pthread_t *th) {
  if (pthread_create(th, NULL, control_main, k) != 0) return -1;
  return 0;
}
