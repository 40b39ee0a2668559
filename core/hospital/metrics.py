"""The hospital's metrics and its day-by-day accounting, from the reducer's state
(`core.hospital.state`), so the command line, the live screen and the tests read them
the same way.

Metrics: `triage_accuracy` (patients sent to their right department, of those triaged;
revisits triaged again count again), `examination_accuracy`, `diagnosis_accuracy` and
`treatment_accuracy` (of consultations; the level is right only with the right
diagnosis), `revisits` (patients who came back after a treatment that did not fit) and
`mean_days_to_recovery` (from falling ill to the follow-up that found them improved, over
the patients who recovered; null when none did), with the counts behind them and the same
per department.

Accounting: each patient is accounted for at every step. For each day the flows counted
from that day's events must agree with one another and with where the reducer finds
everyone at the day's end (`checks`): everyone who fell ill or came back was triaged and
registered; yesterday's queue plus today's registrations is today's consultations plus
tonight's queue; everyone seen took the three tasks, left the dispensary and went home;
every follow-up improved or worsened, the improved recovered and the worsened came back;
tonight's queues, the patients at home and the recovered are what the flows say; and
everyone who fell ill so far is in exactly one of those places. `balanced` says whether
every check of every day holds (the last day of a stopped simulation is left out: it was
cut short in the middle).
"""

from __future__ import annotations

from typing import Any

from core.hospital.state import TASKS, DayFlow, HospitalState, Tally


def _share(right: int, n: int) -> float | None:
    return right / n if n else None


def _accuracies(t: Tally) -> dict[str, float | None]:
    return {f"{task}_accuracy": _share(t.right[task], t.answered[task]) for task in TASKS}


def day_checks(flow: DayFlow, before: DayFlow | None, ill_so_far: int,
               recovered_so_far: int) -> list[dict[str, Any]]:
    """Each identity of one day with both sides (see the module docstring)."""
    prev_census = (before.census if before else None) or {}
    census = flow.census or {}
    waiting_before = before.waiting if before else 0
    sides = [
        ("triaged = fell ill + came back", flow.triaged, flow.ill + flow.worsened),
        ("came back = worsened at follow-up", flow.revisits, flow.worsened),
        ("registered = triaged", flow.registered, flow.triaged),
        ("queued last night + registered = seen + queued tonight",
         waiting_before + flow.registered, flow.seen + flow.waiting),
        *((f"{t} answered = seen", flow.answered[t], flow.seen) for t in TASKS),
        ("dispensed = seen", flow.dispensed, flow.seen),
        ("sent home = dispensed", flow.home, flow.dispensed),
        ("improved + worsened = followed up", flow.improved + flow.worsened, flow.followed_up),
        ("recovered = improved", flow.recovered, flow.improved),
        ("in a queue tonight = still waiting", census.get("queue", 0), flow.waiting),
        ("at home tonight = last night + sent home - followed up", census.get("home", 0),
         prev_census.get("home", 0) + flow.home - flow.followed_up),
        ("recovered so far = census", census.get("recovered", 0), recovered_so_far),
        ("fell ill so far = queued + at home + recovered",
         ill_so_far, sum(census.get(p, 0) for p in ("queue", "home", "recovered"))),
    ]
    return [{"check": name, "left": left, "right": right, "holds": left == right}
            for name, left, right in sides]


def ledger(state: HospitalState) -> list[dict[str, Any]]:
    """One row per day: its flows, the census at its end and its checks. The last day of
    a simulation that was stopped (or is still running) is `cut_short`: its checks are
    shown but not required to hold."""
    out = []
    ill = recovered = 0
    before: DayFlow | None = None
    days = sorted(d for d in state.flows if d > 0)
    for day in days:
        flow = state.flows[day]
        ill += flow.ill
        recovered += flow.recovered
        checks = day_checks(flow, before, ill, recovered)
        cut = day == days[-1] and state.status != "finished"
        out.append({"day": day, "fell_ill": flow.ill, "revisits": flow.revisits,
                    "triaged": flow.triaged, "seen": flow.seen, "dispensed": flow.dispensed,
                    "followed_up": flow.followed_up, "recovered": flow.recovered,
                    "waiting": flow.waiting, "census": dict(flow.census or {}),
                    "cut_short": cut, "balanced": cut or all(c["holds"] for c in checks),
                    "checks": checks})
        before = flow
    return out


def department_metrics(state: HospitalState) -> dict[str, dict[str, Any]]:
    """Per department: patients sent there, those who belonged there, consultations, the
    three accuracies, who is still queued."""
    out = {}
    for d in state.departments:
        t = state.tally(d["id"])
        out[d["id"]] = {"name": d.get("name"), "doctor": d.get("doctor"),
                        "capacity": d.get("capacity"), "triaged": t.triaged,
                        "triage_accuracy": _share(t.triage_right, t.triaged),
                        "belong": t.belong, "consultations": t.seen, **_accuracies(t),
                        "failed_consultations": t.failed,
                        "waiting_at_end": len(state.queues.get(d["id"], []))}
    return out


def metrics(state: HospitalState) -> dict[str, Any]:
    """The metrics (the keys of `bedside hospital --json`, see the module docstring)."""
    t = state.total
    census = state.census()
    days = ledger(state)
    recovery = state.recovery_days
    opened = state.opened
    return {
        "triage_accuracy": _share(t.triage_right, t.triaged), **_accuracies(t),
        "revisits": sum(f.revisits for f in state.flows.values()),
        "mean_days_to_recovery": sum(recovery) / len(recovery) if recovery else None,
        "residents": opened.get("residents"), "days": opened.get("days"),
        "seed": opened.get("seed"), "status": state.status,
        "patients": sum(f.ill for f in state.flows.values()), "triaged": t.triaged,
        "consultations": t.seen, "recovered": census["recovered"],
        "in_care": sum(n for p, n in census.items() if p != "recovered"),
        "waiting_at_end": census["queue"], "convalescing_at_end": census["home"],
        "mean_days_waited": sum(state.days_waited) / len(state.days_waited)
        if state.days_waited else None,
        "failed_consultations": t.failed, "triage_fallbacks": t.fallbacks,
        "balanced": all(d["balanced"] for d in days),
        "departments": department_metrics(state),
    }
