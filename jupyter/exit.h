/* exit.h — ending the kernel from a cell, as ipykernel's `exit` does.
 *
 * A cell that is just `exit` or `quit` (optionally with `()`) replies with
 * an ask_exit payload: jupyter console quits and shuts the kernel down, a
 * notebook ignores it. The kernel itself does not exit: the frontend owns
 * its lifecycle (a kernel that vanished right after the cell would race the
 * console reading the reply).
 *
 * os.exit([code]) in a cell would call C exit() under the kernel's running
 * threads, mid-message. The kernel's host (host.c) asks the session to stop
 * the cell with a SystemExit error instead, and shuts the kernel down after
 * it, exiting with `code`. */
#ifndef MF_KERNEL_EXIT_H
#define MF_KERNEL_EXIT_H

#include <stdbool.h>

/* True when the cell asks to leave (`exit`, `quit`, `exit()`, `quit()`). */
bool mf_cell_is_exit(const char *code);

#endif
