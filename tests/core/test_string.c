/* test_string.c — StringLength (bytes and UTF-8 characters) and StringJoin
 * (separators, scalar broadcasting, shape errors, inference). */
#include "check.h"
#include "op_test.h"

static bool str_is(const mf_tensor *t, int64_t i, const char *want) {
  const mf_string *s = &MF_DATA(t, mf_string)[i];
  return s->len == strlen(want) && memcmp(s->ptr, want, s->len) == 0;
}

static void test_length(void) {
  const char *v[] = {"", "abc", "h\xc3\xa9llo", "\xe2\x82\xac\xf0\x9f\x98\x80"}; /* é, €, 😀 */
  mf_tensor *in = make_strings(2, DIMS(2, 2), v), *out = NULL;
  mf_error err;
  CHECK(run_op("StringLength", 1, &in, NULL, 1, &out, &err) == MF_OK);
  CHECK(shape_is(out, 2, DIMS(2, 2)) && out->dtype == MF_INT32);
  int32_t bytes[] = {0, 3, 6, 7}, chars[] = {0, 3, 5, 2};
  for (int i = 0; out && i < 4; i++) CHECK(MF_DATA(out, int32_t)[i] == bytes[i]);
  mf_tensor_release(out);
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_string(&at, "unit", "UTF8_CHAR", NULL);
  CHECK(run_op("StringLength", 1, &in, &at, 1, &out, &err) == MF_OK);
  for (int i = 0; out && i < 4; i++) CHECK(MF_DATA(out, int32_t)[i] == chars[i]);
  mf_tensor_release(out);
  mf_attrs_set_string(&at, "unit", "CHAR", NULL);
  CHECK(run_op("StringLength", 1, &in, &at, 1, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "not in the list of allowed values"));
  mf_attrs_free(&at);
  mf_tensor_release(in);
  mf_tensor *num = make_tensor(MF_FLOAT32, 0, NULL, NULL);
  CHECK(run_op("StringLength", 1, &num, NULL, 1, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_tensor_release(num);
  mf_spec s = spec_of(MF_STRING, 2, DIMS(-1, 3)), o[2];
  int n;
  CHECK(infer_op("StringLength", 1, &s, NULL, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 2, DIMS(-1, 3)) && o[0].dtype == MF_INT32);
}

static void test_join(void) {
  mf_tensor *a = make_strings(1, DIMS(3), (const char *[]){"a", "bb", ""});
  mf_tensor *b = make_strings(0, NULL, (const char *[]){"x"});
  mf_tensor *c = make_strings(1, DIMS(3), (const char *[]){"1", "2", "3"});
  mf_tensor *out = NULL;
  mf_error err;
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_string(&at, "separator", ", ", NULL);
  CHECK(run_op("StringJoin", 3, (mf_tensor *[]){a, b, c}, &at, 1, &out, &err) == MF_OK);
  CHECK(shape_is(out, 1, DIMS(3)));
  CHECK(out && str_is(out, 0, "a, x, 1") && str_is(out, 1, "bb, x, 2") && str_is(out, 2, ", x, 3"));
  mf_tensor_release(out);
  /* scalars only, no separator */
  CHECK(run_op("StringJoin", 2, (mf_tensor *[]){b, b}, NULL, 1, &out, &err) == MF_OK);
  CHECK(shape_is(out, 0, NULL) && str_is(out, 0, "xx"));
  mf_tensor_release(out);
  CHECK(run_op("StringJoin", 1, (mf_tensor *[]){a}, &at, 1, &out, &err) == MF_OK);
  CHECK(out && str_is(out, 1, "bb"));
  mf_tensor_release(out);
  mf_tensor *d = make_strings(1, DIMS(2), (const char *[]){"p", "q"});
  CHECK(run_op("StringJoin", 2, (mf_tensor *[]){a, d}, NULL, 1, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Input shapes do not match: [3] vs. [2]"));
  mf_tensor *num = make_tensor(MF_INT32, 1, DIMS(3), NULL);
  CHECK(run_op("StringJoin", 2, (mf_tensor *[]){a, num}, NULL, 1, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(run_op("StringJoin", 0, NULL, NULL, 1, &out, &err) == MF_ERR_TYPE);
  mf_attrs_free(&at);
  mf_tensor *all[] = {a, b, c, d, num};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) mf_tensor_release(all[i]);
}

static void test_join_infer(void) {
  mf_error err;
  mf_spec o[2];
  int n;
  mf_spec s[3] = {spec_of(MF_STRING, 0, NULL), spec_of(MF_STRING, 2, DIMS(-1, 4)),
                  spec_of(MF_STRING, 2, DIMS(5, -1))};
  CHECK(infer_op("StringJoin", 3, s, NULL, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 2, DIMS(5, 4)) && o[0].dtype == MF_STRING);
  mf_spec u[2] = {spec_of(MF_STRING, 0, NULL), spec_of(MF_STRING, -1, NULL)};
  CHECK(infer_op("StringJoin", 2, u, NULL, o, 2, &n, &err) == MF_OK && o[0].rank == -1);
  mf_spec sc[2] = {spec_of(MF_STRING, 0, NULL), spec_of(MF_STRING, 0, NULL)};
  CHECK(infer_op("StringJoin", 2, sc, NULL, o, 2, &n, &err) == MF_OK && o[0].rank == 0);
  mf_spec bad[2] = {spec_of(MF_STRING, 1, DIMS(3)), spec_of(MF_STRING, 2, DIMS(3, 1))};
  CHECK(infer_op("StringJoin", 2, bad, NULL, o, 2, &n, &err) == MF_ERR_INVALID_ARGUMENT);
}

int main(void) {
  RUN(test_length);
  RUN(test_join);
  RUN(test_join_infer);
  return CHECK_DONE();
}
