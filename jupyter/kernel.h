/* kernel.h — the kernel's state and the contract between its parts.
 *
 * Threads:
 *   main       owns the shell and stdin sockets and the session: every
 *              request that touches Lua runs here, one at a time.
 *   control    owns the control socket (control.c). interrupt_request,
 *              shutdown_request and kernel_info_request are answered right
 *              there, so they work while a cell runs; any other control
 *              request is relayed to the main thread over an inproc pair and
 *              its reply relayed back.
 *   heartbeat  echoes pings (heartbeat.c), whatever the others are doing.
 *   flusher    sends buffered stream output (iopub.c).
 *
 * Handlers (handle_*.c) take the kernel and one request; they answer with
 * mf_kernel_reply, publish with k->iopub, and never block on anything but
 * the session (and stdin, for io.read). The dispatcher wraps each request
 * in status busy/idle. */
#ifndef MF_KERNEL_H
#define MF_KERNEL_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include <jansson.h>

#include "connection.h"
#include "history.h"
#include "iopub.h"
#include "session.h"
#include "wire.h"

#define MF_KERNEL_IMPLEMENTATION "moonflow"
#define MF_RELAY_ENDPOINT "inproc://moonflow-control-relay"
/* The one-frame event the control thread sends the main thread when a
 * shutdown was requested (the main thread may be idle in zmq_poll). */
#define MF_RELAY_WAKE "shutdown"
/* The one-frame message the main thread sends the control thread at
 * teardown: stop serving (iopub is about to go away). */
#define MF_RELAY_STOP "stop"

typedef struct mf_request {
  mf_msg msg;
  void *reply_sock;    /* shell, control, or the relay pair */
  mf_channel channel;  /* MF_CH_SHELL or MF_CH_CONTROL */
  bool on_control_thread;
} mf_request;

/* What the session's output callbacks need to know about the request
 * being served (main thread only). */
typedef struct mf_exec_context {
  const mf_request *req; /* NULL between requests */
  bool silent;
  bool allow_stdin;
  int execution_count;
  char *result_text;     /* text/plain of the last execute_result (history) */
} mf_exec_context;

typedef struct mf_kernel {
  mf_connection conn;
  const char *connection_file;
  mf_wire wire;
  void *zctx;
  void *sock[MF_CH_COUNT]; /* control and heartbeat are handed to their threads */
  void *relay_main;        /* main thread's end of the control relay */
  void *relay_control;     /* control thread's end */
  mf_iopub *iopub;
  mf_session *session;
  pthread_t main_thread; /* the session's; interrupts are delivered to it */
  struct timespec started_at; /* when the process began (CLOCK_REALTIME) */
  mf_history history;
  mf_exec_context exec;
  int execution_count; /* the last stored execution's number */
  int exit_status;     /* the process's, set by os.exit in a cell */
  /* Requests taken off the shell socket while aborting (not executes),
   * served before the socket is polled again. */
  mf_request *deferred;
  size_t n_deferred, cap_deferred;

  /* Set from other threads or a signal handler. */
  atomic_int busy;           /* a cell (or expression) is running */
  atomic_int interrupted;    /* interrupt requested during this cell */
  atomic_int shutdown;       /* leave the main loop after this request */
  atomic_int restart;
  atomic_int started;        /* the session exists and the main loop runs */
} mf_kernel;

typedef void (*mf_handler)(mf_kernel *k, mf_request *req);

/* Sends a reply to req on the socket it came from; content is stolen. */
void mf_kernel_reply(mf_kernel *k, const mf_request *req, const char *msg_type, json_t *content);
/* Asks the running code to stop (InterruptedError); a no-op when idle, so a
 * stray interrupt never hits the next cell. Async-signal-safe. */
void mf_kernel_interrupt(mf_kernel *k);
/* Marks the kernel for shutdown, interrupting any running cell. */
void mf_kernel_request_shutdown(mf_kernel *k, bool restart);
/* Serves one request: busy, the handler, idle. Unknown types are logged. */
void mf_kernel_dispatch(mf_kernel *k, mf_request *req);
/* The parent header JSON for output sent now ("{}" between requests). */
const char *mf_kernel_parent(const mf_kernel *k);

/* Message handlers, one file each. */
void mf_handle_execute(mf_kernel *k, mf_request *req);
void mf_handle_kernel_info(mf_kernel *k, mf_request *req);
void mf_handle_complete(mf_kernel *k, mf_request *req);
void mf_handle_inspect(mf_kernel *k, mf_request *req);
void mf_handle_is_complete(mf_kernel *k, mf_request *req);
void mf_handle_history(mf_kernel *k, mf_request *req);
void mf_handle_comm_info(mf_kernel *k, mf_request *req);
void mf_handle_comm_open(mf_kernel *k, mf_request *req);
void mf_handle_shutdown(mf_kernel *k, mf_request *req);
void mf_handle_interrupt(mf_kernel *k, mf_request *req);

/* Replies "aborted" to an execute_request queued behind a failed cell that
 * had stop_on_error (handle_execute.c). */
void mf_handle_execute_aborted(mf_kernel *k, mf_request *req);
/* After a cell failed with stop_on_error, before its reply: answers every
 * execute_request already waiting on the shell socket "aborted" (they were
 * sent expecting this cell to succeed) and keeps any other request for the
 * main loop. Requests sent after the client saw the error run normally. */
void mf_kernel_abort_queued(mf_kernel *k);

/* The session host callbacks (host.c) and stdin (stdin_request.c). */
void mf_kernel_host_init(mf_kernel *k, mf_session_host *host);
char *mf_kernel_input(mf_kernel *k, const char *prompt, bool password);

/* Threads. */
int mf_heartbeat_start(mf_kernel *k, pthread_t *th);
int mf_control_start(mf_kernel *k, pthread_t *th);

#endif
