/* dot_svg.h — `tf._dot_to_svg(dot)`: Graphviz DOT text to SVG, with
 * libgvc in process. graph.lua's __mimebundle uses it, when present, to add
 * image/svg+xml to a graph's display (so %graph and graph results show a
 * picture in notebooks). The kernel installs it only when the session has
 * not defined one. */
#ifndef MF_KERNEL_DOT_SVG_H
#define MF_KERNEL_DOT_SVG_H

#include <stddef.h>

typedef struct mf_kernel mf_kernel;

/* The SVG of a DOT graph (malloc'd, NUL-terminated, length in *len), or
 * NULL with a reason in err. */
char *mf_dot_to_svg(const char *dot, size_t *len, char *err, size_t errlen);

void mf_kernel_install_dot_to_svg(mf_kernel *k);

#endif
