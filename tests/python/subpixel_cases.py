"""The sub-pixel detector's conformance cases, shared by its tests and by
scripts/make-subpixel-golden.py: images (seeded, or the bundled samples) with the reference
program's parameters, and the canonical text of a result (hex floats) whose SHA-256 the
golden file holds."""
import hashlib
import pathlib
import subprocess

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "subpixel.json"
PARAMS = [(0.0, 0.0, 0.0), (1.0, 15.0, 5.0), (0.6, 4.0, 1.0), (2.5, 2.0, 2.0)]


def _disk(n, cx, cy, r, blur_free=True):
    yy, xx = np.mgrid[0:n, 0:n]
    return np.where((xx - cx) ** 2 + (yy - cy) ** 2 <= r * r, 200, 40).astype(np.uint8)


def synthetic():
    """name -> image: sizes from 1x1, flat images, noise, shapes with exact ties."""
    rng = np.random.default_rng(20261128)
    cases = {}
    for h in (1, 2, 4, 5, 6, 9):
        for w in (1, 3, 5, 7, 12):
            cases[f"noise-{h}x{w}"] = rng.integers(0, 256, (h, w), dtype=np.uint8)
    cases["flat-32x24"] = np.full((24, 32), 77, np.uint8)
    cases["noise-48x64"] = rng.integers(0, 256, (48, 64), dtype=np.uint8)
    cases["noise-u16-40x30"] = rng.integers(0, 65536, (30, 40), dtype=np.uint16)
    cases["noise-f32-33x31"] = (rng.standard_normal((31, 33)) * 40).astype(np.float32)
    cases["noise-f64-20x50"] = rng.standard_normal((50, 20)) * 1e3
    step = np.zeros((40, 40), np.uint8)
    step[:, 20:] = 255
    cases["step-vertical"] = step
    cases["step-horizontal"] = np.ascontiguousarray(step.T)
    cases["step-diagonal"] = np.where(np.add.outer(np.arange(40), np.arange(40)) >= 40, 255,
                                      0).astype(np.uint8)
    cases["checkerboard"] = (np.indices((36, 36)).sum(axis=0) // 6 % 2 * 255).astype(np.uint8)
    cases["ramp"] = np.add.outer(np.arange(30), np.arange(30) * 2).astype(np.uint8)
    cases["square"] = np.pad(np.full((12, 12), 180, np.uint8), 14, constant_values=20)
    cases["disk-integer"] = _disk(48, 24, 24, 12)
    cases["disk-offset"] = _disk(48, 23.37, 24.81, 9.6)
    cases["lines"] = np.tile(np.array([0, 0, 255, 255, 0, 0, 0, 255], np.uint8), (24, 5))
    return cases


def samples():
    """name -> the bundled sample photographs as 8-bit gray (cv2's luma)."""
    import cv2
    return {p.stem: cv2.imread(str(p), cv2.IMREAD_GRAYSCALE)
            for p in sorted((ROOT / "samples").glob("*.png"))}


def canonical(curves) -> str:
    """A result as text: a line a point, "x y" as hex floats, "end" after each curve (the
    oracle program's output)."""
    lines = []
    for c in curves:
        lines += [f"{float(x).hex()} {float(y).hex()}" for x, y in c]
        lines.append("end")
    return "\n".join(lines) + ("\n" if lines else "")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def c_hex(text: str) -> str:
    """The oracle's C99 %a text in Python's float.hex() spelling, point by point."""
    out = []
    for line in text.splitlines():
        out.append(line if line == "end" else " ".join(float.fromhex(v).hex()
                                                        for v in line.split()))
    return "\n".join(out) + ("\n" if out else "")


def run_oracle(oracle, image, sigma, high, low) -> str:
    a = np.ascontiguousarray(image, np.float64)
    r = subprocess.run([str(oracle), str(a.shape[1]), str(a.shape[0]), repr(sigma), repr(high),
                        repr(low)], input=a.tobytes(), capture_output=True, check=True)
    return c_hex(r.stdout.decode())
