/* host.c — the terminal host: what the session prints goes to stdout and
 * stderr as it happens, displays show their text/plain, and io.read and
 * the host table's input read the process's stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "repl.h"

#define RED "\033[31m"
#define DIM "\033[2m"
#define RESET "\033[0m"

static bool g_stdout_tty;

static void term_write(void *ud, const char *stream, const char *data, size_t len) {
  (void)ud;
  if (strcmp(stream, "stderr") == 0) {
    fflush(stdout);
    fwrite(data, 1, len, stderr);
    fflush(stderr);
    return;
  }
  fwrite(data, 1, len, stdout);
  if (g_stdout_tty) fflush(stdout);
}

static void term_display(void *ud, const mf_display *d) {
  for (int i = 0; i < d->n; i++) {
    if (strcmp(d->mimes[i], "text/plain") != 0) continue;
    term_write(ud, "stdout", d->data[i], d->lens[i]);
    if (d->lens[i] == 0 || d->data[i][d->lens[i] - 1] != '\n') term_write(ud, "stdout", "\n", 1);
  }
}

/* A line from stdin without its newline; NULL at end of input. With
 * `password`, the terminal does not echo it. */
static char *term_input(void *ud, const char *prompt, bool password) {
  (void)ud;
  fputs(prompt, stdout);
  fflush(stdout);
  struct termios saved, quiet;
  bool hide = password && isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0;
  if (hide) {
    quiet = saved;
    quiet.c_lflag &= ~(tcflag_t)ECHO;
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = getline(&line, &cap, stdin);
  if (hide) {
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    fputs("\n", stdout);
  }
  if (n < 0) {
    free(line);
    return NULL;
  }
  if (n > 0 && line[n - 1] == '\n') line[n - 1] = '\0';
  return line;
}

void mf_term_host_init(mf_session_host *host) {
  const char *no_color = getenv("NO_COLOR");
  const char *term = getenv("TERM");
  g_stdout_tty = isatty(STDOUT_FILENO);
  memset(host, 0, sizeof *host);
  host->write = term_write;
  host->display = term_display;
  host->input = term_input;
  host->color = g_stdout_tty && !(no_color && *no_color) && !(term && strcmp(term, "dumb") == 0);
  host->frontend = "terminal";
  host->use_process_stdin = true;
}

void mf_term_print_error(const mf_eval_result *r, bool color) {
  const char *ename = r->ename ? r->ename : "Error";
  const char *evalue = r->evalue ? r->evalue : "";
  const char *tb = r->traceback;
  size_t head = strlen(ename) + 2 + strlen(evalue);
  fflush(stdout);
  if (!tb || strlen(tb) < head) {
    fprintf(stderr, color ? RED "%s: %s" RESET "\n" : "%s: %s\n", ename, evalue);
  } else if (color) {
    fprintf(stderr, RED "%.*s" RESET, (int)head, tb);
    if (tb[head]) fprintf(stderr, DIM "%s" RESET, tb + head);
    fputs("\n", stderr);
  } else {
    fprintf(stderr, "%s\n", tb);
  }
  fflush(stderr);
}
