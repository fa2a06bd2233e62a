"""Runs the unittest modules test_*.py in a directory and prints TAP, so
tests/run.sh counts Python tests like every other suite."""
import os
import sys
import unittest


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0

    def _line(self, ok, test, detail=None):
        self.n += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {test.id()}", flush=True)
        if detail:
            for line in detail.rstrip().splitlines():
                print(f"#   {line}", flush=True)

    def addSuccess(self, test):
        self._line(True, test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(False, test, self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self._line(False, test, self._exc_info_to_string(err, test))

    def addSubTest(self, test, subtest, err):
        # Only failing subtests are reported; the test itself reports success.
        if err is not None:
            super().addSubTest(test, subtest, err)
            self._line(False, subtest, self._exc_info_to_string(err, subtest))

    def addSkip(self, test, reason):
        # A skipped assertion is a defect: report it as a failure.
        self._line(False, test, f"skipped: {reason}")

    def addExpectedFailure(self, test, err):
        self._line(False, test, "expected failure is not allowed")

    def addUnexpectedSuccess(self, test):
        self._line(False, test, "unexpected success")


def main():
    directory = sys.argv[1]
    sys.path.insert(0, os.path.abspath(directory))
    sys.path.insert(0, os.path.abspath(os.path.dirname(__file__)))
    suite = unittest.defaultTestLoader.discover(directory, pattern="test_*.py",
                                                top_level_dir=directory)
    result = TapResult()
    suite.run(result)
    print(f"1..{result.n}")
    sys.exit(0 if result.wasSuccessful() and result.n > 0 else 1)


if __name__ == "__main__":
    main()
