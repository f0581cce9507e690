"""code.py itself, run on the host as on the device: scripted buttons, printed frames."""

from jarmo import app_view as V
from tests.hardware.codepy import blocks, run_code, scaled

GAME = """\
select        # New game (standard rules, against the greedy AI)
select        # pick the piece under the cursor: a1
select        # and its first target: c2
wait 1000     # the AI answers
"""


def test_a_scripted_game_through_code_py(tmp_path):
    proc = run_code(tmp_path, GAME)
    assert proc.returncode == 0, proc.stderr
    shown = blocks(proc.stdout)
    assert len(shown) >= 4
    first_colours, first_text = shown[0]
    assert first_text[0] == "Jarmo" and any("New game" in t for t in first_text)
    # the last frame before the AI's answer (after the arrival's glow); the
    # move stays told after the answer too, beside the AI's
    moved = [block for block in shown if "You moved a1 to c2." in block[1]
             and "AI moved" not in " ".join(block[1])][-1][0]
    assert moved["c2"] == scaled(V.PIECE[0])            # a South archer arrived on c2
    assert moved["a1"] == scaled(V.TRAIL)               # the point it came from
    colours, text = shown[-1]
    for name in ("b1", "c1", "d1", "e1"):
        assert colours[name] == scaled(V.PIECE[0])
    assert "AI moved a5 to b3." in text                 # the AI's answer (seed 0)
    assert colours["b3"] == scaled(V.PIECE[5])          # a North archer stands there
    assert "South (you) to move" in text
    # the game was saved through jarmo.store_log into JARMO_DATA's log
    from jarmo.notation import parse_action
    from jarmo.store_flash import FileNvm
    from jarmo.store_log import Store
    assert parse_action("a1-c2") in Store(FileNvm(str(tmp_path / "jarmo.nvm"))).game()[2]


def test_frames_last_prints_one_block(tmp_path):
    proc = run_code(tmp_path, GAME, frames="last")
    assert proc.returncode == 0, proc.stderr
    shown = blocks(proc.stdout)
    assert len(shown) == 1
    assert "AI moved a5 to b3." in shown[0][1]


def test_events_from_stdin_and_resume(tmp_path):
    first = run_code(tmp_path, GAME, frames="none")
    assert first.returncode == 0 and first.stdout == ""
    # a second power-up finds the saved game: Resume is the first menu item
    proc = run_code(tmp_path, None, frames="last", extra_env={"JARMO_EVENTS": "-"},
                    stdin="select\nwait 100\n")
    assert proc.returncode == 0, proc.stderr
    colours, text = blocks(proc.stdout)[-1]
    assert colours["c2"] == scaled(V.PIECE[0]) and colours["b3"] == scaled(V.PIECE[5])
    assert colours["b3"] == scaled(V.PIECE[5]) and "South (you) to move" in text


def test_host_needs_events(tmp_path):
    proc = run_code(tmp_path, None)
    assert proc.returncode != 0
    assert "JARMO_EVENTS" in proc.stderr and "python3 run.py play" in proc.stderr


def test_bad_event_file_is_reported(tmp_path):
    proc = run_code(tmp_path, "select\nfly\n")
    assert proc.returncode != 0
    assert "line 2" in proc.stderr


def test_odd_settings_toml_values_are_named_and_the_defaults_used(tmp_path):
    # settings.toml's values reach code.py through os.getenv: text on a PC,
    # an int or text on CircuitPython; none of these may stop the game
    odd = {"JARMO_BRIGHTNESS": "abc", "JARMO_SEED": "99999999999", "JARMO_TRACE": "9"}
    # the notice takes two pages (a button turns them), then the menu: New game
    proc = run_code(tmp_path, "wait 100\nselect\nwait 100\nselect\nwait 100\nselect\nwait 300\n",
                    extra_env=odd)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    shown = blocks(proc.stdout)
    said = " ".join(" ".join(text) for _, text in shown[:3])
    for name, default in (("JARMO_BRIGHTNESS", -1), ("JARMO_SEED", -1), ("JARMO_TRACE", 0)):
        assert name + ": " in said and "%d used" % default in said, said
    assert any("to move" in " ".join(text) for _, text in shown), shown[-1]   # and the game runs
