"""edgel.segment_curves on the curves of rendered scenes of known pieces (a rounded rectangle,
a rectangle, a disk, an ellipse): the kinds and counts of the pieces and their fits."""
import math
import pathlib
import sys

import numpy as np
import pytest

import edgel

ndimage = pytest.importorskip("scipy.ndimage")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from scenes import render  # noqa: E402


def curves_of(inside, size):
    img = ndimage.gaussian_filter(render(size, inside), 1.0)
    return edgel.subpixel_edges(img, 1.0, 15, 5)


def rounded(x0, y0, x1, y1, r):
    def inside(x, y):
        cx, cy = np.clip(x, x0 + r, x1 - r), np.clip(y, y0 + r, y1 - r)
        return (x - cx) ** 2 + (y - cy) ** 2 < r ** 2
    return inside


def kinds_round(pieces):
    """The kinds in order round a closed curve, the piece its first point cut in two joined."""
    kinds = [p.kind[0].upper() for p in pieces]
    if len(kinds) > 1 and kinds[0] == kinds[-1]:
        kinds = kinds[:-1]
    return "".join(kinds)


@pytest.mark.parametrize("shift", [0.0, 0.37, 3.6])
def test_rounded_rectangle_is_four_lines_and_four_arcs(shift):
    c = curves_of(rounded(20.3 + shift, 15.7, 100.2 + shift, 70.6, 12), 124)
    assert len(c) == 1 and c.closed[0]
    pieces = edgel.segment_curves(c)
    kinds = kinds_round(pieces)
    assert len(kinds) == 8 and kinds in ("LC" * 4, "CL" * 4)
    for p in pieces:
        if p.kind == "circle" and p.count > 10:
            assert p.fit.radius == pytest.approx(12, abs=0.3)
    sides = sorted((p for p in pieces if p.kind == "line"), key=lambda p: -p.count)[:4]
    distances = sorted(p.fit.distance for p in sides)
    # (a side's pieces hold a few points of the blurred turn into the arcs, which lie inwards)
    assert distances == pytest.approx([15.7, 20.3 + shift, 70.6, 100.2 + shift], abs=0.1)


def test_rectangle_sides_are_lines():
    c = curves_of(lambda x, y: (x > 20.4) & (x < 90.7) & (y > 15.2) & (y < 60.9), 110)
    pieces = edgel.segment_curves(c)
    long = [p for p in pieces if p.count > 8]
    assert {p.kind for p in long} == {"line"} and len(long) in (4, 5)
    assert all(p.count <= 8 for p in pieces if p.kind != "line")  # (the blurred corners)
    want = [15.2, 20.4, 60.9, 90.7]
    for p in long:
        assert min(abs(p.fit.distance - w) for w in want) < 0.05


def test_disk_is_one_circle_and_ellipse_one_ellipse():
    c = curves_of(lambda x, y: (x - 40.3) ** 2 + (y - 39.6) ** 2 < 25 ** 2, 80)
    c = edgel.refine_curves(c, 1.0, blur=1.0)  # (the detector's points lie inside a disk)
    (p,) = edgel.segment_curves(c)
    assert p.kind == "circle" and p.count == len(c[0]) - 1
    assert (p.fit.cx, p.fit.cy, p.fit.radius) == pytest.approx((40.3, 39.6, 25), abs=0.02)
    t = 0.4

    def inside(x, y):
        u = math.cos(t) * (x - 50.2) + math.sin(t) * (y - 40.1)
        v = -math.sin(t) * (x - 50.2) + math.cos(t) * (y - 40.1)
        return (u / 35) ** 2 + (v / 20) ** 2 < 1
    c = curves_of(inside, 100)
    (p,) = edgel.segment_curves(c, mode="lines_ellipses")
    assert p.kind == "ellipse"
    assert (p.fit.a, p.fit.b) == pytest.approx((35, 20), abs=0.15)
    assert p.fit.angle == pytest.approx(t, abs=0.01)
    assert all(q.kind != "ellipse" for q in edgel.segment_curves(c))


def test_own_points_and_refusals():
    t = np.linspace(0, math.pi, 200)
    arc = np.c_[10 * np.cos(t), 10 * np.sin(t)]
    ell = np.c_[np.r_[0:30:0.5], np.zeros(60)]
    pieces = edgel.segment_curves([arc, ell])
    assert [(p.kind, p.curve) for p in pieces] == [("circle", 0), ("line", 1)]
    assert pieces[1].first == 200 and pieces[1].count == 60
    assert repr(pieces[0]).startswith("Piece(circle, curve 0, points 0..199, CircleFit(")
    with pytest.raises(ValueError, match="mode"):
        edgel.segment_curves([arc], mode="splines")
    with pytest.raises(edgel.EdgelError, match="max_distance"):
        edgel.segment_curves([arc], max_distance=0)
    with pytest.raises(ValueError, match="flags"):
        edgel.segment_curves([arc], closed=[True, False])


def test_command_writes_pieces_as_dxf_json_and_svg(tmp_path, edgel_cmd):
    ezdxf = pytest.importorskip("ezdxf")
    import json
    import subprocess
    from PIL import Image
    img = ndimage.gaussian_filter(render(140, rounded(20.3, 15.7, 110.2, 80.6, 14)), 1.0)
    png = tmp_path / "part.png"
    Image.fromarray(np.clip(np.rint(img), 0, 255).astype(np.uint8)).save(png)
    args = ["-s", "1", "-h", "15", "-l", "5", "--segment", "lines_circles"]
    for ext in ("dxf", "json", "svg"):
        subprocess.run([edgel_cmd, "contours", str(png), "-o", str(tmp_path / f"p.{ext}"), *args],
                       check=True, capture_output=True)
    entities = list(ezdxf.readfile(tmp_path / "p.dxf").modelspace())
    assert sorted(e.dxftype() for e in entities) == ["ARC"] * 4 + ["LINE"] * 4
    for e in entities:  # DXF's y runs up: the image's y negated
        if e.dxftype() == "ARC":
            assert e.dxf.radius == pytest.approx(14, abs=0.3)
            # a corner's quarter: the arc runs round the outside of the part
            mid = math.radians((e.dxf.start_angle + (e.dxf.end_angle - e.dxf.start_angle) % 360 / 2))
            x, y = e.dxf.center[0] + math.cos(mid), -(e.dxf.center[1] + math.sin(mid))
            assert x < 20.3 + 14 or x > 110.2 - 14
            assert y < 15.7 + 14 or y > 80.6 - 14
    pieces = json.loads((tmp_path / "p.json").read_text())["pieces"]
    assert [p["kind"] for p in pieces].count("line") == 4
    svg = (tmp_path / "p.svg").read_text()
    assert svg.count("<line ") == 4 and svg.count("<path ") == 4
    bad = subprocess.run([edgel_cmd, "contours", str(png), "-o", str(tmp_path / "p.txt"), *args],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and ".json, .svg or .dxf" in bad.stderr
    assert not (tmp_path / "p.txt").exists()
