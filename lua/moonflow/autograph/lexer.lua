-- lexer.lua — the Lua 5.4 lexer: AutoGraph's parser stands on it, and
-- whatever else must tell code from strings and comments (the session's
-- continuation depth, its code scans; the structure test) asks it.
--
-- lexer.tokenize(source [, keep_first_line]) -> tokens
--   Splits a whole chunk into tokens up front (the parser then walks an
--   array, which is much faster in Lua than lexing on demand). The result is
--   a table of parallel arrays, indexed 1..n:
--     type[i]   "<name>", "<number>", "<string>", "<eof>", "<error>", or the
--               token's own text for keywords and symbols ("end", "==", "(")
--     value[i]  name text, number value, decoded string value
--     text[i]   original text of number and string tokens (kept so the
--               printer can reproduce them exactly)
--     line[i]   line of the token's first character
--     eline[i]  line of its last character (differs for multi-line strings);
--               this is what Lua's errors report (ls->linenumber)
--     pos[i]    byte offset of its first character in source (of an error
--               token: where the malformed token starts)
--   The last token is "<eof>", or "<error>" when the lexer met malformed
--   input: lexing stops there, and the parser raises the error only when it
--   reaches that token, so an earlier syntax error wins exactly as in Lua,
--   which lexes lazily. An error token's value is the bare message
--   ("unfinished string"), its text what follows "near" (or nil).
--   A first line starting with '#' (a Unix "#!" line) is skipped like
--   luaL_loadfile does, keeping line numbers, unless keep_first_line is
--   true (an expression may well start with '#'); so is a UTF-8 byte-order
--   mark.
--
-- lexer.code_only(source) -> source with its comments and the contents of
--   its strings blanked (every byte but white space becomes a space; a
--   short string keeps its quotes, a long one shows as "" then spaces), so
--   patterns see only code, each piece on its own line and column. What
--   follows malformed input is blanked too.
--
-- lexer.chunkid(chunkname) -> the name Lua puts in front of messages
--   ("=stdin" -> "stdin", "@f.lua" -> "f.lua", other -> [string "..."]),
--   luaO_chunkid's rules and truncation.
-- lexer.count_lines(s) -> number of line breaks in s, counted as Lua does
--   ("\r\n" and "\n\r" are one break).
-- lexer.keywords -> set of reserved words.
-- lexer.near(tokens, i) -> what an error at token i says after "near", as
--   llex.c's txtToken prints it ('x', '"str"', '<\1>', <eof>); computed
--   only when an error needs it.

local byte, sub, find, char = string.byte, string.sub, string.find, string.char
local gsub, format, tonumber = string.gsub, string.format, tonumber
local utf8char = utf8.char

local M = {}

local keywords = {}
for w in ([[and break do else elseif end false for function goto if in
  local nil not or repeat return then true until while]]):gmatch("%a+") do
  keywords[w] = true
end
M.keywords = keywords

-- byte classes, from lctype.c (ASCII only: Lua is built without LUA_UCID)
local is_name_start, is_digit = {}, {}
for c = 0, 255 do
  local ch = char(c)
  is_name_start[c] = find(ch, "^[A-Za-z_]") ~= nil
  is_digit[c] = find(ch, "^[0-9]") ~= nil
end

-- Two-character symbols, keyed by their first byte.
local two_char = {
  [61] = { ["=="] = true },                  -- =
  [60] = { ["<="] = true, ["<<"] = true },   -- <
  [62] = { [">="] = true, [">>"] = true },   -- >
  [126] = { ["~="] = true },                 -- ~
  [47] = { ["//"] = true },                  -- /
  [58] = { ["::"] = true },                  -- :
}

-- Lua counts "\n", "\r", "\n\r" and "\r\n" as one line break each.
local function count_lines(s)
  if not find(s, "\r", 1, true) then
    local _, n = gsub(s, "\n", "")
    return n
  end
  local n, i, len = 0, 1, #s
  while true do
    local p = find(s, "[\n\r]", i)
    if not p then return n end
    n = n + 1
    local c, d = byte(s, p), byte(s, p + 1)
    if (d == 10 or d == 13) and d ~= c then p = p + 1 end
    i = p + 1
    if i > len then return n end
  end
end
M.count_lines = count_lines

-- Line breaks inside long strings become "\n", as read_long_string does.
local function normalize_newlines(s)
  if not find(s, "\r", 1, true) then return s end
  local out, i = {}, 1
  while true do
    local p = find(s, "[\n\r]", i)
    if not p then out[#out + 1] = sub(s, i); break end
    out[#out + 1] = sub(s, i, p - 1)
    out[#out + 1] = "\n"
    local c, d = byte(s, p), byte(s, p + 1)
    if (d == 10 or d == 13) and d ~= c then p = p + 1 end
    i = p + 1
  end
  return table.concat(out)
end

-- Token text as errors quote it. Lua formats it with "%s", so a NUL byte
-- ends it there.
local function quoted(s)
  local z = find(s, "\0", 1, true)
  if z then s = sub(s, 1, z - 1) end
  return "'" .. s .. "'"
end

-- How luaX_token2str prints a one-byte token: quoted when printable,
-- "<\N>" otherwise; a NUL byte is token 0, which prints nothing at all.
local function quote_near(s)
  if #s == 1 then
    local c = byte(s)
    if c == 0 then return nil end
    if c < 32 or c > 126 then return format("'<\\%d>'", c) end
  end
  return "'" .. s .. "'"
end

function M.near(toks, k)
  local t = toks.type[k]
  if t == "<name>" then return "'" .. toks.value[k] .. "'" end
  if t == "<number>" then return quoted(toks.text[k]) end
  if t == "<string>" then
    local text = toks.text[k]
    local q = sub(text, 1, 1)
    -- llex.c's buffer holds the contents between the delimiters as read:
    -- escapes decoded, line breaks as "\n", a long string's first one gone
    if q == "[" then
      local open = text:match("^%[=*%[")
      return quoted(open .. toks.value[k] .. open:gsub("%[", "]"))
    end
    return quoted(q .. toks.value[k] .. q)
  end
  if t == "<eof>" then return "<eof>" end
  if t == "<error>" then return toks.text[k] end
  return quote_near(t)
end

function M.chunkid(name)
  -- load() passes its chunk name as a C string: it ends at a NUL byte
  local z = find(name, "\0", 1, true)
  if z then name = sub(name, 1, z - 1) end
  local c = sub(name, 1, 1)
  if c == "=" then
    return sub(name, 2, 60)
  elseif c == "@" then
    if #name <= 60 then return sub(name, 2) end
    return "..." .. sub(name, -56)
  end
  local nl = find(name, "\n", 1, true)
  if #name < 45 and not nl then return '[string "' .. name .. '"]' end
  local len = nl and nl - 1 or #name
  if len > 45 then len = 45 end
  return '[string "' .. sub(name, 1, len) .. '..."]'
end

local simple_escapes = {
  a = "\a", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", v = "\v",
  ["\\"] = "\\", ['"'] = '"', ["'"] = "'",
}

function M.tokenize(src, keep_first_line)
  local T, V, X, L, EL, P = {}, {}, {}, {}, {}, {}
  local n = 0
  local pos, line = 1, 1
  local len = #src

  local function push(ty, val, text, l)
    n = n + 1
    T[n], V[n], X[n], L[n], EL[n], P[n] = ty, val, text, l, line, pos
  end

  -- A lexical error becomes the last token; `near` may be nil (the message
  -- then has no "near" part) and `errline` defaults to the current line.
  local function lexerror(msg, near, errline)
    n = n + 1
    T[n], V[n], X[n], L[n], EL[n], P[n] = "<error>", msg, near, errline or line, errline or line, pos
    return nil
  end

  -- Skips a newline sequence at p (Lua's inclinenumber); returns the next position.
  local function newline_at(p)
    local c, d = byte(src, p), byte(src, p + 1)
    line = line + 1
    if (d == 10 or d == 13) and d ~= c then return p + 2 end
    return p + 1
  end

  -- Reads a long bracket whose opening "[=*[" spans p..q; returns the end
  -- position and the content, or nil after reporting an error.
  local function long_bracket(p, q, level, what)
    local first = line
    local close = "]" .. ("="):rep(level) .. "]"
    local start = q + 1
    -- a line break right after the opening bracket is not part of the string
    local c = byte(src, start)
    if c == 10 or c == 13 then start = newline_at(start) end
    local s, e = find(src, close, start, true)
    if not s then
      line = line + count_lines(sub(src, start))
      return lexerror(format("unfinished long %s (starting at line %d)", what, first), "<eof>")
    end
    local content = sub(src, start, s - 1)
    line = line + count_lines(content)
    return e, content
  end

  -- Short string starting with the quote at p; returns the end position.
  local function short_string(p, q)
    local parts, np = {}, 0
    local i = p + 1
    local stop = q == 34 and '[\\\n\r"]' or "[\\\n\r']"
    local delim = char(q)
    local function so_far() return delim .. table.concat(parts, "", 1, np) end
    while true do
      local s = find(src, stop, i)
      if not s then
        np = np + 1; parts[np] = sub(src, i)
        return lexerror("unfinished string", "<eof>")
      end
      if s > i then np = np + 1; parts[np] = sub(src, i, s - 1) end
      local c = byte(src, s)
      if c == q then
        local value = table.concat(parts, "", 1, np)
        return s, value
      elseif c ~= 92 then -- a raw line break
        return lexerror("unfinished string", quoted(so_far()))
      end
      -- an escape sequence
      local e = byte(src, s + 1)
      local ch = e and char(e)
      local simple = ch and simple_escapes[ch]
      if simple then
        np = np + 1; parts[np] = simple
        i = s + 2
      elseif e == 10 or e == 13 then
        np = np + 1; parts[np] = "\n"
        i = newline_at(s + 1)
      elseif e == nil then
        return lexerror("unfinished string", "<eof>")
      elseif ch == "x" then
        local h = find(src, "^%x%x", s + 2)
        if not h then
          -- mirror gethexa: the buffer holds "\x" and the digits read so far
          -- plus the offending character
          local bad = find(src, "^%x", s + 2) and s + 3 or s + 2
          return lexerror("hexadecimal digit expected",
            quoted(so_far() .. sub(src, s, bad)))
        end
        np = np + 1; parts[np] = char(tonumber(sub(src, s + 2, s + 3), 16))
        i = s + 4
      elseif ch == "z" then
        i = s + 2
        while true do
          local _, sp = find(src, "^[ \t\f\v]*", i)
          i = sp + 1
          local w = byte(src, i)
          if w == 10 or w == 13 then i = newline_at(i) else break end
        end
      elseif is_digit[e] then
        local _, de = find(src, "^[0-9][0-9]?[0-9]?", s + 1)
        local v = tonumber(sub(src, s + 1, de))
        if v > 255 then
          return lexerror("decimal escape too large", quoted(so_far() .. sub(src, s, de + 1)))
        end
        np = np + 1; parts[np] = char(v)
        i = de + 1
      elseif ch == "u" then
        local function bad(msg, upto)
          return lexerror(msg, quoted(so_far() .. sub(src, s, upto)))
        end
        if byte(src, s + 2) ~= 123 then return bad("missing '{'", s + 2) end
        local _, he = find(src, "^%x*", s + 3)
        if he < s + 3 then return bad("hexadecimal digit expected", s + 3) end
        -- utf8esc rejects a value once it would pass 0x7FFFFFFF
        local r, k = 0, s + 3
        while k <= he do
          if r > (0x7FFFFFFF >> 4) then return bad("UTF-8 value too large", k) end
          r = r * 16 + tonumber(sub(src, k, k), 16)
          k = k + 1
        end
        if byte(src, he + 1) ~= 125 then return bad("missing '}'", he + 1) end
        np = np + 1; parts[np] = utf8char(r)
        i = he + 2
      else
        return lexerror("invalid escape sequence", quoted(so_far() .. sub(src, s, s + 1)))
      end
    end
  end

  -- read_numeral: digits, '.', hex digits, exponent marks with their
  -- optional sign, and one touching letter (which makes it malformed).
  local function numeral(p)
    local e
    if find(src, "^0[xX]", p) then
      e = p + 1
      while true do
        local _, e2 = find(src, "^[0-9a-fA-F.]*", e + 1)
        e = e2
        local _, e3 = find(src, "^[pP][+-]?", e + 1)
        if not e3 then break end
        e = e3
      end
    else
      e = p - 1
      while true do
        local _, e2 = find(src, "^[0-9a-fA-F.]*", e + 1)
        e = e2
        local c, d = byte(src, e), byte(src, e + 1)
        if (c == 101 or c == 69) and (d == 43 or d == 45) then
          e = e + 1
        else
          break
        end
      end
    end
    if is_name_start[byte(src, e + 1) or 0] then e = e + 1 end
    local text = sub(src, p, e)
    local v = tonumber(text)
    if v == nil then return lexerror("malformed number", quoted(text)) end
    push("<number>", v, text, line)
    return e + 1
  end

  -- '.', '..', '...', or a number starting with '.' at p; returns the
  -- next position, or nil after an error.
  local function dot(p)
    if is_digit[byte(src, p + 1) or 0] then return numeral(p) end
    local sym = byte(src, p + 1) ~= 46 and "." or byte(src, p + 2) == 46 and "..." or ".."
    push(sym, nil, nil, line)
    return p + #sym
  end

  -- luaL_loadfile skips a UTF-8 BOM and a first line starting with '#'
  -- (keeping its line break, so line numbers stay right)
  if find(src, "^\239\187\191") then pos = 4 end
  if byte(src, pos) == 35 and not keep_first_line then
    pos = find(src, "[\n\r]", pos) or len + 1
  end

  while true do
    local c = byte(src, pos)
    if c == nil then
      push("<eof>", nil, nil, line)
      break
    elseif c == 32 or c == 9 or c == 11 or c == 12 then
      pos = find(src, "[^ \t\v\f]", pos + 1) or len + 1
    elseif c == 10 then
      -- a line break and the next line's indentation in one step
      line = line + 1
      local d = byte(src, pos + 1)
      if d == 13 then pos = pos + 1 end
      local _, e = find(src, "^[ \t\v\f]*", pos + 1)
      pos = e + 1
    elseif c == 13 then
      pos = newline_at(pos)
    elseif is_name_start[c] then
      local _, e = find(src, "^[A-Za-z0-9_]*", pos + 1)
      local word = sub(src, pos, e)
      n = n + 1
      if keywords[word] then T[n] = word else T[n], V[n] = "<name>", word end
      L[n], EL[n], P[n] = line, line, pos
      pos = e + 1
    elseif is_digit[c] then
      pos = numeral(pos)
      if not pos then break end
    elseif c == 34 or c == 39 then
      local l0 = line
      local e, value = short_string(pos, c)
      if not e then break end
      local text = sub(src, pos, e)
      n = n + 1
      T[n], V[n], X[n], L[n], EL[n], P[n] = "<string>", value, text, l0, line, pos
      pos = e + 1
    elseif c == 45 then -- '-' or a comment
      if byte(src, pos + 1) ~= 45 then
        push("-", nil, nil, line)
        pos = pos + 1
      else
        local _, q = find(src, "^%[=*%[", pos + 2)
        if q then
          local e = long_bracket(pos + 2, q, q - pos - 3, "comment")
          if not e then break end
          pos = e + 1
        else
          pos = find(src, "[\n\r]", pos + 2) or len + 1
        end
      end
    elseif c == 91 then -- '[' or a long string
      local _, q = find(src, "^%[=*%[", pos)
      if q then
        local l0 = line
        local e, content = long_bracket(pos, q, q - pos - 1, "string")
        if not e then break end
        local text = sub(src, pos, e)
        content = normalize_newlines(content)
        n = n + 1
        T[n], V[n], X[n], L[n], EL[n], P[n] = "<string>", content, text, l0, line, pos
        pos = e + 1
      else
        local _, q2 = find(src, "^%[=+", pos)
        if q2 then
          lexerror("invalid long string delimiter", quoted(sub(src, pos, q2)))
          break
        end
        push("[", nil, nil, line)
        pos = pos + 1
      end
    elseif c == 46 then -- '.', '..', '...' or a number
      pos = dot(pos)
      if not pos then break end
    else
      local two = two_char[c]
      local sym = two and sub(src, pos, pos + 1)
      if two and two[sym] then
        push(sym, nil, nil, line)
        pos = pos + 2
      else
        sym = char(c)
        push(sym, nil, nil, line)
        pos = pos + 1
      end
    end
  end
  return { n = n, type = T, value = V, text = X, line = L, eline = EL, pos = P }
end

local function blank(s) return (gsub(s, "%S", " ")) end

function M.code_only(src)
  local toks = M.tokenize(src)
  local T, V, X, P = toks.type, toks.value, toks.text, toks.pos
  local out, done = {}, 0 -- src[1..done] is in out
  for k = 1, toks.n do
    local p, ty = P[k], T[k]
    out[#out + 1] = blank(sub(src, done + 1, p - 1)) -- white space and comments
    if ty == "<eof>" or ty == "<error>" then
      out[#out + 1] = blank(sub(src, p))
      return table.concat(out)
    end
    local text = X[k] or (ty == "<name>" and V[k]) or ty
    done = p + #text - 1
    if ty == "<string>" and byte(text) == 91 then -- [
      text = '""' .. blank(sub(text, 3))
    elseif ty == "<string>" then
      text = sub(text, 1, 1) .. blank(sub(text, 2, -2)) .. sub(text, -1)
    end
    out[#out + 1] = text
  end
  return table.concat(out)
end

return M
