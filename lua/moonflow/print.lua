-- print.lua — tf.print: an op (StringFormat + PrintV2), so it prints every
-- time the graph runs, unlike Lua's print, which runs only while tracing.

local core = require("moonflow.core")

local OPTION_KEYS = { output_stream = true, sep = true, ["end"] = true, summarize = true, name = true }

local function is_options(v)
  if type(v) ~= "table" or getmetatable(v) ~= nil or v[1] ~= nil then return false end
  for k in pairs(v) do
    if not OPTION_KEYS[k] then return false end
  end
  return next(v) ~= nil
end

return function(tf, doc)
  local H = tf._H

  -- Template text for one argument; tensors become "{}" and are collected.
  local function template_of(x, tensors)
    if core.is_tensor(x) then
      tensors[#tensors + 1] = x
      return "{}"
    end
    local mt = getmetatable(x)
    if mt and mt.__tf_tensor then
      tensors[#tensors + 1] = mt.__tf_tensor(x)
      return "{}"
    end
    if type(x) == "table" and mt == nil then
      local parts = {}
      for i = 1, #x do parts[i] = template_of(x[i], tensors) end
      return "[" .. table.concat(parts, ", ") .. "]"
    end
    return (tostring(x):gsub("[{}]", { ["{"] = "{{", ["}"] = "}}" }))
  end

  local function sink(stream)
    if type(stream) == "function" then return stream end
    return function(text)
      local f = stream or io.stdout
      f:write(text)
      if f.flush then f:flush() end
    end
  end

  tf.print = doc.def(function(...)
    local args = table.pack(...)
    local opts = {}
    if args.n > 0 and is_options(args[args.n]) then
      opts = args[args.n]
      args.n = args.n - 1
    end
    local tensors, parts = {}, {}
    for i = 1, args.n do parts[i] = template_of(args[i], tensors) end
    local text = table.concat(parts, opts.sep or " ")
    local write = sink(opts.output_stream)
    local formatted = core.op(H.StringFormat, { template = text, placeholder = "{}",
      summarize = opts.summarize or 3 }, table.unpack(tensors))
    core.op(H.PrintV2, { ["end"] = opts["end"] or "\n", name = opts.name,
      output_callback = function(t) write(core.element(t, 0)) end }, formatted)
  end, "tf.print(... [, {output_stream=, sep=, end=, summarize=}])",
  "Prints its arguments each time it runs — inside a traced function, every time the graph runs "
  .. "(Lua's print runs only while tracing). Tensors are shown as [1 2 3]; output_stream is a Lua "
  .. "file (default io.stdout) or a function receiving the text.")
end
