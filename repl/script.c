/* script.c — running scripts as lua.c does: the `arg` table, the script's
 * arguments as `...`, -e chunks and -l modules; an error is printed as
 * "Type: message" on stderr and makes the exit status 1. */
#include <stdio.h>
#include <string.h>

#include <lua.h>

#include "repl.h"

void mf_script_set_arg(mf_session *s, int argc, char **argv, int script) {
  lua_State *L = mf_session_lua(s);
  if (script == argc) script = 0; /* no script: arg[0] is the program */
  lua_createtable(L, argc - script - 1 > 0 ? argc - script - 1 : 0, script + 1);
  for (int i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - script);
  }
  lua_setglobal(L, "arg");
}

/* Reports r (an error) and frees it; returns the exit status. */
static int finish(mf_eval_result *r, bool color) {
  int status = 0;
  if (r->status != MF_EVAL_OK) {
    mf_term_print_error(r, color);
    status = 1;
  }
  mf_eval_result_free(r);
  return status;
}

int mf_script_run(mf_session *s, const char *path, int nargs, char **args, bool color) {
  mf_signals_evaluating(true);
  mf_eval_result r = mf_session_run_file(s, path, nargs, (const char *const *)args);
  mf_signals_evaluating(false);
  return finish(&r, color);
}

int mf_script_eval(mf_session *s, const char *code, bool color) {
  mf_signals_evaluating(true);
  mf_eval_result r = mf_session_eval(s, code, "=(command line)", false);
  mf_signals_evaluating(false);
  return finish(&r, color);
}

int mf_script_require(mf_session *s, const char *spec, bool color) {
  const char *eq = strchr(spec, '=');
  const char *mod = eq ? eq + 1 : spec;
  int glen = eq ? (int)(eq - spec) : (int)strlen(spec);
  if (strpbrk(mod, "\"\\\n") || memchr(spec, '"', (size_t)glen)) {
    fprintf(stderr, "moonflow: bad module name for -l: %s\n", spec);
    return 1;
  }
  char code[1024];
  snprintf(code, sizeof code, "_G[\"%.*s\"] = require(\"%s\")", glen, spec, mod);
  return mf_script_eval(s, code, color);
}
