/* run_saved.c — a saved moonflow program run from C through moonflow.h
 * alone: no Lua.
 *
 *   run_saved DIR                       lists the signatures and their arguments
 *   run_saved DIR NAME V1,V2,... ...    calls signature NAME, one list of
 *                                       numbers per argument (its shape is the
 *                                       argument's, one unknown dimension
 *                                       taking what is left), prints outputs */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moonflow.h"

static int fail(const mf_error *err) {
  fprintf(stderr, "run_saved: %s: %s\n", mf_status_name(err->status), err->message);
  return 1;
}

static int list(const mf_program *p) {
  mf_error err;
  for (int s = 0; s < mf_program_signature_count(p); s++) {
    const char *name = mf_program_signature_name(p, s);
    int nargs, nouts;
    if (mf_program_arity(p, name, &nargs, &nouts, &err) != MF_OK) return fail(&err);
    printf("%s(", name);
    for (int i = 0; i < nargs; i++) {
      const char *an;
      mf_dtype dt;
      int rank;
      int64_t shape[8];
      if (mf_program_arg(p, name, i, &an, &dt, &rank, shape, &err) != MF_OK) return fail(&err);
      printf("%s%s: %s[", i ? ", " : "", an, mf_dtype_name(dt));
      for (int k = 0; k < rank; k++) printf(k ? ",%lld" : "%lld", (long long)shape[k]);
      printf("]");
    }
    printf(") -> %d output%s\n", nouts, nouts == 1 ? "" : "s");
  }
  return 0;
}

/* Argument i of `name` from a comma-separated list of numbers. */
static int make_arg(const mf_program *p, const char *name, int i, const char *text, mf_tensor **out) {
  mf_error err;
  mf_dtype dt;
  int rank;
  int64_t shape[8];
  if (mf_program_arg(p, name, i, NULL, &dt, &rank, shape, &err) != MF_OK) return fail(&err);
  double vals[4096];
  int n = 0;
  for (const char *s = text; *s && n < 4096;) {
    char *end;
    vals[n++] = strtod(s, &end);
    if (end == s) {
      fprintf(stderr, "run_saved: '%s' is not a list of numbers\n", text);
      return 1;
    }
    s = *end == ',' ? end + 1 : end;
  }
  if (rank < 0) { rank = 1; shape[0] = n; }
  int64_t known = 1;
  int unknown = -1;
  for (int k = 0; k < rank; k++) {
    if (shape[k] < 0) unknown = k;
    else known *= shape[k];
  }
  if (unknown >= 0) shape[unknown] = known ? n / known : 0;
  size_t size = dt == MF_FLOAT64 || dt == MF_INT64 ? 8 : 4;
  char *buf = malloc((size_t)n * size + 1);
  for (int k = 0; k < n; k++) {
    if (dt == MF_FLOAT32) ((float *)buf)[k] = (float)vals[k];
    else if (dt == MF_FLOAT64) ((double *)buf)[k] = vals[k];
    else if (dt == MF_INT32) ((int32_t *)buf)[k] = (int32_t)vals[k];
    else ((int64_t *)buf)[k] = (int64_t)vals[k];
  }
  mf_status s = mf_tensor_from_buffer(dt, rank, shape, buf, (size_t)n * size, out, &err);
  free(buf);
  return s == MF_OK ? 0 : fail(&err);
}

static void print_tensor(const char *label, const mf_tensor *t) {
  size_t nbytes;
  const void *d = mf_tensor_buffer(t, &nbytes);
  printf("%s: %s[", label, mf_dtype_name(mf_tensor_dtype(t)));
  for (int k = 0; k < mf_tensor_rank(t); k++) printf(k ? ",%lld" : "%lld", (long long)mf_tensor_dim(t, k));
  printf("]");
  mf_dtype dt = mf_tensor_dtype(t);
  size_t n = nbytes / (dt == MF_FLOAT64 || dt == MF_INT64 ? 8 : dt == MF_BOOL ? 1 : 4);
  for (size_t i = 0; i < n; i++) {
    if (dt == MF_FLOAT32) printf(" %g", ((const float *)d)[i]);
    else if (dt == MF_FLOAT64) printf(" %g", ((const double *)d)[i]);
    else if (dt == MF_INT32) printf(" %d", ((const int32_t *)d)[i]);
    else if (dt == MF_INT64) printf(" %lld", (long long)((const int64_t *)d)[i]);
    else if (dt == MF_BOOL) printf(" %d", ((const unsigned char *)d)[i]);
  }
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: run_saved DIR [NAME VALUES...]\n");
    return 2;
  }
  mf_program *p;
  mf_error err;
  if (mf_program_open(argv[1], &p, &err) != MF_OK) return fail(&err);
  int status = 0;
  if (argc == 2) {
    status = list(p);
  } else {
    const char *name = argv[2];
    int nargs = argc - 3;
    mf_tensor *args[16] = {0};
    for (int i = 0; i < nargs && i < 16 && status == 0; i++) status = make_arg(p, name, i, argv[3 + i], &args[i]);
    mf_tensor **outs;
    int nout;
    if (status == 0) {
      if (mf_program_call(p, name, nargs, args, &outs, &nout, &err) != MF_OK) {
        status = fail(&err);
      } else {
        for (int i = 0; i < nout; i++) print_tensor(mf_program_output_name(p, name, i), outs[i]);
        mf_tensors_free(outs, nout);
      }
    }
    for (int i = 0; i < nargs && i < 16; i++)
      if (args[i]) mf_tensor_release(args[i]);
  }
  mf_program_close(p);
  return status;
}
