#!/bin/sh
# The lesson notebooks exported with nbconvert and opened in headless
# Chromium (tests/export/test_export.py), as a suite of tests/run.sh.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
exec /usr/bin/python3 "$ROOT/tests/tap.py" "$ROOT/tests/export"
