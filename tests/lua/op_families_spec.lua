-- op_families_spec.lua — ops by family at the Lua layer (issue 25): the
-- wrappers of the ops of core/ops/ops_<family>.c live in
-- lua/moonflow/ops/<family>.lua, one module (moonflow.ops) builds the tf
-- namespaces from them, and a wrapper's docstring takes its summary from
-- its op's registry `.doc` instead of restating it.
local tf = tf or require("moonflow")
local core = require("moonflow.core")
local doc = require("moonflow.doc")
local ops = require("moonflow.ops")
local control = require("moonflow.ops.control")
local map_fn = require("moonflow.ops.map_fn")

-- Files of ops/ that define no op of their own: composites of another
-- family's ops, published by tf.lua, each with the family it builds on.
local COMPOSITES = { map_fn = "control" }

local MOVING = { Pad = "pad", MirrorPad = "pad", MirrorPadGrad = "pad" }

-- Op name -> family, from the C objects that define them (nm), in the
-- build the tests run (MOONFLOW_BIN's directory, else build/release).
local function op_families()
  local bin = os.getenv("MOONFLOW_BIN")
  local build = bin and bin:match("^(.*)/[^/]+$") or "build/release"
  local family_of, files = {}, 0
  local ls = io.popen("ls " .. build .. "/obj/core/ops/ops_*.o 2>/dev/null")
  for path in ls:lines() do
    files = files + 1
    local family = path:match("ops_([%w_]+)%.o$")
    local nm = io.popen("nm -g --defined-only " .. path)
    for line in nm:lines() do
      local name = line:match("^%x+ [DRB] mf_op_(%u[%w_]*)$")
      if name then family_of[name] = family end
    end
    nm:close()
  end
  ls:close()
  assert(files > 10, "no core/ops objects under " .. build .. "/obj/core/ops (build first)")
  -- Ops issue 25 moves into a new C file (Pad, MirrorPad, MirrorPadGrad to
  -- ops_pad.c): until the build has it, they count as in its family.
  local have = {}
  for _, fam in pairs(family_of) do have[fam] = true end
  for name, fam in pairs(MOVING) do
    if not have[fam] then family_of[name] = fam end
  end
  return family_of
end

-- Every family module with the functions it publishes: {family, module, {fn, path}...}.
local function published()
  local out = {}
  local modules = {}
  for _, f in ipairs(ops.families) do modules[#modules + 1] = f end
  modules[#modules + 1] = { "control", control }
  modules[#modules + 1] = { "map_fn", map_fn }
  for _, f in ipairs(modules) do
    local family, module = f[1], f[2]
    local fns = {}
    for ns, entries in pairs(module.namespaces) do
      if ns ~= "lib" then
        for k, own in pairs(entries) do
          local public = math.type(k) == "integer" and own or k
          fns[#fns + 1] = { module[own], (ns == "tf" and "tf." or "tf." .. ns .. ".") .. public }
        end
      end
    end
    out[#out + 1] = { family = family, module = module, fns = fns }
  end
  return out
end

local registry_doc = {}
for _, o in ipairs(core.op_list()) do registry_doc[o.name] = o.doc end

describe("ops by family", function()
  it("every op wrapper sits in the family file named after the C file that defines its op", function()
    local family_of = op_families()
    local wrong, wrapped = {}, 0
    for _, f in ipairs(published()) do
      for _, e in ipairs(f.fns) do
        local d = doc.get(e[1])
        if d and d.op then
          wrapped = wrapped + 1
          if family_of[d.op] ~= f.family then
            wrong[#wrong + 1] = ("%s wraps %s (ops_%s.c) but sits in ops/%s.lua"):format(e[2], d.op,
              tostring(family_of[d.op]), f.family)
          end
        end
      end
    end
    assert.is_true(wrapped > 80, "only " .. wrapped .. " wrappers declare their op")
    assert.are.same({}, wrong)
  end)

  it("every file of lua/moonflow/ops/ but the builder and the helpers is a family named after a C file", function()
    local family_of = op_families()
    local c_files = {}
    for _, fam in pairs(family_of) do c_files[fam] = true end
    local loaded = {}
    for _, f in ipairs(published()) do loaded[f.family] = true end
    local ls = io.popen("ls lua/moonflow/ops/")
    local files = 0
    for name in ls:lines() do
      local family = name:match("^(.-)%.lua$")
      if family and family ~= "init" and family ~= "common" then
        files = files + 1
        local c_family = COMPOSITES[family] or family
        assert.is_true(c_files[c_family] ~= nil, "ops/" .. name .. " names no C file ops_" .. c_family .. ".c")
        assert.is_true(loaded[family] ~= nil,
          "ops/" .. name .. " is neither built by moonflow.ops nor the control family")
      end
    end
    ls:close()
    assert.is_true(files >= 20, "found " .. files .. " family files")
  end)

  it("tf publishes exactly what the families tag, the same functions", function()
    for _, f in ipairs(published()) do
      for _, e in ipairs(f.fns) do
        local path = e[2]
        local v = tf
        for part in path:gmatch("[^.]+") do if part ~= "tf" then v = v[part] end end
        assert.are.equal(e[1], v, path)
      end
    end
    assert.are.equal(tf.nn, ops.nn)
    -- library-internal helpers are not published: tf refuses their names
    assert.is_nil(rawget(tf, "to_tensor"))
    assert.is_nil(rawget(tf, "true_divide"))
  end)
end)

describe("wrapper docstrings", function()
  it("every published function of an op family has a docstring with a description", function()
    local missing = {}
    for _, f in ipairs(published()) do
      for _, e in ipairs(f.fns) do
        local d = doc.get(e[1])
        if not (d and d.text and d.text ~= "") then missing[#missing + 1] = e[2] end
      end
    end
    assert.are.same({}, missing)
  end)

  it("a wrapper's own text does not restate its op's registry doc, which is its summary", function()
    local restated, checked = {}, 0
    for _, f in ipairs(published()) do
      for _, e in ipairs(f.fns) do
        local d = doc.get(e[1])
        if d and d.op then
          checked = checked + 1
          local one_liner = registry_doc[d.op]
          assert.is_truthy(one_liner and one_liner ~= "", d.op .. " has no registry doc")
          assert.are.equal(1, d.text:find(one_liner, 1, true), e[2] .. "'s docstring starts with " .. d.op .. "'s")
          if d.lua_text:find(one_liner, 1, true) then restated[#restated + 1] = e[2] end
        end
      end
    end
    assert.is_true(checked > 80)
    assert.are.same({}, restated)
  end)

  it("no family file states an op's registry doc literally", function()
    local found = {}
    for _, f in ipairs(published()) do
      local src = assert(io.open("lua/moonflow/ops/" .. f.family .. ".lua")):read("a")
      for name, line in pairs(registry_doc) do
        if #line > 20 and src:find(line, 1, true) then found[#found + 1] = f.family .. ": " .. name end
      end
    end
    table.sort(found)
    assert.are.same({}, found)
  end)

  it("tf.help shows the registry's summary, the signature and the Lua part", function()
    local h = tf.help(tf.nn.softmax)
    assert.is_truthy(h:find("tf.nn.softmax(logits [, axis]", 1, true), h)
    assert.is_truthy(h:find(registry_doc.Softmax, 1, true), h)
    assert.is_truthy(h:find("default the last", 1, true), h)
  end)
end)
