"""Ctrl-C stops every loop, including loops that hide from a hook on the
main Lua thread (a coroutine) or that catch the interrupt (pcall), and the
next line runs normally."""
import time
import unittest

from replkit import PROMPT, ReplSession

LOOPS = {
    "coroutine": "coroutine.wrap(function() while true do end end)()",
    "pcall": "while true do pcall(function() while true do end end) end",
    "coroutine made before": "co = coroutine.create(function() while true do end end)",
    "nested coroutines": ("coroutine.wrap(function() while true do "
                          "coroutine.resume(coroutine.create(function() while true do end end)) "
                          "end end)()"),
    "xpcall with a handler": ("while true do xpcall(function() while true do end end, "
                              "function(e) return e end) end"),
}


class Interrupts(ReplSession, unittest.TestCase):
    def interrupt(self, code):
        self.run_line("survivor = 7")
        self.repl.sendline(code)
        time.sleep(0.5)
        self.repl.sendintr()
        self.repl.expect_exact(PROMPT)
        self.assertIn("InterruptedError", self.repl.before)
        # The next lines run normally: no interrupt left over.
        self.assertEqual(self.run_line("for i = 1, 100000 do end print('alive', survivor)"),
                         "alive\t7\n")
        self.assertEqual(self.run_line("coroutine.wrap(function() for i = 1, 100000 do end "
                                       "print('co ok') end)()"), "co ok\n")

    def test_ctrl_c_stops_a_loop_in_a_coroutine(self):
        self.interrupt(LOOPS["coroutine"])

    def test_ctrl_c_stops_a_loop_that_catches_errors(self):
        self.interrupt(LOOPS["pcall"])

    def test_ctrl_c_stops_a_coroutine_created_in_an_earlier_line(self):
        self.run_line(LOOPS["coroutine made before"])
        self.interrupt("coroutine.resume(co)")

    def test_ctrl_c_stops_nested_coroutines(self):
        self.interrupt(LOOPS["nested coroutines"])

    def test_ctrl_c_stops_a_loop_with_a_catching_handler(self):
        self.interrupt(LOOPS["xpcall with a handler"])

    def test_two_interrupts_in_a_row(self):
        self.interrupt(LOOPS["coroutine"])
        self.interrupt(LOOPS["pcall"])


if __name__ == "__main__":
    unittest.main()
