"""Shared by the tutorial tests and tools: where the lessons and the binary
are, running one lesson through run_lesson.lua in a fresh `moonflow`
process, and matching a step's output against its expected ```output
block (a line "..." matches any number of lines, "<...>" any text within
a line; in a block opened "```output ±T" each number may differ by up to T)."""
import glob
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("MOONFLOW_ROOT") or os.path.abspath(os.path.join(HERE, "..", ".."))
BIN = os.environ.get("MOONFLOW_BIN") or os.path.join(ROOT, "build", "release", "moonflow")
TUTORIALS = os.path.join(ROOT, "tutorials")
RUNNER = os.path.join(HERE, "run_lesson.lua")
SLOW = 3 if os.environ.get("MOONFLOW_SANITIZE") == "1" else 1
RS = "\x1e"


def lesson_names():
    return sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(TUTORIALS, "[0-9][0-9]-*.md")))


def environment():
    env = dict(os.environ)
    env.update(NO_COLOR="1", TERM="dumb", MOONFLOW_TUTORIALS=TUTORIALS)
    env.setdefault("OPENBLAS_NUM_THREADS", "2")
    return env


class Step:
    def __init__(self, index, kind):
        self.index, self.kind = index, kind
        self.line = self.code_end = self.output_line = 0
        self.tolerance = 0
        self.expected = None
        self.actual = ""
        self.error = None
        self.exercise = None
        self.checks = {}


def run_lesson(name, timeout=300, tutorials=None):
    """Runs a lesson (from `tutorials`, default the repository's) in a
    fresh process; returns (steps, finished, raw output)."""
    env = environment()
    if tutorials:
        env["MOONFLOW_TUTORIALS"] = tutorials
    proc = subprocess.run([BIN, RUNNER, name], capture_output=False, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT,
                          timeout=timeout * SLOW)
    steps, finished = parse_records(proc.stdout)
    return steps, finished, proc.stdout


def parse_records(output):
    """The steps run_lesson.lua reported in `output`, and whether it
    reached the lesson's end."""
    steps, finished = [], False
    step, field, text = None, None, []

    def flush():
        if step is None or field is None:
            return
        body = "\n".join(text)
        if field == "expected":
            step.expected = body
        elif field == "actual":
            step.actual = body
        elif field == "error":
            step.error = body

    for line in output.split("\n"):
        if not line.startswith(RS):
            text.append(line)
            continue
        flush()
        text = []
        words = line[1:].split(" ", 2)
        tag = words[0]
        if tag == "step":
            fields = line[1:].split()
            index, first, end, output_line = (int(w) for w in fields[1:5])
            step = Step(index, "code")
            step.line, step.code_end, step.output_line = first, end, output_line
            step.tolerance = float(fields[5])
            steps.append(step)
            field = "expected"
        elif tag == "actual":
            field = "actual"
        elif tag == "error":
            field = "error"
        elif tag == "exercise":
            step = Step(int(words[1]), "exercise")
            step.exercise = int(words[2])
            steps.append(step)
            field = None
        elif tag in ("starter-check", "solution-check"):
            step.checks[tag] = (words[1], words[2] if len(words) > 2 else "")
            field = None
        elif tag == "end":
            finished = True
            field = None
    flush()
    for s in steps:
        if s.kind == "code" and s.output_line == 0:
            s.expected = None
    return steps, finished


NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def literal(text, tolerance):
    """The regex for literal expected text: exact, or with every number
    captured (to be compared within `tolerance`) when tolerance > 0."""
    if not tolerance:
        return re.escape(text)
    parts, last = [], 0
    for m in NUMBER.finditer(text):
        parts.append(re.escape(text[last:m.start()]) + r"(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)")
        last = m.end()
    return "".join(parts) + re.escape(text[last:])


def pattern(expected, tolerance=0):
    """The regex an expected output block stands for."""
    parts = []
    for line in expected.split("\n"):
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(literal(p, tolerance) for p in line.split("<...>")) + r"\n")
    return "".join(parts)


def normalise(text):
    return text.rstrip("\n")


def matches(expected, actual, tolerance=0):
    expected = normalise(expected or "")
    actual = normalise(actual)
    if expected == "":
        return actual == ""
    m = re.fullmatch(pattern(expected, tolerance), actual + "\n")
    if m is None:
        return False
    wanted = [float(n) for n in NUMBER.findall("".join(expected.split("<...>")))] if tolerance else []
    return all(abs(float(got) - want) <= tolerance + 1e-12
               for got, want in zip(m.groups(), wanted))
