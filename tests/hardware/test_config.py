"""settings.toml: every bad value or line is named, its default used, and the
board starts (hardware/config.py). On a PC os.getenv reads the environment;
the file's own lines are checked from the file."""

import pytest

from hardware import config, profiles, settings_check
from jarmo.app_base import wrap


def _read(tmp_path, monkeypatch, text, board="raspberry_pi_pico", env=()):
    path = tmp_path / "settings.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    for key in settings_check.KEYS:
        monkeypatch.delenv(key, raising=False)
    for key, value in env:
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(config, "board_id", lambda: board)
    return config.read(str(path))


BAD = [
    ('JARMO_PROFILE = "pico"\nJARMO_SEED = "7\n', ["settings.toml line 2: unreadable"]),
    (b'JARMO_PROFILE = "pico"\n\x00\xff\xfe garbage\x01\n', ["settings.toml line 2: unreadable"]),
    ("JARMO_PROFILE\n", ["settings.toml line 1: unreadable"]),
    ('JARMO_BRIGTNESS = 20\n', ["JARMO_BRIGTNESS: no such setting"]),
    ("# a comment\n" + "x" * 100 * 1024, ["settings.toml: 102412 B: too big, not read"]),
]


@pytest.mark.parametrize("text,said", BAD)
def test_a_bad_line_is_named_and_the_board_starts_with_its_own_profile(tmp_path, monkeypatch, text, said):
    got = _read(tmp_path, monkeypatch, text)
    assert got[0] == "pico" and got[-1] == said


def test_an_unknown_profile_is_named_and_the_boards_own_is_used(tmp_path, monkeypatch):
    got = _read(tmp_path, monkeypatch, 'JARMO_PROFILE = "nosuch_board"\n',
                env=[("JARMO_PROFILE", "nosuch_board")])
    assert got[0] == "pico" and got[-1] == ["JARMO_PROFILE: nosuch_board", "unknown, pico used"]


def test_another_boards_profile_is_named_and_the_boards_own_is_used(tmp_path, monkeypatch):
    got = _read(tmp_path, monkeypatch, 'JARMO_PROFILE = "qtpy_bff"\n', env=[("JARMO_PROFILE", "qtpy_bff")])
    assert got[0] == "pico" and got[-1] == ["JARMO_PROFILE: qtpy_bff", "another board's, pico used"]


def test_every_board_without_a_profile_setting_gets_one_made_for_it(tmp_path, monkeypatch):
    for board in {p["board_id"] for p in profiles.PROFILES.values() if p["board_id"]}:
        got = _read(tmp_path, monkeypatch, "", board=board)
        assert profiles.PROFILES[got[0]]["board_id"] == board and got[-1] == []


def test_a_good_file_says_nothing(tmp_path, monkeypatch):
    text = ("JARMO_PROFILE = \"pico\"  # the Pico\nJARMO_BRIGHTNESS = 40\nCIRCUITPY_X = true\n"
            "CIRCUITPY_SAFE_MODE_DELAY = 0.0\n\n# end\n")
    got = _read(tmp_path, monkeypatch, text, env=[("JARMO_PROFILE", "pico"), ("JARMO_BRIGHTNESS", "40")])
    assert got[:2] == ("pico", 40) and got[-1] == []


def test_every_message_fits_two_lines_of_the_display(tmp_path, monkeypatch):
    said = []
    for text, _ in BAD:
        said += _read(tmp_path, monkeypatch, text)[-1]
    said += _read(tmp_path, monkeypatch, "", env=[("JARMO_PROFILE", "x" * 40), ("JARMO_SEED", "-9"),
                                               ("JARMO_BRIGHTNESS", "999")])[-1]
    from jarmo.store_read import AFRESH, NEWER
    said += [NEWER, AFRESH, "saves lost in a power cut:", "settings, statistics, campaign, game",
             "older saves taken over from the drive:", "game, settings, statistics, campaign"]
    for line in said:
        assert " ".join(wrap(line, 21, 2)) == line, line


def test_every_setting_the_device_reads_is_known(tmp_path, monkeypatch):
    """The shipped settings.toml names no key the board would call a typo."""
    import pathlib
    text = (pathlib.Path(__file__).resolve().parents[2] / "device" / "settings.toml").read_text()
    assert not [line for line in _read(tmp_path, monkeypatch, text)[-1] if "no such setting" in line]


def _boot_out(tmp_path, monkeypatch, settings_text, edit_after_boot=b""):
    """What boot.py's report puts into boot_out.txt for the file, read back by
    config.read (optionally after the file was edited since power-up)."""
    import contextlib
    import io
    path = tmp_path / "settings.toml"
    path.write_bytes(settings_text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        settings_check.report(str(path))
    report = tmp_path / "boot_out.txt"
    # CircuitPython ends boot_out.txt's lines with CR LF
    report.write_bytes(("Adafruit CircuitPython 10.3.0\nBoard ID:raspberry_pi_pico\nboot.py output:\n"
                        + out.getvalue()).replace("\n", "\r\n").encode())
    if edit_after_boot:
        path.write_bytes(settings_text + edit_after_boot)
    monkeypatch.setattr(config, "board_id", lambda: "raspberry_pi_pico")
    real = config.boot_report
    monkeypatch.setattr(config, "boot_report", lambda stamp: real(stamp, str(report)))
    return config.read(str(path))


def test_what_boot_py_found_reaches_code_py_through_boot_out(tmp_path, monkeypatch):
    import sys
    sys.modules.pop("hardware.settings_check", None)
    got = _boot_out(tmp_path, monkeypatch, b'JARMO_PROFILE = "pico"\nJARMO_BRIGTNESS = 9\nJARMO_SEED = "7\n')
    assert got[-1] == ["settings.toml line 3: unreadable", "JARMO_BRIGTNESS: no such setting"]
    # the checker itself never ran in code.py's heap
    assert "hardware.settings_check" not in sys.modules


def test_a_file_boot_py_did_not_read_is_not_read_by_code_py_either(tmp_path, monkeypatch):
    monkeypatch.setenv("JARMO_SEED", "5")     # what getenv would give
    got = _boot_out(tmp_path, monkeypatch, b'JARMO_SEED = 5\n' + b"# padding\n" * 500)
    assert got[2] == -1 and "too big" in got[-1][0]


def test_a_file_edited_after_power_up_is_checked_again(tmp_path, monkeypatch):
    got = _boot_out(tmp_path, monkeypatch, b'JARMO_SEED = 5\n', edit_after_boot=b"JARMO_BRIGHTNESS\n")
    assert got[-1] == ["settings.toml line 2: unreadable"]


def test_the_idle_times_are_read_and_named_when_wrong(tmp_path, monkeypatch):
    from hardware import power
    got = _read(tmp_path, monkeypatch, "", env=[("JARMO_DIM_S", "soon"), ("JARMO_OFF_S", "90")])
    assert got[7:9] == (power.DIM_S * 1000, 90000)
    assert [line for line in got[-1] if line.startswith("JARMO_DIM_S")]
    got = _read(tmp_path, monkeypatch, "", env=[("JARMO_DIM_S", "12")])
    assert got[7] == 12000 and got[8] == power.OFF_S * 1000


def test_the_deep_sleep_time_is_read_and_named_when_wrong(tmp_path, monkeypatch):
    got = _read(tmp_path, monkeypatch, "")
    assert got[9] == 600 * 1000                         # ten minutes dark, then deep sleep
    got = _read(tmp_path, monkeypatch, "", env=[("JARMO_SLEEP_S", "0")])
    assert got[9] == 0 and got[-1] == []                # never
    got = _read(tmp_path, monkeypatch, "", env=[("JARMO_SLEEP_S", "later")])
    assert got[9] == 600 * 1000 and [line for line in got[-1] if line.startswith("JARMO_SLEEP_S")]


def test_the_idle_clock_is_read_and_one_the_pll_cannot_make_is_named(tmp_path, monkeypatch):
    got = _read(tmp_path, monkeypatch, "")
    assert got[10] == 48 and got[-1] == []                 # 48 MHz while dimmed or dark
    got = _read(tmp_path, monkeypatch, "", env=[("JARMO_IDLE_MHZ", "0")])
    assert got[10] == 0 and got[-1] == []                  # the clock left alone
    got = _read(tmp_path, monkeypatch, "", env=[("JARMO_IDLE_MHZ", "17")])
    assert got[10] == 48 and got[-1] == ["JARMO_IDLE_MHZ: 17 MHz no clock, 48 used"]
    got = _read(tmp_path, monkeypatch, "", env=[("JARMO_IDLE_MHZ", "200")])
    assert got[10] == 48 and got[-1] == ["JARMO_IDLE_MHZ: not 0..133, 48 used"]


def test_the_clocks_an_rp2040s_pll_makes_are_those_circuitpython_accepts():
    # CircuitPython 10.3 on the emulated Pico took every whole MHz from 16
    # to 133 as microcontroller.cpu.frequency but these three (ValueError)
    assert [mhz for mhz in range(16, 134) if not config.pll_makes(mhz)] == [16, 17, 19]


def _power_up(tmp_path, monkeypatch, boot_out):
    """boot.py's report at a power-up whose /boot_out.txt is the text given
    (the last power-up's); (what it printed, whether it checked the file)."""
    import contextlib
    import io
    report = tmp_path / "boot_out.txt"
    report.write_bytes(boot_out.replace("\n", "\r\n").encode())
    checked = []
    out = io.StringIO()
    with monkeypatch.context() as m:
        real = config.boot_report
        m.setattr(config, "boot_report", lambda stamp: real(stamp, str(report)))
        real_check = settings_check.check_file
        m.setattr(settings_check, "check_file",
                  lambda path, problems: checked.append(path) or real_check(path, problems))
        with contextlib.redirect_stdout(out):
            settings_check.report(str(tmp_path / "settings.toml"))
    return out.getvalue(), bool(checked)


def test_boot_py_repeats_the_last_power_ups_findings_for_the_same_file_without_checking_it(
        tmp_path, monkeypatch):
    (tmp_path / "settings.toml").write_bytes(b'JARMO_SEED = "7\nJARMO_BRIGTNESS = 9\n')
    first, checked = _power_up(tmp_path, monkeypatch, "boot.py output:\n")
    assert checked and "line 1: unreadable" in first and "JARMO_BRIGTNESS: no such setting" in first
    again, checked = _power_up(tmp_path, monkeypatch, "boot.py output:\n" + first)
    # the same lines: CircuitPython leaves boot_out.txt as it is (no 1 s wait, no flash write)
    assert again == first and not checked


def test_boot_py_checks_a_file_edited_since_the_last_power_up(tmp_path, monkeypatch):
    path = tmp_path / "settings.toml"
    path.write_bytes(b'JARMO_SEED = 7\n')
    first, _checked = _power_up(tmp_path, monkeypatch, "boot.py output:\n")
    path.write_bytes(b'JARMO_SEED = 7\nJARMO_BRIGHTNESS\n')
    again, checked = _power_up(tmp_path, monkeypatch, "boot.py output:\n" + first)
    assert checked and "jarmo problem: settings.toml line 2: unreadable" in again
