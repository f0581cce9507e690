"""The printed case (tools/kit/case.py), checked without a printer.

Each profile with a case is built once for the module (build123d), its
parts exported as STL and measured on those meshes (trimesh, manifold3d):

1. every mesh is closed and manifold: watertight, consistent winding,
   positive volume;
2. thickness, in plan: every horizontal cross-section of every part, cut
   every 0.5 mm, keeps its area when opened with a disc of the minimum
   thickness (eroded, then dilated by half of it): material lost there is
   a wall, post or web thinner than the minimum; in height: along vertical
   lines every 0.4 mm, every stretch of material (floor, plate, the wall
   over an opening) is at least the minimum.  Minimum 1.6 mm; the diffuser
   is a deliberate thin plate with its own minimum (0.6 mm); the lid's top
   GROOVE_DEPTH (the engraving's sides, decoration) is left out of the
   lid's cut, and the lid under each groove is measured on its own (5.);
3. every electronic part's outline (kit/outlines.json) placed in the case,
   grown by 0.3 mm on every side but the one it rests on, meets no printed
   part; no two parts (printed or electronic) overlap;
4. every LED window (the lid's circular edges of the window's radius) is
   centred on its LED within 0.2 mm, the LEDs placed from the profile's
   pitch;
5. a groove runs along each of the 38 lines of jarmo/board.py, leaving at
   least 1.2 mm of lid, and the lid is whole between neighbouring points
   that no line joins;
6. every STL slices in PrusaSlicer, with a positive print time and
   filament.

The volume tier only (marker `full`): about half a minute a profile.
"""

import math
import os

import pytest

from tests.needs import missing

PROFILES = ("handheld", "tabletop")
WALL_MIN = 1.6
DIFFUSER_MIN = 0.6
LID_UNDER_GROOVE_MIN = 1.2
CLEARANCE = 0.3
WINDOW_TOLERANCE = 0.2
SECTION_STEP = 0.5
RAY_STEP = 0.4
# Opening rounds every convex corner off: the slivers it removes there are
# at most r (sqrt 2 - 1) = 0.33 mm across (r = 0.8 mm).  What is left of the
# removed material after shrinking it by SLIVER is a thin wall, not a corner.
SLIVER = 0.2
OVERLAP_VOLUME = 1e-3   # mm^3: numerical noise of touching faces

pytestmark = pytest.mark.full


def _needs():
    try:
        import build123d  # noqa: F401
        import manifold3d  # noqa: F401
        import trimesh  # noqa: F401
    except ImportError as err:
        missing("the CAD packages of kit/requirements.txt are not installed (%s)" % err)


@pytest.fixture(scope="module", params=PROFILES)
def built(request, tmp_path_factory):
    _needs()
    from tools.kit import case
    name = request.param
    out = str(tmp_path_factory.mktemp(name))
    asm = case.assembly(name)
    paths = case.write_case(name, out, render=False, asm=asm)
    stls = {os.path.splitext(os.path.basename(p))[0]: p for p in paths if p.endswith(".stl")}
    return {"name": name, "asm": asm, "stls": stls, "dir": out}


def _mesh(path):
    import trimesh
    return trimesh.load(path, force="mesh")


def _manifold(path):
    import manifold3d as m3
    import numpy as np
    mesh = _mesh(path)
    return m3.Manifold(m3.Mesh(vert_properties=np.asarray(mesh.vertices, dtype=np.float32),
                               tri_verts=np.asarray(mesh.faces, dtype=np.uint32)))


def test_meshes_are_closed_and_manifold(built):
    assert set(built["stls"]) >= {"lid", "diffuser", "carrier", "base", "button-caps"}
    for part, path in built["stls"].items():
        mesh = _mesh(path)
        assert mesh.is_watertight, part
        assert mesh.is_winding_consistent, part
        assert mesh.volume > 0, part
        assert _manifold(path).status().name == "NoError", part


def thin_in_plan(solid, minimum, step=SECTION_STEP):
    """(z, bounds) of every piece of a horizontal cross-section thinner than
    `minimum` (walls, posts, bosses, webs between holes): what opening the
    section with a disc of that diameter removes, beyond a corner's rounding."""
    out = []
    r = minimum / 2 * 0.999     # a wall of exactly the minimum passes
    lo, hi = solid.bounding_box()[2], solid.bounding_box()[5]
    level = lo + 0.237
    while level < hi:
        section = solid.slice(level)
        core = (section - section.offset(-r).offset(r)).offset(-SLIVER)
        for piece in core.decompose():
            if piece.area() > 1e-3:
                out.append((round(level, 2), [round(v, 1) for v in piece.bounds()]))
        level += step
    return out


def thin_in_height(solid, minimum, step=RAY_STEP):
    """(x, y, length) of every stretch of material thinner than `minimum`
    along vertical lines every `step` mm (floors, plates, ledges, the
    material over and under openings in the walls)."""
    out = []
    x0, y0, z0, x1, y1, z1 = solid.bounding_box()
    x = x0 + 0.137
    while x < x1:
        y = y0 + 0.173
        while y < y1:
            for length in _runs(solid.ray_cast((x, y, z1 + 1), (x, y, z0 - 1))):
                if length < minimum - 1e-3:
                    out.append((round(x, 2), round(y, 2), round(length, 3)))
            y += step
        x += step
    return out


def _runs(hits):
    """Lengths of material along a downward ray: from each face entered
    (pointing up) to the next face left (pointing down); faces along the ray
    are ignored."""
    runs, start = [], None
    for hit in hits:
        nz = hit.normal[2]
        if nz > 0.5 and start is None:
            start = hit.position[2]
        elif nz < -0.5 and start is not None:
            runs.append(start - hit.position[2])
            start = None
    return runs


def test_walls_are_thick_enough(built):
    from tools.kit import case
    L = built["asm"]["layout"]
    for part, path in built["stls"].items():
        solid = _manifold(path)
        minimum = WALL_MIN
        if part == "diffuser":
            minimum = DIFFUSER_MIN
            assert case.DIFFUSER_T >= DIFFUSER_MIN
        if part == "lid":
            top = L["lid_z"] + case.LID_T
            solid = solid.trim_by_plane((0, 0, -1), -(top - case.GROOVE_DEPTH))
            assert solid.volume() > 0
        spots = thin_in_plan(solid, minimum)
        assert not spots, "%s: thinner than %s mm in plan at %s" % (part, minimum, spots[:10])
        spots = thin_in_height(solid, minimum)
        assert not spots, "%s: thinner than %s mm in height at %s" % (part, minimum, spots[:10])


def _overlap(a, b):
    return (a ^ b).volume()


def test_parts_fit_with_clearance_and_nothing_collides(built):
    from tools.kit import case
    printed = {part: _manifold(path) for part, path in built["stls"].items()}
    electronics = built["asm"]["electronics"]
    assert len(electronics) > 30
    bad = []
    for e in electronics:
        zone = case.outline_manifold(e, CLEARANCE)
        for part, solid in printed.items():
            v = _overlap(zone, solid)
            if v > OVERLAP_VOLUME:
                bad.append("%s within %s mm of %s (%.3f mm^3)" % (e["name"], CLEARANCE, part, v))
    outlines = [(e["name"], case.outline_manifold(e)) for e in electronics]
    solids = outlines + list(printed.items())
    for i, (name_a, a) in enumerate(solids):
        for name_b, b in solids[i + 1:]:
            v = _overlap(a, b)
            if v > OVERLAP_VOLUME:
                bad.append("%s overlaps %s (%.3f mm^3)" % (name_a, name_b, v))
    assert not bad, "\n".join(bad)


def _expected_leds(name):
    from hardware import profiles
    pitch = profiles.get(name)["pitch_mm"]
    return [((p % 5 - 2) * pitch, (p // 5 - 2) * pitch) for p in range(25)]


def test_led_windows_are_centred_on_the_leds(built):
    from build123d import GeomType
    L = built["asm"]["layout"]
    lid = built["asm"]["parts"]["lid"]
    r = L["window_d"] / 2
    centres = [e.arc_center for e in lid.edges().filter_by(GeomType.CIRCLE) if abs(e.radius - r) < 1e-3]
    leds = _expected_leds(built["name"])
    assert [tuple(round(v, 3) for v in c[:2]) for c in built["asm"]["leds"]] == \
        [tuple(round(v, 3) for v in c) for c in leds]
    for x, y in leds:
        near = [math.hypot(c.X - x, c.Y - y) for c in centres]
        assert near and min(near) <= WINDOW_TOLERANCE, (x, y, min(near, default=None))
    # a window's top and bottom circle (or its halves), nothing else of that size
    assert len(centres) >= 2 * 25
    for c in centres:
        assert min(math.hypot(c.X - x, c.Y - y) for x, y in leds) <= WINDOW_TOLERANCE


def _surface_under(solid, x, y, z_top):
    """z of the first surface met going down at (x, y), and the material's
    thickness there."""
    hits = solid.ray_cast((x, y, z_top + 5), (x, y, z_top - 20))
    assert len(hits) >= 2, (x, y)
    zs = sorted((h.position[2] for h in hits), reverse=True)
    return zs[0], zs[0] - zs[1]


def _seg_dist(px, py, x0, y0, x1, y1):
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x0 + t * dx - px, y0 + t * dy - py)


def test_grooves_follow_the_board_lines(built):
    from jarmo import board
    from tools.kit import case
    L = built["asm"]["layout"]
    lid = _manifold(built["stls"]["lid"])
    top = L["lid_z"] + case.LID_T
    floor = top - case.GROOVE_DEPTH
    leds = _expected_leds(built["name"])
    lines = board.line_pairs(board.LINES)
    assert len(lines) == 38
    for a, b in lines:
        (x0, y0), (x1, y1) = leds[a], leds[b]
        for t in (0.4, 0.5, 0.6):
            z, thickness = _surface_under(lid, x0 + t * (x1 - x0), y0 + t * (y1 - y0), top)
            assert abs(z - floor) < 0.02, (board.NAMES[a], board.NAMES[b], t, z)
            assert thickness >= LID_UNDER_GROOVE_MIN, (board.NAMES[a], board.NAMES[b], thickness)
    # neighbours (orthogonal, diagonal, a knight's step) that no line joins:
    # their midpoint, away from every line and marker ring, is not engraved
    joined = set(lines) | set(board.line_pairs(board.DOTTED_LINE))
    joined |= {(b, a) for a, b in joined}
    segments = [leds[a] + leds[b] for a, b in joined]
    rings = [(leds[board.point(n)], 0.42 * L["pitch"]) for n in board.MARKERS]
    margin = L["style"]["groove_w"] / 2 + 1.0
    checked = 0
    for a in range(25):
        for b in range(a + 1, 25):
            (x0, y0), (x1, y1) = leds[a], leds[b]
            if (a, b) in joined or math.hypot(x1 - x0, y1 - y0) > 2.3 * L["pitch"]:
                continue
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            if min(_seg_dist(mx, my, *s) for s in segments) < margin:
                continue
            if min(abs(math.hypot(mx - cx, my - cy) - r) for (cx, cy), r in rings) < margin:
                continue
            z, _ = _surface_under(lid, mx, my, top)
            assert abs(z - top) < 0.02, (board.NAMES[a], board.NAMES[b], z)
            checked += 1
    assert checked >= 5


def test_every_part_slices(built):
    from tools.kit import slicer
    reason = slicer.unavailable_reason()
    if reason:
        missing(reason)
    rows = slicer.slice_parts(sorted(built["stls"].values()), os.path.join(built["dir"], "slice"))
    assert {r["part"] for r in rows} == set(built["stls"])
    for r in rows:
        assert r["seconds"] > 0 and r["filament_mm"] > 0 and r["filament_g"] > 0, r


def test_the_case_writes_the_files_the_guide_names(built):
    from tools.kit import case
    names = sorted(n for n in os.listdir(built["dir"]) if n.endswith((".stl", ".step")))
    expected = sorted(f for f in case.file_names(built["name"]) if not f.endswith(".png"))
    assert names == expected


def test_the_docs_pictures_are_the_cases_render(built, tmp_path):
    # docs/kit/handheld/render*.png (the README's and the web page's
    # pictures) show the case as the code builds it: rendered again here,
    # they differ from the committed ones by at most a few pixels
    from PIL import Image, ImageChops

    from tools.kit import case, make
    if built["name"] != make.DOCS_PROFILE:
        return
    for name in os.listdir(built["dir"]):
        if name.endswith(".stl"):
            os.link(os.path.join(built["dir"], name), str(tmp_path / name))
    for path in case.render_pictures(built["asm"], str(tmp_path)):
        fresh = Image.open(path).convert("RGB")
        committed = Image.open(os.path.join(make.DOCS_KIT, make.DOCS_PROFILE,
                                            os.path.basename(path))).convert("RGB")
        assert fresh.size == committed.size, "python3 run.py kit --docs renders them again"
        diff = ImageChops.difference(fresh, committed).convert("L").point(lambda v: 255 if v > 40 else 0)
        changed = sum(diff.histogram()[255:])
        assert changed <= 0.002 * fresh.size[0] * fresh.size[1], (
            "%d pixels differ: python3 run.py kit --docs renders them again" % changed)
