#include "interrupt.h"

volatile sig_atomic_t mf_interrupt_flag = 0;

mf_status mf_interrupt_check(mf_error *err) {
  if (!mf_interrupt_flag) return MF_OK;
  mf_interrupt_flag = 0;
  return mf_error_set(err, MF_ERR_INTERRUPTED, "interrupted by the user");
}
