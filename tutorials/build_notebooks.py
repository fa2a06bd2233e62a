#!/usr/bin/python3
"""build_notebooks.py BIN OUTDIR [NAME ...] — what `make notebooks` runs.

Renders every lesson (or the NAMEs) as a notebook with
tutorial.write_notebooks, then executes each on the moonflow kernel so the
notebooks ship with their outputs, as a reader expects to open them, except
the predict-then-run steps: their cells are written without outputs, so the
answer is not under the question before the learner runs the cell. The
kernel is installed into a temporary prefix (never the user's Jupyter
directories). Exits non-zero, naming the notebook, if one does not execute
cleanly; tests/tutorials/test_notebooks.py runs this and checks that the
outputs are the ones the lessons show. Each executed notebook is signed
for the user who builds it (their Jupyter data directory), so the classic
notebook shows its graph pictures (tests/export/test_classic_notebook.py)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import nbclient
import nbformat
from nbformat.sign import NotebookNotary

TIMEOUT = 240


def environment(home, bin_path):
    env = dict(os.environ)
    here = os.path.dirname(os.path.abspath(__file__))
    env.update(NO_COLOR="1", TERM="dumb", MOONFLOW_TUTORIALS=here, JUPYTER_PLATFORM_DIRS="0")
    # Lesson 12 runs tests/onnx/onnx_eval.py from the source tree: the
    # notebooks run in tutorials/notebooks/, not at its root.
    env.setdefault("MOONFLOW_ROOT", os.path.dirname(here))
    env.setdefault("OPENBLAS_NUM_THREADS", "2")
    for var, sub in (("JUPYTER_DATA_DIR", "data"), ("JUPYTER_CONFIG_DIR", "config"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
        env[var] = os.path.join(home, sub)
        os.makedirs(env[var], exist_ok=True)
    prefix = os.path.join(home, "prefix")
    env["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
    subprocess.run([bin_path, "install-kernel", "--prefix", prefix], check=True, env=env,
                   stdout=subprocess.DEVNULL, timeout=60)
    return env


def render(bin_path, outdir, env, names):
    code = ('local t = require("moonflow.session.tutorial") '
            'for _, p in ipairs(t.write_notebooks(%s, {names = %s})) do print(p) end') % (
        json.dumps(outdir), "{" + ",".join(json.dumps(n) for n in names) + "}" if names else "nil")
    proc = subprocess.run([bin_path, "-e", code], capture_output=True, text=True, env=env, timeout=60)
    if proc.returncode != 0:
        sys.exit("rendering the notebooks failed:\n" + proc.stderr)
    return proc.stdout.split()


def execute(path, env):
    nb = nbformat.read(path, as_version=4)
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        client = nbclient.NotebookClient(nb, timeout=TIMEOUT, kernel_name="moonflow",
                                         resources={"metadata": {"path": os.path.dirname(path)}})
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    clear_predictions(nb)
    nbformat.write(nb, path)


def sign(path):
    """Trusts the executed notebook for the user who built it (the notary
    database in their Jupyter data directory), as the notebook server
    trusts a notebook its user ran and saved. An untrusted notebook's
    text/html goes through the classic notebook's sanitizer, which removes
    every SVG: the lessons' graph pictures would be empty."""
    NotebookNotary().sign(nbformat.read(path, as_version=4))


def is_prediction(cell):
    return cell.cell_type == "markdown" and cell.source.startswith("**Predict, then run:**")


def clear_predictions(nb):
    """A predict-then-run step's cell (the code cell after its "Predict, then
    run" question) keeps no output and no execution count: the learner
    predicts, then runs it. The cells after it were executed with it, so
    their outputs are what the learner will see."""
    for before, cell in zip(nb.cells, nb.cells[1:]):
        if is_prediction(before) and cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: build_notebooks.py BIN OUTDIR [NAME ...]")
    bin_path, outdir, names = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3:]
    os.makedirs(outdir, exist_ok=True)
    home = tempfile.mkdtemp(prefix="moonflow-notebooks-")
    try:
        env = environment(home, bin_path)
        for path in render(bin_path, outdir, env, names):
            try:
                execute(path, env)
            except Exception as e:  # nbclient's CellExecutionError and timeouts
                sys.exit("%s did not execute cleanly:\n%s" % (path, str(e)[-4000:]))
            sign(path)
            print("  NB  " + os.path.relpath(path))
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
