-- chain.lua — benchmark 4's 100-op elementwise chain (x*1.0001, x+0.5,
-- tanh, ...), one text for bench.lua and trace_count.lua, so the counted
-- traces are the timed ones.
local tf = tf or require("moonflow")

local CHAIN_OPS = 100
local function chain(x)
  for i = 1, CHAIN_OPS do
    local k = i % 3
    if k == 1 then
      x = x * 1.0001
    elseif k == 2 then
      x = x + 0.5
    else
      x = tf.tanh(x)
    end
  end
  return x
end

return chain
