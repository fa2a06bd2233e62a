/* exit.c — see exit.h. */
#include "exit.h"

#include <ctype.h>
#include <string.h>


bool mf_cell_is_exit(const char *code) {
  while (isspace((unsigned char)*code)) code++;
  size_t n = strlen(code);
  while (n > 0 && isspace((unsigned char)code[n - 1])) n--;
  static const char *const WORDS[] = {"exit", "quit", "exit()", "quit()"};
  for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++)
    if (n == strlen(WORDS[i]) && memcmp(code, WORDS[i], n) == 0) return true;
  return false;
}
