-- node_source_spec.lua — every node traced from user code carries the
-- user's line (through AutoGraph-converted code and tf.cond branches too)
-- and the Lua variable its value was assigned to; %graph's text and DOT
-- show them, op:source() returns them, and an error while a graph runs
-- names the node and the line that made it.

local core = require("moonflow.core")
local node_source = require("moonflow.trace.node_source")

local function here() return debug.getinfo(2, "l").currentline end

-- The operations of g by name.
local function ops(g)
  local out = {}
  for _, op in ipairs(g:get_operations()) do out[op.name] = op end
  return out
end

describe("node sources", function()
  it("record the line and the local each node's value was assigned to", function()
    local line = here()
    local f = tf.func(function(x)
      local y = x * 2
      local z = tf.reduce_sum(y + 1)
      return z / x
    end)
    local o = ops(f:get_concrete_function(tf.constant({ 1.0, 2.0 })).graph)
    local s = o.mul:source()
    assert.are.same({ file = "node_source_spec.lua", line = line + 2, text = "y = x * 2", name = "y" },
      { file = s.file, line = s.line, text = s.text, name = s.name })
    -- The Const of `2` comes from the same line but is not y.
    assert.are.equal(line + 2, o["mul/y"]:source().line)
    assert.is_nil(o["mul/y"]:source().name)
    -- Only the outermost op of an expression is the variable.
    assert.is_nil(o.add:source().name)
    assert.are.equal("z", o.Sum:source().name)
    assert.are.equal("z = tf.reduce_sum(y + 1)", o.Sum:source().text)
    assert.are.equal("return z / x", o.truediv:source().text)
    assert.is_nil(o.truediv:source().name)
    -- Graph plumbing no user line made has none.
    assert.is_nil(o.x:source())
    assert.is_nil(o.Identity:source())
  end)

  it("name each run of a line a Lua loop repeats", function()
    local line = here()
    local f = tf.func(function(x)
      for _ = 1, 3 do
        x = x * 2
      end
      return x
    end)
    local g = f:get_concrete_function(tf.constant(1.0)).graph
    local named = 0
    for _, op in ipairs(g:get_operations()) do
      if op.type == "Mul" then
        assert.are.equal(line + 3, op:source().line)
        assert.are.equal("x", op:source().name)
        named = named + 1
      end
    end
    assert.are.equal(3, named)
  end)

  it("follow AutoGraph-converted code and tf.cond branches to the user's lines", function()
    local line = here()
    local f = tf.func(function(x)
      if tf.reduce_sum(x) > 0 then
        x = x * 3
      else
        x = -x
      end
      return x
    end)
    local g = f:get_concrete_function(tf.constant({ 1.0 })).graph
    local lines_seen = {}
    local function walk(handle)
      for _, n in ipairs(core.graph_nodes(handle)) do
        if n.source then lines_seen[n.source.line - line] = n.source.text end
        for _, v in pairs(n.attrs) do
          if type(v) == "userdata" and tostring(v):find("GraphHandle", 1, true) then walk(v) end
        end
      end
    end
    walk(g._handle)
    assert.are.equal("if tf.reduce_sum(x) > 0 then", lines_seen[2])
    assert.are.equal("x = x * 3", lines_seen[3])
    assert.are.equal("x = -x", lines_seen[5])
  end)

  it("show in the graph's text and as the DOT node's label and tooltip", function()
    local line = here()
    local f = tf.func(function(x)
      local y = x * 2
      return y
    end)
    local g = f:get_concrete_function(tf.constant(1.0)).graph
    local text = g:text()
    assert.truthy(text:find("\n  %-%- line " .. (line + 2) .. ": y = x %* 2\n  mul/y +%= Const%(%) {value=2}  %-> float32 %(%)"
      .. "\n  mul +%= Mul%(x:0, mul/y:0%)  %-> float32 %(%)\n  Identity"), text)
    local dot = g:to_dot()
    assert.truthy(dot:find('label="mul\\ny = Mul"', 1, true), dot)
    assert.truthy(dot:find(('tooltip="node_source_spec.lua:%d: y = x * 2"'):format(line + 2), 1, true), dot)
  end)

  it("name the node and the user's line in errors while the graph runs", function()
    local line = here()
    local f = tf.func(function(x, i)
      local y = x * 2
      local z = tf.gather(y, i)
      return z
    end)
    local ok, err = pcall(f, tf.constant({ 1.0, 2.0 }), tf.constant(5))
    assert.is_false(ok)
    assert.are.equal("InvalidArgumentError", err.type)
    assert.truthy(tostring(err):find(("[[node GatherV2]] (made at node_source_spec.lua:%d: z = tf.gather(y, i))")
      :format(line + 3), 1, true), tostring(err))
  end)

  it("name, on a tape's gradient nodes, the forward node they differentiate", function()
    local w = tf.Variable(2.0)
    local f = tf.func(function(x)
      local tape = tf.GradientTape()
      local y = x * w
      local loss = tf.square(y)
      tape:stop()
      return tape:gradient(loss, w)
    end)
    local cf = f:get_concrete_function(tf.constant(3.0))
    local o = ops(cf.graph)
    assert.are.equal("gradient of Square (loss = tf.square(y))", o["gradient_tape/mul"]:source().text)
    assert.are.equal("gradient of mul (y = x * w)", o["gradient_tape/mul_2"]:source().text)
    assert.truthy(cf.graph:text():find("-- line %d+: gradient of mul %(y = x %* w%)\n  gradient_tape/mul_2 "),
      cf.graph:text())
    -- and a backward pass can be stepped with those lines
    local s = tf.debug.step(f, tf.constant(3.0))
    local r = s:run_to("gradient_tape/mul_2")
    assert.are.equal("gradient of mul (y = x * w)", r.source.text)
    assert.are.equal(36, s:finish():numpy())
  end)

  it("read a file again when it changed since a trace read it", function()
    -- Traces keep the text of the files they read while the file stays the
    -- same: a file rewritten (same size, same line) shows its new code.
    local path = os.tmpname()
    local function load_version(code)
      local f = assert(io.open(path, "w"))
      f:write("return function(x)\n  local y = " .. code .. "\n  return y\nend\n")
      f:close()
      return assert(loadfile(path))()
    end
    local function traced_text(fn)
      local o = ops(tf.func(fn):get_concrete_function(tf.constant(1.0)).graph)
      local s = (o.mul or o.add):source()
      return s.line, s.text, s.name
    end
    local first = load_version("x * 3")
    assert.are.same({ 2, "y = x * 3", "y" }, { traced_text(first) })
    assert.are.same({ 2, "y = x * 3", "y" }, { traced_text(first) })
    local second = load_version("x + 3")
    local got = table.pack(pcall(traced_text, second))
    os.remove(path)
    assert.are.same({ true, 2, "y = x + 3", "y" }, { got[1], got[2], got[3], got[4] })
  end)

  it("find the variables an assignment line assigns", function()
    assert.are.equal("y", node_source.assigned("y = x * 2"))
    assert.are.equal("a, b", node_source.assigned("a,b = tf.split(x, 2)"))
    assert.are.equal("self.w", node_source.assigned("self.w = w - 1"))
    assert.is_nil(node_source.assigned("return x == y"))
    assert.is_nil(node_source.assigned("if x == y then"))
    assert.is_nil(node_source.assigned("f(x)"))
    assert.is_nil(node_source.assigned("function f(x) return x end"))
  end)
end)
