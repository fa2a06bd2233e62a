/* error.h — status codes and the error record every core call fills.
 *
 * Core functions never abort, exit or longjmp: they return an mf_status and,
 * on failure, describe it in an mf_error the caller owns. The Lua binding is
 * the only place that turns a record into a raised (typed) Lua error. The
 * status names are TensorFlow's exception class names. */
#ifndef MF_ERROR_H
#define MF_ERROR_H

typedef enum mf_status {
  MF_OK = 0,
  MF_ERR_TYPE,               /* TypeError */
  MF_ERR_VALUE,              /* ValueError */
  MF_ERR_INVALID_ARGUMENT,   /* InvalidArgumentError */
  MF_ERR_OUT_OF_RANGE,       /* OutOfRangeError */
  MF_ERR_RESOURCE_EXHAUSTED, /* ResourceExhaustedError */
  MF_ERR_INTERRUPTED,        /* InterruptedError */
  MF_ERR_NOT_FOUND,          /* NotFoundError */
  MF_ERR_FAILED_PRECONDITION,/* FailedPreconditionError */
  MF_ERR_UNIMPLEMENTED,      /* UnimplementedError */
  MF_ERR_INTERNAL,           /* InternalError */
  MF_STATUS_COUNT
} mf_status;

#define MF_ERROR_MESSAGE_MAX 1024

typedef struct mf_error {
  mf_status status;
  char message[MF_ERROR_MESSAGE_MAX];
} mf_error;

/* Fills `err` (when not NULL) and returns `status`, so callers can write
 * `return mf_error_set(err, MF_ERR_VALUE, "...", ...);`. Cold, as is a
 * failing MF_TRY: the compiler moves error paths out of the hot code,
 * whose instruction-cache misses are much of a trace's time. */
mf_status mf_error_set(mf_error *err, mf_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), cold));
void mf_error_clear(mf_error *err);
/* "TypeError", "InvalidArgumentError", ... */
const char *mf_status_name(mf_status status);

/* Propagate a failing status from an expression. */
#define MF_TRY(expr)                 \
  do {                               \
    mf_status mf_try_s_ = (expr);    \
    if (__builtin_expect(mf_try_s_ != MF_OK, 0)) return mf_try_s_; \
  } while (0)

#endif
