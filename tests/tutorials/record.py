"""Lesson authors' tool: runs lessons and writes what each step really
printed into its ```output block (adding, replacing or removing blocks);
blocks that already match, wildcards included, are left alone.

    /usr/bin/python3 tests/tutorials/record.py [NAME ...]   (default: all)

Review the diff: the text around an output must stay true to it."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lessons  # noqa: E402


def record(name):
    path = os.path.join(lessons.TUTORIALS, name + ".md")
    steps, finished, raw = lessons.run_lesson(name)
    lines = open(path, encoding="utf-8").read().split("\n")
    changed = 0
    for s in reversed([s for s in steps if s.kind == "code"]):
        if s.error:
            # Its block stays as written: a step that fails tells nothing.
            print(f"{name} step {s.index} (line {s.line}) raised:\n{s.error}", file=sys.stderr)
            continue
        if lessons.matches(s.expected, s.actual, s.tolerance):
            continue
        actual = lessons.normalise(s.actual)
        fence = "```output ±%g" % s.tolerance if s.tolerance else "```output"
        block = [fence] + actual.split("\n") + ["```"] if actual else []
        if s.output_line:
            start = s.output_line - 1
            end = start + 1
            while lines[end] != "```":
                end += 1
            lines[start:end + 1] = block
        else:
            lines[s.code_end:s.code_end] = block
        changed += 1
    if changed:
        open(path, "w", encoding="utf-8").write("\n".join(lines))
    for s in steps:
        if s.kind == "exercise":
            print(f"{name} exercise {s.exercise}: {s.checks}")
    print(f"{name}: {changed} output block(s) written{'' if finished else ', DID NOT FINISH'}")


def main():
    names = sys.argv[1:] or lessons.lesson_names()
    for name in names:
        record(name)


if __name__ == "__main__":
    main()
