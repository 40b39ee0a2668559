"""How a role's view becomes prompt text: one rendering for every prompt that shows it.

The patient's profile is shown to the LLM patient (its system prompt), to the rating patient
after the consultation (patient-reported measures) and, with the findings, to the one-step
doctor; all three read it from here, so they describe the same patient the same way.
"""

from __future__ import annotations

from core.views import PatientView


def render_profile(view: PatientView) -> str:
    """The patient's knowledge as plain lines for the prompt."""
    p, d = view.profile, view.profile.demographics
    lines = [f"Age: {d.age}" if d.age else "", f"Sex: {d.sex}" if d.sex else "",
             f"Occupation: {d.occupation}" if d.occupation else "", d.text or "",
             f"Manner: {p.persona}" if p.persona else "",
             f"Main complaint: {p.chief_complaint}" if p.chief_complaint else "",
             f"Story: {p.history_of_present_illness}" if p.history_of_present_illness else ""]
    for s in view.symptoms:
        facts = "; ".join(x for x in (s.description, s.onset, s.duration, s.character) if x)
        state = "has" if s.present else "does NOT have"
        lines.append(f"Symptom ({state}): {s.name}" + (f" — {facts}" if facts else ""))
    lines.extend(f"History ({h.kind}): {h.text}" for h in view.history)
    return "\n".join(x for x in lines if x)
