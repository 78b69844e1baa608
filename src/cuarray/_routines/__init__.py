"""NumPy routines by NumPy reference chapter."""
