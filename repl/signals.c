/* signals.c — Ctrl-C and terminal resizes.
 *
 * During an evaluation, SIGINT asks the session to stop (the code raises
 * InterruptedError at its next Lua instruction or kernel poll; the session
 * and its globals survive). At the REPL prompt it is recorded, and the line
 * editor cancels the line. Anywhere else (a script between chunks) it has
 * its default effect. Handlers are installed without SA_RESTART, so the
 * REPL's select() returns EINTR and sees the flag at once. */
#include <signal.h>
#include <string.h>

#include "repl.h"

static mf_session *g_session;
static volatile sig_atomic_t g_evaluating, g_interactive, g_sigint, g_sigwinch;

static void on_sigint(int sig) {
  if (g_evaluating) {
    mf_session_interrupt(g_session);
  } else if (g_interactive) {
    g_sigint = 1;
  } else {
    signal(sig, SIG_DFL);
    raise(sig);
  }
}

static void on_sigwinch(int sig) {
  (void)sig;
  g_sigwinch = 1;
}

static void install(int sig, void (*handler)(int)) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
}

void mf_signals_install(mf_session *s) {
  g_session = s;
  install(SIGINT, on_sigint);
  install(SIGWINCH, on_sigwinch);
}

void mf_signals_evaluating(bool on) { g_evaluating = on; }

void mf_signals_interactive(bool on) { g_interactive = on; }

bool mf_signals_take_sigint(void) {
  bool was = g_sigint;
  g_sigint = 0;
  return was;
}

bool mf_signals_take_sigwinch(void) {
  bool was = g_sigwinch;
  g_sigwinch = 0;
  return was;
}
