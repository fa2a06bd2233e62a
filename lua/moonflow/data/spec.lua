-- spec.lua — tf.data's DatasetSpec, the trace type of a dataset given to
-- a tf.func (trace/trace_type.lua's interface): the trace receives a
-- dataset of the same element spec whose variant is a graph input, and a
-- call feeds the dataset's variant. Another dataset of the same element
-- spec (or a more specific one) reuses the trace, as in TF.

local core = require("moonflow.core")
local dtypes = require("moonflow.tensor.dtypes")
local structure = require("moonflow.data.structure")

local M = {}

local Spec = { kind = "dataset" }
Spec.__index = Spec

function M.new(s, specs)
  return setmetatable({ structure = s, specs = specs }, Spec)
end

-- Does shape a fit shape b (b's known dimensions equal)?
local function shape_fits(a, b)
  if b == nil then return true end
  if a == nil or #a ~= #b then return false end
  for i = 1, #b do
    if b[i] >= 0 and a[i] ~= b[i] then return false end
  end
  return true
end

local function same_layout(a, b)
  if b.kind ~= "dataset" or not structure.same(a.structure, b.structure) or #a.specs ~= #b.specs then
    return false
  end
  for i, spec in ipairs(a.specs) do
    if spec.dtype ~= b.specs[i].dtype then return false end
  end
  return true
end

function Spec:is_subtype_of(o)
  if not same_layout(self, o) then return false end
  for i, spec in ipairs(self.specs) do
    if not shape_fits(spec.shape, o.specs[i].shape) then return false end
  end
  return true
end

function Spec:supertype(o)
  if not same_layout(self, o) then return nil end
  local specs = {}
  for i, a in ipairs(self.specs) do
    local b, shape = o.specs[i], nil
    if a.shape and b.shape and #a.shape == #b.shape then
      shape = {}
      for d = 1, #a.shape do shape[d] = a.shape[d] == b.shape[d] and a.shape[d] or -1 end
    end
    specs[i] = { dtype = a.dtype, shape = shape }
  end
  return M.new(self.structure, specs)
end

function Spec:__tostring()
  return ("DatasetSpec(%s, TensorShape([]))"):format(structure.spec_text(self.structure, self.specs))
end

function Spec:placeholder(name)
  local datasets = require("moonflow.data.dataset")
  local variant = core.placeholder(name, dtypes.variant, {})
  return datasets.new(variant, self.structure, self.specs, "_VariantDataset")
end

function Spec:feeds(v, out) out[#out + 1] = v._variant end

function Spec:accepts(v)
  local datasets = require("moonflow.data.dataset")
  if datasets.is_dataset(v) and M.of(v):is_subtype_of(self) then return true end
  return false, datasets.is_dataset(v) and tostring(M.of(v)) or tostring(v)
end

--- The DatasetSpec of a dataset.
function M.of(ds) return M.new(ds._structure, ds._specs) end

return M
