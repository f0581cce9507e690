"""Host side: what runs only on a PC, never on the board.

blinka      the device's code.py and main loop on CPython with Adafruit Blinka:
            event files, a virtual clock, captured NeoPixel frames
sim         the terminal simulator's command line (`python3 run.py play`), and
            beside it one module a concept: screen (the layout), board_text
            (the board's lines, cells and marks), view (what the app shows
            now), legend (what it means, the keys), log, colour, terminal,
            pager, export, replay, script, gamefiles
selfplay    AI self-play statistics (`python3 run.py selfplay`)
opponents   the AI players self-play and the benchmarks build, with "3-legacy",
            a benchmark opponent that does not ship

tools/deploy.py copies code.py, boot.py, jarmo/, hardware/ and lib/ to the
board: nothing here goes with them.
"""
