"""Independent reference implementation of the Jarmo rules (tests only)."""
