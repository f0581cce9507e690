"""Host side: what runs only on a PC, never on the board.

blinka    the device's code.py and main loop on CPython with Adafruit Blinka:
          event files, a virtual clock, captured NeoPixel frames, colours as
          a terminal shows them, data folders and game files
sim       the terminal simulator (`python3 run.py play`)
selfplay  AI self-play statistics (`python3 run.py selfplay`)

tools/deploy.py copies code.py, boot.py, jarmo/, hardware/ and lib/ to the
board: nothing here goes with them.
"""
