/* saved_model.h — saved programs: traced functions and the variables they
 * use, in a directory any tool can read (docs/saved_model.md):
 *
 *   DIR/saved_model.json     format + version, variables, functions (each a
 *                            graph as in graph_io.h, its argument specs, its
 *                            captures, its output names, its structure),
 *                            signatures (name -> function), methods (each
 *                            saved tf.func and its traces)
 *   DIR/variables/<file>.npy each variable's value, as NumPy reads it
 *
 * A function's graph takes its arguments first, then its captures: a
 * capture is a variable of the program (fed its resource handle) or a
 * constant saved inline. Opening validates everything (graph_io.h's rules
 * for graphs; variable files must be plain names inside DIR/variables/ and
 * their values must have the dtype and shape the JSON declares; capture
 * placeholders must match what they are fed), so an untrusted directory
 * gives an error, never a crash. */
#ifndef MF_SAVED_MODEL_H
#define MF_SAVED_MODEL_H

#include "graph.h"

/* Version 2 added `methods` (every saved tf.func with its traces, none
 * for one never traced) and the arguments' structure, Lua values
 * included, in each function's `structure`. Version 1 files still open. */
#define MF_SAVED_FORMAT_VERSION 2
#define MF_SAVED_FORMAT_OLDEST 1

typedef struct mf_saved_var {
  char *name;
  char *file;            /* relative to DIR/variables/ */
  bool trainable;
  mf_tensor *value;      /* as loaded / to save */
  mf_tensor *handle;     /* opened programs: a resource tensor of a variable holding value */
} mf_saved_var;

typedef struct mf_saved_capture {
  int variable;          /* index into vars, or -1 */
  mf_tensor *value;      /* variable == -1: the constant fed */
} mf_saved_capture;

typedef struct mf_saved_fn {
  char *name;
  mf_graph *graph;
  int nargs;
  char **arg_names;
  int ncaptures;
  mf_saved_capture *captures;
  int nouts;
  char **out_names;
  char *structure;       /* JSON text the host keeps (input/output nesting), or NULL */
} mf_saved_fn;

typedef struct mf_saved_program {
  int nvars;
  mf_saved_var *vars;
  int nfns;
  mf_saved_fn *fns;
  int nsigs;
  char **sig_names;
  int *sig_fn;           /* index into fns */
  char *methods;         /* JSON text the host keeps: [{name, concrete: [function names]}], or NULL */
} mf_saved_program;

mf_status mf_saved_open(const char *dir, mf_saved_program **out, mf_error *err);
/* Writes p (vars' values, fns' graphs) to dir, creating dir/variables. */
mf_status mf_saved_write(const char *dir, const mf_saved_program *p, mf_error *err);
void mf_saved_free(mf_saved_program *p);
/* The function named `name` (a signature name first, then a function
 * name), or -1. */
int mf_saved_find(const mf_saved_program *p, const char *name);
/* The spec of argument i of function f (its Placeholder's). */
void mf_saved_arg_spec(const mf_saved_program *p, int f, int i, mf_spec *out);
/* Runs function f of an opened program on args (borrowed; checked against
 * the argument specs); outs receives nouts new references. */
mf_status mf_saved_call(const mf_saved_program *p, int f, int nargs, mf_tensor *const *args,
                        mf_tensor **outs, mf_error *err);

#endif
