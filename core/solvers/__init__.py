"""Solvers: doctor strategies, each playing the doctor's side of a consultation.

`base` (the Solver protocol, `Solution`, `BaseSolver`, `RunState`), `context` (the session
a solver plays in), `interactive` (AgentClinic's consultation), `one_step` (the upper
bound) and `registry` (name → solver). This package's `__init__` imports nothing.
"""
