/* log.c — see log.h. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

void mf_klog(const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  /* One call per line so lines from the control and main threads never
   * interleave mid-line. */
  fprintf(stderr, "[moonflow kernel] %s\n", line);
  fflush(stderr);
}
