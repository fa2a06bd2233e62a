"""The lessons as notebooks. tutorials/build_notebooks.py (what `make
notebooks` runs) renders every lesson and executes it on the moonflow
kernel, so the notebooks ship with outputs: each executes cleanly, its check
cells say "Not yet" (the exercises' starting code), and every step's output
is the one its lesson shows (the notebooks are current). A second rendering
with the solutions filled in, executed with `jupyter nbconvert --execute`,
must pass every check inside the kernel. Kernels are installed with
`moonflow install-kernel --prefix` into temporary directories (never the
user's Jupyter dirs)."""
import json
import os
import re
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
    code = ('for _, p in ipairs(require("moonflow.session.tutorial").write_notebooks(%s, {solutions = %s})) '
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


TRACE_MARK = re.compile(r"^\[trace [^\]]*\] ", re.M)


def build(outdir):
    """Runs what `make notebooks` runs; returns the notebooks written."""
    proc = subprocess.run(["/usr/bin/python3", os.path.join(lessons.TUTORIALS, "build_notebooks.py"),
                           lessons.BIN, outdir], capture_output=True, text=True, env=ENV,
                          timeout=TIMEOUT * 20)
    if proc.returncode != 0:
        raise AssertionError("build_notebooks.py failed:\n" + proc.stdout[-2000:] + proc.stderr[-4000:])
    return sorted(os.path.join(outdir, f) for f in os.listdir(outdir) if f.endswith(".ipynb"))


class Notebooks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = os.path.join(HOME, "nb")
        cls.learner = build(os.path.join(cls.tmp, "learner"))
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

    def test_predict_then_run_cells_ship_without_outputs(self):
        import nbformat
        predictions = 0
        for path in self.learner:
            nb = nbformat.read(path, as_version=4)
            for before, c in zip(nb.cells, nb.cells[1:]):
                if before.cell_type == "markdown" and before.source.startswith("**Predict, then run:**"):
                    predictions += 1
                    self.assertEqual(c.cell_type, "code")
                    self.assertEqual(c.outputs, [], "%s: %s" % (os.path.basename(path), c.source))
                    self.assertIsNone(c.execution_count)
        # 02-tf-func has one, 03-retracing three.
        self.assertGreaterEqual(predictions, 4)

    def test_make_jupyter_is_light_and_ends_with_the_server_on_the_lessons(self):
        # Under `make test` the environment holds the outer make's flags.
        env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
        proc = subprocess.run(["make", "--no-print-directory", "-n", "jupyter"], cwd=lessons.ROOT,
                              capture_output=True, text=True, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = [l for l in proc.stdout.strip().splitlines() if not l.startswith("make")]
        deps = [l for l in lines if "deps.sh" in l and "jupyter-notebook" in l]
        self.assertTrue(deps, proc.stdout)
        self.assertNotIn("torch", " ".join(deps))
        self.assertNotIn("lua-busted", " ".join(deps))
        self.assertIn("build_notebooks.py", proc.stdout)
        self.assertIn("install-kernel --user", proc.stdout)
        self.assertRegex(lines[-1], r"jupyter notebook .*--notebook-dir=tutorials/notebooks")

    def test_the_makefile_target_renders_into_tutorials_notebooks(self):
        proc = subprocess.run(["make", "-n", "notebooks"], cwd=lessons.ROOT, capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("build_notebooks.py", proc.stdout)
        self.assertIn("tutorials/notebooks", proc.stdout)


def check_outputs_current(test, name, nb):
    """Every step's cell shows what the lesson's output block says (trace
    marks and chunk names aside: the kernel marks trace-time lines and names
    chunks In[n], the lesson runner does neither)."""
    steps = {s.index: s for s in lessons.run_lesson(name)[0] if s.kind == "code"}
    expected = {i: s.expected for i, s in steps.items()}
    compared = 0
    for before, c in zip([None] + nb.cells, nb.cells):
        step = c.get("metadata", {}).get("moonflow", {}).get("step")
        if c.cell_type != "code" or step is None:
            continue
        if before is not None and before.source.startswith("**Predict, then run:**"):
            # A prediction's answer stays out until the learner runs it.
            test.assertEqual((c.outputs, c.execution_count), ([], None),
                             "%s step %d: a predict-then-run cell shipped with its output" % (name, step))
            compared += 1
            continue
        # The kernel names a cell's chunk In[n]; the lesson runner NAME[step].
        text = TRACE_MARK.sub("", cell_text(c)).replace("In[%s]" % c.execution_count, "%s[%d]" % (name, step))
        tolerance = steps[step].tolerance if step in steps else 0
        test.assertTrue(lessons.matches(expected.get(step), text, tolerance),
                        "%s step %d: the notebook shows\n%s\nthe lesson says\n%s"
                        % (name, step, text, expected.get(step)))
        compared += 1
    test.assertEqual(compared, len(expected), "%s: a step without its cell" % name)


def make_test(name):
    def test(self):
        import nbformat
        out = os.path.join(HOME, "executed", name)
        for variant, passes in (("learner", False), ("solved", True)):
            path = os.path.join(HOME, "nb", variant, name + ".ipynb")
            if variant == "learner":
                nb = nbformat.read(path, as_version=4)
                check_outputs_current(self, name, nb)
            else:
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
