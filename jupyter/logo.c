/* logo.c — see logo.h. The picture: Lua's navy planet with a white
 * crescent, and an orange moon (TensorFlow's colour) in orbit, antialiased
 * by 4x4 supersampling. The PNG uses stored (uncompressed) deflate blocks:
 * 16 KiB at 64x64 is nothing, and it spares a zlib dependency. */
#include "logo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct { double x, y, r; } disc;

static int inside(disc d, double x, double y) {
  double dx = x - d.x, dy = y - d.y;
  return dx * dx + dy * dy <= d.r * d.r;
}

/* Colour of one sample point in the unit square; alpha 0 is background. */
static void sample(double x, double y, double rgba[4]) {
  static const disc planet = {0.44, 0.56, 0.40};
  static const disc lit = {0.40, 0.58, 0.25}, shadow = {0.49, 0.51, 0.22};
  static const disc moon = {0.84, 0.16, 0.13};
  rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0;
  if (inside(moon, x, y)) {
    rgba[0] = 255, rgba[1] = 111, rgba[2] = 0, rgba[3] = 255; /* #FF6F00 */
  } else if (inside(planet, x, y)) {
    if (inside(lit, x, y) && !inside(shadow, x, y))
      rgba[0] = rgba[1] = rgba[2] = 255, rgba[3] = 255;
    else
      rgba[0] = 0, rgba[1] = 0, rgba[2] = 128, rgba[3] = 255; /* Lua's navy */
  }
}

static uint32_t crc_table[256];

static void crc_init(void) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[n] = c;
  }
}

static uint32_t crc32(const unsigned char *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

static unsigned char *put32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
  return p + 4;
}

/* Writes a chunk (length, type, data, CRC over type and data). */
static unsigned char *chunk(unsigned char *p, const char type[4], const unsigned char *data, size_t n) {
  p = put32(p, (uint32_t)n);
  unsigned char *t = p;
  memcpy(p, type, 4);
  if (n) memcpy(p + 4, data, n);
  p += 4 + n;
  return put32(p, crc32(t, n + 4));
}

int mf_logo_png(int size, unsigned char **out, size_t *outlen) {
  crc_init();
  size_t row = 1 + (size_t)size * 4; /* filter byte + RGBA */
  size_t raw_len = row * (size_t)size;
  size_t blocks = raw_len / 65535 + 1;
  size_t z_len = 2 + raw_len + 5 * blocks + 4;
  unsigned char *raw = malloc(raw_len), *z = malloc(z_len);
  unsigned char *png = malloc(8 + 25 + 12 + z_len + 12);
  if (!raw || !z || !png) {
    free(raw), free(z), free(png);
    return -1;
  }
  const int ss = 4;
  for (int y = 0; y < size; y++) {
    unsigned char *r = raw + row * (size_t)y;
    r[0] = 0; /* filter: none */
    for (int x = 0; x < size; x++) {
      double acc[4] = {0, 0, 0, 0};
      for (int sy = 0; sy < ss; sy++)
        for (int sx = 0; sx < ss; sx++) {
          double c[4];
          sample((x + (sx + 0.5) / ss) / size, (y + (sy + 0.5) / ss) / size, c);
          /* Premultiplied, so edges blend toward the shape's colour rather
           * than the transparent background's black. */
          for (int i = 0; i < 3; i++) acc[i] += c[i] * c[3] / 255.0;
          acc[3] += c[3];
        }
      unsigned char *px = r + 1 + 4 * (size_t)x;
      double a = acc[3] / (ss * ss);
      for (int i = 0; i < 3; i++)
        px[i] = (unsigned char)(acc[3] > 0 ? acc[i] / (acc[3] / 255.0) + 0.5 : 0);
      px[3] = (unsigned char)(a + 0.5);
    }
  }
  /* zlib stream of stored blocks. */
  unsigned char *q = z;
  *q++ = 0x78, *q++ = 0x01;
  uint32_t a1 = 1, a2 = 0;
  for (size_t off = 0; off < raw_len || off == 0;) {
    size_t n = raw_len - off > 65535 ? 65535 : raw_len - off;
    *q++ = off + n == raw_len ? 1 : 0;
    *q++ = (unsigned char)(n & 0xFF), *q++ = (unsigned char)(n >> 8);
    *q++ = (unsigned char)(~n & 0xFF), *q++ = (unsigned char)((~n >> 8) & 0xFF);
    memcpy(q, raw + off, n);
    for (size_t i = 0; i < n; i++) {
      a1 = (a1 + raw[off + i]) % 65521;
      a2 = (a2 + a1) % 65521;
    }
    q += n;
    off += n;
    if (n == 0) break;
  }
  q = put32(q, (a2 << 16) | a1);
  unsigned char ihdr[13];
  put32(ihdr, (uint32_t)size);
  put32(ihdr + 4, (uint32_t)size);
  ihdr[8] = 8, ihdr[9] = 6, ihdr[10] = 0, ihdr[11] = 0, ihdr[12] = 0; /* 8-bit RGBA */
  unsigned char *p = png;
  memcpy(p, "\x89PNG\r\n\x1a\n", 8);
  p += 8;
  p = chunk(p, "IHDR", ihdr, sizeof ihdr);
  p = chunk(p, "IDAT", z, (size_t)(q - z));
  p = chunk(p, "IEND", NULL, 0);
  free(raw);
  free(z);
  *out = png;
  *outlen = (size_t)(p - png);
  return 0;
}
