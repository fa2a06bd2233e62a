"""The Jupyter project's own kernel conformance suite (Debian's
python3-jupyter-kernel-test) against the moonflow kernel, with a moonflow
sample for every test it offers. tests/tap.py counts a skipped test as a
failure, so a sample left empty would show."""
import atexit
import unittest

import jupyter_kernel_test as jkt
from jupyter_client.manager import start_new_kernel

from mfkernel import TIMEOUT, install_kernelspec, kernel_log_path


class MoonflowKernelTests(jkt.KernelTests):
    kernel_name = "moonflow"
    language_name = "lua"
    file_extension = ".lua"

    code_hello_world = 'print("hello, world")'
    code_stderr = 'io.stderr:write("something went wrong\\n")'

    # Matches replace [cursor_start, cursor_end): the word being typed.
    completion_samples = [
        {"text": "pri", "matches": {"print"}},
        {"text": "tf.resh", "matches": {"reshape"}},
        {"text": "string.up", "matches": {"upper"}},
        {"text": "tf.errors.InvalidArg", "matches": {"InvalidArgumentError"}},
    ]

    complete_code_samples = ["x = 1", 'print("hi")', "local t = {1, 2}",
                             "%time x = 1", "%%time\nx = 1"]
    incomplete_code_samples = ["for i = 1, 3 do", "function f(x)", "local t = {",
                               "if x then\n  print(x)"]
    invalid_code_samples = ["x = = 1", "end", "local 1 = 2"]

    code_page_something = "tf.range?"
    code_generate_error = 'error("boom")'

    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": "6 * 7", "result": "42"},
        {"code": "tf.constant({1, 2})", "mime": "text/html"},
    ]
    code_display_data = [
        {"code": "tf.display(tf.constant({1, 2}))", "mime": "text/html"},
        {"code": "tf.display(tf.constant(3))", "mime": "text/plain"},
    ]

    # Must match one of code_execute_result's codes.
    code_history_pattern = "1 + ?"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "tf.range"
    code_clear_output = "tf.clear_output()"

    @classmethod
    def setUpClass(cls):
        install_kernelspec()
        log = open(kernel_log_path("conformance"), "ab")
        atexit.register(log.close)
        cls.km, cls.kc = start_new_kernel(kernel_name=cls.kernel_name, startup_timeout=TIMEOUT,
                                          stdout=log, stderr=log)


if __name__ == "__main__":
    unittest.main()
