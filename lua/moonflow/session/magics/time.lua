-- %time <statement> and %%time: wall time of one run.

local errors = require("moonflow.errors")

local function report(session, seconds)
  print("Wall time: " .. session.format_duration(seconds))
end

return {
  doc = [[%time stmt    runs stmt once and prints "Wall time: 1.23 ms"; %%time times a cell
%time <statement or expression> runs it once, prints its wall time and shows
its value like any expression. A cell whose first line is %%time runs the
rest of the cell and prints the wall time of all of it.]],
  run = function(args, session)
    if args == "" then errors.raise("UsageError", "usage: %time <statement>") end
    local f = session.load(args)
    local start = session.clock()
    local results = table.pack(f())
    report(session, session.clock() - start)
    return table.unpack(results, 1, results.n)
  end,
  run_cell = function(_, body, session)
    local start = session.clock()
    session.run_cell(body, 1)
    report(session, session.clock() - start)
  end,
}
