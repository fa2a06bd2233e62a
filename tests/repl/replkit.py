"""Shared by the REPL tests: where the program is, its prompts, and a
session mixin that starts the REPL in a pseudo-terminal (pexpect) with its
own HOME (for the history file) and types lines into it."""
import os
import tempfile

import pexpect

BIN = os.environ.get("MOONFLOW_BIN", "build/release/moonflow")
PROMPT = "moonflow> "
CONTINUATION = "     ...> "
TIMEOUT = 20


def environment(home):
    env = dict(os.environ)
    env.update(HOME=home, TERM="dumb", NO_COLOR="1")
    return env


class ReplSession:
    """Mix into a unittest.TestCase: one REPL per test."""
    timeout = TIMEOUT
    dimensions = (40, 200)

    def setUp(self):
        self.home = tempfile.TemporaryDirectory()
        self.repl = pexpect.spawn(BIN, env=environment(self.home.name), encoding="utf-8",
                                  timeout=self.timeout, dimensions=self.dimensions)
        self.repl.expect_exact(PROMPT)

    def tearDown(self):
        self.repl.close(force=True)
        self.home.cleanup()

    def run_line(self, line):
        """Types a line and returns what it printed before the next prompt."""
        self.repl.sendline(line)
        self.repl.expect_exact(PROMPT)
        out = self.repl.before.replace("\r\n", "\n")
        echoed = line + "\n"
        return out[len(echoed):] if out.startswith(echoed) else out
