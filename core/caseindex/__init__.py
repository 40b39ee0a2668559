"""The case-item index: how the names in a doctor's words map to the items of a case.

Shared by the retrieval agents (which answer from the case) and the pathway metrics (which
credit what the doctor reached), so both agree on what a question or a test request
obtains. `matching` normalises text and finds named entries in a sentence or a test name;
`vocab_tests`, `vocab_imaging` and `concepts` are the multilingual test vocabulary and its
concept tags; `finder` is the examiner's test parser (`FindingIndex`); `cues` lists the
words that say what a question is about, per language.

Imports nothing of bedside but the case model (an agent or metric imports this, never the
other way round).
"""
