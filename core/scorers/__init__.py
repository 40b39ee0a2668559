"""Scorers: from a finished consultation and its case to named values with details.

`base` (the Scorer protocol and what it reads), `verdict` (the moderators: the engine
records their verdicts with the consultation), `offline` (accuracy, entity and pathway
metrics, no model), `llm` (report grade, patient-reported ratings, through a model) and
`registry` (name → scorer). This package's `__init__` imports nothing, so the engine can
import `verdict` without loading a metric.
"""
