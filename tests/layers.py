"""The layers of jarmo/: the one list tests/test_layers.py and
tests/app/test_app_layers.py check (the docs and the modules' comments
name this file rather than copy it).

A module imports its own layer and those below it, never one above; in the
app layer its own modules import only from lower steps of APP_STEPS. Imports
inside functions count (the app loads rare code with them), and so do the
modules App imports by their names in app_base's SCREENS and OPPONENTS.
"""

# The app layer's modules in their order, lowest first; modules on one step
# do not import each other (a state goes to another with App.goto), so the
# app layer has no import cycle.
APP_STEPS = (
    ("app_base", "app_buttons", "app_players"),
    ("app_view",),
    ("app_turn", "app_legend", "app_end"),
    ("app_play",),
    ("app_assist",),
    ("app_menu", "app_screens", "app_help", "app_stats", "app_campaign", "app_lesson", "app_link"),
    ("app_start", "linkplay"),
    ("app",),
)

# Modules that exist only frozen into Jarmo's firmware, made by tools/firmware.py:
# the opening book (jarmo/book.bin) as a bytes constant.
FROZEN_ONLY = ("book_data",)

# layer: (the layers it may import besides itself, its modules)
LAYERS = {
    "rules": ((), ("__init__", "board", "codes", "rulesets", "rng", "checksum", "notation", "explain",
                   "game", "match", "save", "unload")),
    "ai": (("rules",), ("ai", "evaluation", "book") + FROZEN_ONLY),
    "saves": (("rules",), ("store_flash", "store_log", "store_read", "store_compact", "store_game", "store_stats",
                           "store_campaign", "store_legacy")),
    "link": (("rules",), ("link",)),
    "app": (("rules", "ai", "saves", "link"), tuple(m for step in APP_STEPS for m in step)),
}

# The import cycles of jarmo/, all below the app layer: in each, one module
# imports another inside a function, so none meets another half imported
# (docs/ARCHITECTURE.md names them). tests/test_layers.py fails on any other.
CYCLES = (
    ("game", "match", "save"),
    ("store_compact", "store_log", "store_read"),
)
