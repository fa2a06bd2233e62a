"""`jupyter nbconvert --to notebook --execute` (Debian's jupyter-nbconvert)
runs moonflow_cells.ipynb on the moonflow kernel: tensors, a tf.func, %sig,
%graph with an SVG picture, tf.display, and an error cell (allowed with
--allow-errors) followed by a cell that still runs. The executed notebook's
outputs are checked cell by cell."""
import os
import shutil
import subprocess
import tempfile
import unittest

import nbformat

from mfkernel import TIMEOUT, install_kernelspec

HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOK = os.path.join(HERE, "moonflow_cells.ipynb")
# Debian's jupyter (jupyter-nbconvert), whatever else is first on PATH.
JUPYTER = "/usr/bin/jupyter" if os.path.exists("/usr/bin/jupyter") else shutil.which("jupyter")


class TestNbconvert(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        install_kernelspec()
        cls.tmp = tempfile.TemporaryDirectory()
        out = os.path.join(cls.tmp.name, "executed.ipynb")
        proc = subprocess.run(
            [JUPYTER, "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
             "--ExecutePreprocessor.kernel_name=moonflow",
             "--ExecutePreprocessor.timeout=%d" % TIMEOUT,
             "--output", out, NOTEBOOK],
            capture_output=True, text=True, timeout=TIMEOUT * 4)
        cls.proc = proc
        cls.nb = nbformat.read(out, as_version=4) if proc.returncode == 0 else None

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        if self.nb is None:
            self.fail("nbconvert failed (%d):\n%s" % (self.proc.returncode, self.proc.stderr[-3000:]))

    def cell(self, tag):
        for c in self.nb.cells:
            if tag in c.get("metadata", {}).get("tags", []):
                return c
        raise AssertionError("no cell tagged %s" % tag)

    def outputs(self, tag, output_type):
        return [o for o in self.cell(tag).outputs if o.output_type == output_type]

    def stream(self, tag):
        return "".join(o.text for o in self.outputs(tag, "stream"))

    def test_every_code_cell_ran_in_order(self):
        counts = [c.execution_count for c in self.nb.cells if c.cell_type == "code"]
        self.assertEqual(counts, list(range(counts[0], counts[0] + len(counts))))

    def test_tensor_result(self):
        [res] = self.outputs("tensor", "execute_result")
        self.assertTrue(res.data["text/plain"].startswith(
            "<tf.Tensor: shape=(2, 2), dtype=int32, numpy="), res.data["text/plain"])
        html = res.data["text/html"]
        self.assertIn("<table", html)
        self.assertIn("(2, 2)", html)
        self.assertIn("int32", html)

    def test_print(self):
        text = self.stream("print")
        self.assertIn("[[2 4]\n [6 8]]", text)
        self.assertIn("shape=(2, 2), dtype=int32", text)

    def test_tf_func(self):
        [res] = self.outputs("func", "execute_result")
        self.assertEqual(res.data["text/plain"], "<tf.Tensor: shape=(), dtype=int32, numpy=42>")

    def test_sig_magic(self):
        text = self.stream("sig")
        self.assertIn("a (POSITIONAL): TensorSpec(shape=(), dtype=tf.int32, name=None)", text)

    def test_graph_magic_svg(self):
        shown = self.outputs("graph", "display_data") + self.outputs("graph", "execute_result")
        self.assertEqual(len(shown), 1, self.cell("graph").outputs)
        data = shown[0].data
        self.assertIn("<svg", data["image/svg+xml"])
        self.assertIn("AddV2", data["image/svg+xml"])
        self.assertIn("AddV2", data["text/plain"])

    def test_html_export_keeps_the_graph_picture(self):
        """`nbconvert --to html` of the executed notebook: the graph's
        picture comes out whole (Debian's nbconvert 6.5 strips an
        image/svg+xml output down to an empty <svg>; moonflow's text/html
        form, the same SVG inline, is exported as it is)."""
        executed = os.path.join(self.tmp.name, "for-html.ipynb")
        nbformat.write(self.nb, executed)
        html = os.path.join(self.tmp.name, "exported.html")
        proc = subprocess.run([JUPYTER, "nbconvert", "--to", "html", "--output", html, executed],
                              capture_output=True, text=True, timeout=TIMEOUT * 4)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        with open(html, encoding="utf-8") as f:
            page = f.read()
        start = page.find('class="moonflow-graph"')
        self.assertGreater(start, 0, "the graph's HTML form is not in the page")
        picture = page[start:page.find("</svg>", start)]
        self.assertIn("<polygon", picture)
        self.assertIn(">AddV2</text>", picture)

    def test_display(self):
        [shown] = self.outputs("display", "display_data")
        self.assertIn("<table", shown.data["text/html"])
        self.assertIn("40", shown.data["text/plain"])

    def test_error_cell(self):
        [err] = self.outputs("error", "error")
        self.assertEqual(err.ename, "InvalidArgumentError")
        self.assertTrue(err.evalue)
        self.assertIsInstance(err.traceback, list)

    def test_cell_after_error_runs(self):
        self.assertEqual(self.stream("after-error"), "still running after the error\n")


if __name__ == "__main__":
    unittest.main()
