"""The kernel under hostile or unlucky input: cells that are not text,
replies after an aborting error, stdin edge cases, stray shutdowns and
comms, persisted history, and interrupts of loops that hide from a hook."""
import datetime
import os
import queue
import sqlite3
import tempfile
import signal
import time
import unittest

from mfkernel import (TIMEOUT, KernelTestCase, drain, of_type, run, shell_reply, start_kernel,
                      stop_kernel)


class TestBadCells(KernelTestCase):
    def assert_rejected(self, code):
        self.ok("kept_state = 9")
        reply, outputs = run(self.kc, code)
        c = reply["content"]
        self.assertEqual(c["status"], "error")
        self.assertEqual(c["ename"], "ValueError")
        self.assertIsInstance(c["execution_count"], int)
        self.assertEqual(of_type(outputs, "error")[0]["content"]["ename"], "ValueError")
        self.assertEqual(self.value("kept_state"), "9")
        # What is not text is not kept in history either.
        n = c["execution_count"]
        self.assertEqual(history(self.kc, hist_access_type="range", session=0, start=n,
                                 stop=n + 1), [])
        return c

    def test_nul_byte_cell_gets_an_error_reply(self):
        c = self.assert_rejected("kept_state = 1\x00")
        self.assertIn("NUL", c["evalue"])

    def test_invalid_utf8_cell_gets_an_error_reply(self):
        # jupyter_client encodes a lone surrogate as the raw byte 0x80.
        c = self.assert_rejected("kept_state = '\udc80'")
        self.assertIn("UTF-8", c["evalue"])


class TestAbortedReplies(KernelTestCase):
    def test_aborted_reply_carries_no_execution_count(self):
        # As ipykernel: the aborted cell never ran, so it has no number; the
        # failed cell's number must not show on every cell after it.
        slow_fail = "local t = os.clock() while os.clock() - t < 0.5 do end\nerror('boom')"
        first = self.kc.execute(slow_fail, stop_on_error=True)
        second = self.kc.execute('print("must not run")')
        self.assertEqual(shell_reply(self.kc, first)["content"]["status"], "error")
        self.assertEqual(shell_reply(self.kc, second)["content"], {"status": "aborted"})


class TestInterruptEveryLoop(KernelTestCase):
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


class TestStrayMessages(KernelTestCase):
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

    def test_comm_open_whose_content_is_not_json_gets_no_reply(self):
        # comm_open has no reply in the protocol; a content the kernel cannot
        # read must not make one up (it sent a "c_reply"). Found by
        # tests/fuzz/kernel.py --seed 2 --index 411.
        session = self.kc.session
        frames = session.serialize(session.msg("comm_open", {"comm_id": "c1", "target_name": "x"}))
        frames[5] = b"{not json"
        frames[1] = session.sign(frames[2:6])
        self.kc.shell_channel.socket.send_multipart(frames)
        msg_id = self.kc.kernel_info()
        first = self.kc.get_shell_msg(timeout=TIMEOUT)
        self.assertEqual((first["msg_type"], first["parent_header"]["msg_id"]),
                         ("kernel_info_reply", msg_id))

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


def history(kc, **request):
    request.setdefault("output", False)
    request.setdefault("raw", True)
    return kc.history(reply=True, timeout=TIMEOUT, **request)["content"]["history"]


class TestPersistentHistory(unittest.TestCase):
    """History lives in SQLite (IPython's history.sqlite layout) and
    outlives the kernel: a restarted kernel sees the earlier sessions."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.path = os.path.join(self.dir.name, "sub", "history.sqlite")
        old = os.environ.get("MOONFLOW_HISTORY")
        os.environ["MOONFLOW_HISTORY"] = self.path
        self.addCleanup(lambda: os.environ.__setitem__("MOONFLOW_HISTORY", old) if old is not None
                        else os.environ.pop("MOONFLOW_HISTORY", None))

    def kernel(self, name):
        km, kc, _ = start_kernel(name)
        self.addCleanup(stop_kernel, km, kc)
        return km, kc

    def test_history_survives_a_restart(self):
        codes = ["persisted_a = 1", "persisted_b = 2", "persisted_a + persisted_b"]
        km, kc = self.kernel("history_first")
        for code in codes:
            self.assertEqual(run(kc, code)[0]["content"]["status"], "ok")
        first = history(kc, hist_access_type="tail", n=3)
        self.assertEqual([h[1:] for h in first], [[1, codes[0]], [2, codes[1]], [3, codes[2]]])
        session = first[0][0]
        stop_kernel(km, kc)

        db = sqlite3.connect(self.path)
        self.addCleanup(db.close)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        self.assertLessEqual({"sessions", "history"}, tables)
        rows = db.execute("SELECT line, source FROM history WHERE session = ? ORDER BY line",
                          (session,)).fetchall()
        self.assertEqual(rows, [(1, codes[0]), (2, codes[1]), (3, codes[2])])

        km, kc = self.kernel("history_second")
        run(kc, "persisted_c = 3")
        tail = history(kc, hist_access_type="tail", n=4)
        self.assertEqual([h[2] for h in tail], codes + ["persisted_c = 3"])
        self.assertEqual([h[0] for h in tail[:3]], [session] * 3)
        self.assertGreater(tail[3][0], session)
        self.assertEqual(tail[3][1], 1)  # a new session counts from 1 again

        rng = history(kc, hist_access_type="range", session=session, start=2, stop=0, output=True)
        self.assertEqual([(h[1], h[2][0]) for h in rng], [(2, codes[1]), (3, codes[2])])
        self.assertEqual(rng[1][2][1], "3")  # the text output of the last cell
        current = history(kc, hist_access_type="range", session=0, start=1, stop=0)
        self.assertEqual([h[2] for h in current], ["persisted_c = 3"])

        found = history(kc, hist_access_type="search", pattern="persisted_?*")
        self.assertEqual([h[2] for h in found], codes + ["persisted_c = 3"])
        run(kc, "persisted_a = 1")
        uniq = history(kc, hist_access_type="search", pattern="persisted_a = 1", unique=True)
        self.assertEqual(len(uniq), 1)
        self.assertEqual(uniq[0][0], tail[3][0])  # the latest run of it
        last = history(kc, hist_access_type="search", pattern="persisted_*", n=2)
        self.assertEqual([h[2] for h in last], ["persisted_c = 3", "persisted_a = 1"])


class TestStdinEdges(KernelTestCase):
    def answer(self, msg_id, replies):
        """Answers each input_request of msg_id with the next reply, once;
        returns (execute_reply, how many input_requests came)."""
        asked = 0
        for value in replies:
            req = self.kc.get_stdin_msg(timeout=TIMEOUT)
            self.assertEqual(req["msg_type"], "input_request")
            self.assertEqual(req["parent_header"]["msg_id"], msg_id)
            asked += 1
            self.kc.input(value)
        reply = shell_reply(self.kc, msg_id)
        # No further question is pending.
        with self.assertRaises(queue.Empty):
            self.kc.get_stdin_msg(timeout=0.3)
        return reply, asked

    def execute(self, code, replies):
        msg_id = self.kc.execute(code, allow_stdin=True)
        reply, asked = self.answer(msg_id, replies)
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        self.assertEqual(asked, len(replies))

    def test_input_left_over_does_not_reach_the_next_cell(self):
        self.execute("first = io.read(1)", ["abc"])
        self.assertEqual(self.value("first"), "a")
        self.execute("second = io.read()", ["fresh"])
        self.assertEqual(self.value("second"), "fresh")

    def test_read_all_ends_at_an_empty_reply(self):
        self.execute('everything = io.read("a")', ["one", "two", ""])
        self.assertEqual(self.value("everything"), "one\ntwo\n")

    def test_lines_end_at_an_empty_reply(self):
        self.execute("got = {} for l in io.lines() do got[#got + 1] = l end", ["x", "y", ""])
        self.assertEqual(self.value("table.concat(got, ',')"), "x,y")
        self.execute("got = {} for l in io.stdin:lines() do got[#got + 1] = l end", ["z", ""])
        self.assertEqual(self.value("table.concat(got, ',')"), "z")

    def test_an_empty_reply_to_a_line_read_is_an_empty_line(self):
        self.execute("blank = io.read()", [""])
        self.assertEqual(self.value("blank == ''"), "true")
        self.execute("after = io.read()", ["still reading"])
        self.assertEqual(self.value("after"), "still reading")
