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

/* MF_OP_CHANGES_ON_REPLAY is set on exactly these ops: those whose second
 * run is not the first one's, so that a gradient which runs a function's
 * or a branch's body again must not meet them (the call and control-flow
 * gradients refuse to). Why each: */
static const char *const changes_on_replay[] = {
    /* Writes to a variable: a second run writes again (AssignAdd adds
     * twice). TF marks them stateful. */
    "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp",
    /* Output: a second run prints the text again. */
    "PrintV2",
    /* A host callback: any effect, any result. */
    "EagerLuaFunc",
    /* Random draws advance the generator: a second run draws other values. */
    "RandomStandardNormal", "RandomUniform",
    /* The clock moves: a second run reads another time. */
    "Timestamp",
    /* An iterator's cursor moves (GetNext) or restarts (MakeIterator): a
     * second run gives the next element. */
    "MakeIterator", "IteratorGetNext", "IteratorGetNextAsOptional",
};
/* Not flagged, though TF calls some of them stateful: ReadVariableOp (a
 * read changes nothing; run again after no write it reads the same
 * value), Assert (it raises or not, as the first run did, and changes
 * nothing), TensorListSetItem (returns a new list), and the calls and
 * control flow (PartitionedCall, StatefulPartitionedCall, If, While and
 * their stateless forms): whether replaying one changes state is whether
 * its bodies hold a flagged op, which the readers find by walking the
 * nested graphs, naming the op itself. */
static void test_changes_on_replay(void) {
  size_t n = sizeof changes_on_replay / sizeof changes_on_replay[0];
  int flagged = 0;
  for (int i = 0; i < mf_op_count(); i++) {
    const mf_op_def *op = mf_op_at(i);
    bool listed = false;
    for (size_t k = 0; k < n; k++) listed |= strcmp(op->name, changes_on_replay[k]) == 0;
    if ((op->flags & MF_OP_CHANGES_ON_REPLAY) != 0) flagged++;
    if (listed != ((op->flags & MF_OP_CHANGES_ON_REPLAY) != 0))
      printf("#   %s: flag %s, expected %s\n", op->name,
             listed ? "unset" : "set", listed ? "set" : "unset");
    CHECK(listed == ((op->flags & MF_OP_CHANGES_ON_REPLAY) != 0));
  }
  CHECK(flagged == (int)n);
  for (size_t k = 0; k < n; k++) CHECK(mf_op_lookup(changes_on_replay[k]) != NULL);
}

int main(void) {
  RUN(test_count);
  RUN(test_names);
  RUN(test_changes_on_replay);
  return CHECK_DONE();
}
