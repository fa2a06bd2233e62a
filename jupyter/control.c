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
 * reply to the control socket it owns. */
#include <errno.h>
#include <pthread.h>
#include <string.h>

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

static void from_main(void *relay, void *ctl) {
  mf_frames fr;
  if (mf_frames_recv(relay, &fr, ZMQ_DONTWAIT) < 0) return;
  if (mf_frames_send(ctl, &fr) < 0 && errno != ETERM)
    mf_klog("could not send a relayed control reply: %s", zmq_strerror(errno));
  mf_frames_free(&fr);
}

static void *control_main(void *arg) {
  mf_kernel *k = arg;
  void *ctl = k->sock[MF_CH_CONTROL], *relay = k->relay_control;
  for (;;) {
    zmq_pollitem_t items[2] = {{ctl, 0, ZMQ_POLLIN, 0}, {relay, 0, ZMQ_POLLIN, 0}};
    if (zmq_poll(items, 2, -1) < 0) {
      if (errno == EINTR) continue;
      if (errno != ETERM) mf_klog("control poll failed: %s", zmq_strerror(errno));
      break;
    }
    if (items[0].revents & ZMQ_POLLIN) from_client(k, ctl, relay);
    if (items[1].revents & ZMQ_POLLIN) from_main(relay, ctl);
  }
  zmq_close(ctl);
  zmq_close(relay);
  return NULL;
}

int mf_control_start(mf_kernel *k, pthread_t *th) {
  if (pthread_create(th, NULL, control_main, k) != 0) return -1;
  return 0;
}
