/* repl.h — the `moonflow` program's parts (repl/), one concept a file:
 *
 *   main.c         options, subcommands, the order things run in
 *   host.c         the terminal host: session output to stdout/stderr,
 *                  colour, errors printed as "Type: message"
 *   signals.c      Ctrl-C: interrupts a running evaluation, or cancels the
 *                  line being typed; terminal resizes
 *   interactive.c  the REPL: GNU readline, history, continuation lines,
 *                  tab completion
 *   script.c       scripts, -e and -l, and the `arg` table, as lua.c does
 *
 * None of them evaluates anything itself: the session (lua/host/) does. */
#ifndef MF_REPL_H
#define MF_REPL_H

#include <stdbool.h>

#include "session.h"

/* host.c */
/* Fills the terminal host. Colour only when stdout is a terminal and
 * NO_COLOR is unset (and TERM is not "dumb"). */
void mf_term_host_init(mf_session_host *host);
/* Prints an evaluation error on stderr: "Type: message", then the
 * traceback when the session gave one (dim, when colour is on). */
void mf_term_print_error(const mf_eval_result *r, bool color);

/* signals.c */
/* Installs the SIGINT and SIGWINCH handlers for session s. */
void mf_signals_install(mf_session *s);
/* Brackets an evaluation: Ctrl-C then interrupts it. Outside, Ctrl-C
 * kills a script, and in the REPL is reported by mf_signals_take_sigint. */
void mf_signals_evaluating(bool on);
void mf_signals_interactive(bool on);
bool mf_signals_take_sigint(void);
bool mf_signals_take_sigwinch(void);

/* interactive.c */
/* Runs the REPL until Ctrl-D, `exit` or `quit`; returns the exit status. */
int mf_repl_run(mf_session *s, bool color);

/* script.c */
/* Sets the global `arg` as lua.c does: arg[0] = argv[script], arg[1..] the
 * script's arguments, negative indices the interpreter and its options.
 * script == argc: no script (arg[0] = argv[0]). */
void mf_script_set_arg(mf_session *s, int argc, char **argv, int script);
/* Runs a script (NULL: stdin) with its arguments as `...`. 0 or 1. */
int mf_script_run(mf_session *s, const char *path, int nargs, char **args, bool color);
/* -e code: 0 or 1. */
int mf_script_eval(mf_session *s, const char *code, bool color);
/* -l [g=]mod: g = require(mod); 0 or 1. */
int mf_script_require(mf_session *s, const char *spec, bool color);

#endif
