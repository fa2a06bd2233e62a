/* run_saved.c — `moonflow run DIR [--signature NAME] [--input name=file.npy
 * ...] [--output DIR]`: loads a saved program (docs/saved_model.md) and runs
 * one signature on .npy inputs through the C API alone; no Lua state is
 * created. Outputs go to DIR/<output name>.npy with --output, else to
 * stdout as tf.Tensor text. Exit status: 0, 1 on an error (printed as
 * "moonflow run: <ErrorType>: <message>"), 2 on bad usage. */
#include "run_saved.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format.h"
#include "moonflow.h"
#include "saved_model.h"
#include "tensor.h"

static int usage(void) {
  fprintf(stderr, "usage: moonflow run DIR [--signature NAME] [--input name=file.npy ...] [--output DIR]\n");
  return 2;
}

static int fail(const mf_error *err) {
  fprintf(stderr, "moonflow run: %s: %s\n", mf_status_name(err->status), err->message);
  return 1;
}

/* The signature to run when none is named: serving_default, else the only
 * or first one, else the first function. */
static const char *default_name(const mf_program *p) {
  for (int i = 0; i < mf_program_signature_count(p); i++)
    if (strcmp(mf_program_signature_name(p, i), "serving_default") == 0) return "serving_default";
  if (mf_program_signature_count(p) > 0) return mf_program_signature_name(p, 0);
  return mf_program_function_name(p, 0);
}

static int run(mf_program *p, const char *name, int ninputs, char **inputs, const char *outdir) {
  mf_error err;
  int nargs, nouts;
  if (!name) {
    fprintf(stderr, "moonflow run: the saved program has no functions\n");
    return 1;
  }
  if (mf_program_arity(p, name, &nargs, &nouts, &err) != MF_OK) return fail(&err);
  mf_tensor **args = calloc((size_t)nargs + 1, sizeof *args);
  int status = args ? 0 : 1;
  for (int i = 0; status == 0 && i < ninputs; i++) {
    char *eq = strchr(inputs[i], '=');
    if (!eq) {
      fprintf(stderr, "moonflow run: --input wants name=file.npy, got '%s'\n", inputs[i]);
      status = 2;
      break;
    }
    *eq = 0;
    int slot = -1;
    for (int k = 0; k < nargs; k++) {
      const char *an;
      mf_dtype dt;
      int rank;
      int64_t shape[8];
      if (mf_program_arg(p, name, k, &an, &dt, &rank, shape, &err) == MF_OK && strcmp(an, inputs[i]) == 0) slot = k;
    }
    if (slot < 0) {
      fprintf(stderr, "moonflow run: '%s' has no argument '%s'\n", name, inputs[i]);
      status = 1;
    } else if (args[slot]) {
      fprintf(stderr, "moonflow run: argument '%s' given twice\n", inputs[i]);
      status = 1;
    } else if (mf_npy_read(eq + 1, &args[slot], &err) != MF_OK) {
      status = fail(&err);
    }
  }
  for (int k = 0; status == 0 && k < nargs; k++)
    if (!args[k]) {
      const char *an = "?";
      mf_dtype dt;
      int rank;
      int64_t shape[8];
      mf_program_arg(p, name, k, &an, &dt, &rank, shape, &err);
      fprintf(stderr, "moonflow run: missing --input %s=FILE.npy for '%s'\n", an, name);
      status = 1;
    }
  mf_tensor **outs = NULL;
  int nout = 0;
  if (status == 0 && mf_program_call(p, name, nargs, args, &outs, &nout, &err) != MF_OK) status = fail(&err);
  if (status == 0 && outdir && mkdir(outdir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "moonflow run: cannot create '%s': %s\n", outdir, strerror(errno));
    status = 1;
  }
  for (int i = 0; status == 0 && i < nout; i++) {
    const char *oname = mf_program_output_name(p, name, i);
    if (outdir) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s.npy", outdir, oname);
      if (mf_npy_write(path, outs[i], &err) != MF_OK) status = fail(&err);
    } else {
      char *text = mf_format_tensor_str(outs[i]);
      printf("%s: %s\n", oname, text ? text : "?");
      free(text);
    }
  }
  mf_tensors_free(outs, nout);
  for (int k = 0; args && k < nargs; k++)
    if (args[k]) mf_tensor_release(args[k]);
  free(args);
  return status;
}

int mf_run_main(int argc, char **argv) {
  const char *dir = NULL, *name = NULL, *outdir = NULL;
  char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
  int ninputs = 0;
  if (!inputs) return 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--signature") == 0 && i + 1 < argc) name = argv[++i];
    else if (strcmp(a, "--input") == 0 && i + 1 < argc) inputs[ninputs++] = argv[++i];
    else if (strcmp(a, "--output") == 0 && i + 1 < argc) outdir = argv[++i];
    else if (a[0] != '-' && !dir) dir = a;
    else {
      free(inputs);
      return usage();
    }
  }
  if (!dir) {
    free(inputs);
    return usage();
  }
  mf_program *p;
  mf_error err;
  int status;
  if (mf_program_open(dir, &p, &err) != MF_OK) {
    status = fail(&err);
  } else {
    status = run(p, name ? name : default_name(p), ninputs, inputs, outdir);
    mf_program_close(p);
  }
  free(inputs);
  return status;
}
