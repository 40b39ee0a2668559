"""The whole hospital (Agent Hospital, part 2): residents fall ill, a triage nurse sends
each to a department, they queue, the department's doctor takes the three tasks, the
dispensary records the prescription, and at the follow-up the patient has recovered or
comes back worse.

`departments` (the four departments and the right one for each disease and level),
`onset` (who falls ill when, seeded), `triage` (the nurse: rules or a model),
`simulation` (the day loop; it emits `core.records.hospital` events and plays each
consultation through a `Consultant` it is given), `state` (the one reducer of the events:
places, queues, counts), `metrics` (the metrics and the day-by-day accounting) and
`direct` (a consultant that answers with part 1's task doctors directly, without the
engine or a store). Headless: no store, no engine, no terminal (the use case
`core.usecases.hospital` records everything).
"""
