"""`bedside rate`: the blinded, keyboard-first rating app and its widgets."""
