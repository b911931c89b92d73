#!/usr/bin/env python3
"""Writes tests/golden/subpixel.json: the SHA-256 of the reference Canny/Devernay program's
output (and its point and curve counts) for each conformance case of
tests/python/subpixel_cases.py, so that the tests check edgel against the reference where
the reference is not built. Needs the oracle (built beside the tests where the reference's
files are present):
    python3 scripts/make-subpixel-golden.py build/tests/devernay_oracle"""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "python"))
import subpixel_cases as cases  # noqa: E402

oracle = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build/tests/devernay_oracle")
golden = {}
for name, image in {**cases.synthetic(), **cases.samples()}.items():
    for sigma, high, low in cases.PARAMS:
        text = cases.run_oracle(oracle, image, sigma, high, low)
        golden[f"{name} s={sigma} h={high} l={low}"] = {
            "sha256": cases.digest(text), "points": text.count("\n") - text.count("end"),
            "curves": text.count("end")}
cases.GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
print(f"wrote {cases.GOLDEN} ({len(golden)} cases)")
