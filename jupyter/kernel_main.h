/* kernel_main.h — the Jupyter kernel's two entry points, called by the
 * `moonflow` program (repl/main.c) for its `kernel` and `install-kernel`
 * subcommands. argv[0] is the subcommand name ("kernel", "install-kernel");
 * the rest are its options. Both return a process exit status.
 *
 *   moonflow kernel -f CONNECTION_FILE
 *       runs a Jupyter kernel (wire protocol 5.3) until a shutdown_request.
 *
 *   moonflow install-kernel [--user | --prefix P | --sys-prefix] [--name N]
 *       writes a kernelspec (kernel.json + logos) into
 *       <data dir>/kernels/<name>/ (name defaults to "moonflow"). */
#ifndef MF_KERNEL_MAIN_H
#define MF_KERNEL_MAIN_H

int mf_kernel_main(int argc, char **argv);
int mf_install_kernel_main(int argc, char **argv);

#endif
