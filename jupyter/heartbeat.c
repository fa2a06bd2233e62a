/* heartbeat.c — the heartbeat channel: echoes every ping on its own thread,
 * so Jupyter sees the kernel alive while a long cell runs (a kernel that
 * answered pings only between cells would be restarted mid-computation). */
#include <errno.h>
#include <pthread.h>

#include <zmq.h>

#include "kernel.h"
#include "log.h"

static void *heartbeat_main(void *arg) {
  void *s = arg;
  for (;;) {
    zmq_msg_t m;
    zmq_msg_init(&m);
    if (zmq_msg_recv(&m, s, 0) < 0) {
      int e = errno;
      zmq_msg_close(&m);
      if (e == EINTR) continue;
      if (e != ETERM) mf_klog("heartbeat receive failed: %s", zmq_strerror(e));
      break; /* ETERM: the kernel is shutting down */
    }
    int more = zmq_msg_more(&m);
    /* zmq_msg_send takes the message on success, so we close it only on
     * failure. */
    if (zmq_msg_send(&m, s, more ? ZMQ_SNDMORE : 0) < 0) {
      int e = errno;
      zmq_msg_close(&m);
      if (e == ETERM) break;
      mf_klog("heartbeat reply failed: %s", zmq_strerror(e));
    }
  }
  zmq_close(s);
  return NULL;
}

int mf_heartbeat_start(mf_kernel *k, pthread_t *th) {
  if (pthread_create(th, NULL, heartbeat_main, k->sock[MF_CH_HB]) != 0) return -1;
  return 0;
}
