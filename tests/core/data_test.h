/* data_test.h — checks shared by the tf.data core tests. Include after
 * check.h. */
#ifndef MF_DATA_TEST_H
#define MF_DATA_TEST_H

#include "dataset.h"
#include "interrupt.h"

/* An interrupt stops an endless pipeline `ds` at its next element, and the
 * iterator goes on after it (the flag was taken). */
static inline void check_interrupt_resumes(mf_dataset *ds) {
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(ds, &it, NULL));
  mf_tensor *e;
  bool end;
  mf_error err;
  CHECK(mf_iterator_next(it, &e, &end, &err) == MF_OK);
  mf_tensor_release(e);
  mf_interrupt_request();
  CHECK(mf_iterator_next(it, &e, &end, &err) == MF_ERR_INTERRUPTED);
  CHECK(mf_iterator_next(it, &e, &end, &err) == MF_OK && !end);
  mf_tensor_release(e);
  mf_iterator_free(it);
}

#endif
