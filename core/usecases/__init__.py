"""Use cases: what the command line and the app both do, headless, on store protocols.

`runs` (create, resume, execute and cancel batch runs), `play` (a physician's session),
`scoring` (offline and LLM-based metrics), `importing` (cases and transcripts from peer
benchmarks), `results` (the results tables and the Baseline tab, one rule set), `library`
(bundled plus stored cases). Each takes a store protocol (`core.ports`); `db.store`
implements them.
"""
