-- graph_picture_spec.lua — pictures of graphs with control flow: While and
-- If bodies drawn as nested, labelled clusters (checked in the SVG
-- DOT; tests/jupyter renders it to SVG), indented blocks in the text rendering, constants
-- with their values, and never a raw GraphHandle address.

local function control_flow_graph()
  local f = tf.func(function(x)
    for _ in tf.range(3) do x = x + 1.5 end
    if tf.reduce_sum(x) > 0 then x = x * 2 else x = -x end
    return x
  end)
  return f:get_concrete_function(tf.constant(1.0)).graph
end

describe("graph pictures with control flow", function()
  it("draw While and If bodies as labelled clusters in the SVG", function()
    local dot = control_flow_graph():to_dot()
    assert.is_nil(dot:find("GraphHandle", 1, true))
    for _, label in ipairs({ "body", "cond", "then_branch", "else_branch" }) do
      assert.truthy(dot:find('label="' .. label .. '"', 1, true), label)
    end
    for _, id in ipairs({ "cluster_n%d+ {", "cluster_n%d+_body {", "cluster_n%d+_cond {",
      "cluster_n%d+_then_branch {", "cluster_n%d+_else_branch {" }) do
      assert.truthy(dot:find("subgraph " .. id), id)
    end
    -- the constant 1.5 added in the loop body shows its value
    assert.truthy(dot:find('\\n1.5"', 1, false), "1.5")
  end)

  it("indent the bodies in the text rendering", function()
    local text = control_flow_graph():text()
    assert.is_nil(text:find("GraphHandle", 1, true))
    assert.truthy(text:find("\n    body: %d+ ops\n      "), text)
    assert.truthy(text:find("\n    cond: %d+ ops\n      "), text)
    assert.truthy(text:find("\n    then_branch: %d+ ops\n      "), text)
    assert.truthy(text:find("\n    else_branch: %d+ ops\n      "), text)
  end)

  it("name the variable a captured resource placeholder stands for", function()
    local weight = tf.Variable(2.0, { name = "weight" })
    local scale = tf.func(function(x) return x * weight end)
    local g = scale:get_concrete_function(tf.constant(1.0)).graph
    assert.truthy(g:to_dot():find("\\nvariable weight:0", 1, true))
    assert.truthy(g:text():find("{variable=weight:0}", 1, true))
  end)
end)
