-- debug/picture.lua — the stepper's picture: the graph being stepped (the
-- innermost one: a branch, a loop body, a called function) with the node
-- just run highlighted, every node already run labelled with its shape and
-- a short value, and a node whose output holds a NaN or an infinity red.
-- A MIME bundle for tf.display (text/plain always; SVG where the session
-- can draw: Jupyter).

local graphs = require("moonflow.trace.graph")
local step = require("moonflow.debug.step")

local picture = {}

local function esc(s) return (tostring(s):gsub('["\\]', "\\%0"):gsub("\n", "\\n")) end

local function html_escape(s)
  return (s:gsub("[&<>]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;" }))
end

local function shape_text(t)
  local ok, shape = pcall(function() return tostring(t.shape) end)
  return ok and shape or "?"
end

--- The DOT text of frame f of stepper s (the innermost by default).
function picture.dot(s, f)
  f = f or s.frames[#s.frames]
  if not f then return nil end
  local last = s.last
  local lines = { ('digraph "%s" {'):format(esc(f.path)),
    '  rankdir=TB; node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=9, color="#555555"];' }
  for i, n in ipairs(f.nodes) do
    local id = i - 1
    local label = n.name .. "\n" .. (n.source and n.source.name and (n.source.name .. " = " .. n.type) or n.type)
    local vals = f.values[id]
    local fill, extra = nil, ""
    if vals and n.type ~= "Placeholder" and n.type ~= "Const" then
      local v = vals[1]
      if v ~= nil then label = label .. "\n" .. shape_text(v) .. " " .. step.short(v) end
      fill = "#d9ead3"
      for _, t in ipairs(vals) do
        if step.nonfinite(t) then fill = "#f4a6a6"; extra = ', color="#c00000", penwidth=2' end
      end
    elseif vals then
      fill = n.type == "Placeholder" and "#fff2cc" or "#eeeeee"
      if vals[1] ~= nil then label = label .. "\n" .. step.short(vals[1]) end
    end
    if last and last.frame == f and last.id == id then
      extra = extra .. ', penwidth=3, color="#1f4e9e"'
      fill = fill == "#f4a6a6" and fill or "#9fc5f8"
      label = "▶ " .. label
    end
    local tip = n.source and (", tooltip=\"line %d%s\""):format(n.source.line,
      n.source.text and (": " .. esc(n.source.text)) or "") or ""
    lines[#lines + 1] = ('  n%d [label="%s"%s%s%s];'):format(id, esc(label), fill and (', fillcolor="' .. fill .. '"')
      or "", extra, tip)
  end
  for i, n in ipairs(f.nodes) do
    for _, src in ipairs(n.input_nodes) do lines[#lines + 1] = ("  n%d -> n%d;"):format(src, i - 1) end
  end
  lines[#lines + 1] = "}"
  return table.concat(lines, "\n")
end

local svg_of = graphs.svg_of

--- The text the stepper shows after a step: the step and where it is.
function picture.text(s)
  if s.done then
    local outs = {}
    for k, v in ipairs(s.outputs or {}) do outs[k] = step.short(v) end
    return ("finished after %d steps: returned %s"):format(s.count, table.concat(outs, ", "))
  end
  if not s.last then return "at the start of " .. s.frames[1].path .. " (n: next node, help: commands)" end
  return s:where()
end

--- A displayable view of stepper s (tf.display / handle:update).
function picture.view(s)
  local function bundle()
    local text = picture.text(s)
    local out = { ["text/plain"] = text }
    local f = s.done and s.frames[1] or s.frames[#s.frames]
    local svg = f and svg_of(picture.dot(s, f))
    if svg then
      out["text/html"] = ('<div class="moonflow-stepper"><pre>%s</pre>%s</div>'):format(html_escape(text), svg)
    end
    return out
  end
  return setmetatable({}, { __name = "StepperView", __mimebundle = bundle,
    __tostring = function() return bundle()["text/plain"] end })
end

return picture
