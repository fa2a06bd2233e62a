"""The moonflow Jupyter kernel driven through every request type by Debian's
jupyter_client (BlockingKernelClient), plus raw pyzmq where the client would
refuse to misbehave (forged signatures, heartbeat pings)."""
import hashlib
import hmac
import json
import os
import queue
import signal
import subprocess
import sys
import time
import unittest
import uuid

import zmq

from mfkernel import (SLOW, TIMEOUT, KernelTestCase, drain, of_type, run, shell_reply,
                      start_kernel, stop_kernel, stream_text)



def render_png(svg):
    """Renders an SVG with rsvg-convert; returns the PNG's width, height and
    the number of distinct byte values in its pixel rows (a blank picture
    has one or two)."""
    import struct
    import subprocess
    import tempfile
    import zlib
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "g.svg"), os.path.join(d, "g.png")
        with open(src, "w") as f:
            f.write(svg)
        subprocess.run(["rsvg-convert", "-f", "png", "-o", dst, src], check=True, timeout=60)
        with open(dst, "rb") as f:
            png = f.read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n", png[:8]
    width, height = struct.unpack(">II", png[16:24])
    idat, pos = b"", 8
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        if kind == b"IDAT":
            idat += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    return width, height, len(set(zlib.decompress(idat)))

class TestExecute(KernelTestCase):
    def test_kernel_info(self):
        reply = self.kc.kernel_info(reply=True, timeout=TIMEOUT)
        c = reply["content"]
        self.assertEqual(c["status"], "ok")
        self.assertEqual(c["protocol_version"], "5.3")
        self.assertEqual(c["implementation"], "moonflow")
        li = c["language_info"]
        self.assertEqual(li["name"], "lua")
        self.assertEqual(li["version"], "5.4")
        self.assertEqual(li["mimetype"], "text/x-lua")
        self.assertEqual(li["file_extension"], ".lua")
        self.assertEqual(li["codemirror_mode"], "lua")
        self.assertEqual(li["pygments_lexer"], "lua")
        self.assertTrue(c["help_links"])
        for link in c["help_links"]:
            self.assertTrue(link["text"] and link["url"].startswith("https://"))
        self.assertIn("moonflow", c["banner"])
        self.assertIn("%tutorial", c["banner"])
        self.assertIn("tf.progress", c["banner"])

    def test_busy_execute_input_idle_order(self):
        msg_id = self.kc.execute("local a = 1")
        kinds = []
        while True:
            msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kinds.append(msg["msg_type"] if msg["msg_type"] != "status"
                         else msg["content"]["execution_state"])
            if kinds[-1] == "idle":
                break
        self.assertEqual(kinds, ["busy", "execute_input", "idle"])
        self.assertEqual(shell_reply(self.kc, msg_id)["content"]["status"], "ok")

    def test_stream_is_sent_while_the_cell_runs(self):
        # "first" is printed, then the cell computes for a while: the stream
        # message must arrive long before the reply, not with it.
        code = ('print("first")\n'
                'local t = os.clock() while os.clock() - t < %s do end\n'
                'print("second")' % (1.5 * SLOW))
        reply, outputs = self.ok(code)
        reply_t = time.monotonic()
        streams = of_type(outputs, "stream")
        self.assertEqual(stream_text(outputs), "first\nsecond\n")
        first = next(m for m in streams if "first" in m["content"]["text"])
        self.assertNotIn("second", first["content"]["text"])
        self.assertGreater(reply_t - first["_t"], 0.7 * SLOW,
                           "the first print arrived only when the cell ended")

    def test_print_io_write_stderr(self):
        _, outputs = self.ok('print("a", 1, true)\nio.write("b", 2, "\\n")\n'
                             'io.stderr:write("oops\\n")')
        self.assertEqual(stream_text(outputs, "stdout"), "a\t1\ttrue\nb2\n")
        self.assertEqual(stream_text(outputs, "stderr"), "oops\n")

    def test_tf_print_streams(self):
        _, outputs = self.ok('tf.print("Executing with", tf.constant(10))')
        self.assertEqual(stream_text(outputs), "Executing with 10\n")

    def test_unicode_output(self):
        _, outputs = self.ok('print("héllo ✓ 数")')
        self.assertEqual(stream_text(outputs), "héllo ✓ 数\n")

    def test_execute_result(self):
        reply, outputs = self.ok("1 + 2")
        self.assertEqual(self.result_text(outputs), "3")
        result = of_type(outputs, "execute_result")[0]
        self.assertEqual(result["content"]["execution_count"], reply["content"]["execution_count"])
        # No trailing expression, no result.
        _, outputs = self.ok("local z = 3")
        self.assertEqual(of_type(outputs, "execute_result"), [])

    def test_tensor_result_is_rich(self):
        _, outputs = self.ok("tf.constant({{1, 2}, {3, 4}})")
        data = of_type(outputs, "execute_result")[0]["content"]["data"]
        self.assertTrue(data["text/plain"].startswith(
            "<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\narray([[1, 2],"), data["text/plain"])
        html = data["text/html"]
        self.assertIn("<table", html)
        self.assertIn("(2, 2)", html)
        self.assertIn("int32", html)

    def test_execution_count_increments(self):
        r1, o1 = self.ok("1")
        r2, o2 = self.ok("2")
        n = r1["content"]["execution_count"]
        self.assertEqual(r2["content"]["execution_count"], n + 1)
        self.assertEqual(of_type(o2, "execute_input")[0]["content"]["execution_count"], n + 1)

    def test_error(self):
        reply, outputs = run(self.kc, "local t = nil\nreturn t.field")
        c = reply["content"]
        self.assertEqual(c["status"], "error")
        self.assertEqual(c["ename"], "LuaError")
        self.assertIn("attempt to index", c["evalue"])
        self.assertIsInstance(c["traceback"], list)
        self.assertTrue(all(isinstance(line, str) for line in c["traceback"]))
        errors = of_type(outputs, "error")
        self.assertEqual(len(errors), 1)
        self.assertEqual(errors[0]["content"]["ename"], "LuaError")
        self.assertEqual(errors[0]["content"]["traceback"], c["traceback"])
        self.assertIn("attempt to index", "\n".join(c["traceback"]))

    def test_moonflow_error_type(self):
        reply, outputs = run(self.kc, "tf.constant({1, 2}) + tf.constant({1.5, 2.5})")
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "InvalidArgumentError")
        self.assertEqual(of_type(outputs, "execute_result"), [])

    def test_never_assigned_global_is_a_name_error_naming_the_cell_line(self):
        reply, _ = run(self.kc, "x = 1\nspec = tf.TensorSpec({None}, tf.float32)")
        c = reply["content"]
        self.assertEqual((c["status"], c["ename"]), ("error", "NameError"))
        self.assertEqual(c["evalue"], "name 'None' is not defined: Lua's None is nil (in a shape: tf.None)"
                                     " (lesson 13 lists the differences: %tutorial 13-from-python)")
        self.assertRegex("\n".join(c["traceback"]), r"In\[\d+\]:2: in main chunk")
        self.ok("%strict off")
        _, outputs = self.ok("print(None)")
        self.ok("%strict on")

    def test_eager_error_traceback_names_the_cell_line(self):
        reply, _ = run(self.kc, "a = tf.ones({2})\nb = a + tf.ones({3})")
        text = "\n".join(reply["content"]["traceback"])
        self.assertRegex(text, r"In\[\d+\]:2: in main chunk")
        self.assertNotIn("lua/moonflow", text)

    def test_syntax_error_and_unfinished_cell(self):
        reply, _ = run(self.kc, "x = = 1")
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "SyntaxError")
        reply, _ = run(self.kc, "for i = 1, 3 do")
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "SyntaxError")
        self.ok("x_after_error = 1")  # the kernel goes on

    def test_silent(self):
        before, _ = self.ok("1")
        n = before["content"]["execution_count"]
        reply, outputs = self.ok('print("still streams") return 99', silent=True)
        self.assertEqual(reply["content"]["execution_count"], n)
        self.assertEqual(of_type(outputs, "execute_input"), [])
        self.assertEqual(of_type(outputs, "execute_result"), [])
        self.assertEqual(stream_text(outputs), "still streams\n")
        after, _ = self.ok("2")
        self.assertEqual(after["content"]["execution_count"], n + 1)
        tail = self.kc.history(hist_access_type="tail", n=5, reply=True, timeout=TIMEOUT)
        self.assertNotIn('print("still streams") return 99',
                         [h[2] for h in tail["content"]["history"]])

    def test_store_history_false(self):
        before, _ = self.ok("1")
        n = before["content"]["execution_count"]
        reply, outputs = self.ok("unstored_marker = 5", store_history=False)
        self.assertEqual(reply["content"]["execution_count"], n)
        after, _ = self.ok("2")
        self.assertEqual(after["content"]["execution_count"], n + 1)
        tail = self.kc.history(hist_access_type="tail", n=10, reply=True, timeout=TIMEOUT)
        self.assertNotIn("unstored_marker = 5", [h[2] for h in tail["content"]["history"]])

    def test_user_expressions(self):
        reply, _ = self.ok("ue_x = 21", user_expressions={"double": "ue_x * 2",
                                                          "bad": "ue_nothing.field"})
        ue = reply["content"]["user_expressions"]
        self.assertEqual(ue["double"]["status"], "ok")
        self.assertEqual(ue["double"]["data"]["text/plain"], "42")
        self.assertEqual(ue["bad"]["status"], "error")
        self.assertTrue(ue["bad"]["ename"])
        self.assertIsInstance(ue["bad"]["traceback"], list)

    def test_stop_on_error_aborts_queued_cells(self):
        slow_fail = ("local t = os.clock() while os.clock() - t < %s do end\n"
                     "error('boom')" % (0.5 * SLOW))
        first = self.kc.execute(slow_fail, stop_on_error=True)
        second = self.kc.execute('print("must not run")')
        r1 = shell_reply(self.kc, first)
        r2 = shell_reply(self.kc, second)
        self.assertEqual(r1["content"]["status"], "error")
        self.assertEqual(r2["content"]["status"], "aborted")
        # Later cells run again.
        _, outputs = self.ok('print("runs")')
        self.assertEqual(stream_text(outputs), "runs\n")

    def test_no_stop_on_error_runs_queued_cells(self):
        slow_fail = ("local t = os.clock() while os.clock() - t < %s do end\n"
                     "error('boom')" % (0.5 * SLOW))
        first = self.kc.execute(slow_fail, stop_on_error=False)
        second = self.kc.execute('queued_ran = true')
        self.assertEqual(shell_reply(self.kc, first)["content"]["status"], "error")
        self.assertEqual(shell_reply(self.kc, second)["content"]["status"], "ok")
        _, outputs = self.ok("queued_ran")
        self.assertEqual(self.result_text(outputs), "true")

    def test_display_data(self):
        _, outputs = self.ok("tf.display(tf.constant({1, 2, 3}))")
        displays = of_type(outputs, "display_data")
        self.assertEqual(len(displays), 1)
        data = displays[0]["content"]["data"]
        self.assertIn("text/plain", data)
        self.assertIn("<table", data["text/html"])
        self.assertEqual(of_type(outputs, "execute_result"), [])

    def test_updatable_display(self):
        _, outputs = self.ok('local h = tf.display(tf.constant(1), {display_id = "progress"})\n'
                             'h:update(tf.constant(2))')
        [shown] = of_type(outputs, "display_data")
        [updated] = of_type(outputs, "update_display_data")
        self.assertEqual(shown["content"]["transient"], {"display_id": "progress"})
        self.assertEqual(updated["content"]["transient"], {"display_id": "progress"})
        self.assertIn("numpy=2", updated["content"]["data"]["text/plain"])

    def test_raw_bundle_binary_and_json_mimes(self):
        # Binary types travel base64-encoded and JSON types as JSON, as the
        # messaging spec asks.
        _, outputs = self.ok('tf.display({["text/plain"] = "a picture",\n'
                             '  ["image/png"] = "\\137PNG\\r\\n\\026\\n\\0\\255",\n'
                             '  ["application/json"] = \'{"a": [1, 2]}\'}, {raw = true})')
        [shown] = of_type(outputs, "display_data")
        data = shown["content"]["data"]
        import base64
        self.assertEqual(base64.b64decode(data["image/png"]), b"\x89PNG\r\n\x1a\n\x00\xff")
        self.assertEqual(data["application/json"], {"a": [1, 2]})

    def test_graph_and_concrete_function_display_as_svg(self):
        self.ok("sq = tf.func(function(x) return x * x end)\n"
                "sq_cf = sq:get_concrete_function(tf.constant(2.0))")
        for code in ("sq_cf.graph", "sq_cf"):
            _, outputs = self.ok(code)
            data = of_type(outputs, "execute_result")[0]["content"]["data"]
            svg = data.get("image/svg+xml", "")
            self.assertIn("<svg", svg, code)
            # An XML declaration or DOCTYPE breaks nbconvert's HTML export
            # ("Unicode strings with encoding declaration are not
            # supported") and is invalid inside HTML: the SVG starts at <svg.
            self.assertTrue(svg.startswith("<svg"), svg[:80])
            self.assertIn("text/plain", data)

    def test_control_flow_graph_svg_has_labelled_clusters(self):
        self.ok("cfl = tf.func(function(x)\n"
                "  for _ in tf.range(3) do x = x + 1.5 end\n"
                "  if tf.reduce_sum(x) > 0 then x = x * 2 else x = -x end\n"
                "  return x\n"
                "end)\n"
                "cfl_cf = cfl:get_concrete_function(tf.constant(1.0))")
        _, outputs = self.ok("cfl_cf.graph")
        svg = of_type(outputs, "execute_result")[0]["content"]["data"]["image/svg+xml"]
        import re
        # one cluster per While and If op, one per body, cond and branch
        self.assertEqual(len(re.findall(r'<g id="clust\d+" class="cluster">', svg)), 6)
        for title in ("body", "cond", "then_branch", "else_branch"):
            self.assertRegex(svg, r"<title>cluster_n\d+_%s</title>" % title)
            self.assertIn(">%s</text>" % title, svg)
        self.assertIn(">1.5</text>", svg)
        self.assertNotIn("GraphHandle", svg)

    def test_graph_pictures_render_to_png(self):
        """Each picture renders (rsvg-convert) to a PNG that is not blank."""
        self.ok("png_f = tf.func(function(x)\n"
                "  for _ in tf.range(2) do x = x * 2 end\n"
                "  return x\n"
                "end)\n"
                "png_cf = png_f:get_concrete_function(tf.constant(1.0))")
        _, outputs = self.ok("png_cf.graph")
        svg = of_type(outputs, "execute_result")[0]["content"]["data"]["image/svg+xml"]
        width, height, distinct = render_png(svg)
        self.assertGreater(width, 50)
        self.assertGreater(height, 50)
        self.assertGreater(distinct, 2)

    def test_training_step_graph_groups_scopes_and_collapses_large_ones(self):
        self.ok("ts_w = tf.Variable(tf.ones({8, 8}))\n"
                "ts_opt = tf.keras.optimizers.Adam(0.01)\n"
                "ts_step = tf.func(function(x)\n"
                "  local tape = tf.GradientTape()\n"
                "  local loss\n"
                "  do\n"
                "    local s <close> = tf.name_scope('forward')\n"
                "    local h = x\n"
                "    for _ = 1, 6 do h = tf.tanh(tf.matmul(h, ts_w)) end\n"
                "    loss = tf.reduce_mean(tf.square(h))\n"
                "  end\n"
                "  tape:stop()\n"
                "  ts_opt:apply_gradients({{tape:gradient(loss, ts_w), ts_w}})\n"
                "  return loss\n"
                "end)\n"
                "ts_cf = ts_step:get_concrete_function(tf.ones({2, 8}))")
        _, outputs = self.ok("ts_cf.graph")
        data = of_type(outputs, "execute_result")[0]["content"]["data"]
        svg, html = data["image/svg+xml"], data["text/html"]
        import re
        titles = re.findall(r"<title>([^<]*)</title>", svg)
        # forward/ and gradient_tape/ are boxes of their own; Adam's update
        # (over 40 ops) is one node
        self.assertTrue(">forward/</text>" in svg and ">gradient_tape/</text>" in svg, "no scope boxes")
        self.assertTrue(re.search(r">adam/</text>\n<text[^>]*>\d+ ops \(collapsed\)</text>", svg),
                        "adam/ is not collapsed")
        self.assertTrue("gradient_tape/forward/MatMul" in svg and "adam/ReadVariableOp" not in svg,
                        "the wrong scope is collapsed")
        # the whole graph is one click away in the HTML
        self.assertIn("<details><summary>Expand every name scope of ts_step</summary>", html)
        self.assertTrue("adam/ReadVariableOp" in html, "the expanded graph is missing")
        self.assertTrue(any(t.startswith("cluster_") for t in titles), titles)
        width, height, distinct = render_png(svg)
        self.assertGreater(distinct, 2)

    def test_graph_optimized_draws_before_and_after_side_by_side(self):
        self.ok("so = tf.func(function(x) local unused = x * 3; return (x + 0) * tf.constant(2.0) * 1 end)\n"
                "so(tf.constant(1.0))")
        _, outputs = self.ok("%graph so --optimized -- compare")
        data = of_type(outputs, "display_data")[0]["content"]["data"]
        html = data["text/html"]
        self.assertIn("display:flex", html)
        self.assertEqual(html.count("<svg"), 2)
        self.assertRegex(html, r"<b>before the optimiser</b> \(\d+ ops\)")
        self.assertRegex(html, r"<b>after</b> \(\d+ ops\)")
        self.assertRegex(html, r"\d+ ops -&gt; \d+ ops \(folded \d+")
        self.assertIn("(unused)", html)
        text = data["text/plain"]
        self.assertIn("before the optimiser:\ngraph so:", text)
        self.assertIn("\n\nafter:\ngraph so:", text)

    def test_clear_output(self):
        _, outputs = self.ok('print("x") tf.clear_output(true) print("y")')
        outputs = [m for m in outputs if m["msg_type"] != "execute_input"]
        self.assertEqual([m["msg_type"] for m in outputs], ["stream", "clear_output", "stream"])
        self.assertTrue(outputs[1]["content"]["wait"])

    def test_magic_in_cell(self):
        _, outputs = self.ok("%help tf.range")
        _, direct = self.ok("io.write(tf.help(tf.range))")
        self.assertTrue(stream_text(direct).strip())
        self.assertIn(stream_text(direct).strip(), stream_text(outputs))

    def test_pager(self):
        reply, _ = self.ok("tf.range?")
        payload = reply["content"]["payload"]
        self.assertEqual(len(payload), 1)
        self.assertEqual(payload[0]["source"], "page")
        _, direct = self.ok("io.write(tf.help(tf.range))")
        self.assertEqual(payload[0]["data"]["text/plain"].strip(), stream_text(direct).strip())

    def test_exit_asks_the_frontend_to_leave(self):
        reply, _ = self.ok("exit")
        self.assertEqual(reply["content"]["payload"], [{"source": "ask_exit", "keepkernel": False}])
        self.ok("1")  # the frontend decides; the kernel is still there

    def test_help_and_exit_cells_are_whole_cells(self):
        reply, _ = self.ok("?tf.range")
        self.assertEqual(reply["content"]["payload"][0]["source"], "page")
        reply, outputs = self.ok("no_such_name??")
        self.assertEqual(reply["content"]["payload"], [])
        self.assertEqual(stream_text(outputs), "Object `no_such_name` not found.\n")
        reply, _ = self.ok(" quit() ")
        self.assertEqual(reply["content"]["payload"], [{"source": "ask_exit", "keepkernel": False}])
        reply, _ = self.ok("exit = 2\nexit + 1")
        self.assertEqual(reply["content"]["payload"], [])
        content = shell_reply(self.kc, self.kc.is_complete("tf.range?"))["content"]
        self.assertEqual(content["status"], "complete")


class TestIntrospection(KernelTestCase):
    def complete(self, code, cursor=None):
        reply = self.kc.complete(code, cursor, reply=True, timeout=TIMEOUT)
        c = reply["content"]
        self.assertEqual(c["status"], "ok")
        self.assertLessEqual(c["cursor_start"], c["cursor_end"])
        # Applying a match must give the completed text (positions are
        # code points, as Python slices count).
        return [code[:c["cursor_start"]] + m + code[c["cursor_end"]:] for m in c["matches"]]

    def test_complete_globals(self):
        self.ok("my_long_variable_name = 1")
        self.assertIn("my_long_variable_name", self.complete("my_long_var"))

    def test_complete_tf(self):
        self.assertIn("x = tf.range", self.complete("x = tf.ran"))

    def test_complete_table_fields(self):
        self.ok("cfg = {learning_rate = 0.1, layers = 3}")
        self.assertIn("cfg.learning_rate", self.complete("cfg.lea"))

    def test_complete_methods(self):
        self.ok("ct = tf.constant({1, 2})")
        self.assertIn("ct:numpy", self.complete("ct:nu"))

    def test_complete_offers_only_public_members(self):
        self.ok("cv = tf.Variable(1.0)\ncx = tf.constant({1, 2})\n"
                "cf2 = tf.func(function(a) return a + 1 end)")
        self.assertEqual(self.complete("cv:assign"),
                         ["cv:assign", "cv:assign_add", "cv:assign_sub"])
        tensor = self.complete("cx:")
        self.assertIn("cx:numpy", tensor)
        for private in ("cx:trace_begin", "cx:graph_add_placeholder", "cx:print", "cx:ipairs"):
            self.assertNotIn(private, tensor)
        func = self.complete("cf2.")
        self.assertIn("cf2.get_concrete_function", func)
        self.assertEqual([m for m in func if m.startswith("cf2._")], [])
        # Each offered method answers through the object's __index.
        names = [m[len("cx:"):] for m in tensor]
        _, out = self.ok("for _, k in ipairs({%s}) do io.write(type(cx[k]), ' ') end"
                         % ", ".join('"%s"' % n for n in names))
        self.assertEqual(stream_text(out).split(), ["function"] * len(names))

    def test_complete_cursor_in_middle_and_unicode(self):
        self.ok("my_long_variable_name = 1")
        code = 's = "é✓" + my_long_var + 1'
        cursor = code.index(" + 1")
        done = self.complete(code, cursor)
        self.assertIn('s = "é✓" + my_long_variable_name + 1', done)

    def test_inspect_matches_tf_help(self):
        reply = self.kc.inspect("tf.range", 8, reply=True, timeout=TIMEOUT)
        c = reply["content"]
        self.assertEqual(c["status"], "ok")
        self.assertTrue(c["found"])
        _, direct = self.ok("io.write(tf.help(tf.range))")
        self.assertEqual(c["data"]["text/plain"].strip(), stream_text(direct).strip())

    def test_inspect_not_found(self):
        reply = self.kc.inspect("no_such_thing_here", 5, reply=True, timeout=TIMEOUT)
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertFalse(reply["content"]["found"])
        self.assertEqual(reply["content"]["data"], {})

    def is_complete(self, code):
        return shell_reply(self.kc, self.kc.is_complete(code))["content"]

    def test_is_complete(self):
        self.assertEqual(self.is_complete("x = 1")["status"], "complete")
        self.assertEqual(self.is_complete("%time x = 1")["status"], "complete")
        c = self.is_complete("for i = 1, 3 do")
        self.assertEqual(c["status"], "incomplete")
        self.assertIsInstance(c["indent"], str)
        self.assertEqual(self.is_complete("function f(a)\n  return a")["status"], "incomplete")
        self.assertEqual(self.is_complete("x = = 1")["status"], "invalid")

    def test_history(self):
        codes = ["hist_a = 1", "hist_b = 2", "hist_a + hist_b"]
        counts = [self.ok(c)[0]["content"]["execution_count"] for c in codes]
        tail = self.kc.history(hist_access_type="tail", n=3, output=False, raw=True,
                               reply=True, timeout=TIMEOUT)["content"]["history"]
        self.assertEqual([h[2] for h in tail], codes)
        self.assertEqual([h[1] for h in tail], counts)
        session = tail[0][0]
        rng = self.kc.history(hist_access_type="range", session=session, start=counts[1],
                              stop=counts[2] + 1, output=True, raw=True, reply=True,
                              timeout=TIMEOUT)["content"]["history"]
        self.assertEqual([(h[1], h[2][0]) for h in rng], [(counts[1], codes[1]), (counts[2], codes[2])])
        self.assertEqual(rng[1][2][1], "3")  # the text output of hist_a + hist_b
        found = self.kc.history(hist_access_type="search", pattern="hist_?*", output=False,
                                raw=True, reply=True, timeout=TIMEOUT)["content"]["history"]
        self.assertEqual([h[2] for h in found][-3:], codes)
        self.ok("hist_a = 1")
        uniq = self.kc.history(hist_access_type="search", pattern="hist_a = 1", unique=True,
                               output=False, raw=True, reply=True,
                               timeout=TIMEOUT)["content"]["history"]
        self.assertEqual(len(uniq), 1)

    def test_comm_info(self):
        reply = self.kc.comm_info(reply=True, timeout=TIMEOUT) if _has_reply_kw(self.kc.comm_info) \
            else shell_reply(self.kc, self.kc.comm_info())
        self.assertEqual(reply["content"], {"status": "ok", "comms": {}})


def _has_reply_kw(fn):
    import inspect
    return "reply" in inspect.signature(fn).parameters


class TestStdin(KernelTestCase):
    def test_stdin_round_trip(self):
        msg_id = self.kc.execute('local s = io.read()\nprint("got " .. s)', allow_stdin=True)
        req = self.kc.get_stdin_msg(timeout=TIMEOUT)
        self.assertEqual(req["msg_type"], "input_request")
        self.assertEqual(req["parent_header"]["msg_id"], msg_id)
        self.assertFalse(req["content"]["password"])
        self.kc.input("hello moon")
        reply = shell_reply(self.kc, msg_id)
        self.assertEqual(reply["content"]["status"], "ok")
        outputs = []
        while True:
            m = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                break
            outputs.append(m)
        self.assertEqual(stream_text(outputs), "got hello moon\n")

    def test_interrupt_while_waiting_for_input(self):
        self.ok("kept = 5")
        msg_id = self.kc.execute('local s = io.read()\nprint("got", s)', allow_stdin=True)
        self.assertEqual(self.kc.get_stdin_msg(timeout=TIMEOUT)["msg_type"], "input_request")
        self.km.interrupt_kernel()
        reply = shell_reply(self.kc, msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "InterruptedError")
        _, outputs = self.ok("kept")
        self.assertEqual(of_type(outputs, "execute_result")[0]["content"]["data"]["text/plain"], "5")

    def test_stdin_not_allowed_is_a_clear_error(self):
        reply, _ = run(self.kc, "return io.read()", allow_stdin=False)
        c = reply["content"]
        self.assertEqual(c["status"], "error")
        self.assertRegex(c["evalue"].lower(), "input|stdin")
        # No input_request was sent.
        with self.assertRaises(queue.Empty):
            self.kc.get_stdin_msg(timeout=0.3)


class TestInterrupt(KernelTestCase):
    def wait_until_running(self, msg_id):
        while True:
            m = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_input":
                time.sleep(0.3 * SLOW)
                return

    def interrupted(self, code, how):
        self.ok("survivor = 7")
        msg_id = self.kc.execute(code)
        self.wait_until_running(msg_id)
        how()
        reply = shell_reply(self.kc, msg_id, TIMEOUT)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "InterruptedError")
        # The session and its variables survive.
        _, outputs = self.ok("survivor * 6")
        self.assertEqual(self.result_text(outputs), "42")

    def test_interrupt_request_stops_an_endless_loop(self):
        self.interrupted("while true do end", self.km.interrupt_kernel)

    def test_sigint_stops_an_endless_loop(self):
        self.interrupted("while true do end", lambda: self.km.signal_kernel(signal.SIGINT))

    def test_interrupt_stops_a_graph_loop(self):
        code = ("local f = tf.func(function(n)\n"
                "  local i = tf.constant(0)\n"
                "  while i < n do i = i + 1 end\n"
                "  return i\n"
                "end)\n"
                "f(tf.constant(2000000000))")
        self.interrupted(code, self.km.interrupt_kernel)

    def test_interrupt_while_idle_is_harmless(self):
        self.km.interrupt_kernel()
        time.sleep(0.2)
        _, outputs = self.ok("1 + 1")
        self.assertEqual(self.result_text(outputs), "2")

    def control_request(self, msg_type, content):
        msg = self.kc.session.msg(msg_type, content)
        self.kc.control_channel.send(msg)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            reply = self.kc.get_control_msg(timeout=TIMEOUT)
            if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                return reply
        self.fail("no control reply to %s" % msg_type)

    def test_control_answers_kernel_info_while_a_cell_runs(self):
        msg_id = self.kc.execute("local t = os.clock() while os.clock() - t < %s do end"
                                 % (3 * SLOW))
        self.wait_until_running(msg_id)
        t0 = time.monotonic()
        reply = self.control_request("kernel_info_request", {})
        self.assertLess(time.monotonic() - t0, 1.5 * SLOW)
        self.assertEqual(reply["content"]["language_info"]["name"], "lua")
        self.assertEqual(shell_reply(self.kc, msg_id)["content"]["status"], "ok")

    def test_session_requests_on_control_are_relayed(self):
        reply = self.control_request("is_complete_request", {"code": "for i = 1, 2 do"})
        self.assertEqual(reply["msg_type"], "is_complete_reply")
        self.assertEqual(reply["content"]["status"], "incomplete")
        self.ok("relay_probe = 1")
        reply = self.control_request("complete_request", {"code": "relay_pro", "cursor_pos": 9})
        self.assertIn("relay_probe", reply["content"]["matches"])

    def test_heartbeat_answers_while_a_cell_runs(self):
        info = self.km.get_connection_info()
        ctx = zmq.Context.instance()
        hb = ctx.socket(zmq.REQ)
        hb.setsockopt(zmq.LINGER, 0)
        hb.connect("%s://%s:%d" % (info["transport"], info["ip"], info["hb_port"]))
        try:
            msg_id = self.kc.execute("local t = os.clock() while os.clock() - t < %s do end"
                                     % (3 * SLOW))
            self.wait_until_running(msg_id)
            hb.send(b"ping")
            self.assertTrue(hb.poll(1000), "no heartbeat while the cell runs")
            self.assertEqual(hb.recv(), b"ping")
            shell_reply(self.kc, msg_id)
        finally:
            hb.close()


def _sign(key, parts):
    h = hmac.new(key, digestmod=hashlib.sha256)
    for p in parts:
        h.update(p)
    return h.hexdigest().encode()


class TestSignatures(KernelTestCase):
    def raw_socket(self):
        info = self.km.get_connection_info()
        s = zmq.Context.instance().socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.connect("%s://%s:%d" % (info["transport"], info["ip"], info["shell_port"]))
        self.addCleanup(s.close)
        return s, info["key"]

    def parts(self, msg_type="kernel_info_request", content=b"{}"):
        header = json.dumps({"msg_id": uuid.uuid4().hex, "username": "test",
                             "session": uuid.uuid4().hex, "date": "2024-01-01T00:00:00.000000Z",
                             "msg_type": msg_type, "version": "5.3"}).encode()
        return [header, b"{}", b"{}", content]

    def test_correctly_signed_raw_message_is_answered(self):
        s, key = self.raw_socket()
        self.assertTrue(key, "the test expects jupyter_client to use a signing key")
        parts = self.parts()
        s.send_multipart([b"<IDS|MSG>", _sign(key, parts)] + parts)
        self.assertTrue(s.poll(TIMEOUT * 1000))
        frames = s.recv_multipart()
        i = frames.index(b"<IDS|MSG>")
        sig, rest = frames[i + 1], frames[i + 2:i + 6]
        # The kernel's own signature checks out with the same key.
        self.assertTrue(hmac.compare_digest(sig, _sign(key, rest)))
        self.assertEqual(json.loads(rest[0])["msg_type"], "kernel_info_reply")

    def assert_dropped(self, frames, why):
        s, _ = self.raw_socket()
        s.send_multipart(frames)
        self.assertEqual(s.poll(1500), 0, "the kernel answered a message it must drop")
        # Still healthy.
        reply = self.kc.kernel_info(reply=True, timeout=TIMEOUT)
        self.assertEqual(reply["content"]["status"], "ok")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            with open(self.log, encoding="utf-8", errors="replace") as f:
                if why in f.read():
                    return
            time.sleep(0.1)
        self.fail("the kernel did not log %r" % why)

    def test_forged_signature_is_ignored(self):
        parts = self.parts("execute_request",
                           json.dumps({"code": "forged_ran = true", "silent": False}).encode())
        self.assert_dropped([b"<IDS|MSG>", _sign(b"not the key", parts)] + parts,
                            "wrong signature")
        _, outputs = self.ok("rawget(_G, 'forged_ran') == nil")
        self.assertEqual(self.result_text(outputs), "true")

    def test_missing_signature_is_ignored(self):
        parts = self.parts()
        self.assert_dropped([b"<IDS|MSG>", b""] + parts, "missing signature")

    def test_tampered_content_is_ignored(self):
        s, key = self.raw_socket()
        parts = self.parts("execute_request", b'{"code": "x = 1"}')
        sig = _sign(key, parts)
        parts[3] = b'{"code": "tampered_ran = true"}'
        self.assert_dropped([b"<IDS|MSG>", sig] + parts, "wrong signature")
        _, outputs = self.ok("rawget(_G, 'tampered_ran') == nil")
        self.assertEqual(self.result_text(outputs), "true")

    def test_garbage_frames_are_ignored(self):
        self.assert_dropped([b"no delimiter here", b"x"], "no <IDS|MSG> delimiter")


class TestShutdownRestart(unittest.TestCase):
    def test_restart_gives_a_fresh_session(self):
        km, kc, _ = start_kernel("restart")
        try:
            run(kc, "restart_marker = 1")
            km.restart_kernel(now=False)
            kc.wait_for_ready(timeout=TIMEOUT)
            reply, outputs = run(kc, "rawget(_G, 'restart_marker') == nil")
            self.assertEqual(reply["content"]["status"], "ok")
            self.assertEqual(reply["content"]["execution_count"], 1)
            res = of_type(outputs, "execute_result")
            self.assertEqual(res[0]["content"]["data"]["text/plain"], "true")
        finally:
            stop_kernel(km, kc)

    def test_shutdown_request_ends_the_process_cleanly(self):
        km, kc, _ = start_kernel("shutdown")
        try:
            msg_id = kc.shutdown(restart=False)
            reply = kc.get_control_msg(timeout=TIMEOUT) if hasattr(kc, "get_control_msg") \
                else None
            if reply is not None:
                self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
                self.assertEqual(reply["content"], {"status": "ok", "restart": False})
            deadline = time.monotonic() + 10 * SLOW
            while km.is_alive() and time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertFalse(km.is_alive(), "the kernel did not exit after shutdown_request")
            proc = getattr(km.provisioner, "process", None)
            if proc is not None:
                self.assertEqual(proc.poll(), 0)
        finally:
            kc.stop_channels()
            if km.is_alive():
                km.shutdown_kernel(now=True)

    def test_os_exit_ends_the_kernel_cleanly(self):
        km, kc, _ = start_kernel("os_exit")
        try:
            reply, _ = run(kc, "os.exit(3)")
            self.assertEqual(reply["content"]["status"], "error")
            self.assertEqual(reply["content"]["ename"], "SystemExit")
            deadline = time.monotonic() + 10 * SLOW
            while km.is_alive() and time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertFalse(km.is_alive(), "os.exit did not end the kernel")
            proc = getattr(km.provisioner, "process", None)
            if proc is not None:
                self.assertEqual(proc.poll(), 3)
        finally:
            kc.stop_channels()
            if km.is_alive():
                km.shutdown_kernel(now=True)

    def test_kernel_exits_when_its_launcher_dies(self):
        # A launcher that starts a kernel and dies without shutting it down.
        script = ("import os, sys\n"
                  "sys.path.insert(0, %r)\n"
                  "from mfkernel import start_kernel\n"
                  "km, kc, _ = start_kernel('orphan')\n"
                  "print(km.provisioner.process.pid, flush=True)\n"
                  "os._exit(0)\n" % os.path.dirname(os.path.abspath(__file__)))
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             timeout=TIMEOUT * 2)
        pid = int(out.stdout.split()[-1])

        def running():
            try:
                with open("/proc/%d/stat" % pid) as f:
                    return f.read().rsplit(")", 1)[1].split()[0] != "Z"
            except FileNotFoundError:
                return False
        deadline = time.monotonic() + 10 * SLOW
        while running() and time.monotonic() < deadline:
            time.sleep(0.1)
        if running():
            os.kill(pid, signal.SIGKILL)
            self.fail("the orphaned kernel kept running")

    def test_shutdown_while_a_cell_runs(self):
        km, kc, _ = start_kernel("shutdown_busy")
        try:
            kc.execute("while true do end")
            time.sleep(0.5 * SLOW)
            t0 = time.monotonic()
            km.shutdown_kernel(now=False)
            # jupyter_client kills a kernel that has not exited after its
            # shutdown_wait_time (5 s); a clean exit is well under that.
            self.assertLess(time.monotonic() - t0, 4 * SLOW)
            self.assertFalse(km.is_alive())
        finally:
            kc.stop_channels()
            if km.is_alive():
                km.shutdown_kernel(now=True)


if __name__ == "__main__":
    unittest.main()
