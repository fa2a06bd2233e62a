-- LuaRocks: `luarocks --lua-version 5.4 make --local` in this directory
-- builds with the Makefile and installs the Lua module (moonflow.so and
-- the Lua library, so `require("moonflow")` returns tf) and the moonflow
-- program into the rock tree. docs/packaging.md.
rockspec_format = "3.0"
package = "moonflow"
version = "0.1.0-1"
source = {
  url = "git+file://.",
}
description = {
  summary = "TensorFlow's execution model rebuilt as a C tensor core scripted from Lua 5.4",
  detailed = [[
Eager tensors, tf.func tracing into graphs, concrete functions cached per
input signature, variables, gradient tapes and AutoGraph control-flow
conversion, with a REPL, a Jupyter kernel and step-through lessons.]],
  license = "Apache-2.0",
  labels = { "machine-learning", "tensor", "tensorflow" },
}
dependencies = {
  "lua >= 5.4, < 5.5",
}
external_dependencies = {
  JANSSON = { header = "jansson.h" },
  ZMQ = { header = "zmq.h" },
}
build = {
  type = "make",
  -- The Makefile finds the packages it builds against with pkg-config
  -- (Debian's build dependencies: `make deps`), so no flags are passed.
  build_target = "all",
  install_target = "install-rock",
  install_variables = {
    LUA_CMOD_DIR = "$(LIBDIR)",
    LUA_LMOD_DIR = "$(LUADIR)",
    BINDIR = "$(BINDIR)",
  },
}
