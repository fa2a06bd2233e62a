#include "error.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const status_names[MF_STATUS_COUNT] = {
    [MF_OK] = "OK",
    [MF_ERR_TYPE] = "TypeError",
    [MF_ERR_VALUE] = "ValueError",
    [MF_ERR_INVALID_ARGUMENT] = "InvalidArgumentError",
    [MF_ERR_OUT_OF_RANGE] = "OutOfRangeError",
    [MF_ERR_RESOURCE_EXHAUSTED] = "ResourceExhaustedError",
    [MF_ERR_INTERRUPTED] = "InterruptedError",
    [MF_ERR_NOT_FOUND] = "NotFoundError",
    [MF_ERR_FAILED_PRECONDITION] = "FailedPreconditionError",
    [MF_ERR_UNIMPLEMENTED] = "UnimplementedError",
    [MF_ERR_INTERNAL] = "InternalError",
};

mf_status mf_error_set(mf_error *err, mf_status status, const char *fmt, ...) {
  if (err) {
    va_list ap;
    err->status = status;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return status;
}

void mf_error_clear(mf_error *err) {
  err->status = MF_OK;
  err->message[0] = '\0';
}

const char *mf_status_name(mf_status status) {
  return (unsigned)status < MF_STATUS_COUNT ? status_names[status] : "UnknownError";
}
