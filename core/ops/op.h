/* op.h — the op registry and the one op-call path.
 *
 * Every operation moonflow knows is one mf_op_def in one table (ops.def
 * lists them; op_registry.c builds the table and asserts its count). An entry
 * holds the op's TensorFlow name, arity, attribute declarations, shape/dtype
 * inference, its kernel, flags, and a docstring. Eager execution, tracing,
 * the graph executor, printing, GraphDef export and autodiff all read it;
 * there is no second per-op switch anywhere.
 *
 * One call, three uses. An mf_op_call describes one application of an op:
 * input specs (always), input values (each may be NULL while tracing),
 * attributes. Then:
 *   - infer   fills the output specs (dtype + shape, unknown dims = -1), and
 *             may fill out_values when an output is known without running
 *             (Shape of a static shape), which lets tracing fold constants;
 *   - kernel  (all input values present) computes the outputs.
 * Eager execution = infer + kernel now; tracing = infer, then add a node to
 * the graph being built; the executor = infer + kernel per node. While a
 * graph is built (`building`), infer is TF's shape function, and inputs
 * may also carry partial values (partial.h): what is known of a small
 * integer vector element by element, which the shape functions of
 * shape-taking ops read and a few ops pass on. */
#ifndef MF_OP_H
#define MF_OP_H

#include <stdbool.h>
#include <stdint.h>

#include "attrs.h"
#include "tensor.h"

/* What is known of a tensor without its value. rank -1: unknown rank;
 * shape[i] -1: unknown dimension. */
typedef struct mf_spec {
  mf_dtype dtype;
  int rank;
  int64_t shape[MF_MAX_RANK];
} mf_spec;

#define MF_UNKNOWN_DIM (-1)

/* A partial value (partial.h). */
typedef struct mf_partial mf_partial;

void mf_spec_of_tensor(const mf_tensor *t, mf_spec *out);
/* True when rank and every dimension are known. */
bool mf_spec_is_static(const mf_spec *s);
void mf_spec_format(const mf_spec *s, char *buf, size_t n); /* "(None, 2)" */

/* Does a tensor of spec `have` fit a trace's input spec `want`? The one
 * answer for tf.func's dispatch (the cached call's hit test, the last
 * trace's quick check) and for calling a concrete function. The dtypes must
 * be equal; the shapes, by `mode`:
 *   MF_FIT_EXACT      equal, unknown rank and dimensions included (a
 *                     function with several traces must pick the one that
 *                     was traced for exactly this shape);
 *   MF_FIT_SUBTYPE    have is at least as specific: each known dimension of
 *                     want equal (an unknown one takes anything);
 *   MF_FIT_COMPATIBLE TF's is_compatible_with: an unknown rank or dimension
 *                     on either side fits (a symbolic argument whose shape
 *                     is only partly known may be given to a concrete
 *                     function; the run checks the value). */
typedef enum mf_fit { MF_FIT_EXACT, MF_FIT_SUBTYPE, MF_FIT_COMPATIBLE } mf_fit;
bool mf_spec_fits(const mf_spec *have, const mf_spec *want, mf_fit mode);
/* mf_spec_fits(spec of t, want, mode), without making t's spec (the cached
 * tf.func call's hit test runs it per argument). */
bool mf_tensor_fits(const mf_tensor *t, const mf_spec *want, mf_fit mode);

enum {
  MF_OP_STATEFUL = 1u << 0,       /* reads or writes resources; never pruned/folded/CSE'd */
  MF_OP_SIDE_EFFECTS = 1u << 1,   /* printing, host callbacks */
  MF_OP_NO_GRADIENT = 1u << 2,    /* not differentiable (integer/boolean results, random) */
  MF_OP_ELEMENTWISE = 1u << 3,    /* one output element per broadcast input element: fusable */
  MF_OP_RANDOM = 1u << 4,         /* not constant-foldable */
  /* Running the op a second time is not running it once: it writes state
   * (a variable's assigns), has an effect (printing, a host callback) or
   * reads what moves (random draws, the clock). A gradient that runs a
   * function's or a branch's body again must not meet such an op; the
   * binding exports the flag as core.op_list()'s changes_state_on_replay.
   * Calls and control flow are not flagged: their bodies are (readers walk
   * the nested graphs). A read (ReadVariableOp) and Assert are not. */
  MF_OP_CHANGES_ON_REPLAY = 1u << 5,
};

typedef struct mf_attr_def {
  const char *name;
  mf_attr_kind kind;
} mf_attr_def;

struct mf_op_call;
typedef mf_status (*mf_infer_fn)(struct mf_op_call *c, mf_error *err);
typedef mf_status (*mf_kernel_fn)(struct mf_op_call *c, mf_error *err);

typedef struct mf_op_def {
  const char *name;        /* TensorFlow's op type: "AddV2", "MatMul" */
  const char *input_names; /* TF's argument names, comma-separated: "x,y"; a
                              list argument is marked '*' ("values*,axis"),
                              else a variadic op repeats its last name. Names
                              the Const nodes made from literals: "add/y". */
  int min_inputs;
  int max_inputs;          /* -1: variadic */
  mf_attr_def attrs[MF_ATTR_MAX]; /* declared attributes, {NULL} ends */
  mf_infer_fn infer;
  mf_kernel_fn kernel;
  /* For the ops TF's shape inference reads through (partial.h): what is
   * known of the outputs element by element while their values are not.
   * mf_op_infer runs it after infer while a graph is built (the call's
   * `building`); NULL for every other op. */
  mf_infer_fn partial;
  unsigned flags;
  const char *doc;         /* one line: what the op computes */
  /* The attributes of TF's NodeDef for this op, which TF prints when the
   * node fails at graph construction (node_summary.h): space-separated
   * entries, each
   *   NAME:K     a type attribute: the dtype of input K (negative: from the
   *              end), as TF derives T, Tidx, ... from the inputs;
   *   NAME:#     a number attribute: the count of inputs (NAME:#-1: less one);
   *   NAME=V     the op's attribute NAME, or V (TF's default, as TF prints
   *              it, lists without spaces: "[1,1]" prints "[1, 1]") when
   *              the call has none; an attribute moonflow does not keep
   *              (MatMul's grad_a) is always V;
   *   NAME       the op's attribute NAME.
   * NULL: "T:0" when the op has inputs, nothing otherwise. */
  const char *tf_attrs;
} mf_op_def;

#define MF_OP_CALL_INLINE 4

/* What a kernel keeps between runs of one graph node (a compiled program,
 * say): the executor's plan holds one per node and calls drop(data) when
 * the plan goes. A kernel may only use it for work that depends on the
 * node (its attrs) and on what it checks again on every call. */
typedef struct mf_kernel_state {
  void *data;
  void (*drop)(void *data);
} mf_kernel_state;

typedef struct mf_op_call {
  const mf_op_def *op;
  int nin;
  const mf_spec *in_specs;       /* nin entries */
  mf_tensor *const *in;          /* nin entries; NULL entries while tracing (borrowed) */
  const mf_attrs *attrs;
  int nout;
  mf_spec *out_specs;            /* set by mf_op_call_set_nout */
  mf_tensor **out;               /* kernel fills; new references */
  mf_tensor **out_values;        /* infer may fill when an output is known statically */
  mf_buffer_pool *pool;          /* where mf_op_alloc_output takes buffers (executor), or NULL */
  mf_kernel_state *state;        /* the node's state in the running plan (executor), or NULL */
  /* Set while a graph is built, by the graph builders (tracing, loading a
   * graph, refining a called function's body while its call is built):
   * infer is then TF's shape function, run when TF adds a node to a graph,
   * and reports what that function reports where it differs from the
   * kernel (its messages, the checks it leaves to the run); the op's
   * partial function runs after it. Kernels never read it. */
  bool building;
  /* While building: the inputs' partial values (partial.h; nin entries,
   * each may be NULL; borrowed), which the builder sets after
   * mf_op_call_init (it leaves NULL: none known), and the outputs' ones, as
   * the op's partial function fills them (owned until taken). Shape
   * functions read them through mf_sf_shape_tensor (shape_fn.h). */
  const mf_partial *const *in_partial;
  mf_partial **out_partials;
  /* Set by infer while a graph is built when TF's shape function accepts
   * what the kernel's checks (moonflow's eager inference) refuse: TF adds
   * the node and fails when the graph runs, with the kernel's error. Such
   * a call is never folded, and its node is inferred again at each run. */
  bool deferred;
  /* The inputs whose values infer read (bit i: input i; inputs past 31 are
   * not recorded), and those it read as shapes: what TF's shape function
   * asks for with input_tensor(i) and MakeShapeFromShapeTensor(i), which
   * its error message then lists (node_summary.h). */
  uint32_t requested, requested_shape;
  mf_spec inline_specs[MF_OP_CALL_INLINE];
  mf_tensor *inline_out[MF_OP_CALL_INLINE];
  mf_tensor *inline_values[MF_OP_CALL_INLINE];
  mf_partial *inline_partials[MF_OP_CALL_INLINE];
} mf_op_call;

/* Prepare a call (borrows all arguments). */
void mf_op_call_init(mf_op_call *c, const mf_op_def *op, int nin, const mf_spec *in_specs,
                     mf_tensor *const *in, const mf_attrs *attrs);
/* Releases whatever the call still owns (outputs not taken, known and
 * partial values). */
void mf_op_call_free(mf_op_call *c);
/* Called by infer: declares the number of outputs (allocates beyond inline). */
mf_status mf_op_call_set_nout(mf_op_call *c, int nout, mf_error *err);
/* Called by kernels: a fresh tensor for output i, shaped as out_specs[i]. */
mf_status mf_op_alloc_output(mf_op_call *c, int i, mf_tensor **out, mf_error *err);
/* Checks arity and declared attributes, then runs infer (and, while a
 * graph is built, the op's partial function). */
mf_status mf_op_infer(mf_op_call *c, mf_error *err);
/* infer + kernel; every input value must be present. Outputs land in c->out. */
mf_status mf_op_execute(mf_op_call *c, mf_error *err);
/* Runs the kernel with output specs known in advance (a planned static
 * node: the inputs have the shapes the plan saw), skipping inference. */
mf_status mf_op_execute_planned(mf_op_call *c, int nout, const mf_spec *specs, mf_error *err);
/* Take ownership of output i (the call no longer releases it). */
mf_tensor *mf_op_call_take_output(mf_op_call *c, int i);

/* Constant folding's one rule, for the values a trace computes while it is
 * built (the binding) and for the folding pass (pass_fold.c).
 * mf_op_is_foldable: the op is pure — no state, side effects, randomness,
 * host callbacks or nested graphs (which could loop for long).
 * mf_op_call_fold: computes c (inferred, every input value present) ahead
 * of the run when it may: a foldable op, inputs of at most
 * MF_FOLD_MAX_INPUT_ELEMENTS elements in all, and outputs (as inferred,
 * then as computed) of at most MF_FOLD_MAX_ELEMENTS elements each, none a
 * resource: huge constants stay out of graphs. Returns true with c->out
 * filled, else false with c->out empty; a kernel error only means no fold
 * (the node fails when it runs, as it would have). */
enum { MF_FOLD_MAX_ELEMENTS = 1 << 16, MF_FOLD_MAX_INPUT_ELEMENTS = 1 << 20 };
bool mf_op_is_foldable(const mf_op_def *op, const mf_attrs *attrs);
bool mf_op_call_fold(mf_op_call *c);

/* The registry: the ops listed in ops.def. MF_OP_COUNT is the length of
 * that list, counted by the compiler (one enumerator per op, then the
 * count); tests/registry/test_ops_def.sh checks that every op defined in
 * the library is on the list, under its file's section. */
enum {
#define MF_OP(name) MF_OP_INDEX_##name,
#include "ops.def"
#undef MF_OP
  MF_OP_COUNT
};
const mf_op_def *mf_op_lookup(const char *name);
int mf_op_count(void);
const mf_op_def *mf_op_at(int i);

/* Helpers for infer functions. */
/* Fails with TF's message unless inputs [from, to) share one dtype: the
 * kernel's InvalidArgumentError eagerly, op_def_library's TypeError while
 * a graph is built. */
mf_status mf_infer_same_dtype(mf_op_call *c, int from, int to, mf_error *err);
/* Fails unless input i's dtype is accepted by `ok`. `what` names the family
 * in the message ("float", "numeric", ...). */
mf_status mf_infer_check_dtype(mf_op_call *c, int i, bool (*ok)(mf_dtype), const char *what,
                               mf_error *err);
/* The failure of mf_infer_check_dtype for input i, the dtypes accepted
 * given as a mask (bit d: dtype d): eagerly the kernel's
 * InvalidArgumentError; while a graph is built the TypeError Python's
 * op_def_library raises before the node exists. */
mf_status mf_infer_dtype_refused(mf_op_call *c, int i, unsigned accepted, const char *what,
                                 mf_error *err);
/* For an op whose inference while a graph is built is laxer than its
 * eager inference (TF's shape function leaves checks to the kernel): runs
 * the eager inference on these inputs and marks c deferred when it fails. */
void mf_infer_defer_check(mf_op_call *c, mf_infer_fn eager_infer);
/* The integer values of input i when it is known (Const or eager), else
 * false. At most `cap` values. Records the request (c->requested). */
bool mf_infer_const_ints(mf_op_call *c, int i, int64_t *vals, int cap, int *n);
/* The argument of TF's op that input i of a call with nin inputs belongs
 * to: its index in op->input_names, its name written to buf ("x", "values";
 * "input_3" when the op names none). A name marked '*' is a list argument,
 * taking every input the others leave (ConcatV2's "values*,axis"); with
 * none marked the last name repeats. */
int mf_op_input_arg(const mf_op_def *op, int i, int nin, char *buf, size_t n);

#endif
