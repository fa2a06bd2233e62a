/* kernel.c — `moonflow kernel -f FILE`: sets up the sockets, the session
 * and the threads, then serves the shell socket (and requests relayed from
 * the control thread) until a shutdown_request. See kernel.h for who owns
 * what. */
#include "kernel.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zmq.h>

#include "kernel_main.h"
#include "log.h"
#include "utf8.h"

/* For the SIGINT handler, which has no other way to find the kernel. */
static mf_kernel *g_kernel;

/* ---- replies, interrupts, shutdown ------------------------------------ */

void mf_kernel_reply(mf_kernel *k, const mf_request *req, const char *msg_type, json_t *content) {
  mf_wire_send(&k->wire, req->reply_sock, req->msg.idents, req->msg.n_idents, msg_type,
               req->msg.header_json, content, NULL);
}

void mf_kernel_interrupt(mf_kernel *k) {
  if (!atomic_load(&k->busy)) return;
  atomic_store(&k->interrupted, 1);
  /* From another thread: the main thread's own SIGINT handler arms the
   * session's hooks, so lua_sethook never runs beside the VM it changes. */
  if (!pthread_equal(pthread_self(), k->main_thread)) {
    pthread_kill(k->main_thread, SIGINT);
    return;
  }
  mf_session_interrupt(k->session);
}

void mf_kernel_request_shutdown(mf_kernel *k, bool restart) {
  atomic_store(&k->restart, restart ? 1 : 0);
  atomic_store(&k->shutdown, 1);
  mf_kernel_interrupt(k);
}

const char *mf_kernel_parent(const mf_kernel *k) {
  return k->exec.req ? k->exec.req->msg.header_json : "{}";
}

static void on_sigint(int sig) {
  (void)sig;
  /* Only atomics and mf_session_interrupt (async-signal-safe by contract):
   * the interrupt is delivered by the session's Lua hook, never here. */
  if (g_kernel) mf_kernel_interrupt(g_kernel);
}

/* ---- dispatch ----------------------------------------------------------- */

static const struct {
  const char *type;
  mf_handler fn;
} HANDLERS[] = {
    {"execute_request", mf_handle_execute},
    {"kernel_info_request", mf_handle_kernel_info},
    {"complete_request", mf_handle_complete},
    {"inspect_request", mf_handle_inspect},
    {"is_complete_request", mf_handle_is_complete},
    {"history_request", mf_handle_history},
    {"comm_info_request", mf_handle_comm_info},
    {"comm_open", mf_handle_comm_open},
    {"shutdown_request", mf_handle_shutdown},
    {"interrupt_request", mf_handle_interrupt},
};

static bool is_request(const char *type) {
  size_t n = strlen(type), suffix = strlen("_request");
  return n > suffix && strcmp(type + n - suffix, "_request") == 0;
}

/* A request whose content is not JSON text: an error reply of its type
 * (execute_request says more itself, in handle_execute.c). */
static void refuse(mf_kernel *k, mf_request *req) {
  const char *type = req->msg.msg_type;
  size_t base = strlen(type) - strlen("_request");
  char reply_type[128];
  snprintf(reply_type, sizeof reply_type, "%.*s_reply", (int)(base < 100 ? base : 100), type);
  char evalue[300];
  snprintf(evalue, sizeof evalue, "the request's content is not valid JSON text (%s)",
           req->msg.content_error);
  mf_kernel_reply(k, req, reply_type,
                  json_pack("{s:s, s:s, s:o, s:[]}", "status", "error", "ename", "ValueError",
                            "evalue", mf_json_str(evalue), "traceback"));
}

void mf_kernel_dispatch(mf_kernel *k, mf_request *req) {
  mf_handler fn = NULL;
  for (size_t i = 0; i < sizeof HANDLERS / sizeof HANDLERS[0]; i++)
    if (strcmp(HANDLERS[i].type, req->msg.msg_type) == 0) fn = HANDLERS[i].fn;
  if (!fn) {
    /* comm_msg/comm_close: a comm this kernel closed when it was opened
     * (handle_comm_open.c); the spec asks for them to be ignored. */
    if (strncmp(req->msg.msg_type, "comm_", 5) != 0)
      mf_klog("ignored a %s on %s: not a request this kernel knows", req->msg.msg_type,
              mf_channel_name(req->channel));
    return;
  }
  if (req->msg.content_error && !is_request(req->msg.msg_type)) {
    /* comm_open has no reply to carry the error: inventing one ("c_reply")
     * would hand the frontend a message it never asked for. */
    mf_klog("dropped a %s whose content is not valid JSON text (%s)", req->msg.msg_type,
            req->msg.content_error);
    return;
  }
  mf_iopub_status(k->iopub, req->msg.header_json, "busy");
  if (req->msg.content_error && strcmp(req->msg.msg_type, "execute_request") != 0) {
    refuse(k, req);
    mf_iopub_status(k->iopub, req->msg.header_json, "idle");
    return;
  }
  if (!req->on_control_thread) k->exec.req = req;
  fn(k, req);
  if (!req->on_control_thread) k->exec.req = NULL;
  mf_iopub_status(k->iopub, req->msg.header_json, "idle");
}

/* Receives one message from sock and serves it; bad messages are logged
 * and dropped. Returns -1 only when the context is shutting down. */
static int serve_one(mf_kernel *k, void *sock, mf_channel ch, void *reply_sock,
                     void (*serve)(mf_kernel *, mf_request *)) {
  mf_frames fr;
  if (mf_frames_recv(sock, &fr, ZMQ_DONTWAIT) < 0) {
    if (errno == ETERM) return -1;
    if (errno != EAGAIN && errno != EINTR && errno != EMSGSIZE)
      mf_klog("receive on %s failed: %s", mf_channel_name(ch), zmq_strerror(errno));
    return 0;
  }
  if (fr.n == 1 && fr.f[0].len == strlen(MF_RELAY_WAKE) &&
      memcmp(fr.f[0].data, MF_RELAY_WAKE, fr.f[0].len) == 0) {
    mf_frames_free(&fr); /* the control thread woke us for a shutdown */
    return 0;
  }
  mf_request req = {.reply_sock = reply_sock, .channel = ch};
  char why[160];
  if (mf_msg_parse(&k->wire, &fr, &req.msg, why, sizeof why) < 0) {
    mf_klog("dropped a message on %s: %s", mf_channel_name(ch), why);
    return 0;
  }
  serve(k, &req);
  mf_msg_free(&req.msg);
  return 0;
}

/* Keeps a request (moved out of *req) for the main loop. */
static void defer(mf_kernel *k, mf_request *req) {
  if (k->n_deferred == k->cap_deferred) {
    size_t cap = k->cap_deferred ? k->cap_deferred * 2 : 8;
    mf_request *d = realloc(k->deferred, cap * sizeof *d);
    if (!d) {
      mf_klog("out of memory: dropped a queued %s", req->msg.msg_type);
      mf_msg_free(&req->msg);
      return;
    }
    k->deferred = d;
    k->cap_deferred = cap;
  }
  k->deferred[k->n_deferred++] = *req;
  memset(&req->msg, 0, sizeof req->msg); /* ownership moved */
}

static void serve_aborting(mf_kernel *k, mf_request *req) {
  if (strcmp(req->msg.msg_type, "execute_request") != 0) {
    defer(k, req);
    return;
  }
  mf_iopub_status(k->iopub, req->msg.header_json, "busy");
  mf_handle_execute_aborted(k, req);
  mf_iopub_status(k->iopub, req->msg.header_json, "idle");
}

void mf_kernel_abort_queued(mf_kernel *k) {
  for (;;) {
    zmq_pollitem_t it = {k->sock[MF_CH_SHELL], 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&it, 1, 0) <= 0 || !(it.revents & ZMQ_POLLIN)) return;
    if (serve_one(k, k->sock[MF_CH_SHELL], MF_CH_SHELL, k->sock[MF_CH_SHELL], serve_aborting) < 0)
      return;
  }
}

/* Serves the requests kept while aborting, in the order they came. The
 * list is taken first: serving one may abort (and keep) more. */
static void serve_deferred(mf_kernel *k) {
  mf_request *list = k->deferred;
  size_t n = k->n_deferred;
  k->deferred = NULL;
  k->n_deferred = k->cap_deferred = 0;
  for (size_t i = 0; i < n; i++) {
    if (!atomic_load(&k->shutdown)) mf_kernel_dispatch(k, &list[i]);
    mf_msg_free(&list[i].msg);
  }
  free(list);
}

static void main_loop(mf_kernel *k) {
  while (!atomic_load(&k->shutdown)) {
    if (k->n_deferred) {
      serve_deferred(k);
      continue;
    }
    zmq_pollitem_t items[2] = {{k->sock[MF_CH_SHELL], 0, ZMQ_POLLIN, 0},
                               {k->relay_main, 0, ZMQ_POLLIN, 0}};
    if (zmq_poll(items, 2, -1) < 0) {
      if (errno == EINTR) continue;
      if (errno != ETERM) mf_klog("poll failed: %s", zmq_strerror(errno));
      return;
    }
    if ((items[0].revents & ZMQ_POLLIN) &&
        serve_one(k, k->sock[MF_CH_SHELL], MF_CH_SHELL, k->sock[MF_CH_SHELL], mf_kernel_dispatch) < 0)
      return;
    /* A control request the control thread cannot serve itself (it needs
     * the session); its reply goes back over the relay. */
    if ((items[1].revents & ZMQ_POLLIN) &&
        serve_one(k, k->relay_main, MF_CH_CONTROL, k->relay_main, mf_kernel_dispatch) < 0)
      return;
  }
}

/* ---- setup -------------------------------------------------------------- */

static void *open_socket(mf_kernel *k, int type, mf_channel ch) {
  void *s = zmq_socket(k->zctx, type);
  if (!s) return NULL;
  /* Lets replies and the last iopub messages leave at shutdown without
   * hanging forever on a client that went away. */
  int linger = 1000, one = 1;
  zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
  /* A client that reconnects with the same identity (jupyter_client does
   * after a restart) takes over its route instead of being refused. */
  if (type == ZMQ_ROUTER) zmq_setsockopt(s, ZMQ_ROUTER_HANDOVER, &one, sizeof one);
  char ep[300];
  mf_connection_endpoint(&k->conn, ch, ep, sizeof ep);
  if (zmq_bind(s, ep) < 0) {
    mf_klog("cannot bind %s socket to %s: %s", mf_channel_name(ch), ep, zmq_strerror(errno));
    zmq_close(s);
    return NULL;
  }
  if (k->conn.port[ch] == 0) {
    char last[300];
    size_t n = sizeof last;
    if (zmq_getsockopt(s, ZMQ_LAST_ENDPOINT, last, &n) == 0) {
      const char *colon = strrchr(last, ':');
      if (colon) k->conn.port[ch] = atoi(colon + 1);
    }
  }
  return s;
}

static void usage(void) {
  fprintf(stderr, "usage: moonflow kernel -f CONNECTION_FILE\n"
                  "  Runs a Jupyter kernel; Jupyter starts it from the kernelspec that\n"
                  "  `moonflow install-kernel` writes.\n");
}

static int parse_args(int argc, char **argv, const char **file) {
  *file = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "kernel") == 0 && i == 1) continue; /* tolerate the full argv */
    if ((strcmp(a, "-f") == 0 || strcmp(a, "--f") == 0 || strcmp(a, "--connection-file") == 0) &&
        i + 1 < argc)
      *file = argv[++i];
    else if (strncmp(a, "-f=", 3) == 0 || strncmp(a, "--f=", 4) == 0)
      *file = strchr(a, '=') + 1;
    else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
      return 1;
    else
      mf_klog("ignoring unknown argument '%s'", a);
  }
  return *file ? 0 : -1;
}

static void teardown(mf_kernel *k, pthread_t *hb, bool hb_up, pthread_t *ctl, bool ctl_up) {
  /* Order matters: the control thread publishes on iopub, so it stops
   * first; the session goes next, while iopub still runs (its finalizers
   * may print); iopub is flushed while the context still runs; then the
   * context shutdown wakes the heartbeat with ETERM. */
  if (ctl_up) {
    if (zmq_send(k->relay_main, MF_RELAY_STOP, strlen(MF_RELAY_STOP), 0) < 0)
      mf_klog("could not stop the control thread: %s", zmq_strerror(errno));
    else
      pthread_join(*ctl, NULL);
  } else {
    if (k->sock[MF_CH_CONTROL]) zmq_close(k->sock[MF_CH_CONTROL]);
    if (k->relay_control) zmq_close(k->relay_control);
  }
  g_kernel = NULL;
  if (k->session) mf_session_free(k->session);
  k->session = NULL;
  if (k->iopub) mf_iopub_free(k->iopub);
  k->iopub = NULL;
  if (k->zctx) zmq_ctx_shutdown(k->zctx);
  if (hb_up) pthread_join(*hb, NULL);
  else if (k->sock[MF_CH_HB]) zmq_close(k->sock[MF_CH_HB]);
  for (int ch = 0; ch < MF_CH_COUNT; ch++)
    if (ch != MF_CH_HB && ch != MF_CH_CONTROL && k->sock[ch]) zmq_close(k->sock[ch]);
  if (k->relay_main) zmq_close(k->relay_main);
  if (k->zctx) zmq_ctx_term(k->zctx);
  free(k->exec.result_text);
  for (size_t i = 0; i < k->n_deferred; i++) mf_msg_free(&k->deferred[i].msg);
  free(k->deferred);
  mf_history_free(&k->history);
  mf_wire_free(&k->wire);
  mf_connection_free(&k->conn);
}

int mf_kernel_main(int argc, char **argv) {
  static mf_kernel kernel; /* static: the signal handler may outlive a stack frame */
  mf_kernel *k = &kernel;
  memset(k, 0, sizeof *k);
  k->main_thread = pthread_self();
  clock_gettime(CLOCK_REALTIME, &k->started_at);
  const char *file;
  int pa = parse_args(argc, argv, &file);
  if (pa != 0) {
    usage();
    return pa > 0 ? 0 : 2;
  }
  char err[512];
  if (!mf_connection_load(&k->conn, file, err, sizeof err)) {
    mf_klog("%s", err);
    return 1;
  }
  k->connection_file = file;
  if (!mf_wire_init(&k->wire, k->conn.key, k->conn.scheme, err, sizeof err)) {
    mf_klog("%s", err);
    mf_connection_free(&k->conn);
    return 1;
  }
  pthread_t hb, ctl;
  bool hb_up = false, ctl_up = false;
  int status = 1;
  k->zctx = zmq_ctx_new();
  if (!k->zctx) {
    mf_klog("cannot create a ZeroMQ context: %s", zmq_strerror(errno));
    goto out;
  }
  static const int TYPES[MF_CH_COUNT] = {ZMQ_ROUTER, ZMQ_PUB, ZMQ_ROUTER, ZMQ_ROUTER, ZMQ_REP};
  bool any_zero = false;
  for (int ch = 0; ch < MF_CH_COUNT; ch++) {
    any_zero |= k->conn.port[ch] == 0;
    if (!(k->sock[ch] = open_socket(k, TYPES[ch], (mf_channel)ch))) goto out;
  }
  if (any_zero && strcmp(k->conn.transport, "tcp") == 0 && !mf_connection_save(&k->conn, file))
    mf_klog("could not write the chosen ports back to %s", file);
  k->relay_main = zmq_socket(k->zctx, ZMQ_PAIR);
  k->relay_control = zmq_socket(k->zctx, ZMQ_PAIR);
  if (!k->relay_main || !k->relay_control || zmq_bind(k->relay_main, MF_RELAY_ENDPOINT) < 0 ||
      zmq_connect(k->relay_control, MF_RELAY_ENDPOINT) < 0) {
    mf_klog("cannot set up the control relay: %s", zmq_strerror(errno));
    goto out;
  }

  /* Helper threads must not take SIGINT: it belongs to the main thread,
   * whose zmq_poll it interrupts. They inherit this mask. */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  k->iopub = mf_iopub_new(&k->wire, k->sock[MF_CH_IOPUB]);
  hb_up = k->iopub && mf_heartbeat_start(k, &hb) == 0;
  ctl_up = hb_up && mf_control_start(k, &ctl) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (!ctl_up) {
    mf_klog("cannot start the kernel's threads");
    goto out;
  }

  mf_session_host host;
  mf_kernel_host_init(k, &host);
  k->session = mf_session_new(&host, err, sizeof err);
  if (!k->session) {
    mf_klog("cannot create the session: %s", err);
    goto out;
  }
  mf_history_open(&k->history);
  g_kernel = k;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, NULL);

  mf_iopub_status(k->iopub, "{}", "starting");
  atomic_store(&k->started, 1);
  main_loop(k);
  status = k->exit_status;
out:
  /* Ignored, not the default: the control thread may still relay an
   * interrupt it decided on just before the last cell ended. */
  signal(SIGINT, SIG_IGN);
  teardown(k, &hb, hb_up, &ctl, ctl_up);
  return status;
}
