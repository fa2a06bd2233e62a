-- grad_families_spec.lua — the gradient rules by op family: the merge
-- (grad/rules.lua) refuses two rules for one op and rules for ops the
-- registry lacks, and each rule sits in the family file named after the C
-- file that defines its op (grad/<family>.lua for core/ops/ops_<family>.c,
-- read from the compiled objects with nm).

local tf = tf or require("moonflow")
local core = require("moonflow.core")
local rules = require("moonflow.grad.rules")

local ROOT = os.getenv("MOONFLOW_ROOT") or "."
local BUILD = os.getenv("BUILD") or "build/release"

-- The modules of grad/ that are not a family's rules.
local MACHINERY = { tape = true, tape_args = true, call_gradient = true, while_grad = true, rules = true,
  helpers = true, replay = true, custom_gradient = true }

local function lines_of(cmd)
  local out = {}
  local p = assert(io.popen(cmd))
  for l in p:lines() do out[#out + 1] = l end
  p:close()
  return out
end

-- op name -> family, from the mf_op_<Name> symbols each
-- core/ops/ops_<family>.o defines.
local function op_families()
  local family_of = {}
  local objects = lines_of(("ls %q/%s/obj/core/ops/ops_*.o 2>/dev/null"):format(ROOT, BUILD))
  for _, o in ipairs(objects) do
    local family = o:match("ops_([%w_]+)%.o$")
    for _, line in ipairs(lines_of(("nm -g --defined-only %q"):format(o))) do
      local name = line:match("%s[DRB]%s+mf_op_(%u[%w_]*)$")
      if name then family_of[name] = family end
    end
  end
  -- Pad, MirrorPad and MirrorPadGrad are family "pad" (ops_pad.c); until
  -- that file is split out of ops_shape.c, the objects still say "shape".
  local has_pad = #lines_of(("ls %q/%s/obj/core/ops/ops_pad.o 2>/dev/null"):format(ROOT, BUILD)) > 0
  if not has_pad then
    for _, name in ipairs({ "Pad", "MirrorPad", "MirrorPadGrad" }) do
      if family_of[name] == "shape" then family_of[name] = "pad" end
    end
  end
  return family_of
end

local function sorted_keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

describe("the merge of the families' gradient rules", function()
  local function neg(_, dy) return { -dy[1] } end
  local function exp(n, dy) return { dy[1] * n.outputs[1] } end
  local registered = { Neg = true, Exp = true }

  it("gives each op its family's rule and names the family", function()
    local by_op, family_of = rules.merge({ { name = "elementwise", rules = { Neg = neg } },
      { name = "other", rules = { Exp = exp } } }, registered)
    assert.are.equal(neg, by_op.Neg)
    assert.are.equal(exp, by_op.Exp)
    assert.are.same({ Neg = "elementwise", Exp = "other" }, family_of)
  end)

  it("refuses two rules for one op, naming the op and both families", function()
    local ok, err = pcall(rules.merge, { { name = "elementwise", rules = { Neg = neg } },
      { name = "nn", rules = { Exp = exp, Neg = neg } } }, registered)
    assert.is_false(ok)
    assert.matches("two gradient rules for op 'Neg': in family 'elementwise' and in family 'nn'", err, 1, true)
  end)

  it("refuses a rule for an op that is not in the registry", function()
    local ok, err = pcall(rules.merge, { { name = "elementwise", rules = { Neg = neg, Negg = neg } } }, registered)
    assert.is_false(ok)
    assert.matches("family 'elementwise' has a gradient rule for op 'Negg', which is not in the op registry",
      err, 1, true)
  end)

  it("checks the real families against the real registry", function()
    local registry = {}
    for _, o in ipairs(core.op_list()) do registry[o.name] = true end
    for _, name in ipairs(sorted_keys(rules.by_op)) do
      assert.is_true(registry[name], name .. " has a rule but is not registered")
    end
  end)
end)

describe("the gradient rule files", function()
  it("hold each rule in the family file named after the C file that defines the op", function()
    local c_family = op_families()
    assert.is_true(c_family.AddV2 == "elementwise" and c_family.MatMul == "linalg",
      "nm found no op definitions under " .. BUILD .. "/obj/core/ops")
    local wrong = {}
    for _, family in ipairs(rules.families) do
      local file_rules = require("moonflow.grad." .. family)
      for _, name in ipairs(sorted_keys(file_rules)) do
        if c_family[name] ~= family then
          wrong[#wrong + 1] = ("%s: in grad/%s.lua, defined in ops_%s.c"):format(name, family, tostring(c_family[name]))
        end
        assert.are.equal(file_rules[name], rules.by_op[name], name .. ": the merged rule is the file's")
      end
    end
    assert.are.same({}, wrong)
  end)

  it("are each a family the merge reads, and no rule is outside them", function()
    local files = lines_of(("ls %q/lua/moonflow/grad/"):format(ROOT))
    local listed = {}
    for _, f in ipairs(rules.families) do listed[f] = true end
    local unread = {}
    for _, f in ipairs(files) do
      local stem = f:match("^(.-)%.lua$")
      if stem and not MACHINERY[stem] and not listed[stem] then unread[#unread + 1] = f end
    end
    assert.are.same({}, unread)
    local count = 0
    for _, family in ipairs(rules.families) do
      for _ in pairs(require("moonflow.grad." .. family)) do count = count + 1 end
    end
    assert.are.equal(#sorted_keys(rules.by_op), count)
    assert.are.equal(#sorted_keys(rules.family_of), count)
  end)
end)
