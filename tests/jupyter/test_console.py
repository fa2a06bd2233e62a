"""`jupyter console --kernel moonflow` (Debian's jupyter-console) in a real
terminal (pexpect): a scripted session with results, prints, an error, a
magic, multi-line input continued by the kernel's is_complete, and `exit`,
after which the console and the kernel it started both end."""
import os
import re
import shutil
import time
import unittest

import pexpect

from mfkernel import TIMEOUT, install_kernelspec

JUPYTER = "/usr/bin/jupyter" if os.path.exists("/usr/bin/jupyter") else shutil.which("jupyter")
# Terminal control sequences prompt_toolkit draws with, and carriage returns.
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[=>78]|\r")


class Console:
    def __init__(self, *extra):
        install_kernelspec()
        self.child = pexpect.spawn(
            JUPYTER, ["console", "--kernel", "moonflow", "--no-confirm-exit", *extra],
            env=dict(os.environ, TERM="xterm"), encoding="utf-8", timeout=TIMEOUT,
            dimensions=(50, 160))
        self.seen = ""

    def text(self):
        return ANSI.sub("", self.seen)

    def wait_for(self, pattern, timeout=TIMEOUT):
        """Reads until `pattern` (a regex) appears in the screen text after
        what earlier waits consumed; returns the match."""
        deadline = time.monotonic() + timeout
        while True:
            m = re.compile(pattern).search(self.text(), self.mark)
            if m:
                self.mark = m.end()
                return m
            if time.monotonic() > deadline:
                raise AssertionError("console never showed %r; it showed:\n%s"
                                     % (pattern, self.text()[-3000:]))
            try:
                self.seen += self.child.read_nonblocking(65536, timeout=0.2)
            except pexpect.TIMEOUT:
                pass
            except pexpect.EOF:
                raise AssertionError("console ended before showing %r:\n%s"
                                     % (pattern, self.text()[-3000:]))

    mark = 0

    def close(self):
        if self.child.isalive():
            self.child.terminate(force=True)


class TestConsole(unittest.TestCase):
    def check_session(self, console, n):
        """One scripted session; n is the first prompt number."""
        c = console
        c.wait_for(r"TensorFlow's execution model in Lua 5\.4")
        c.wait_for(r"In \[%d\]" % n)
        c.child.send("1 + 2\r")
        c.wait_for(r"Out\[%d\]: 3" % n)
        c.child.send('print("hello from moonflow")\r')
        c.wait_for(r"\nhello from moonflow\n")
        c.child.send("tf.constant({1, 2}) * 2\r")
        c.wait_for(r"numpy=array\(\[2, 4\], dtype=int32\)>")
        c.child.send("tf.constant({1, 2}) + tf.constant({1.5, 2.5})\r")
        c.wait_for(r"InvalidArgumentError")
        c.child.send("%help tf.range\r")
        c.wait_for(r"tf\.range\(\[start,\] limit")

    def finish(self, c):
        c.child.send("exit\r")
        c.child.expect(pexpect.EOF, timeout=TIMEOUT)
        c.child.close()
        self.assertEqual(c.child.exitstatus, 0, c.text()[-2000:])

    def test_scripted_session_simple_prompt(self):
        c = Console("--simple-prompt")
        try:
            self.check_session(c, 1)
            self.finish(c)
        finally:
            c.close()

    def test_multiline_input_uses_is_complete(self):
        c = Console()
        try:
            self.check_session(c, 1)
            # The console asks the kernel whether the input is complete: an
            # open `for` gets a continuation line, `end` runs the loop.
            c.child.send("for i = 1, 3 do\r")
            c.wait_for(r"\.\.\.:")
            time.sleep(0.3)
            c.child.send("print(i * 10)\r")
            time.sleep(0.3)
            c.child.send("end\r")
            c.wait_for(r"\n10\n20\n30\n")
            self.finish(c)
        finally:
            c.close()


if __name__ == "__main__":
    unittest.main()
