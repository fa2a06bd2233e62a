/* step.h — the stepper's binding (step.c). */
#ifndef MFL_STEP_H
#define MFL_STEP_H

#include "binding.h"

/* Registers core.run_node, core.profile_start and core.profile_stop in the
 * table on top of the stack. */
void mfL_step_open(lua_State *L);

#endif
