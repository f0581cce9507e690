"""The maker's kit, made from the project's own data (python3 run.py kit).

hardware/profiles.py (pins, LED grid, pitch, chain order), jarmo/board.py
(the board's lines) and kit/bom.json, kit/outlines.json (parts, prices,
sizes from data sheets) become, for each profile, in build/kit/PROFILE/: a
bill of materials, a wiring diagram, the overlay, the case's parts and
pictures, and the assembly guide.  Host-only: nothing here goes onto the
CIRCUITPY drive.
"""
