-- module_spec.lua — tensorflow/python/module/module_test.py, ported.
-- TF's name_scope machinery has no moonflow counterpart; the cases kept are
-- those about names, variable and submodule tracking.

local tf = tf or require("moonflow")
local T = require("tfhelpers")
-- tests/tf/failing/: cases that fail today (the worklist of issue 11).
-- Each keeps the form of its passing siblings; the `moonflow instead:`
-- line says what moonflow does now. Not run by tests/run.sh.

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
  -- module_test.py: TestModuleNaming.test_single_name
  -- moonflow instead: tf.Module({name = 'simple'}).name is 'module' (the name option is ignored)
  it("TestModuleNaming.test_single_name", function()
    local mod = tf.Module({ name = "simple" })
    assert.are.equal("simple", mod.name)
  end)
  -- module_test.py: TestModuleNaming.test_submodule_created_late
  -- moonflow instead: the second TreeModule is named 'tree_module_1'; TF names every instance 'tree_module'
  it("TestModuleNaming.test_submodule_created_late", function()
    local m = TreeModule()
    assert.are.equal("tree_module", m.name)
    local leaf1 = m:new_leaf()
    assert.are.equal("tree_module", leaf1.name)
  end)
  -- module_test.py: TestModuleNaming.test_invalid_name
  -- moonflow instead: tf.Module({name = '$Foo'}) succeeds; TF raises ValueError "is not a valid module name"
  it("TestModuleNaming.test_invalid_name", function()
    T.raises("ValueError", "is not a valid module name", tf.Module, { name = "$Foo" })
  end)
  -- module_test.py: VariableTrackingTest.test_variables
  -- moonflow instead: m:variables() lists the deepest child's variable first (child.child.w, child.w, m.w); TF lists own first (m.w, child.w, child.child.w)
  it("VariableTrackingTest.test_variables", function()
    local m = RecursiveModule(3)
    same_objects({ m.w, m.child.w, m.child.child.w }, m:variables())
    same_objects({ m.child.w, m.child.child.w }, m.child:variables())
    same_objects({ m.child.child.w }, m.child.child:variables())
  end)
  -- module_test.py: VariableTrackingTest.test_trainable_variables
  -- moonflow instead: m:trainable_variables() deepest first; TF lists own first
  it("VariableTrackingTest.test_trainable_variables", function()
    local m = RecursiveModule(3)
    same_objects({ m.w, m.child.w, m.child.child.w }, m:trainable_variables())
    same_objects({ m.child.w, m.child.child.w }, m.child:trainable_variables())
    same_objects({ m.child.child.w }, m.child.child:trainable_variables())
  end)
end)
