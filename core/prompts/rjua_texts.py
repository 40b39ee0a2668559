"""Prompt texts of RJUA's two single-answer tasks, written for bedside: diagnostic reasoning
(from the patient's first words alone, which tests would you order?) and single-turn QA
(the whole record: diagnosis and treatment).

Each is registered in `core.prompts.PROMPTS`; each ends with its id line
(`bedside/rjua-<task>/v<N>`), which the test server reads to tell them apart.

Must not import: anything but the standard library.
"""

from __future__ import annotations

REASONING = """\
You are a doctor. A patient has just come in and said only this:

{query}

Before asking anything else, decide which tests and examinations you would order to find
out what is wrong: the ones this presentation calls for, and no more. You will not see
their results.

Reply with one line and nothing else:
REQUEST TEST: <test>, <test>, ...

Name each test plainly (e.g. "full blood count", "urinalysis", "CT abdomen"). Write in
{language_name} or English.
Prompt id: bedside/rjua-reasoning/v1"""

QA = """\
As the doctor in charge, read this patient's whole record: the presenting problem, the
history, the examination findings and the test results. Nothing more can be asked or
ordered. Say what the patient has and the treatment you would start.

Reply exactly in this form:
DIAGNOSIS READY: <your diagnosis>
Treatment plan: <what to do: medicines, procedures, referral, urgency>

Answer in {language_name}.

THE PATIENT
{record}
Prompt id: bedside/rjua-qa/v1"""
