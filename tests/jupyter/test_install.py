"""`moonflow install-kernel`: the kernelspec it writes (kernel.json and the
two logos) and where it writes it. Only temporary directories are used."""
import json
import os
import struct
import subprocess
import tempfile
import unittest
import zlib

from mfkernel import BIN


def read_png(path):
    """(width, height, RGBA bytes) of an 8-bit RGBA PNG, checking every
    chunk's CRC, as a strict decoder would."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + body) == crc, "bad CRC in %r" % kind
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", body[:10])
            assert (depth, color) == (8, 6), "not 8-bit RGBA"
            size = (w, h)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    w, h = size
    assert len(raw) == h * (1 + 4 * w)
    return w, h, raw


class TestInstallKernel(unittest.TestCase):
    def install(self, *args, env=None):
        return subprocess.run([BIN, "install-kernel", *args], capture_output=True, text=True,
                              env=env, timeout=60)

    def test_prefix_kernelspec(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = self.install("--prefix", tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            kdir = os.path.join(tmp, "share", "jupyter", "kernels", "moonflow")
            self.assertIn(kdir, r.stdout)
            with open(os.path.join(kdir, "kernel.json")) as f:
                spec = json.load(f)
            self.assertEqual(spec["argv"][1:], ["kernel", "-f", "{connection_file}"])
            self.assertTrue(os.path.isabs(spec["argv"][0]))
            self.assertEqual(os.path.realpath(spec["argv"][0]), os.path.realpath(BIN))
            self.assertEqual(spec["display_name"], "moonflow (Lua 5.4)")
            self.assertEqual(spec["language"], "lua")
            self.assertEqual(spec["interrupt_mode"], "message")
            for n in (32, 64):
                w, h, raw = read_png(os.path.join(kdir, "logo-%dx%d.png" % (n, n)))
                self.assertEqual((w, h), (n, n))
                alphas = raw[4::4]  # not all transparent, not all opaque
                self.assertTrue(any(alphas) and not all(a == 255 for a in alphas))

    def test_user_dir_and_jupyter_finds_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, JUPYTER_DATA_DIR=os.path.join(tmp, "data"))
            env.pop("JUPYTER_PATH", None)
            r = self.install("--user", "--name", "moonflow-test", env=env)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.exists(os.path.join(
                tmp, "data", "kernels", "moonflow-test", "kernel.json")))
            # What Jupyter itself finds (its KernelSpecManager, fresh process).
            listed = subprocess.run(
                ["/usr/bin/python3", "-c",
                 "import json; from jupyter_client.kernelspec import KernelSpecManager; "
                 "print(json.dumps(KernelSpecManager().get_all_specs()))"],
                env=env, capture_output=True, text=True, timeout=60)
            specs = json.loads(listed.stdout)
            self.assertIn("moonflow-test", specs)
            self.assertEqual(specs["moonflow-test"]["spec"]["language"], "lua")

    def test_bad_arguments(self):
        r = self.install("--frobnicate")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown argument", r.stderr)
        r = self.install("--name", "a/b", "--prefix", tempfile.gettempdir())
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
