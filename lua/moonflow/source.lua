-- source.lua — the text of Lua chunks, for names and messages that quote
-- the user's code (tf.func's name guess, AutoGraph's conversion): the
-- session keeps the text of every chunk it compiles (host.sources); files
-- are read from disk.

local core = require("moonflow.core")
local state = require("moonflow.state")

local source = {}

-- Every chunk loaded from the library's folder (lua/moonflow/ and its
-- rooms) is the library's, not the user's: its frames are skipped when an
-- error names the user's line, AutoGraph leaves its functions alone, and
-- its classes check their receivers.
local LIBRARY = debug.getinfo(1, "S").source:match("^(@.*/moonflow/)[^/]*$")

--- Whether chunk `chunkname` (a debug.getinfo source) is one of moonflow's own files.
function source.in_library(chunkname)
  return LIBRARY ~= nil and chunkname:sub(1, #LIBRARY) == LIBRARY
end

-- Files' texts by path, each with the size and modification time it was
-- read at: read again only when the file changed (every trace asks for
-- its user's file, and AutoGraph for each function it converts).
local files = {}

local function file_text(path)
  local size, mtime = core.file_stamp(path)
  if not size then return nil end
  local known = files[path]
  if known and known.size == size and known.mtime == mtime then return known.text end
  local f = io.open(path, "r")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  files[path] = text and { size = size, mtime = mtime, text = text } or nil
  return text
end

--- The text of chunk `chunkname` (a debug.getinfo source), or nil.
function source.text(chunkname)
  local host = state.host
  if host and host.sources and host.sources[chunkname] then return host.sources[chunkname] end
  local c = chunkname:sub(1, 1)
  if c == "@" then return file_text(chunkname:sub(2)) end
  if c == "=" then return nil end
  return chunkname
end

--- Line `line` of chunk `chunkname`, or nil.
function source.line(chunkname, line)
  if not chunkname or not line or line < 1 then return nil end
  local text = source.text(chunkname)
  if not text then return nil end
  local n = 0
  for l in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    if n == line then return l end
  end
  return nil
end

return source
