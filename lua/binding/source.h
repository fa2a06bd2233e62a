/* source.h — which line of the user's Lua made each traced node: the
 * binding's side of node sources (graph.h's mf_node_source). */
#ifndef MFL_SOURCE_H
#define MFL_SOURCE_H

#include "binding.h"

/* Gives nodes from..to of g (those without one) the user's chunk and line:
 * the innermost Lua frame on L's stack outside moonflow's library. Costs
 * one stack walk; does nothing until core.set_source_library was called. */
void mfL_record_source(lua_State *L, mf_graph *g, int from, int to);

/* Calls the fill function core.set_source_library registered (if any) on
 * graph g, whose trace has just ended: it adds the lines' code and the
 * variables. Its errors are dropped: a node's source is never worth a
 * failed trace. */
void mfL_source_fill(lua_State *L, mf_graph *g);

/* Pushes node n's source as {type=, chunk=, line=, text=, name=} (text
 * and name when known), or false when it has none. */
void mfL_push_node_source(lua_State *L, const mf_node *n);

/* Registers core.set_source_library, core.graph_sources,
 * core.set_gradient_of and core.graph_fill_sources in the table on top of
 * the stack. */
void mfL_source_open(lua_State *L);

#endif
