#!/bin/sh
# test_onnx.sh — tf.onnx.export against Debian's python3-onnx (checker and
# reference evaluator).
exec /usr/bin/python3 "$(dirname "$0")/onnx_check.py"
