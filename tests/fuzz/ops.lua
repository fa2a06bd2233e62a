-- ops.lua — the op-argument fuzzer: api.lua in mode "ops" (every registered
-- op through core.op, the raw op-call path, with random inputs and
-- attributes). Same options; `moonflow tests/fuzz/ops.lua COUNT SEED`.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
arg = { "--mode", "ops", table.unpack(arg) } -- luacheck: ignore
dofile(here .. "api.lua")
