"""kernel.py — test_blas.sh's way into the Jupyter kernel: starts
`moonflow kernel` (through Debian's jupyter_client, as tests/jupyter do)
with the environment it was given, runs check.lua in a cell and prints the
cell's output: "kernel|reason|verdict"."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "jupyter"))
import mfkernel  # noqa: E402

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check.lua")



def main():
    km, kc, _ = mfkernel.start_kernel("blas")
    try:
        reply, outputs = mfkernel.run(kc, 'dofile(%r)' % CHECK)
        text = "".join(m["content"].get("text", "") for m in outputs
                       if m["msg_type"] == "stream")
        if reply["content"]["status"] != "ok":
            text += "error: %s\n" % reply["content"].get("evalue")
        sys.stdout.write(text)
    finally:
        mfkernel.stop_kernel(km, kc)


# In a function, so the client is gone before the interpreter shuts down
# (its __del__ logs, and logging may be torn down by then).
main()
