# The LED legend for players: (meaning, 0xRRGGBB) in manual order.
#
# Kept out of app_view so its strings cost no RAM on the device unless a
# tool (the simulator, the manual) asks for it: ``App.legend()``.

LEGEND = (
    ("South archer", 0x401C00), ("South guard", 0xFF6400),
    ("South Golden Soldier (guard, yellow)", 0xFFC020), ("South Golden Soldier (archer)", 0x4C3406),
    ("South marked archer (breathes)", 0xD55E00),
    ("North archer", 0x103650), ("North guard", 0x40A8FF),
    ("North Golden Soldier (guard, bluish green)", 0x00D89C),
    ("North Golden Soldier (archer)", 0x003C28),
    ("North marked archer (breathes)", 0x56B4E9),
    ("cursor, South to move (blinks)", 0xFFC890), ("cursor, North to move (blinks)", 0xA8E8FF),
    ("selected piece", 0xC8C8C8), ("legal target", 0x303030), ("last move came from", 0x181818),
    ("remote-camp marker", 0x0C0C0C), ("capture (white strobe)", 0xFFFFFF),
    ("refused choice (red strobe)", 0xFF0000),
)
