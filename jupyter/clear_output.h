/* clear_output.h — `tf.clear_output([wait])` in the kernel: sends iopub
 * clear_output, so a cell can redraw its output (IPython's
 * display.clear_output).
 *
 * session.h has no host callback for this yet, so the kernel defines the
 * function in the session's `tf` table itself — only when the session has
 * not defined one, so a session-owned version (with a terminal meaning)
 * takes over as soon as it exists. */
#ifndef MF_KERNEL_CLEAR_OUTPUT_H
#define MF_KERNEL_CLEAR_OUTPUT_H

typedef struct mf_kernel mf_kernel;

void mf_kernel_install_clear_output(mf_kernel *k);

#endif
