"""Prompt texts of the Agent Hospital tasks (examination, diagnosis, treatment level), of
MedAgent-Zero's reflection and of the generator's patient-voice rewrite, written for
bedside.

Each is registered in `core.prompts.PROMPTS`; each ends with its id line
(`bedside/ah-<name>/v<N>`), which the test server reads to tell them apart.

Must not import: anything but the standard library.
"""

from __future__ import annotations

TASK = """\
You are a doctor in the respiratory clinic of a simulated hospital. {instruction}

{context}
{memory}
Options:
{options}

Reply with one line: ANSWER: <one option, written exactly as listed>
Prompt id: bedside/ah-{task}/v1"""

INSTRUCTIONS = {
    "examination": "Choose the one examination that best helps decide what this patient "
                   "has.",
    "diagnosis": "Choose the most likely diagnosis from what the patient says and the "
                 "examination's result.",
    "treatment": "The diagnosis has been made. Choose the treatment level that fits this "
                 "patient: mild, moderate or severe (each option shows its plan).",
}

# The three task prompts, each complete (so each one's hash covers its instruction).
TASKS = {task: TASK.replace("{instruction}", text).replace("{task}", task)
         for task, text in INSTRUCTIONS.items()}

MEMORY_RECORDS = "Similar patients you handled correctly before:\n{records}\n"
MEMORY_PRINCIPLES = "Principles you learned from your earlier mistakes:\n{principles}\n"

REFLECT = """\
You are a doctor in a simulated respiratory clinic, looking back at a patient you got \
wrong.

{context}

The question was: {instruction}
Your answer: {wrong}
The right answer: {right}

Write one principle, at most two sentences, that would lead a doctor to the right answer \
for patients like this one. State the clinical clue and what it points to; do not mention \
this patient's age, sex or words.
Reply with one line: PRINCIPLE: <the principle>
Prompt id: bedside/ah-reflect/v1"""

REWRITE = """\
Rewrite what a patient told the doctor so that it sounds like this patient speaking: \
natural, in the first person, in everyday words, at most 120 words.

The patient: {who}
What they said: {account}

Keep every fact (each symptom, how long it has lasted, every piece of history); add no \
symptom, finding or history that is not there; never name a disease, a test or a result.
Reply with the rewritten words only.
Prompt id: bedside/ah-rewrite/v1"""

# The whole hospital's triage nurse (core.hospital.triage): the departments as the hospital
# describes them, what the patient says and the vital signs the nurse measured.
TRIAGE = """\
You are the triage nurse of a respiratory hospital. Send this patient to one department.

Departments:
{departments}

Patient: {who}
The patient says: {account}
Vital signs you measured: {vitals}

Reply with one line: DEPARTMENT: <one department, written exactly as listed>
Prompt id: bedside/ah-triage/v1"""
