/* test_string.c — StringLength (bytes and UTF-8 characters) and StringJoin
 * (separators, scalar broadcasting, shape errors, inference); the kernels
 * of issue 28: Substr's ranges, StringSplitV2's sparse result,
 * RegexReplace's empty matches (RE2's rule) and rewrite check, the UTF-8
 * decoder's ill-formed sequences, UnicodeEncode, ReduceJoin, DecodeRaw. */
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

static mf_tensor *scalar_string(const char *v) { return make_strings(0, NULL, &v); }

static void test_substr(void) {
  mf_tensor *in = make_strings(1, DIMS(2), (const char *[]){"hello", "h\xc3\xa9llo"});
  mf_tensor *pos = make_tensor(MF_INT32, 0, NULL, (double[]){1});
  mf_tensor *len = make_tensor(MF_INT32, 0, NULL, (double[]){2});
  mf_tensor *out = NULL;
  mf_error err;
  CHECK(run_op("Substr", 3, (mf_tensor *[]){in, pos, len}, NULL, 1, &out, &err) == MF_OK);
  CHECK(out && str_is(out, 0, "el") && str_is(out, 1, "\xc3\xa9"));
  mf_tensor_release(out);
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_string(&at, "unit", "UTF8_CHAR", NULL);
  CHECK(run_op("Substr", 3, (mf_tensor *[]){in, pos, len}, &at, 1, &out, &err) == MF_OK);
  CHECK(out && str_is(out, 0, "el") && str_is(out, 1, "\xc3\xa9l"));
  mf_tensor_release(out);
  mf_attrs_free(&at);
  /* negative positions count from the end; past either end is an error */
  mf_tensor *neg = make_tensor(MF_INT32, 0, NULL, (double[]){-3});
  CHECK(run_op("Substr", 3, (mf_tensor *[]){in, neg, len}, NULL, 1, &out, &err) == MF_OK);
  CHECK(out && str_is(out, 0, "ll"));
  mf_tensor_release(out);
  mf_tensor *far = make_tensor(MF_INT32, 0, NULL, (double[]){7});
  CHECK(run_op("Substr", 3, (mf_tensor *[]){in, far, len}, NULL, 1, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "pos 7 out of range for string b'hello' at index 0"));
  mf_tensor *pos2 = make_tensor(MF_INT32, 1, DIMS(2), (double[]){0, 1});
  CHECK(run_op("Substr", 3, (mf_tensor *[]){in, pos2, len}, NULL, 1, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "pos and len should have the same shape"));
  mf_tensor *p[] = {in, pos, len, neg, far, pos2};
  for (int i = 0; i < 6; i++) mf_tensor_release(p[i]);
}

static void test_split(void) {
  mf_tensor *in = make_strings(1, DIMS(3), (const char *[]){" a  b ", "", "c"});
  mf_tensor *ws = scalar_string(""), *comma = scalar_string(",");
  mf_tensor *out[3] = {NULL};
  mf_error err;
  CHECK(run_op("StringSplitV2", 2, (mf_tensor *[]){in, ws}, NULL, 3, out, &err) == MF_OK);
  CHECK(shape_is(out[0], 2, DIMS(3, 2)) && shape_is(out[1], 1, DIMS(3)));
  int64_t want[] = {0, 0, 0, 1, 2, 0};
  for (int i = 0; out[0] && i < 6; i++) CHECK(MF_DATA(out[0], int64_t)[i] == want[i]);
  CHECK(out[1] && str_is(out[1], 0, "a") && str_is(out[1], 1, "b") && str_is(out[1], 2, "c"));
  CHECK(out[2] && MF_DATA(out[2], int64_t)[0] == 3 && MF_DATA(out[2], int64_t)[1] == 2);
  for (int i = 0; i < 3; i++) mf_tensor_release(out[i]);
  /* a separator keeps empty pieces, and "" is one empty piece (str.split) */
  mf_tensor *in2 = make_strings(1, DIMS(2), (const char *[]){"a,,b", ""});
  CHECK(run_op("StringSplitV2", 2, (mf_tensor *[]){in2, comma}, NULL, 3, out, &err) == MF_OK);
  CHECK(shape_is(out[1], 1, DIMS(4)) && str_is(out[1], 1, "") && str_is(out[1], 3, ""));
  for (int i = 0; i < 3; i++) mf_tensor_release(out[i]);
  mf_tensor *scalar = scalar_string("a b");
  CHECK(run_op("StringSplitV2", 2, (mf_tensor *[]){scalar, ws}, NULL, 3, out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "input must be a vector, got shape: []"));
  mf_tensor *p[] = {in, ws, comma, in2, scalar};
  for (int i = 0; i < 5; i++) mf_tensor_release(p[i]);
}

static void test_regex(void) {
  mf_tensor *in = scalar_string("abc"), *pat = scalar_string("b*"), *rw = scalar_string("x");
  mf_tensor *out = NULL;
  mf_error err;
  /* RE2::GlobalReplace: no empty match right after the last match */
  CHECK(run_op("RegexReplace", 3, (mf_tensor *[]){in, pat, rw}, NULL, 1, &out, &err) == MF_OK);
  CHECK(out && str_is(out, 0, "xaxcx"));
  mf_tensor_release(out);
  mf_tensor *bad = scalar_string("(b"), *group = scalar_string("\\1");
  CHECK(run_op("RegexReplace", 3, (mf_tensor *[]){in, bad, rw}, NULL, 1, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Invalid pattern: (b, error: "));
  CHECK(run_op("RegexReplace", 3, (mf_tensor *[]){in, pat, group}, NULL, 1, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Rewrite schema requests 1 matches, but the regexp only has 0"));
  /* invalid UTF-8 in the subject is matched byte by byte, as RE2 does */
  mf_tensor *raw = scalar_string("a\xff"), *any = scalar_string("a.");
  CHECK(run_op("RegexFullMatch", 2, (mf_tensor *[]){raw, any}, NULL, 1, &out, &err) == MF_OK);
  CHECK(out && MF_DATA(out, bool)[0]);
  mf_tensor_release(out);
  mf_tensor *p[] = {in, pat, rw, bad, group, raw, any};
  for (int i = 0; i < 7; i++) mf_tensor_release(p[i]);
}

static void test_unicode(void) {
  /* é, a lone lead byte, a surrogate's encoding (3 bytes, 3 errors as ICU
   * counts them: ED is cut at A0), a truncated 3-byte sequence at the end */
  mf_tensor *in = make_strings(1, DIMS(2), (const char *[]){"\xc3\xa9\xc3", "\xed\xa0\x80\xe8\xaa"});
  mf_tensor *out[3] = {NULL};
  mf_error err;
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_string(&at, "input_encoding", "UTF-8", NULL);
  CHECK(run_op("UnicodeDecodeWithOffsets", 1, &in, &at, 3, out, &err) == MF_OK);
  int64_t splits[] = {0, 2, 6};
  int32_t cps[] = {0xE9, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD};
  int64_t offs[] = {0, 2, 0, 1, 2, 3};
  CHECK(shape_is(out[0], 1, DIMS(3)) && shape_is(out[1], 1, DIMS(6)));
  for (int i = 0; out[0] && i < 3; i++) CHECK(MF_DATA(out[0], int64_t)[i] == splits[i]);
  for (int i = 0; out[1] && i < 6; i++) CHECK(MF_DATA(out[1], int32_t)[i] == cps[i]);
  for (int i = 0; out[2] && i < 6; i++) CHECK(MF_DATA(out[2], int64_t)[i] == offs[i]);
  for (int i = 0; i < 3; i++) mf_tensor_release(out[i]);
  mf_attrs_set_string(&at, "errors", "strict", NULL);
  CHECK(run_op("UnicodeDecode", 1, &in, &at, 2, out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Invalid formatting on input string"));
  mf_attrs_free(&at);
  mf_tensor *v = make_tensor(MF_INT32, 1, DIMS(3), (double[]){104, 0x8A9E, 0x110000});
  mf_tensor *s = make_tensor(MF_INT64, 1, DIMS(3), (double[]){0, 2, 3});
  mf_tensor *enc = NULL;
  CHECK(run_op("UnicodeEncode", 2, (mf_tensor *[]){v, s}, NULL, 1, &enc, &err) == MF_OK);
  CHECK(enc && str_is(enc, 0, "h\xe8\xaa\x9e") && str_is(enc, 1, "\xef\xbf\xbd"));
  mf_tensor_release(enc);
  mf_attrs_init(&at);
  mf_attrs_set_string(&at, "errors", "strict", NULL);
  CHECK(run_op("UnicodeEncode", 2, (mf_tensor *[]){v, s}, &at, 1, &enc, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_attrs_free(&at);
  mf_tensor_release(in);
  mf_tensor_release(v);
  mf_tensor_release(s);
}

static void test_reduce_join_decode_raw(void) {
  mf_tensor *in = make_strings(2, DIMS(2, 2), (const char *[]){"a", "b", "c", "d"});
  mf_tensor *ax = make_tensor(MF_INT32, 0, NULL, (double[]){0});
  mf_tensor *out = NULL;
  mf_error err;
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_string(&at, "separator", "-", NULL);
  CHECK(run_op("ReduceJoin", 2, (mf_tensor *[]){in, ax}, &at, 1, &out, &err) == MF_OK);
  CHECK(shape_is(out, 1, DIMS(2)) && str_is(out, 0, "a-c") && str_is(out, 1, "b-d"));
  mf_tensor_release(out);
  mf_attrs_free(&at);
  mf_tensor *raw = make_strings(1, DIMS(2), (const char *[]){"\x01\x02", "\x03"});
  mf_attrs_init(&at);
  mf_attrs_set_type(&at, "out_type", MF_INT32, NULL);
  CHECK(run_op("DecodeRaw", 1, &raw, &at, 1, &out, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Input to DecodeRaw has length 2 that is not a multiple of 4, the size of int32"));
  mf_attrs_free(&at);
  mf_tensor_release(raw);
  mf_tensor_release(in);
  mf_tensor_release(ax);
}

int main(void) {
  RUN(test_length);
  RUN(test_join);
  RUN(test_join_infer);
  RUN(test_substr);
  RUN(test_split);
  RUN(test_regex);
  RUN(test_unicode);
  RUN(test_reduce_join_decode_raw);
  return CHECK_DONE();
}
