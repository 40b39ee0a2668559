"""Storing imported collaboration results (`aihospital-collaboration`), each linked to its
doctors' own consultations: the dialogues imported with `aihospital-dialog`.

A doctor of a result is linked to the imported dialogue of the same patient (case) that
came from the dialogue file the result names for it (`doctor_ids`; the released files
drop the date tag: `dialog_history_gpt4_1122.jsonl` is `dialog_history_gpt4.jsonl`), else
to the one whose doctor engine is the doctor's (`doctor_engine_names`) when there is
exactly one. Each linked doctor's report opens the joint transcript as its 'initial'
turn, as in a collaboration played here. A doctor with no such dialogue stays unlinked
(a warning says so); importing the dialogues and then the file again links it (the result
is stored again, counted as relinked; nothing else about it changes:
`core.usecases.importing` stores them).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from core.agents.host import TeamReport
from core.collaboration import Member, summary_of
from core.importers.aihospital_collab import dialogue_stem
from core.ports.runs import RunsStore
from core.records.runs import ConsultationSummary
from core.transcript import Role, Transcript, Turn

DIALOGUES = "import:aihospital-dialog"


def _dialogues(store: RunsStore) -> dict[str, list[ConsultationSummary]]:
    """Imported AI Hospital dialogues by case."""
    out: dict[str, list[ConsultationSummary]] = defaultdict(list)
    for c in store.list_consultations(status="finished"):
        if c.origin == DIALOGUES:
            out[c.case_id].append(c)
    return out


def _find(member: Member, candidates: list[ConsultationSummary]) -> ConsultationSummary | None:
    wanted = dialogue_stem(member.source)
    by_file = [c for c in candidates if wanted and
               dialogue_stem(str((c.meta.get("import") or {}).get("file") or "")) == wanted]
    if len(by_file) == 1:
        return by_file[0]
    by_engine = [c for c in candidates if (c.doctor or "") == member.doctor]
    return by_engine[0] if len(by_engine) == 1 else None


def link(t: Transcript, dialogues: dict[str, list[ConsultationSummary]],
         warnings: list[str]) -> Transcript:
    """The joint result with its doctors linked and their reports as 'initial' turns."""
    summary = summary_of(t.meta)
    if summary is None:
        return t
    where = f"{t.meta.get('import', {}).get('file')}:{t.meta.get('import', {}).get('line')}"
    opening: list[Turn] = []
    for member in summary.doctors:
        found = _find(member, dialogues.get(t.case_id, []))
        member.consultation_id = found.id if found else None
        if found is None:
            warnings.append(f"{where}: Doctor {member.label} ({member.doctor}) is not linked: no "
                            f"imported dialogue of {t.case_id} from "
                            f"{member.source or 'its file'}; import it with "
                            "aihospital-dialog, then this file again")
            continue
        report = TeamReport(member.label, found.diagnosis, found.report)
        opening.append(Turn(index=0, role=Role.DOCTOR, addressee=Role.HOST, kind="initial",
                            content=report.full(), model=member.doctor,
                            meta={"collaborator": member.label, "round": 0,
                                  "consultation_id": found.id}))
    own = [x for x in t.turns if x.kind != "initial"]
    turns = [x.model_copy(update={"index": i}) for i, x in enumerate([*opening, *own])]
    meta = {**t.meta, "collaboration": summary.model_dump(mode="json")}
    return t.model_copy(update={"turns": turns, "meta": meta})


def links(meta: dict[str, Any]) -> list[str | None]:
    """The linked consultation of each doctor of a joint result (None: unlinked)."""
    summary = summary_of(meta)
    return [m.consultation_id for m in summary.doctors] if summary else []


def link_all(store: RunsStore, transcripts: list[Transcript],
             warnings: list[str]) -> list[Transcript]:
    """Every joint result linked to the dialogues in the store (`link`)."""
    dialogues = _dialogues(store)
    return [link(t, dialogues, warnings) for t in transcripts]
