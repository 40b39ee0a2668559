"""The SQLite store: one file holds a whole project."""
