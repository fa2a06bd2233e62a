"""The lessons as notebooks: tutorial.write_notebooks (what `make notebooks`
runs) renders every lesson, and `jupyter nbconvert --to notebook --execute`
runs each one cleanly on the moonflow kernel, installed with `moonflow
install-kernel --prefix` into a temporary directory (never the user's
Jupyter dirs). The learner's notebook runs with the exercises' starting code
(their check cells say "Not yet"); a second rendering with the solutions
filled in must pass every check inside the kernel."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lessons  # noqa: E402

TIMEOUT = 120 * lessons.SLOW


def setUpModule():
    global HOME, PREFIX, ENV
    HOME = tempfile.mkdtemp(prefix="moonflow-notebooks-")
    PREFIX = os.path.join(HOME, "prefix")
    ENV = lessons.environment()
    for var, sub in (("JUPYTER_DATA_DIR", "data"), ("JUPYTER_CONFIG_DIR", "config"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
        ENV[var] = os.path.join(HOME, sub)
        os.makedirs(ENV[var], exist_ok=True)
    ENV["JUPYTER_PATH"] = os.path.join(PREFIX, "share", "jupyter")
    ENV["JUPYTER_PLATFORM_DIRS"] = "0"
    subprocess.run([lessons.BIN, "install-kernel", "--prefix", PREFIX], check=True, env=ENV,
                   stdout=subprocess.DEVNULL, timeout=60)


def tearDownModule():
    shutil.rmtree(HOME, ignore_errors=True)


def render(outdir, solutions):
    os.makedirs(outdir, exist_ok=True)
    code = ('for _, p in ipairs(require("moonflow.tutorial").write_notebooks(%s, {solutions = %s})) '
            'do print(p) end') % (json.dumps(outdir), "true" if solutions else "false")
    proc = subprocess.run([lessons.BIN, "-e", code], capture_output=True, text=True, env=ENV, timeout=60)
    if proc.returncode != 0:
        raise AssertionError("rendering failed: " + proc.stderr)
    return proc.stdout.split()


def execute(path, outdir):
    proc = subprocess.run(
        [shutil.which("jupyter") or "jupyter", "nbconvert", "--to", "notebook", "--execute",
         "--ExecutePreprocessor.kernel_name=moonflow",
         "--ExecutePreprocessor.timeout=%d" % TIMEOUT,
         "--output-dir", outdir, path],
        capture_output=True, text=True, env=ENV, timeout=TIMEOUT * 4)
    return proc


def cell_text(cell):
    parts = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            parts.append("".join(o["text"]) if isinstance(o["text"], list) else o["text"])
        elif o["output_type"] in ("execute_result", "display_data"):
            t = o["data"].get("text/plain", "")
            parts.append("".join(t) if isinstance(t, list) else t)
        elif o["output_type"] == "error":
            parts.append("ERROR %s: %s" % (o["ename"], o["evalue"]))
    return "".join(parts)


class Notebooks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = os.path.join(HOME, "nb")
        cls.learner = render(os.path.join(cls.tmp, "learner"), False)
        cls.solved = render(os.path.join(cls.tmp, "solved"), True)

    def test_a_notebook_per_lesson_in_nbformat_4(self):
        import nbformat
        names = [os.path.basename(p)[:-6] for p in self.learner]
        self.assertEqual(names, lessons.lesson_names())
        for path in self.learner:
            nb = nbformat.read(path, as_version=4)
            nbformat.validate(nb)
            self.assertEqual(nb.metadata.kernelspec.name, "moonflow")
            kinds = {c.cell_type for c in nb.cells}
            self.assertEqual(kinds, {"markdown", "code"}, path)

    def test_the_makefile_target_renders_into_tutorials_notebooks(self):
        proc = subprocess.run(["make", "-n", "notebooks"], cwd=lessons.ROOT, capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("write_notebooks", proc.stdout)
        self.assertIn("tutorials/notebooks", proc.stdout)


def make_test(name):
    def test(self):
        import nbformat
        out = os.path.join(HOME, "executed", name)
        for variant, passes in (("learner", False), ("solved", True)):
            path = os.path.join(HOME, "nb", variant, name + ".ipynb")
            proc = execute(path, os.path.join(out, variant))
            self.assertEqual(proc.returncode, 0, "%s (%s) did not execute cleanly:\n%s"
                             % (name, variant, proc.stderr[-4000:]))
            nb = nbformat.read(os.path.join(out, variant, name + ".ipynb"), as_version=4)
            checks = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("%tutorial check")]
            self.assertTrue(checks, "no check cell")
            for c in checks:
                text = cell_text(c)
                if passes:
                    self.assertIn("✓ Exercise", text, "%s: %s" % (c.source, text))
                else:
                    self.assertIn("✗ Not yet", text, "%s: %s" % (c.source, text))
            for c in nb.cells:
                if c.cell_type == "code":
                    self.assertNotIn("ERROR ", cell_text(c), c.source)
    return test


for _name in lessons.lesson_names():
    setattr(Notebooks, "test_executes_" + _name.replace("-", "_"), make_test(_name))


if __name__ == "__main__":
    unittest.main()
