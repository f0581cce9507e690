"""jarmo.app_buttons: the codes shared by the app and the hardware.

Plain functions and asserts only: runs under pytest and under MicroPython.
"""

from jarmo import app_buttons as buttons
from jarmo.app_buttons import BACK, MENU, NAMES, NEXT, SELECT, code


def test_select_by_name():
    assert code("Select") == SELECT
    assert code("select") == SELECT
    assert code(" SELECT ") == SELECT


def test_every_name_maps_back_to_its_code():
    for i in range(len(NAMES)):
        assert code(NAMES[i]) == i


def test_codes_are_the_ints_0_to_8():
    values = (buttons.NEXT, buttons.PREV, buttons.UP, buttons.DOWN, buttons.LEFT,
              buttons.RIGHT, buttons.SELECT, buttons.BACK, buttons.MENU)
    assert values == tuple(range(9))
    assert NEXT == 0 and BACK == 7 and MENU == 8


def test_unknown_names_raise_value_error():
    for bad in ("", "start", "selec", "select2"):
        try:
            code(bad)
        except ValueError as exc:
            assert "unknown button" in str(exc)
        else:
            raise AssertionError("no ValueError for %r" % bad)


def test_names_are_nine_unique_lower_case_strings():
    assert len(NAMES) == 9
    assert len(set(NAMES)) == 9
    for name in NAMES:
        assert name == name.lower() and name.strip() == name and name
