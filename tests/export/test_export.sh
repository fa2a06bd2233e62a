#!/bin/sh
# The lesson notebooks exported with nbconvert and opened in headless
# Chromium (tests/export/test_export.py), opened in the classic notebook
# server (test_classic_notebook.py) and rendered as VS Code's sandboxed
# webviews render outputs (test_vscode_renderer.py), as a suite of
# tests/run.sh; the notebooks are built once for all three (executed.py).
ROOT=${MOONFLOW_ROOT:-$(pwd)}
exec /usr/bin/python3 "$ROOT/tests/tap.py" "$ROOT/tests/export"
