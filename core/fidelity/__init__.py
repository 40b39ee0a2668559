"""Simulator fidelity, measured: how faithfully patient and examiner agents answer.

Headless checks over finished transcripts (`report.check_transcript`, `report.check_many`):
leaks, answers consistent with the record, answers that address the question, language
kept, examiner accuracy; each answer `pass`, `fail`, `undecided` or `na`, with a reason
(`models`). Probe files (`probes`) hold questions with the property their answer must have,
to run real agents against. No printing, no storage, no model calls.
"""
