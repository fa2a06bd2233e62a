/* check.h — the C tests' harness: TAP output ("ok N - name"), counted by
 * tests/run.sh. A test is a function; CHECK records one assertion. */
#ifndef MF_CHECK_H
#define MF_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_count, check_failed, check_current_failed;

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      printf("#   %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);        \
      check_current_failed = 1;                                                  \
    }                                                                            \
  } while (0)

#define CHECK_OK(expr)                                                           \
  do {                                                                           \
    mf_error check_err_;                                                         \
    mf_error_clear(&check_err_);                                                 \
    (void)check_err_;                                                            \
    if ((expr) != MF_OK) {                                                       \
      printf("#   %s:%d: %s failed\n", __FILE__, __LINE__, #expr);               \
      check_current_failed = 1;                                                  \
    }                                                                            \
  } while (0)

#define CHECK_NEAR(a, b, tol) CHECK(fabs((double)(a) - (double)(b)) <= (tol))

#define RUN(test)                                                                \
  do {                                                                           \
    check_current_failed = 0;                                                    \
    test();                                                                      \
    check_count++;                                                               \
    if (check_current_failed) check_failed++;                                    \
    printf("%s %d - %s\n", check_current_failed ? "not ok" : "ok", check_count, #test); \
  } while (0)

#define CHECK_DONE() (printf("1..%d\n", check_count), check_failed ? 1 : 0)

#endif
