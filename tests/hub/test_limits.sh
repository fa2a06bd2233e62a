#!/bin/sh
# The kernel under a class's memory limit (tests/hub/test_limits.py), as a
# suite of tests/run.sh. The four-user JupyterHub test is `make hub-test`.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
exec /usr/bin/python3 "$ROOT/tests/tap.py" "$ROOT/tests/hub"
