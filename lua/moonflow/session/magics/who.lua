-- %who: the globals defined in this session, with their type and a summary.

local display = require("moonflow.session.display")

local MAX_INFO = 50

local function summary(session, v)
  local info = session.tensor_info(v)
  if info then return info end
  if type(v) == "function" then
    local d = debug.getinfo(v, "S")
    return d.what == "Lua" and ("%s:%d"):format(d.short_src, d.linedefined) or ""
  end
  local ok, text = pcall(display.text, v)
  text = ok and text:gsub("%s+", " ") or "?"
  if #text > MAX_INFO then text = text:sub(1, MAX_INFO - 3) .. "..." end
  return text
end

local function print_table(rows)
  local widths = { 0, 0 }
  for _, row in ipairs(rows) do
    for i = 1, 2 do widths[i] = math.max(widths[i], utf8.len(row[i]) or #row[i]) end
  end
  for _, row in ipairs(rows) do
    local line = ("%-" .. widths[1] .. "s  %-" .. widths[2] .. "s  %s"):format(row[1], row[2], row[3])
    print((line:gsub("%s+$", "")))
  end
end

-- A glob (`*`, `?`) as a whole-string Lua pattern.
local function glob(word)
  return "^" .. word:gsub("[%^%$%(%)%%%.%[%]%+%-]", "%%%0"):gsub("%*", ".*"):gsub("%?", ".") .. "$"
end

--- The names whose name matches one of the words (globs) or whose type is
-- one of them (`Tensor` matches tf.Tensor).
local function matching(session, names, args)
  local out = {}
  for _, name in ipairs(names) do
    local type_name = session.type_name(rawget(_G, name))
    for word in args:gmatch("%S+") do
      if name:match(glob(word)) or type_name == word or type_name:sub(-#word - 1) == "." .. word then
        out[#out + 1] = name
        break
      end
    end
  end
  return out
end

return {
  doc = [[%who [PATTERN]  the globals you defined, with type (shape and dtype for tensors)
Lists the globals that were not there when the session started: name, type
(a metatable's __name, e.g. tf.Tensor) and a summary (shape and dtype of
tensors and variables, where a function was defined, or the value).
PATTERN (words) keeps the names matching a glob (`%who x*`) or whose type is
named (`%who Tensor`, `%who function`).]],
  run = function(args, session)
    local names = session.user_globals()
    if args ~= "" then names = matching(session, names, args) end
    if #names == 0 then
      print(args == "" and "No user globals." or ("No user globals match %s."):format(args))
      return
    end
    local rows = { { "Name", "Type", "Info" }, { "----", "----", "----" } }
    for _, name in ipairs(names) do
      local v = rawget(_G, name)
      rows[#rows + 1] = { name, session.type_name(v), summary(session, v) }
    end
    print_table(rows)
  end,
}
