/* test_registry.c — the op registry as ops.def lists it: MF_OP_COUNT
 * entries, each under the TensorFlow name its symbol carries (mf_op_AddV2
 * registers "AddV2"), found by that name, names unique. (That the library
 * defines no op ops.def misses is tests/registry/test_ops_def.sh.) */
#include "check.h"
#include "op_test.h"

static void test_count(void) {
  CHECK(mf_op_count() == MF_OP_COUNT);
  CHECK(mf_op_at(MF_OP_COUNT - 1) != NULL);
  CHECK(mf_op_at(MF_OP_COUNT) == NULL);
}

static void test_names(void) {
  int i = 0;
#define MF_OP(n)                                         \
  CHECK(strcmp(mf_op_##n.name, #n) == 0);                \
  CHECK(mf_op_at(i) == &mf_op_##n);                      \
  CHECK(mf_op_lookup(#n) == &mf_op_##n);                 \
  i++;
#include "ops.def"
#undef MF_OP
  CHECK(i == MF_OP_COUNT);
  for (int a = 0; a < mf_op_count(); a++)
    for (int b = a + 1; b < mf_op_count(); b++) CHECK(strcmp(mf_op_at(a)->name, mf_op_at(b)->name) != 0);
}

int main(void) {
  RUN(test_count);
  RUN(test_names);
  return CHECK_DONE();
}
