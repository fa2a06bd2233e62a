-- %reset: removes the globals defined in this session; tf stays.

return {
  doc = [[%reset        removes every global you defined (tf and the standard library stay)
Deletes the globals that were not there when the session started and gives
the ones that were (tf, print, string, ...) their first values back.]],
  run = function(_, session)
    local n = session.reset()
    print(("Removed %d user global%s."):format(n, n == 1 and "" or "s"))
  end,
}
