/* npy.c — .npy encode/decode and .npz reading (see npy.h). */
#include "npy.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "alloc.h"

#define BAD(...) mf_error_set(err, MF_ERR_INVALID_ARGUMENT, __VA_ARGS__)

static const char *descr_of(mf_dtype dt) {
  switch (dt) {
    case MF_FLOAT32: return "<f4";
    case MF_FLOAT64: return "<f8";
    case MF_INT32: return "<i4";
    case MF_INT64: return "<i8";
    case MF_BOOL: return "|b1";
    case MF_FLOAT16: return "<f2";
    case MF_INT8: return "|i1";
    case MF_INT16: return "<i2";
    case MF_UINT8: return "|u1";
    case MF_UINT16: return "<u2";
    case MF_UINT32: return "<u4";
    case MF_UINT64: return "<u8";
    default: return NULL; /* bfloat16 is no NumPy dtype */
  }
}

mf_status mf_npy_encode(const mf_tensor *t, unsigned char **out, size_t *len, mf_error *err) {
  const char *descr = descr_of(t->dtype);
  if (!descr)
    return mf_error_set(err, MF_ERR_TYPE,
                        "cannot write a %s tensor as .npy: NumPy has no such dtype (it holds "
                        "the float, int, uint and bool dtypes here)",
                        mf_dtype_name(t->dtype));
  char dict[64 + 24 * MF_MAX_RANK];
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int i = 0; i < t->rank; i++)
    n += snprintf(dict + n, sizeof dict - n, "%lld,%s", (long long)t->shape[i],
                  i + 1 < t->rank ? " " : "");
  n += snprintf(dict + n, sizeof dict - n, "), }");
  /* NumPy pads magic + length + dict + '\n' to a multiple of 64. */
  size_t hlen = (size_t)n + 1;
  size_t total = 10 + hlen;
  size_t pad = (64 - total % 64) % 64;
  hlen += pad;
  size_t nbytes = (size_t)t->size * mf_dtype_size(t->dtype);
  unsigned char *b = mf_malloc(10 + hlen + nbytes);
  if (!b) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory writing .npy");
  memcpy(b, "\x93NUMPY\x01\x00", 8);
  b[8] = (unsigned char)(hlen & 0xff);
  b[9] = (unsigned char)(hlen >> 8);
  memcpy(b + 10, dict, (size_t)n);
  memset(b + 10 + n, ' ', pad);
  b[10 + hlen - 1] = '\n';
  if (nbytes) memcpy(b + 10 + hlen, mf_tensor_data(t), nbytes);
  if (t->dtype == MF_BOOL) /* normalise: NumPy requires 0/1 */
    for (size_t i = 0; i < nbytes; i++) b[10 + hlen + i] = b[10 + hlen + i] ? 1 : 0;
  *out = b;
  *len = 10 + hlen + nbytes;
  return MF_OK;
}

/* --- the header dict: a Python literal, parsed strictly --- */

typedef struct {
  const char *p, *end;
} cursor;

static void skip_ws(cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t')) c->p++;
}

static int eat(cursor *c, char ch) {
  skip_ws(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return 1;
  }
  return 0;
}

/* A quoted string ('...' or "...") without escapes into buf. */
static int quoted(cursor *c, char *buf, size_t n) {
  skip_ws(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return 0;
  char q = *c->p++;
  size_t i = 0;
  while (c->p < c->end && *c->p != q) {
    if (*c->p == '\\' || i + 1 >= n) return 0;
    buf[i++] = *c->p++;
  }
  if (c->p >= c->end) return 0;
  c->p++;
  buf[i] = 0;
  return 1;
}

static int word(cursor *c, const char *w) {
  skip_ws(c);
  size_t n = strlen(w);
  if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
    c->p += n;
    return 1;
  }
  return 0;
}

static mf_status parse_shape(cursor *c, int *rank, int64_t *shape, mf_error *err) {
  if (!eat(c, '(')) return BAD(".npy header: 'shape' is not a tuple");
  *rank = 0;
  for (;;) {
    if (eat(c, ')')) return MF_OK;
    skip_ws(c);
    if (c->p >= c->end || !isdigit((unsigned char)*c->p))
      return BAD(".npy header: 'shape' holds something other than non-negative integers");
    int64_t v = 0;
    while (c->p < c->end && isdigit((unsigned char)*c->p)) {
      if (v > (INT64_MAX - 9) / 10) return BAD(".npy header: a dimension overflows int64");
      v = v * 10 + (*c->p++ - '0');
    }
    if (c->p < c->end && *c->p == 'L') c->p++; /* Python 2 longs */
    if (*rank >= MF_MAX_RANK)
      return BAD(".npy header: rank above moonflow's maximum of %d", MF_MAX_RANK);
    shape[(*rank)++] = v;
    if (eat(c, ')')) return MF_OK;
    if (!eat(c, ',')) return BAD(".npy header: 'shape' is not a tuple of integers");
  }
}

static mf_status parse_descr(const char *d, mf_dtype *dt, int *swap, mf_error *err) {
  static const struct {
    const char *code;
    mf_dtype dt;
  } codes[] = {{"f4", MF_FLOAT32}, {"f8", MF_FLOAT64}, {"i4", MF_INT32}, {"i8", MF_INT64},
               {"b1", MF_BOOL},    {"f2", MF_FLOAT16}, {"i1", MF_INT8},   {"i2", MF_INT16},
               {"u1", MF_UINT8},   {"u2", MF_UINT16},  {"u4", MF_UINT32}, {"u8", MF_UINT64}};
  char order = d[0];
  const char *code = d + 1;
  if (order != '<' && order != '>' && order != '|' && order != '=')
    return BAD(".npy header: descr '%s' is not a simple NumPy dtype", d);
  for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
    if (strcmp(code, codes[i].code) == 0) {
      *dt = codes[i].dt;
      *swap = order == '>' && mf_dtype_size(*dt) > 1;
      return MF_OK;
    }
  if (code[0] == 'U' || code[0] == 'S')
    return mf_error_set(err, MF_ERR_TYPE,
                        ".npy dtype '%s' is a string type; moonflow reads numeric and bool "
                        ".npy files only",
                        d);
  return mf_error_set(err, MF_ERR_TYPE,
                      ".npy dtype '%s' has no moonflow dtype (float '<f2' '<f4' '<f8', int "
                      "'|i1' '<i2' '<i4' '<i8', uint '|u1' '<u2' '<u4' '<u8', bool '|b1')",
                      d);
}

static mf_status parse_header(const char *h, size_t n, mf_dtype *dt, int *swap, int *rank,
                              int64_t *shape, mf_error *err) {
  cursor c = {h, h + n};
  int seen_descr = 0, seen_order = 0, seen_shape = 0;
  if (!eat(&c, '{')) return BAD(".npy header is not a dict");
  for (;;) {
    if (eat(&c, '}')) break;
    char key[32], val[32];
    if (!quoted(&c, key, sizeof key)) return BAD(".npy header: a key is not a string");
    if (!eat(&c, ':')) return BAD(".npy header: ':' missing after '%s'", key);
    if (strcmp(key, "descr") == 0 && !seen_descr) {
      seen_descr = 1;
      if (!quoted(&c, val, sizeof val))
        return BAD(".npy header: 'descr' is not a simple dtype string (structured arrays "
                   "are not supported)");
      MF_TRY(parse_descr(val, dt, swap, err));
    } else if (strcmp(key, "fortran_order") == 0 && !seen_order) {
      seen_order = 1;
      if (word(&c, "True"))
        return mf_error_set(err, MF_ERR_UNIMPLEMENTED,
                            ".npy file is in Fortran order; moonflow reads C order only "
                            "(save with np.ascontiguousarray)");
      if (!word(&c, "False")) return BAD(".npy header: 'fortran_order' is not True or False");
    } else if (strcmp(key, "shape") == 0 && !seen_shape) {
      seen_shape = 1;
      MF_TRY(parse_shape(&c, rank, shape, err));
    } else {
      return BAD(".npy header: unexpected or repeated key '%s'", key);
    }
    if (eat(&c, '}')) break;
    if (!eat(&c, ',')) return BAD(".npy header: ',' missing between entries");
  }
  if (!seen_descr || !seen_order || !seen_shape)
    return BAD(".npy header lacks '%s'", !seen_descr ? "descr" : !seen_order ? "fortran_order"
                                                                             : "shape");
  while (c.p < c.end && (*c.p == ' ' || *c.p == '\t' || *c.p == '\0')) c.p++;
  if (c.p != c.end - 1 || *c.p != '\n') return BAD(".npy header does not end in a newline");
  return MF_OK;
}

mf_status mf_npy_decode(const unsigned char *data, size_t len, mf_tensor **out, mf_error *err) {
  if (len < 10 || memcmp(data, "\x93NUMPY", 6) != 0)
    return BAD("not a .npy file (the magic string \\x93NUMPY is missing)");
  int major = data[6];
  size_t hlen, start;
  if (major == 1) {
    hlen = (size_t)data[8] | (size_t)data[9] << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (len < 12) return BAD(".npy file truncated in its header");
    hlen = (size_t)data[8] | (size_t)data[9] << 8 | (size_t)data[10] << 16 |
           (size_t)data[11] << 24;
    start = 12;
  } else {
    return BAD(".npy format version %d.%d is not supported (1.0, 2.0, 3.0 are)", major, data[7]);
  }
  if (hlen > len - start) return BAD(".npy file truncated in its header");
  mf_dtype dt = MF_FLOAT32;
  int swap = 0, rank = 0;
  int64_t shape[MF_MAX_RANK];
  MF_TRY(parse_header((const char *)data + start, hlen, &dt, &swap, &rank, shape, err));
  int64_t count;
  MF_TRY(mf_shape_size(rank, shape, &count, err));
  size_t isz = mf_dtype_size(dt);
  size_t avail = len - start - hlen;
  if ((uint64_t)count > SIZE_MAX / isz || (size_t)count * isz != avail)
    return BAD(".npy data is %zu bytes but shape and dtype need %lld x %zu", avail,
               (long long)count, isz);
  mf_tensor *t;
  MF_TRY(mf_tensor_new(dt, rank, shape, &t, err));
  unsigned char *dst = mf_tensor_data(t);
  const unsigned char *src = data + start + hlen;
  if (dt == MF_BOOL) {
    for (size_t i = 0; i < avail; i++) {
      if (src[i] > 1) {
        mf_tensor_release(t);
        return BAD(".npy bool data holds byte %d (only 0 and 1 are booleans)", src[i]);
      }
      dst[i] = src[i];
    }
  } else if (swap) {
    for (size_t i = 0; i < (size_t)count; i++)
      for (size_t k = 0; k < isz; k++) dst[i * isz + k] = src[i * isz + isz - 1 - k];
  } else if (avail) {
    memcpy(dst, src, avail);
  }
  *out = t;
  return MF_OK;
}

/* --- files --- */

mf_status mf_file_read(const char *path, size_t limit, unsigned char **out, size_t *len,
                       mf_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return mf_error_set(err, MF_ERR_NOT_FOUND, "cannot open '%s': %s", path, strerror(errno));
  size_t cap = 4096, n = 0;
  unsigned char *b = mf_malloc(cap);
  while (b) {
    if (n == cap) {
      if (cap > limit) break;
      unsigned char *nb = mf_realloc(b, cap * 2);
      if (!nb) {
        free(b);
        b = NULL;
        break;
      }
      b = nb;
      cap *= 2;
    }
    size_t r = fread(b + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (!b) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory reading '%s'", path);
  if (bad) {
    free(b);
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "cannot read '%s'", path);
  }
  if (n > limit) {
    free(b);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "'%s' is larger than %zu bytes", path,
                        limit);
  }
  *out = b;
  *len = n;
  return MF_OK;
}

mf_status mf_file_write(const char *path, const void *data, size_t len, mf_error *err) {
  FILE *f = fopen(path, "wb");
  if (!f) return mf_error_set(err, MF_ERR_NOT_FOUND, "cannot write '%s': %s", path, strerror(errno));
  size_t w = len ? fwrite(data, 1, len, f) : 0;
  int bad = fclose(f) != 0 || w != len;
  if (bad) return mf_error_set(err, MF_ERR_INTERNAL, "cannot write '%s' completely", path);
  return MF_OK;
}

#define FILE_LIMIT ((size_t)1 << 34)

mf_status mf_npy_write(const char *path, const mf_tensor *t, mf_error *err) {
  unsigned char *b;
  size_t n;
  MF_TRY(mf_npy_encode(t, &b, &n, err));
  mf_status s = mf_file_write(path, b, n, err);
  free(b);
  return s;
}

mf_status mf_npy_read(const char *path, mf_tensor **out, mf_error *err) {
  unsigned char *b;
  size_t n;
  MF_TRY(mf_file_read(path, FILE_LIMIT, &b, &n, err));
  mf_status s = mf_npy_decode(b, n, out, err);
  free(b);
  if (s != MF_OK) {
    char msg[MF_ERROR_MESSAGE_MAX];
    snprintf(msg, sizeof msg, "%s", err->message);
    mf_error_set(err, s, "%s: %s", path, msg);
  }
  return s;
}

/* --- .npz: the zip central directory, stored and deflated members --- */

static uint32_t le16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const unsigned char *p) { return le16(p) | le16(p + 2) << 16; }
static uint64_t le64(const unsigned char *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

static mf_status inflate_member(const unsigned char *src, size_t srclen, unsigned char *dst,
                                size_t dstlen, mf_error *err) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return BAD(".npz: cannot start zlib");
  mf_status s = MF_OK;
  size_t done_in = 0, done_out = 0;
  int r = Z_OK;
  while (r == Z_OK) {
    /* uInt is 32 bits: feed large members in pieces */
    size_t in = srclen - done_in, outn = dstlen - done_out;
    z.next_in = (unsigned char *)src + done_in;
    z.avail_in = in > 0x40000000u ? 0x40000000u : (uInt)in;
    z.next_out = dst + done_out;
    z.avail_out = outn > 0x40000000u ? 0x40000000u : (uInt)outn;
    uInt ai = z.avail_in, ao = z.avail_out;
    r = inflate(&z, Z_NO_FLUSH);
    done_in += ai - z.avail_in;
    done_out += ao - z.avail_out;
    if (r == Z_OK && ai == z.avail_in && ao == z.avail_out) break;
  }
  if (r != Z_STREAM_END || done_out != dstlen) s = BAD(".npz: a deflated member is corrupt");
  inflateEnd(&z);
  return s;
}

void mf_npz_free(mf_npz *z) {
  for (int i = 0; i < z->count; i++) {
    free(z->names[i]);
    if (z->tensors[i]) mf_tensor_release(z->tensors[i]);
  }
  free(z->names);
  free(z->tensors);
  memset(z, 0, sizeof *z);
}

static mf_status npz_parse(const unsigned char *b, size_t n, mf_npz *z, mf_error *err) {
  /* The end-of-central-directory record sits within the last 22 + 65535 bytes. */
  if (n < 22) return BAD("not an .npz file (too short for a zip archive)");
  size_t eocd = (size_t)-1;
  for (size_t i = n - 22 + 1; i-- > 0 && n - i <= 22 + 65535;)
    if (le32(b + i) == 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd == (size_t)-1) return BAD("not an .npz file (no zip end-of-directory record)");
  uint64_t entries = le16(b + eocd + 10);
  uint64_t cd_off = le32(b + eocd + 16);
  if (cd_off == 0xffffffffu || entries == 0xffff) {
    /* zip64: the locator precedes the record */
    if (eocd < 20 || le32(b + eocd - 20) != 0x07064b50) return BAD(".npz: zip64 locator missing");
    uint64_t z64 = le64(b + eocd - 20 + 8);
    if (z64 > n - 56 || le32(b + z64) != 0x06064b50) return BAD(".npz: zip64 record corrupt");
    entries = le64(b + z64 + 32);
    cd_off = le64(b + z64 + 48);
  }
  if (cd_off > n || entries > n / 46) return BAD(".npz: central directory out of range");
  z->names = mf_calloc(entries ? entries : 1, sizeof *z->names);
  z->tensors = mf_calloc(entries ? entries : 1, sizeof *z->tensors);
  if (!z->names || !z->tensors) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  size_t p = cd_off;
  for (uint64_t e = 0; e < entries; e++) {
    if (p > n - 46 || le32(b + p) != 0x02014b50) return BAD(".npz: central directory corrupt");
    uint32_t method = le16(b + p + 10);
    uint64_t csize = le32(b + p + 20), usize = le32(b + p + 24);
    size_t namelen = le16(b + p + 28), extralen = le16(b + p + 30), commlen = le16(b + p + 32);
    uint64_t loff = le32(b + p + 42);
    if (namelen + extralen + commlen > n - p - 46) return BAD(".npz: central directory corrupt");
    const unsigned char *name = b + p + 46, *extra = name + namelen;
    /* zip64 extra field: the 64-bit values of the fields saturated above */
    for (size_t x = 0; x + 4 <= extralen;) {
      size_t id = le16(extra + x), sz = le16(extra + x + 2);
      if (sz > extralen - x - 4) return BAD(".npz: extra field corrupt");
      if (id == 1) {
        size_t q = x + 4;
        if (usize == 0xffffffffu) { if (q + 8 > x + 4 + sz) return BAD(".npz: zip64 field short"); usize = le64(extra + q); q += 8; }
        if (csize == 0xffffffffu) { if (q + 8 > x + 4 + sz) return BAD(".npz: zip64 field short"); csize = le64(extra + q); q += 8; }
        if (loff == 0xffffffffu) { if (q + 8 > x + 4 + sz) return BAD(".npz: zip64 field short"); loff = le64(extra + q); }
      }
      x += 4 + sz;
    }
    if (loff > n - 30 || le32(b + loff) != 0x04034b50) return BAD(".npz: local header corrupt");
    uint64_t data = loff + 30 + le16(b + loff + 26) + le16(b + loff + 28);
    if (data > n || csize > n - data) return BAD(".npz: member data out of range");
    size_t nl = namelen;
    if (nl >= 4 && memcmp(name + nl - 4, ".npy", 4) == 0) nl -= 4;
    z->names[z->count] = mf_malloc(nl + 1);
    if (!z->names[z->count]) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    memcpy(z->names[z->count], name, nl);
    z->names[z->count][nl] = 0;
    z->count++;
    const char *mname = z->names[z->count - 1];
    mf_status s;
    if (method == 0) {
      if (csize != usize) return BAD(".npz: stored member '%s' has two sizes", mname);
      s = mf_npy_decode(b + data, csize, &z->tensors[z->count - 1], err);
    } else if (method == 8) {
      if (usize > FILE_LIMIT || usize > csize * 1032 + 64)
        return BAD(".npz: member '%s' claims an impossible size", mname);
      unsigned char *u = mf_malloc(usize ? usize : 1);
      if (!u) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
      s = inflate_member(b + data, csize, u, usize, err);
      if (s == MF_OK) s = mf_npy_decode(u, usize, &z->tensors[z->count - 1], err);
      free(u);
    } else {
      return mf_error_set(err, MF_ERR_UNIMPLEMENTED,
                          ".npz member '%s' uses zip method %u (stored and deflated are read)",
                          mname, method);
    }
    if (s != MF_OK) {
      char msg[MF_ERROR_MESSAGE_MAX];
      snprintf(msg, sizeof msg, "%s", err->message);
      return mf_error_set(err, s, ".npz member '%s': %s", mname, msg);
    }
    p += 46 + namelen + extralen + commlen;
  }
  return MF_OK;
}

mf_status mf_npz_read(const char *path, mf_npz *out, mf_error *err) {
  unsigned char *b;
  size_t n;
  memset(out, 0, sizeof *out);
  MF_TRY(mf_file_read(path, FILE_LIMIT, &b, &n, err));
  mf_status s = npz_parse(b, n, out, err);
  free(b);
  if (s != MF_OK) mf_npz_free(out);
  return s;
}
