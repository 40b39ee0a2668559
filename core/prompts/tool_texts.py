"""The prompt texts of the doctor tools (`core.doctortools`), written for bedside.

The paragraphs added to the doctor's system prompt (chain of thought, the worked example,
searching, the notebook) carry no prompt id line of their own: the system prompt keeps the
doctor's id, and each paragraph's hash is stored with the consultation. The requests the
doctor answers as a tool step (critique, final message after it, notebook rewrite) end with
their id, like every request of a role.

The worked example is a consultation of our own on a condition outside the bundled library
(carbon monoxide poisoning), so it teaches the format without answering any case.

Must not import: anything but the standard library.
"""

from __future__ import annotations

COT_ZERO = """\
Reasoning: before each message, think the case through step by step: what you have learned \
so far, which diagnoses are still possible, and which question or test would best tell \
them apart. Write your reasoning first, after a line "REASONING:", then a line "MESSAGE:" \
followed by the one message of this turn (a question, a REQUEST TEST: line or DIAGNOSIS \
READY: ...). Only what follows MESSAGE: is said; your reasoning stays private."""

COT_ONE_SHOT = COT_ZERO + """

A worked example from another consultation (a different patient), to show the form:
Patient: It's a throbbing headache since Sunday, and my husband and my son have it too. We \
all feel sick and dizzy, worse in the mornings, and better when we're out of the house.
REASONING: Several people in one home with headache, nausea and dizziness that ease away \
from the house suggest a shared exposure rather than an infection or migraine. Mornings \
after a night indoors with the heating on fit carbon monoxide. A carboxyhaemoglobin level \
would settle it; a pulse oximeter can read normal.
MESSAGE: REQUEST TEST: carboxyhaemoglobin level
Examiner: Carboxyhaemoglobin 18 % (she does not smoke).
REASONING: A carboxyhaemoglobin of 18 % in a non-smoker with these symptoms confirms the \
exposure, and nothing points elsewhere.
MESSAGE: DIAGNOSIS READY: Carbon monoxide poisoning"""

SEARCH = """\
Searching: you may look something up before you speak. Write a message whose first line is
  SEARCH: <what to look up>
and nothing else. Passages from {sources} come back to you alone, and a search does not use \
one of your turns; you have {searches} searches in this consultation. The patient and the \
examiner never see a search or its results."""

NOTEBOOK = """\
Your notebook: you keep it across your consultations, it is read to you now, and you will \
rewrite it when this consultation ends (at most {limit} characters). It says:
{notebook}"""

NOTEBOOK_WRITE = """\
This consultation is over. Rewrite your notebook for the patients you will see next: keep \
what is worth remembering from your notes and add what this consultation taught you \
(patterns, questions or tests that helped, pitfalls). Write no name or identifying detail \
of this patient. At most {limit} characters; reply with the notebook's text only.
Prompt id: bedside/notebook/v1"""

CRITIQUE = """\
Before this diagnosis is committed, critique it: does it explain every symptom, finding \
and result so far? What in the consultation argues against it, which other diagnoses fit \
as well, and what information is still missing? Be brief and specific.
Prompt id: bedside/critique/v1"""

REFLECT = """\
Now write your final message for this turn in the usual form: DIAGNOSIS READY: <your \
diagnosis>, revised if your critique showed it should be; or, if something essential is \
still missing and you have turns left, one question or a REQUEST TEST: line.
Prompt id: bedside/reflect/v1"""
