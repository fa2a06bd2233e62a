"""The kernel under hostile or unlucky input: cells that are not text,
replies after an aborting error, stdin edge cases, stray shutdowns and
comms, persisted history, and interrupts of loops that hide from a hook."""
import datetime
import queue
import signal
import time
import unittest

from mfkernel import TIMEOUT, drain, of_type, run, shell_reply, start_kernel, stop_kernel


class KernelCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.km, cls.kc, cls.log = start_kernel(cls.__name__)

    @classmethod
    def tearDownClass(cls):
        stop_kernel(cls.km, cls.kc)

    def setUp(self):
        drain(self.kc.get_iopub_msg, 0.05)
        drain(self.kc.get_shell_msg, 0.05)

    def ok(self, code, **kw):
        reply, outputs = run(self.kc, code, **kw)
        if reply["content"]["status"] != "ok":
            self.fail("%r failed: %s: %s" % (code, reply["content"].get("ename"),
                                             reply["content"].get("evalue")))
        return reply, outputs

    def value(self, code):
        _, outputs = self.ok(code)
        results = of_type(outputs, "execute_result")
        self.assertEqual(len(results), 1, outputs)
        return results[0]["content"]["data"]["text/plain"]


class TestBadCells(KernelCase):
    def assert_rejected(self, code):
        self.ok("kept_state = 9")
        reply, outputs = run(self.kc, code)
        c = reply["content"]
        self.assertEqual(c["status"], "error")
        self.assertEqual(c["ename"], "ValueError")
        self.assertIsInstance(c["execution_count"], int)
        self.assertEqual(of_type(outputs, "error")[0]["content"]["ename"], "ValueError")
        self.assertEqual(self.value("kept_state"), "9")
        return c

    def test_nul_byte_cell_gets_an_error_reply(self):
        c = self.assert_rejected("kept_state = 1\x00")
        self.assertIn("NUL", c["evalue"])

    def test_invalid_utf8_cell_gets_an_error_reply(self):
        # jupyter_client encodes a lone surrogate as the raw byte 0x80.
        c = self.assert_rejected("kept_state = '\udc80'")
        self.assertIn("UTF-8", c["evalue"])


class TestAbortedReplies(KernelCase):
    def test_aborted_reply_carries_no_execution_count(self):
        # As ipykernel: the aborted cell never ran, so it has no number; the
        # failed cell's number must not show on every cell after it.
        slow_fail = "local t = os.clock() while os.clock() - t < 0.5 do end\nerror('boom')"
        first = self.kc.execute(slow_fail, stop_on_error=True)
        second = self.kc.execute('print("must not run")')
        self.assertEqual(shell_reply(self.kc, first)["content"]["status"], "error")
        self.assertEqual(shell_reply(self.kc, second)["content"], {"status": "aborted"})


class TestInterruptEveryLoop(KernelCase):
    LOOPS = [
        "coroutine.wrap(function() while true do end end)()",
        "while true do pcall(function() while true do end end) end",
        ("coroutine.wrap(function() while true do "
         "coroutine.resume(coroutine.create(function() while true do end end)) end end)()"),
    ]

    def interrupted(self, code, how):
        self.ok("survivor = 7")
        msg_id = self.kc.execute(code)
        while True:
            m = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_input":
                break
        time.sleep(0.3)
        how()
        reply = shell_reply(self.kc, msg_id, TIMEOUT)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "InterruptedError")
        self.assertEqual(self.value("for i = 1, 100000 do end return survivor * 6"), "42")
        self.assertEqual(self.value("coroutine.wrap(function() for i = 1, 100000 do end "
                                    "return 'co ok' end)()"), "co ok")

    def test_interrupt_request_stops_every_loop(self):
        for code in self.LOOPS:
            with self.subTest(code=code):
                self.interrupted(code, self.km.interrupt_kernel)

    def test_sigint_stops_every_loop(self):
        for code in self.LOOPS:
            with self.subTest(code=code):
                self.interrupted(code, lambda: self.km.signal_kernel(signal.SIGINT))


class TestStrayMessages(KernelCase):
    def test_unknown_comm_open_is_answered_with_comm_close(self):
        # As ipykernel: a comm_open to a target the kernel does not have is
        # closed at once, so the frontend does not wait on a dead comm.
        msg = self.kc.session.msg("comm_open", {"comm_id": "c0ffee", "target_name": "no.such",
                                                "data": {}})
        self.kc.shell_channel.send(msg)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            m = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if m["msg_type"] == "comm_close":
                self.assertEqual(m["content"]["comm_id"], "c0ffee")
                self.assertEqual(m["parent_header"]["msg_id"], msg["header"]["msg_id"])
                return
        self.fail("no comm_close")

    def test_shutdown_request_sent_before_the_kernel_started_is_ignored(self):
        # jupyter_client's restart race: a shutdown_request meant for the
        # previous kernel reaches the new one on the same ports.
        msg = self.kc.session.msg("shutdown_request", {"restart": False})
        msg["header"]["date"] = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
        self.kc.control_channel.send(msg)
        time.sleep(1.0)
        self.assertTrue(self.km.is_alive())
        self.assertEqual(self.value("1 + 1"), "2")
        with open(self.log, encoding="utf-8", errors="replace") as f:
            self.assertIn("ignored a shutdown_request sent before this kernel started", f.read())
