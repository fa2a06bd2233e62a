/* logo.h — the kernelspec's logos (logo-32x32.png, logo-64x64.png), drawn
 * and PNG-encoded here so an installed binary can write a kernelspec
 * without data files beside it. */
#ifndef MF_KERNEL_LOGO_H
#define MF_KERNEL_LOGO_H

#include <stddef.h>

/* A size x size RGBA PNG in a malloc'd buffer; -1 when out of memory. */
int mf_logo_png(int size, unsigned char **out, size_t *outlen);

#endif
