"""The SQLite store: one file holds a whole project. Must not import tui or textual."""
