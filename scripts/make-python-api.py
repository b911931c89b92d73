#!/usr/bin/env python3
"""Writes docs/python-api.md, the Python module's reference, from its signatures and
docstrings (so it says what help() says). `--check` fails where the file is not current (the
tests run that).
    EDGEL_LIBRARY=build/libedgel.so PYTHONPATH=python python3 scripts/make-python-api.py"""
import inspect
import pathlib
import sys

import edgel
import edgel.dask

OUT = pathlib.Path(__file__).resolve().parents[1] / "docs" / "python-api.md"


def entry(module_name, name, obj):
    lines = []
    if inspect.isclass(obj):
        lines.append(f"### `{module_name}.{name}`\n")
        lines.append("```python\nclass " + name + str(inspect.signature(obj)) + "\n```\n")
        lines.append(inspect.getdoc(obj) or "")
        for meth_name, meth in inspect.getmembers(obj, inspect.isfunction):
            if meth_name.startswith("_") and meth_name not in ("__enter__", "__exit__"):
                continue
            doc = inspect.getdoc(meth)
            if doc:
                lines.append(f"\n- `{meth_name}{inspect.signature(meth)}`: {doc.splitlines()[0]}")
    else:
        lines.append(f"### `{module_name}.{name}`\n")
        lines.append(f"```python\n{name}{inspect.signature(obj)}\n```\n")
        lines.append(inspect.getdoc(obj) or "")
    return "\n".join(lines).rstrip() + "\n"


def render():
    parts = ["# The Python module\n",
             "Made by `scripts/make-python-api.py` from the module's signatures and docstrings "
             "(`help(edgel.canny)` says the same). Errors are `edgel.EdgelError`, with the "
             "library's status name in `.status`, or Python's own where the caller's values "
             "are wrong (`ValueError`, `TypeError`).\n"]
    for module, names in ((edgel, edgel.__all__),
                          (edgel.dask, edgel.dask.__all__)):
        parts.append(f"## `{module.__name__}`\n")
        doc = inspect.getdoc(module)
        if module is edgel.dask and doc:
            parts.append(doc + "\n")
        for name in names:
            obj = getattr(module, name)
            if callable(obj) and not name.startswith("__"):
                parts.append(entry(module.__name__, name, obj))
    return "\n".join(parts)


if __name__ == "__main__":
    text = render()
    if "--check" in sys.argv:
        if not OUT.exists() or OUT.read_text() != text:
            sys.exit(f"{OUT} is not current: run scripts/make-python-api.py")
        print(f"{OUT.name}: current")
    else:
        OUT.write_text(text)
        print(f"wrote {OUT}")
