#!/usr/bin/env python3
"""Makes docs/chelsea-edges.png for the README: a sample photograph and, beside it, the edge
map `edgel detect` writes for it (the edges come from the edgel command; Python only puts the
two side by side)."""
import pathlib
import subprocess
import tempfile

import cv2
import numpy as np

root = pathlib.Path(__file__).resolve().parents[1]
src = root / "samples" / "chelsea.png"
with tempfile.TemporaryDirectory() as tmp:
    out = pathlib.Path(tmp) / "edges.png"
    subprocess.run([str(root / "build" / "edgel"), "detect", str(src), "-o", str(out),
                    "--blur", "1.4", "--low", "40", "--high", "120"], check=True)
    edges = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
photo = cv2.imread(str(src), cv2.IMREAD_COLOR)
gap = np.full((photo.shape[0], 8, 3), 255, np.uint8)
side = np.concatenate([photo, gap, cv2.cvtColor(edges, cv2.COLOR_GRAY2BGR)], axis=1)
cv2.imwrite(str(root / "docs" / "chelsea-edges.png"), side, [cv2.IMWRITE_PNG_COMPRESSION, 9])
print("wrote docs/chelsea-edges.png")
