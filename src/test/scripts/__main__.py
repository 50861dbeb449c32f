"""The measurement scripts, in one place: lists them, or runs one by its name.

    python3 src/test/scripts                       the list, with what each measures
    python3 src/test/scripts steady --rounds 3     runs steady.py with those arguments

Each script also runs on its own (python3 src/test/scripts/steady.py ...), and the ones that share
code import each other as plain modules (import first_seconds), since they sit in one folder.
Python 3 standard library only; the shell scripts run under bash.
"""
import ast
import os
import runpy
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def summary(path):
    """The first line of a Python script's docstring, or of a shell script's leading comment."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".py"):
        doc = ast.get_docstring(ast.parse(text)) or ""
        return doc.strip().split("\n")[0]
    for line in text.split("\n")[1:]:
        if line.startswith("# ") and line[2:].strip():
            return line[2:].strip()
    return ""


def runnable(path):
    """A shell script, or a Python script with a main guard (not one only imported by the others)."""
    if path.endswith(".sh"):
        return True
    with open(path, encoding="utf-8") as f:
        return 'if __name__ == "__main__":' in f.read()


def scripts():
    """Name (file name less its suffix) to path, for every file beside this one, runnable or not."""
    found = {}
    for name in sorted(os.listdir(HERE)):
        base, ext = os.path.splitext(name)
        if ext in (".py", ".sh") and not base.startswith("_"):
            found[base] = os.path.join(HERE, name)
    return found


def main(argv):
    found = scripts()
    if not argv or argv[0] in ("-h", "--help", "list"):
        print(__doc__.strip().split("\n")[0] + "\n")
        width = max(len(n) for n in found)
        for name, path in found.items():
            if runnable(path):
                print("  %-*s  %s" % (width, name, summary(path)))
        print("\nShared by the scripts above (imported, not run):\n")
        for name, path in found.items():
            if not runnable(path):
                print("  %-*s  %s" % (width, name, summary(path)))
        print("\n%s NAME --help shows a script's own options." % " ".join(["python3", os.path.relpath(HERE)]))
        return 0
    name = argv[0].removesuffix(".py").removesuffix(".sh")
    path = found.get(name) or found.get(name.replace("-", "_"))
    if path is None or not runnable(path):
        print("no script %r; the list: python3 %s" % (argv[0], os.path.relpath(HERE)), file=sys.stderr)
        return 2
    if path.endswith(".sh"):
        if "-h" in argv[1:] or "--help" in argv[1:]:
            # The shell scripts take no options of their own: their header says how to run them.
            with open(path, encoding="utf-8") as f:
                for line in f.read().split("\n")[1:]:
                    if not line.startswith("#"):
                        break
                    print(line[2:])
            return 0
        return subprocess.call(["bash", path] + argv[1:])
    sys.argv = [path] + argv[1:]
    runpy.run_path(path, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
