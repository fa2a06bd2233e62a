/* ops_fused.c — FusedElementwise: a group of elementwise ops that
 * mf_pass_fuse_elementwise (pass_fuse.c) replaced by one node.
 *
 * The node's attribute "body" is the group as a graph of its own: one
 * Placeholder per input of the node (in input order), Consts it absorbed,
 * the group's ops, and one output. The kernel compiles that program once
 * per plan node and runs it a chunk at a time (mf_elementwise_chunks: the
 * whole program on 128 elements, or fewer for arithmetic held in
 * registers, before the next chunk); the last partial chunk, tensors
 * under a chunk and programs built per call run block by block instead,
 * each op over up to BLOCK elements through the block functions of
 * elementwise.h. Either way the ops compute exactly what their own
 * kernels compute, each intermediate stays in a small scratch buffer in
 * cache, and no full-size intermediate is ever made. Large outputs are
 * split over the thread pool.
 *
 * Every input (and absorbed Const) is read either as a tensor of the
 * output's size or as one broadcast element. Whatever else broadcasting
 * produces at run time (graphs with unknown dimensions) runs the body
 * through the executor instead: same results, unfused speed. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "broadcast.h"
#include "elementwise.h"
#include "executor.h"
#include "interrupt.h"
#include "kernel_util.h"
#include "op.h"
#include "threadpool.h"

extern const mf_op_def mf_op_Placeholder, mf_op_Const, mf_op_Identity;

/* Elements per block: two float32 scratch buffers and a block of input and
 * output stay well inside a 48 KiB L1 cache. */
enum { BLOCK = 1024, MAX_STEP_INPUTS = 3, CHUNK = MF_ELEMENTWISE_CHUNK };

/* Bodies up to this many nodes compile into the kernel's stack frame, so
 * a call allocates nothing but its output (the scratch comes from the
 * plan's buffer pool); larger ones allocate their program. */
enum { INLINE_NODES = 256 };

static const mf_graph *body_of(const mf_op_call *c) {
  const mf_attr *a = mf_attrs_find(c->attrs, "body");
  return a && a->kind == MF_ATTR_GRAPH ? a->u.graph : NULL;
}

/* The value of a body Const, or NULL. */
static const mf_tensor *const_value(const mf_node *nd) {
  if (nd->known && nd->known[0]) return nd->known[0];
  const mf_attr *a = mf_attrs_find(nd->attrs, "value");
  return a && a->kind == MF_ATTR_TENSOR ? a->u.tensor : NULL;
}

static mf_status bad_body(const mf_graph *g, const char *why, mf_error *err) {
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "FusedElementwise: body %s %s",
                      g ? g->name : "(missing)", why);
}

/* The output's spec: the broadcast of every leaf of the body (inputs as
 * given, Consts as held), which is the broadcast the group's ops build up
 * to; the output node's dtype. */
static mf_status fused_infer(mf_op_call *c, mf_error *err) {
  const mf_graph *g = body_of(c);
  if (!g || g->noutputs != 1 || g->ninputs != c->nin) return bad_body(g, "does not fit", err);
  for (int i = 0; i < c->nin; i++)
    if (g->nodes[g->inputs[i]].out_specs[0].dtype != c->in_specs[i].dtype)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "FusedElementwise: input %d is %s, the body takes %s", i,
                          mf_dtype_name(c->in_specs[i].dtype),
                          mf_dtype_name(g->nodes[g->inputs[i]].out_specs[0].dtype));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  mf_spec *o = &c->out_specs[0];
  const mf_tensor_ref r = g->outputs[0];
  *o = g->nodes[r.node].out_specs[r.index];
  int rank = 0, leaves = c->nin;
  int64_t shape[MF_MAX_RANK];
  for (int i = 0; i < c->nin; i++)
    MF_TRY(mf_broadcast_shape(rank, shape, c->in_specs[i].rank, c->in_specs[i].shape, &rank,
                              shape, c->op->name, err));
  for (int i = 0; i < g->nnodes; i++) {
    if (g->nodes[i].op != &mf_op_Const) continue;
    const mf_spec *s = &g->nodes[i].out_specs[0];
    MF_TRY(mf_broadcast_shape(rank, shape, s->rank, s->shape, &rank, shape, c->op->name, err));
    leaves++;
  }
  if (leaves > 0) {
    o->rank = rank;
    if (rank > 0) memcpy(o->shape, shape, (size_t)rank * sizeof *shape);
  }
  return MF_OK;
}

/* ---- the program: the body compiled for one run ---- */

typedef mf_elementwise_step fused_step;

/* Value i is body node i's output. Leaves point at tensor data (stride 1:
 * the output's size; 0: one element); computed values live in scratch
 * buffer `buf`, except the result, written straight into the output. */
typedef struct fused_value {
  const char *data;
  int64_t stride;
  int buf;            /* -1 unless computed into scratch */
  int bcast;          /* chunks: the scratch slot a one-element leaf is repeated in, or -1 */
  size_t size;        /* element size */
  int last_use;       /* last step reading it, -1 if none */
} fused_value;

typedef struct fused_prog {
  int nvalues, nsteps, nbufs;
  int nbcast;         /* chunks: one-element leaves, repeated in slots after the buffers */
  bool chunked;       /* full chunks run by mf_elementwise_chunks */
  mf_chunk_op *ops;   /* chunks: the compiled program (heap) */
  int nops, kind, len;
  fused_value *values;
  fused_step *steps;
  int result;
  int64_t n;          /* output elements */
  int64_t blk;        /* elements per scratch buffer: BLOCK, or n when smaller */
  char *scratch;      /* nbufs * blk * 8 bytes per part */
  size_t part_bytes;
  bool heap;          /* values and steps were malloc'd */
  double cost;        /* ns per element, measured once (mf_parallel_for_cost) */
  volatile int stopped; /* a part saw the interrupt flag */
} fused_prog;

static void prog_free(fused_prog *p) {
  if (!p->heap) return;
  free(p->values);
  free(p->steps);
  free(p->ops);
}

/* The dtype a node's block function is resolved for: its data inputs'. */
static mf_dtype data_dtype(const mf_graph *g, const mf_node *nd) {
  const mf_tensor_ref r = nd->inputs[nd->op->min_inputs == 3 ? 1 : 0];
  return g->nodes[r.node].out_specs[r.index].dtype;
}

/* One step per node that is not a leaf (Placeholder inputs and Consts
 * are values), in the body's order; a result that is a leaf is copied
 * (with broadcasting) by an Identity step. */
static mf_status prog_steps(fused_prog *p, const mf_graph *g, bool *fits, mf_error *err) {
  for (int i = 0; i < g->nnodes; i++) {
    const mf_node *nd = &g->nodes[i];
    fused_value *v = &p->values[i];
    if (nd->op == &mf_op_Placeholder) {
      if (!v->data) return bad_body(g, "has a Placeholder that is not an input", err);
      continue;
    }
    if (nd->op == &mf_op_Const) {
      const mf_tensor *t = const_value(nd);
      if (!t) return bad_body(g, "has a Const without a value", err);
      v->data = mf_tensor_data(t);
      v->stride = t->size == p->n ? 1 : 0;
      if (t->size != p->n && t->size != 1) *fits = false;
      continue;
    }
    fused_step *s = &p->steps[p->nsteps];
    if (nd->nin > MAX_STEP_INPUTS || nd->nin < 1 || nd->nout != 1 ||
        !mf_elementwise_resolve(nd->op, data_dtype(g, nd), nd->attrs, &s->fn))
      return bad_body(g, "holds an op without a block function", err);
    s->nin = nd->nin;
    s->out = i;
    for (int k = 0; k < nd->nin; k++) {
      if (nd->inputs[k].node >= i || nd->inputs[k].index != 0)
        return bad_body(g, "is not in topological order", err);
      s->in[k] = nd->inputs[k].node;
      p->values[s->in[k]].last_use = p->nsteps;
    }
    for (int k = nd->nin; k < MAX_STEP_INPUTS; k++) s->in[k] = s->in[0];
    s->chunk = 0;
    if (p->chunked)
      p->chunked = mf_elementwise_chunk_code(nd->op, data_dtype(g, nd), nd->attrs, &s->chunk);
    p->nsteps++;
  }
  p->result = g->outputs[0].node;
  if (g->outputs[0].index != 0) return bad_body(g, "has a bad output", err);
  if (p->values[p->result].data) {
    fused_step *s = &p->steps[p->nsteps];
    mf_dtype dt = g->nodes[p->result].out_specs[0].dtype;
    if (!mf_elementwise_resolve(&mf_op_Identity, dt, NULL, &s->fn))
      return bad_body(g, "has an output of an unsupported dtype", err);
    s->nin = 1;
    s->in[0] = s->in[1] = s->in[2] = p->result;
    s->chunk = 0;
    if (p->chunked) p->chunked = mf_elementwise_chunk_code(&mf_op_Identity, dt, NULL, &s->chunk);
    s->out = p->nvalues; /* the spare value slot */
    p->values[p->nvalues] =
        (fused_value){.buf = -1, .bcast = -1, .last_use = -1, .size = p->values[p->result].size};
    p->result = p->nvalues++;
    p->nsteps++;
  }
  return MF_OK;
}

/* Scratch buffers by liveness: a step's output takes a buffer that none
 * of its inputs holds, then the inputs that die here free theirs. */
static mf_status prog_buffers(fused_prog *p, mf_error *err) {
  int free_inline[INLINE_NODES];
  int *free_bufs = p->nsteps < INLINE_NODES ? free_inline
                                            : mf_malloc(((size_t)p->nsteps + 1) * sizeof *free_bufs);
  int nfree = 0;
  if (!free_bufs) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int st = 0; st < p->nsteps; st++) {
    fused_step *s = &p->steps[st];
    fused_value *o = &p->values[s->out];
    if (s->out != p->result) o->buf = nfree > 0 ? free_bufs[--nfree] : p->nbufs++;
    for (int k = 0; k < s->nin; k++) {
      fused_value *v = &p->values[s->in[k]];
      bool again = false; /* x * x reads one value twice: free it once */
      for (int j = 0; j < k; j++) again |= s->in[j] == s->in[k];
      if (v->buf >= 0 && v->last_use == st && !again) free_bufs[nfree++] = v->buf;
    }
    /* A value nobody reads dies at once. */
    if (o->buf >= 0 && o->last_use < 0) free_bufs[nfree++] = o->buf;
  }
  if (free_bufs != free_inline) free(free_bufs);
  return MF_OK;
}

/* The program compiled for chunks, and the slots a part's scratch holds
 * (its bytes: part_bytes). */
static mf_status prog_layout(fused_prog *p, mf_error *err) {
  size_t slots = (size_t)p->nbufs;
  if (p->chunked) {
    for (int st = 0; st < p->nsteps; st++) {
      fused_step *s = &p->steps[st];
      s->keep = s->out == p->result || p->values[s->out].last_use > st + 1;
    }
    p->ops = mf_calloc(3 * (size_t)p->nsteps, sizeof *p->ops);
    if (!p->ops) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    p->nops = mf_elementwise_chunk_compile(p->steps, p->nsteps, p->ops, &p->kind, &p->len);
    /* Chunks need a chunk of buffer each, and each one-element leaf some
     * step reads a slot of its own, filled once per part; then the
     * values' pointers and the cursors (chunk_part). */
    p->blk = CHUNK;
    for (int i = 0; i < p->nvalues; i++) {
      fused_value *v = &p->values[i];
      if (v->data && v->stride == 0 && v->last_use >= 0) v->bcast = p->nbufs + p->nbcast++;
    }
    slots += (size_t)p->nbcast;
    slots += ((size_t)p->nvalues * (sizeof(char *) + sizeof(mf_chunk_cursor)) +
              CHUNK * sizeof(uint64_t) - 1) / (CHUNK * sizeof(uint64_t));
  }
  p->part_bytes = slots * (size_t)p->blk * sizeof(uint64_t);
  return MF_OK;
}

/* Compiles the body for inputs `in` and output `out`. MF_OK with *fits
 * false when some leaf is neither the output's size nor one element. */
static mf_status prog_build(fused_prog *p, const mf_graph *g, mf_tensor *const *in, int nin,
                            mf_tensor *out, fused_value *values_inline, fused_step *steps_inline,
                            bool *fits, mf_error *err) {
  memset(p, 0, sizeof *p);
  *fits = true;
  p->n = out->size;
  p->blk = p->n < BLOCK ? (p->n + 7) / 8 * 8 : BLOCK;
  if (p->blk < 8) p->blk = 8;
  p->nvalues = g->nnodes;
  if (values_inline && g->nnodes < INLINE_NODES) {
    p->values = values_inline;
    p->steps = steps_inline;
    memset(values_inline, 0, ((size_t)g->nnodes + 1) * sizeof *values_inline);
  } else {
    p->heap = true;
    p->values = mf_calloc((size_t)g->nnodes + 1, sizeof *p->values);
    p->steps = mf_calloc((size_t)g->nnodes + 1, sizeof *p->steps);
    if (!p->values || !p->steps)
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (int i = 0; i < g->nnodes; i++) {
    p->values[i].buf = -1;
    p->values[i].last_use = -1;
    p->values[i].bcast = -1;
    p->values[i].size = mf_dtype_size(g->nodes[i].out_specs[0].dtype);
  }
  /* Tensors of a chunk or more run in chunks when every step has a code
   * (programs a node keeps: the compiled program is on the heap). */
  p->chunked = p->heap && p->n >= CHUNK;
  for (int k = 0; k < g->ninputs && k < nin; k++) {
    fused_value *v = &p->values[g->inputs[k]];
    v->data = mf_tensor_data(in[k]);
    v->stride = in[k]->size == p->n ? 1 : 0;
    if (in[k]->size != p->n && in[k]->size != 1) *fits = false;
  }
  MF_TRY(prog_steps(p, g, fits, err));
  MF_TRY(prog_buffers(p, err));
  return prog_layout(p, err);
}

/* Where value v's elements [at, at + blk) are. */
static inline const void *value_at(const fused_value *v, int64_t blk, char *scratch, char *out,
                                   int64_t at) {
  if (v->buf >= 0) return scratch + (size_t)v->buf * (size_t)blk * sizeof(uint64_t);
  if (v->data) return v->data + (size_t)(at * v->stride) * v->size;
  return out + (size_t)at * v->size; /* the result */
}

typedef struct fused_job {
  fused_prog *p;
  char *out;
} fused_job;

/* The full chunks of [begin, end): the value pointers and cursors for
 * mf_elementwise_chunks, the one-element leaves repeated over their slots.
 * Returns where the chunks stopped (the rest is a block's tail). */
static int64_t chunk_part(const fused_job *j, char *scratch, int64_t begin, int64_t end) {
  fused_prog *p = j->p;
  const int64_t len = p->len;
  const size_t slot = CHUNK * sizeof(uint64_t);
  char **ptr = (char **)(scratch + (size_t)(p->nbufs + p->nbcast) * slot);
  mf_chunk_cursor *move = (mf_chunk_cursor *)(ptr + p->nvalues);
  int nmove = 0;
  for (int i = 0; i < p->nvalues; i++) {
    const fused_value *v = &p->values[i];
    if (v->buf >= 0) {
      ptr[i] = scratch + (size_t)v->buf * slot;
    } else if (v->bcast >= 0) {
      ptr[i] = scratch + (size_t)v->bcast * slot;
      for (int k = 0; k < CHUNK; k++) memcpy(ptr[i] + (size_t)k * v->size, v->data, v->size);
    } else if (!v->data || v->stride) {
      ptr[i] = (v->data ? (char *)v->data : j->out) + (size_t)begin * v->size;
      move[nmove++] = (mf_chunk_cursor){i, (int)(len * (int64_t)v->size)};
    } else {
      ptr[i] = NULL; /* a one-element leaf no step reads */
    }
  }
  int64_t at = begin;
  /* In runs of 64Ki elements, between which the interrupt is looked at. */
  while (end - at >= len) {
    if (mf_interrupt_flag || p->stopped) {
      p->stopped = 1;
      return end;
    }
    int64_t nchunks = (end - at) / len;
    if (nchunks > 65536 / len) nchunks = 65536 / len;
    mf_elementwise_chunks(p->kind, p->ops, p->nops, ptr, move, nmove, nchunks);
    at += nchunks * len;
  }
  return at;
}

static void fused_part(void *ctx, int64_t begin, int64_t end, int part) {
  const fused_job *j = ctx;
  fused_prog *p = j->p;
  char *scratch = p->scratch + (size_t)part * p->part_bytes;
  const void *in[MAX_STEP_INPUTS];
  int64_t stride[MAX_STEP_INPUTS];
  int64_t blocks = 0;
  if (p->chunked) begin = chunk_part(j, scratch, begin, end);
  for (int64_t at = begin; at < end; at += p->blk) {
    if ((blocks++ & 63) == 0 && (mf_interrupt_flag || p->stopped)) {
      p->stopped = 1;
      return;
    }
    int64_t len = end - at < p->blk ? end - at : p->blk;
    for (int st = 0; st < p->nsteps; st++) {
      const fused_step *s = &p->steps[st];
      for (int k = 0; k < s->nin; k++) {
        const fused_value *v = &p->values[s->in[k]];
        in[k] = value_at(v, p->blk, scratch, j->out, at);
        stride[k] = v->data ? v->stride : 1;
      }
      void *o = (void *)value_at(&p->values[s->out], p->blk, scratch, j->out, at);
      mf_elementwise_run(&s->fn, in, stride, o, len);
    }
  }
}

/* Runs the body as a graph: the executor's result for shapes the blocks
 * do not cover. */
static mf_status run_unfused(mf_op_call *c, const mf_graph *g, mf_error *err) {
  mf_tensor *res = NULL;
  MF_TRY(mf_graph_run(g, c->nin, c->in, &res, err));
  mf_tensor_release(c->out[0]);
  c->out[0] = res;
  return MF_OK;
}

/* A node's compiled program, kept in its plan state between runs: valid
 * while the output size and every input's size are those it was built for
 * (they decide the strides and the scratch); only the inputs' data
 * pointers change from call to call. */
enum { CACHE_INPUTS = 16 };
typedef struct fused_cache {
  fused_prog p;
  int nin;
  int64_t n, in_size[CACHE_INPUTS];
} fused_cache;

static void cache_drop(void *data) {
  fused_cache *fc = data;
  if (!fc) return;
  prog_free(&fc->p);
  free(fc);
}

static bool cache_fits(const fused_cache *fc, const mf_op_call *c, int64_t n) {
  if (fc->n != n || fc->nin != c->nin) return false;
  for (int k = 0; k < c->nin; k++)
    if (fc->in_size[k] != c->in[k]->size) return false;
  return true;
}

static mf_status fused_kernel(mf_op_call *c, mf_error *err) {
  const mf_graph *g = body_of(c);
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  fused_prog local, *pp = &local;
  fused_value values_inline[INLINE_NODES + 1];
  fused_step steps_inline[INLINE_NODES + 1];
  bool fits = true;
  mf_status s = MF_OK;
  fused_cache *fc = c->state && c->state->drop == cache_drop ? c->state->data : NULL;
  if (fc && cache_fits(fc, c, out->size)) {
    pp = &fc->p;
    for (int k = 0; k < c->nin; k++) pp->values[g->inputs[k]].data = mf_tensor_data(c->in[k]);
    pp->stopped = 0;
  } else if (c->state && c->nin <= CACHE_INPUTS) {
    /* Build once into heap arrays the node keeps. */
    if (c->state->drop) c->state->drop(c->state->data);
    c->state->data = NULL;
    c->state->drop = NULL;
    fc = mf_calloc(1, sizeof *fc);
    if (!fc) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    s = prog_build(&fc->p, g, c->in, c->nin, out, NULL, NULL, &fits, err);
    if (s != MF_OK || !fits) {
      cache_drop(fc);
      return s != MF_OK ? s : run_unfused(c, g, err);
    }
    fc->nin = c->nin;
    fc->n = out->size;
    for (int k = 0; k < c->nin; k++) fc->in_size[k] = c->in[k]->size;
    c->state->data = fc;
    c->state->drop = cache_drop;
    pp = &fc->p;
  } else {
    s = prog_build(pp, g, c->in, c->nin, out, values_inline, steps_inline, &fits, err);
    if (s == MF_OK && !fits) {
      prog_free(pp);
      return run_unfused(c, g, err);
    }
  }
  fused_prog *const p = pp;
  /* min_part: below two parts' worth a call runs inline, with no threads. */
  const int64_t min_part = MF_ELEMENTWISE_PARALLEL_MIN / 2;
  int parts = p->n >= 2 * min_part ? mf_threadpool_size() : 1;
  /* The scratch is a buffer of the plan's pool (sized to the tensor, not
   * to a whole block when the tensor is smaller), so a cached call takes
   * back the one it returned last time. Over 256 bytes, so 64-aligned. */
  mf_tensor *scratch = NULL;
  /* Buffers the executor lent (inputs dying here) are still being read:
   * the output has had its pick, so none may become the scratch. */
  mf_buffer_pool_unlend(c->pool);
  if (s == MF_OK && p->nbufs > 0) {
    int64_t words = (int64_t)((size_t)parts * p->part_bytes / sizeof(uint64_t));
    if (words < 40) words = 40;
    s = mf_tensor_new_pooled(c->pool, MF_FLOAT64, 1, &words, &scratch, err);
    if (s == MF_OK) p->scratch = mf_tensor_data(scratch);
  }
  if (s == MF_OK) {
    fused_job j = {p, mf_tensor_data(out)};
    /* A cached program measures its cost once: later calls decide from
     * the element count alone whether threads pay. */
    mf_parallel_for_cost(p->n, min_part, BLOCK, fused_part, &j, p == &local ? NULL : &p->cost);
    if (p->stopped) {
      mf_interrupt_clear();
      s = mf_error_set(err, MF_ERR_INTERRUPTED, "interrupted by the user");
    }
  }
  p->scratch = NULL;
  mf_buffer_pool_recycle(c->pool, scratch);
  if (p == &local) prog_free(p);
  return s;
}

const mf_op_def mf_op_FusedElementwise = {
    .name = "FusedElementwise", .input_names = "inputs*", .min_inputs = 0, .max_inputs = -1,
    .attrs = {{"body", MF_ATTR_GRAPH}},
    .infer = fused_infer, .kernel = fused_kernel,
    /* Elementwise: the executor may lend it an input that dies here as its
     * output, which is safe since every block reads its inputs at the
     * positions it writes, before writing them. Never fused again: it has
     * no block function. */
    .flags = MF_OP_ELEMENTWISE | MF_OP_NO_GRADIENT,
    .doc = "Runs a fused group of elementwise ops (the graph 'body') in one pass over blocks.",
    .tf_attrs = "",
};
