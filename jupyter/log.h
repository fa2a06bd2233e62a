/* log.h — the kernel's diagnostics. Every failure the kernel survives
 * (a dropped message, a socket error, a malformed request) is written to
 * stderr with one prefix, so a user reading the Jupyter server's log can
 * tell kernel problems from everything else. Thread-safe (one fprintf per
 * line; stdio locks the stream). */
#ifndef MF_KERNEL_LOG_H
#define MF_KERNEL_LOG_H

void mf_klog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
