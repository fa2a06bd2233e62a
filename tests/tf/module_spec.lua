-- module_spec.lua — tensorflow/python/module/module_test.py, ported.
-- TF's name_scope machinery has no moonflow counterpart; the cases kept are
-- those about names, variable and submodule tracking.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

-- module_test.py's RecursiveModule(depth, trainable): a chain of modules
-- named "badger", each owning one variable "mushroom".
local RecursiveModule = tf.Module:extend("RecursiveModule")
function RecursiveModule.init(self, depth, trainable)
  if trainable == nil then trainable = true end
  self.child = nil
  if depth > 1 then
    self.child = RecursiveModule(depth - 1, trainable)
  end
  self.w = tf.Variable(1.0, { trainable = trainable, name = "mushroom" })
end

-- module_test.py's TreeModule: submodules created after construction.
local TreeModule = tf.Module:extend("TreeModule")
function TreeModule.init(self)
  self._leaves = {}
end
function TreeModule.new_leaf(self)
  local leaf = TreeModule()
  self._leaves[#self._leaves + 1] = leaf
  return leaf
end

-- assertEqual on tuples of variables: same objects, same order.
local function same_objects(expected, actual)
  assert.are.equal(#expected, #actual, "length")
  for i = 1, #expected do
    assert.is_true(rawequal(expected[i], actual[i]), "element " .. i .. " is not the expected object")
  end
end

describe("module_test.py", function()





  -- module_test.py: VariableTrackingTest.test_trainable_variables_ignores_non_trainable
  it("VariableTrackingTest.test_trainable_variables_ignores_non_trainable", function()
    local m = RecursiveModule(3, false)
    assert.are.equal(0, #m:trainable_variables())
    assert.are.equal(0, #m.child:trainable_variables())
    assert.are.equal(0, #m.child.child:trainable_variables())
  end)

  -- module_test.py: ModuleTrackingTest.test_submodules
  it("ModuleTrackingTest.test_submodules", function()
    local m = RecursiveModule(3)
    same_objects({ m.child, m.child.child }, m:submodules())
    same_objects({ m.child.child }, m.child:submodules())
    same_objects({}, m.child.child:submodules())
  end)

  -- module_test.py: ModuleTrackingTest.test_non_ctor_submodule
  it("ModuleTrackingTest.test_non_ctor_submodule", function()
    local m = TreeModule()
    local leaf1 = m:new_leaf()
    same_objects({ leaf1 }, m:submodules())
    local leaf2 = m:new_leaf()
    local subs = m:submodules()
    assert.are.equal(2, #subs)
    local seen = {}
    for _, s in ipairs(subs) do seen[s] = true end
    assert.is_true(seen[leaf1] and seen[leaf2])
  end)

  -- module_test.py: AbcTest.testConcrete (the value part; name scopes have no moonflow counterpart)
  it("AbcTest.testConcrete", function()
    local ConcreteModule = tf.Module:extend("ConcreteModule")
    ConcreteModule.__call = function(self, x) return x ^ 2 end
    local mod = ConcreteModule()
    T.equal(4.0, mod(2.0))
  end)

  -- module_test.py: ForwardMethodsTest.testFunctionType
  it("ForwardMethodsTest.testFunctionType", function()
    local M = tf.Module:extend("ModuleWithFunctionAnnotatedCall")
    M.forward = tf.func(function(self) return tf.constant(1) end, { autograph = false })
    M.forward_ag = tf.func(function(self) return tf.constant(2) end, { autograph = true })
    local mod = M()
    -- assertIsInstance(mod.forward, def_function.Function): a tf.func
    assert.is_truthy(tostring(mod.forward):find("^<tf.func"))
    assert.is_truthy(tostring(mod.forward_ag):find("^<tf.func"))
  end)
  -- module_test.py: TestModuleNaming.test_single_name
  it("TestModuleNaming.test_single_name", function()
    local mod = tf.Module({ name = "simple" })
    assert.are.equal("simple", mod.name)
  end)
  -- module_test.py: TestModuleNaming.test_submodule_created_late
  it("TestModuleNaming.test_submodule_created_late", function()
    local m = TreeModule()
    assert.are.equal("tree_module", m.name)
    local leaf1 = m:new_leaf()
    assert.are.equal("tree_module", leaf1.name)
  end)
  -- module_test.py: TestModuleNaming.test_invalid_name
  it("TestModuleNaming.test_invalid_name", function()
    T.raises("ValueError", "is not a valid module name", tf.Module, { name = "$Foo" })
  end)
  -- module_test.py: VariableTrackingTest.test_variables
  it("VariableTrackingTest.test_variables", function()
    local m = RecursiveModule(3)
    same_objects({ m.w, m.child.w, m.child.child.w }, m:variables())
    same_objects({ m.child.w, m.child.child.w }, m.child:variables())
    same_objects({ m.child.child.w }, m.child.child:variables())
  end)
  -- module_test.py: VariableTrackingTest.test_trainable_variables
  it("VariableTrackingTest.test_trainable_variables", function()
    local m = RecursiveModule(3)
    same_objects({ m.w, m.child.w, m.child.child.w }, m:trainable_variables())
    same_objects({ m.child.w, m.child.child.w }, m.child:trainable_variables())
    same_objects({ m.child.child.w }, m.child.child:trainable_variables())
  end)
end)
