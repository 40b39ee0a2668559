"""Does the exact moderator's verdict agree with the diagnosis-entity metrics?

Measures, per consultation or answer, the verdict of the exact moderator (correct or
incorrect), ENT-F1 and diagnostic logicality (is the primary diagnosis among the answer's
entities), on three sets:
  library      `bedside run` with its defaults (offline: scripted doctor, retrieval patient
               and examiner, exact moderator) on every bundled case, read back with
               `bedside results --per-consultation --json`;
  agentclinic  the AgentClinic samples (`../shared/peers/agentclinic/*.jsonl`) imported with
               `bedside cases import agentclinic` / `agentclinic-nejm` and run the same way;
  answers      doctor answers judged directly, with no consultation: every accepted name and
               every differential entry (or wrong multiple-choice option) of every bundled and
               imported case, a few generated forms of the diagnosis ("Probable X", "No X",
               "X ruled out", "X; Y ruled out", "Y or X", "X vs Y"), and the hand-written
               near-misses of `benchmarks.verdict_answers`.
Every run uses its own temporary BEDSIDE_HOME and database. A row *agrees* when the verdict
and diagnostic logicality say the same; the summary lists the rows that do not.

    .venv/bin/python -m benchmarks.verdict_agreement [--out FILE.json]
    .venv/bin/python -m benchmarks.verdict_agreement --rev main [--out FILE.json]
    .venv/bin/python -m benchmarks.verdict_agreement --compare OLD.json NEW.json

`--rev REV` also measures revision REV (its files from `git archive`, this script copied in,
run with this interpreter) and lists every row whose verdict, ENT-F1 or logicality changed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.verdict_answers import NEAR_MISSES

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT.parent / "shared" / "peers"
IMPORTS = (("agentclinic", "agentclinic_medqa_sample.jsonl"),
           ("agentclinic-nejm", "agentclinic_nejm_sample.jsonl"))
Row = dict[str, Any]


def _cli(home: Path, *args: str) -> str:
    env = {**os.environ, "BEDSIDE_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"bedside {' '.join(args)} failed: {done.stderr.strip()[-500:]}")
    return done.stdout


def _first(row: Row, *names: str) -> Any:
    """A metric under its public name, or the stored name an older revision printed."""
    return next((row[n] for n in names if n in row), None)


def _run_set(name: str, home: Path, db: Path, cases: str | None) -> list[Row]:
    """One offline `bedside run` and its per-consultation results."""
    _cli(home, "run", "--db", str(db), *(["--cases", cases] if cases else []))
    rows = json.loads(_cli(home, "results", "--per-consultation", "--json", "--db", str(db)))
    return sorted(({"set": name, "case": r["case_id"], "kind": "consultation",
                    "answer": r["diagnosis"], "verdict": r["correct"],
                    "entity_f1": _first(r, "diagnosis_f1", "entity_f1"),
                    "logicality": _first(r, "diagnosis_named", "diagnostic_logicality")}
                   for r in rows), key=lambda r: r["case"])


def _imported_cases(peers: Path) -> list[Any]:
    from core.importers import import_file
    out = []
    for fmt, name in IMPORTS:
        out.extend(import_file(fmt, peers / "agentclinic" / name).cases)
    return out


def _answers(case: Any) -> list[tuple[str, str]]:
    """(kind, answer) pairs to judge for one case."""
    t = case.truth
    wrong = [o for o in t.options if o != t.correct_option] if t.options else []
    wrong = [*t.differential, *wrong]
    dx, other = t.diagnosis, (wrong[0] if wrong else "Migraine")
    out = [("accepted", n) for n in (dx, *t.synonyms)]
    out += [("differential", d) for d in wrong]
    out += [("generated", a) for a in (f"Probable {dx}", f"No {dx}", f"{dx} ruled out",
                                       f"{dx}; {other} ruled out", f"{other} or {dx}",
                                       f"{dx} vs {other}")]
    out += [("near-miss", a) for a in NEAR_MISSES.get(case.id, [])]
    seen: set[str] = set()
    return [(k, a) for k, a in out if not (a in seen or seen.add(a))]  # each answer once


async def _judge_all(cases: list[Any]) -> list[Row]:
    from core.agents.moderator import ExactModerator
    from core.metrics.compute import compute_metrics
    from core.transcript import Transcript
    from core.views import moderator_view
    rows = []
    for case in cases:
        moderator = ExactModerator(moderator_view(case))
        for kind, answer in _answers(case):
            verdict, _ = await moderator.judge(answer)
            transcript = Transcript(case_id=case.id, diagnosis=answer, verdicts=[verdict])
            m = compute_metrics(case, transcript)
            rows.append({"set": "answers", "case": case.id, "kind": kind, "answer": answer,
                         "verdict": float(verdict.correct), "entity_f1": m["entity_f1"][0],
                         "logicality": m["diagnostic_logicality"][0],
                         "links": m["entity_f1"][1].get("links", [])})
    return rows


def measure(peers: Path) -> list[Row]:
    """Every row of the three sets, measured on the code this interpreter imports."""
    from core.caseio import load_bundled_cases
    with tempfile.TemporaryDirectory(prefix="verdict-agreement-") as tmp:
        home = Path(tmp)
        rows = _run_set("library", home, home / "library.db", None)
        for fmt, name in IMPORTS:
            _cli(home, "cases", "import", fmt, str(peers / "agentclinic" / name),
                 "--db", str(home / "agentclinic.db"))
        rows += _run_set("agentclinic", home, home / "agentclinic.db", "agentclinic")
    cases = [*load_bundled_cases(), *_imported_cases(peers)]
    return rows + asyncio.run(_judge_all(cases))


def _agrees(row: Row) -> bool:
    return (row["verdict"] or 0) >= 0.5 if row["logicality"] is None else (
        ((row["verdict"] or 0) >= 0.5) == (row["logicality"] >= 0.5))


def summary(rows: list[Row]) -> str:
    """Per set: rows, verdicts correct, mean ENT-F1, agreement; then the disagreements."""
    lines = [f"{'set':12} {'rows':>5} {'correct':>8} {'ENT-F1':>7} {'logic':>6} {'agree':>6}"]
    for name in dict.fromkeys(r["set"] for r in rows):
        part = [r for r in rows if r["set"] == name]
        f1 = [r["entity_f1"] for r in part if r["entity_f1"] is not None]
        lines.append(f"{name:12} {len(part):5d} {sum((r['verdict'] or 0) >= .5 for r in part):8d}"
                     f" {sum(f1) / max(len(f1), 1):7.3f}"
                     f" {sum((r['logicality'] or 0) >= .5 for r in part):6d}"
                     f" {sum(map(_agrees, part)):6d}")
    lines.append("\nverdict and diagnostic logicality disagree:")
    lines += [f"  {r['set']:12} {r['case']:42} {r['answer']!r}: verdict {r['verdict']}, "
              f"logicality {r['logicality']}, ENT-F1 {_num(r['entity_f1'])}"
              for r in rows if not _agrees(r)] or ["  (none)"]
    return "\n".join(lines)


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def compare(old: list[Row], new: list[Row]) -> str:
    """Every row whose verdict, ENT-F1 or logicality differs between two measurements."""
    def key(r: Row) -> tuple[str, str, str]:
        return r["set"], r["case"], r["answer"] or ""
    before = {key(r): r for r in old}
    lines = []
    for r in new:
        o = before.pop(key(r), None)
        if o is None:
            lines.append(f"  new row   {r['set']:12} {r['case']:42} {r['answer']!r}")
            continue
        changed = [f"{k} {_num(o[k])}→{_num(r[k])}" for k in ("verdict", "entity_f1", "logicality")
                   if o[k] != r[k]]
        if changed:
            lines.append(f"  {r['set']:12} {r['case']:42} {r['answer']!r}: {', '.join(changed)}")
    lines += [f"  gone row  {k[0]:12} {k[1]:42} {k[2]!r}" for k in before]
    return "\n".join([f"{len(lines)} rows changed:", *lines]) if lines else "no row changed"


def measure_revision(rev: str, peers: Path) -> list[Row]:
    """Rows measured on revision `rev`: its files exported, this benchmark copied in."""
    with tempfile.TemporaryDirectory(prefix="verdict-rev-") as tmp:
        tree, tar = Path(tmp) / "tree", Path(tmp) / "tree.tar"
        with tar.open("wb") as fh:
            subprocess.run(["git", "archive", rev], cwd=ROOT, stdout=fh, check=True)
        with tarfile.open(tar) as archive:
            archive.extractall(tree, filter="data")
        for name in ("verdict_agreement.py", "verdict_answers.py"):
            shutil.copy(Path(__file__).with_name(name), tree / "benchmarks" / name)
        out = Path(tmp) / "rows.json"
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run([sys.executable, "-m", "benchmarks.verdict_agreement", "--out", str(out),
                        "--peers", str(peers), "--quiet"], cwd=tree, env=env, check=True)
        return json.loads(out.read_text(encoding="utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, help="write every row as JSON here")
    parser.add_argument("--peers", type=Path, default=PEERS, help="the peer samples folder")
    parser.add_argument("--rev", help="also measure this git revision and list the changes")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("OLD", "NEW"))
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args()
    if args.compare:
        old, new = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        print(compare(old, new))
        return
    rows = measure(args.peers)
    if args.out:
        args.out.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.quiet:
        return
    print(summary(rows))
    if args.rev:
        old = measure_revision(args.rev, args.peers)
        print(f"\nat {args.rev}:\n{summary(old)}")
        print(f"\nchanges from {args.rev}:\n{compare(old, rows)}")


if __name__ == "__main__":
    main()
