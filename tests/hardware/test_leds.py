"""Leds: the point -> pixel table, brightness, one show() per changed frame, celebration."""

import pytest

from hardware import profiles
from hardware.leds import Leds, make_leds, pixel_map, profile_map, scale_level
from host import blinka


def _named(table):
    """pixel index of a few named points, for readable asserts."""
    from jarmo.board import point
    return {name: table[point(name)] for name in ("a1", "e1", "a5", "e5", "c3", "b1")}


class TestPixelMap:
    @pytest.mark.parametrize("rotation", (0, 90, 180, 270))
    @pytest.mark.parametrize("serpentine", (False, True))
    def test_is_a_permutation(self, rotation, serpentine):
        table = pixel_map(rotation, serpentine)
        assert isinstance(table, bytes) and len(table) == 25
        assert sorted(table) == list(range(25))

    def test_rotation_0_rows_from_the_top(self):
        # pixel 0 top-left as South sees the board: a5; a1 bottom-left.
        assert _named(pixel_map(0)) == {"a1": 20, "e1": 24, "a5": 0, "e5": 4, "c3": 12, "b1": 21}

    def test_rotation_90_turns_the_picture_clockwise(self):
        # turned a quarter clockwise, a5 (top-left) goes to top-right, a1 to top-left
        assert _named(pixel_map(90)) == {"a1": 0, "e1": 20, "a5": 4, "e5": 24, "c3": 12, "b1": 5}

    def test_rotation_180_and_270(self):
        assert _named(pixel_map(180)) == {"a1": 4, "e1": 0, "a5": 24, "e5": 20, "c3": 12, "b1": 3}
        assert _named(pixel_map(270)) == {"a1": 24, "e1": 4, "a5": 20, "e5": 0, "c3": 12, "b1": 19}

    def test_serpentine_reverses_odd_rows(self):
        plain, snake = pixel_map(0), pixel_map(0, True)
        for p in range(25):
            row, col = divmod(plain[p], 5)
            expect = row * 5 + (4 - col if row % 2 else col)
            assert snake[p] == expect
        # rank 4 is LED row 1: a4 is the row's last pixel in a serpentine chain
        assert snake[15] == 9 and plain[15] == 5

    def test_four_quarter_turns_are_the_identity(self):
        for serp in (False, True):
            assert pixel_map(0, serp) == pixel_map(0, serp)
        # rotation and serpentine combine: each pair of settings is a distinct table
        tables = {pixel_map(r, s) for r in (0, 90, 180, 270) for s in (False, True)}
        assert len(tables) == 8

    def test_bad_rotation(self):
        with pytest.raises(ValueError, match="rotation"):
            pixel_map(45)


class FakeApp:
    def __init__(self):
        self.frame = bytearray(75)
        self.frame_version = 1
        self.brightness = 255
        self.celebrate = None


def _leds(profile=None, cap=-1):
    profile = profile or profiles.HOST
    return make_leds(profile, cap, blinka.capturing_neopixel())


class TestLeds:
    def test_frame_goes_through_the_map_grb(self):
        leds = _leds(dict(profiles.HOST, rotation=90, serpentine=True))
        app = FakeApp()
        app.frame[0:3] = bytes((255, 0, 0))        # a1 red
        app.frame[72:75] = bytes((0, 0, 255))      # e5 blue
        assert leds.update(app) is True
        sent = leds.pixels.sent
        table = pixel_map(90, True)
        i = table[0] * 3
        assert sent[i:i + 3] == bytes((0, 255, 0))   # GRB order on the wire
        j = table[24] * 3
        assert sent[j:j + 3] == bytes((0, 0, 255))
        assert sum(sent) == 510
        assert blinka.sent_colours(leds.pixels, table)[0] == 0xFF0000
        leds.pixels.deinit()

    def test_one_show_per_changed_frame(self):
        leds = _leds()
        app = FakeApp()
        assert leds.update(app) is True
        shows = leds.pixels.shows
        for _ in range(5):
            assert leds.update(app) is False
        assert leds.pixels.shows == shows
        app.frame_version += 1
        assert leds.update(app) is True
        assert leds.pixels.shows == shows + 1
        leds.pixels.deinit()

    def test_brightness_cap_and_app_brightness(self):
        leds = _leds(cap=64)
        app = FakeApp()
        app.frame[:] = bytes([200]) * 75
        leds.update(app)
        level = scale_level(64, 255)
        assert leds.pixels.sent[0] == 200 * (level + 1) >> 8
        before = leds.pixels.shows
        app.brightness = 32      # a brightness change alone redraws
        assert leds.update(app) is True
        assert leds.pixels.shows == before + 1
        assert leds.pixels.sent[0] == 200 * (scale_level(64, 32) + 1) >> 8
        leds.pixels.deinit()

    def test_a_dim_piece_stays_lit_at_the_lowest_brightness(self):
        leds = _leds(cap=48)                 # qtpy_bff's cap, menu brightness 1 of 8
        app = FakeApp()
        app.brightness = 8
        app.frame[0:6] = b"\x40\x1c\x00\x10\x36\x50"     # dim South and North archers
        leds.update(app)
        south, north = list(blinka.sent_colours(leds.pixels, leds.map))[0:2]
        assert south == 0x010000 and north == 0x000001    # red and blue, not off
        leds.pixels.deinit()

    def test_full_brightness_is_exact(self):
        assert scale_level(255, 255) == 255
        leds = _leds()
        app = FakeApp()
        app.frame[:] = bytes(range(75))
        leds.update(app)
        assert list(blinka.sent_colours(leds.pixels, leds.map))[1] == (3 << 16) | (4 << 8) | 5
        leds.pixels.deinit()

    def test_celebration_runs_an_animation_then_the_frame_returns(self):
        import time
        leds = _leds()
        app = FakeApp()
        leds.update(app)
        app.celebrate = 0x56B4E9
        assert leds.update(app) is False
        assert leds.celebrating == 0x56B4E9
        shows = leds.pixels.shows
        deadline = time.monotonic() + 2
        while leds.pixels.shows < shows + 3 and time.monotonic() < deadline:
            leds.update(app)
        assert leds.pixels.shows >= shows + 3       # the pulse shows itself
        lit = [c for c in blinka.sent_colours(leds.pixels, leds.map) if c]
        assert all(c == lit[0] for c in lit)        # the whole grid in one colour
        app.celebrate = None
        assert leds.update(app) is True              # back to the app's frame
        assert leds.celebrating is None
        assert leds.pixels.sent == bytes(75)
        leds.pixels.deinit()

    def test_plain_leds_on_any_pixel_object(self):
        class Pixels(list):
            shown = 0

            def show(self):
                self.shown += 1
        px = Pixels([0] * 25)
        leds = Leds(px, pixel_map(180), 255)
        frame = bytearray(75)
        frame[0:3] = b"\x01\x02\x03"
        leds.show(frame)
        assert px[4] == 0x010203 and px.shown == 1


def test_every_profile_builds_its_leds():
    for name, profile in profiles.PROFILES.items():
        table = profile_map(profile)
        assert sorted(table) == list(range(25)), name
        assert 0 <= profile["brightness"] <= 255
        assert profile["pixel_order"] in ("GRB", "RGB", "GRBW", "RGBW")
