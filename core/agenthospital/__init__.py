"""Agent Hospital (Li et al.) and MedAgent-Zero: a respiratory disease knowledge base, a
seeded patient generator, the three chained tasks (examination, diagnosis, treatment
level), the doctors that take them and the evolving doctor with its medical-record library
and experience base.

`kb` (the knowledge base files, checked), `generator` (patients and their cases), `tasks`
(questions, answers, verdicts), `retrieval` (BM25 and embeddings), `memory` (the library and
the experience base), `doctors` (scripted, model, nearest-record, human), `learner`
(MedAgent-Zero's loop) and `evolve` (the training stream, test points and arms).
Headless: no store, no terminal.
"""
