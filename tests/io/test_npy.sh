#!/bin/sh
# test_npy.sh — tf.io's .npy/.npz against Debian's python3-numpy (both ways).
exec /usr/bin/python3 "$(dirname "$0")/npy_roundtrip.py"
