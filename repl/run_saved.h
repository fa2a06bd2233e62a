/* run_saved.h — `moonflow run`: a saved program on .npy inputs, no Lua. */
#ifndef MF_RUN_SAVED_H
#define MF_RUN_SAVED_H

/* argv[0] is "run". Returns the process exit status. */
int mf_run_main(int argc, char **argv);

#endif
