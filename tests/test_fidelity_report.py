"""`bedside fidelity`: the probe suite replayed through the real offline agents meets the
targets (0 leaks, ≥ 95 % record-consistent patient answers, ≥ 99 % examiner accuracy); the
results are stored and read back without recomputing (recomputed when the rules change);
model patients and examiners (litellm against the local test server) are checked on the
same replayed questions and ranked beside the retrieval ones; the LLM grader's verdicts are
stored with its model, parameters and prompt hash, decide what the rules leave undecided,
and its agreement with the rules is reported (percent and Cohen's kappa)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.caseio import load_bundled_cases
from core.fidelity.probes import load_probes, to_replay
from db.store import open_store
from tests.fake_openai_server import FakeOpenAIServer
from tests.probe_support import EXAMINER_TARGET, PATIENT_TARGET
from tui.cli import main
from tui.text.fidelity_table import agreement, format_report

PROBES = Path(__file__).parent / "probes"
# Two cases for the model runs: one English, one Chinese (language kept is checked).
FEW = ("card-001", "gi-004")
KEY = "sk-test-not-real-fidelity-4242"


def write_replay(path: Path, files: list[Path], cases: tuple[str, ...] | None = None) -> Path:
    """The probes of `files` as a replay file (of `cases` only, when given)."""
    probes = [p for f in files for p in load_probes(f) if cases is None or p.case in cases]
    path.write_text("".join(json.dumps(line) + "\n" for line in to_replay(probes)),
                    encoding="utf-8")
    return path


def cli_json(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> dict[str, Any]:
    assert main(list(args)) == code, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def rows(report: dict[str, Any], role: str) -> list[dict[str, Any]]:
    return sorted((r for r in report["rows"] if r["role"] == role), key=lambda r: r["rank"])


def assert_targets(report: dict[str, Any], patient_answers: int = 300,
                   examiner_answers: int = 100) -> None:
    """0 leaks; the offline agents' record-consistent and accuracy shares at the targets,
    over at least so many answers."""
    (patient,) = rows(report, "patient")
    (examiner,) = rows(report, "examiner")
    assert patient["leaks"] == examiner["leaks"] == 0
    assert patient["checks"]["consistent"]["rate"] >= PATIENT_TARGET
    assert examiner["checks"]["accuracy"]["rate"] >= EXAMINER_TARGET
    assert patient["answers"] >= patient_answers and examiner["answers"] >= examiner_answers


def test_the_probe_suite_replayed_offline_meets_the_targets(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = write_replay(tmp_path / "probes.jsonl", sorted(PROBES.glob("*.jsonl")))
    db = str(tmp_path / "x.db")
    run = cli_json(capsys, "run", "--db", db, "--doctor", f"replay:{replay}", "--json")["run_id"]
    report = cli_json(capsys, "fidelity", "--db", db, "--run", run, "--json")
    assert_targets(report)
    assert report["same_questions"] and report["grader"] is None
    (info,) = report["runs"]
    n = len(load_bundled_cases())  # one consultation per bundled case
    assert info["checked"] == info["consultations"] == n
    # Stored: a second report reads the findings back without recomputing them.
    store = open_store(db)
    stamps = {r["consultation_id"]: r["computed_at"]
              for r in store.db["fidelity_checks"].rows}
    assert len(stamps) == n
    assert cli_json(capsys, "fidelity", "--db", db, "--run", run, "--json") == report
    assert {r["consultation_id"]: r["computed_at"]
            for r in store.db["fidelity_checks"].rows} == stamps


def test_findings_of_other_rules_or_another_case_version_are_recomputed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from core.usecases.fidelity import check_runs

    replay = write_replay(tmp_path / "r.jsonl", [PROBES / "bundled_tune.jsonl"], FEW)
    db = str(tmp_path / "x.db")
    run = cli_json(capsys, "run", "--db", db, "--doctor", f"replay:{replay}", "--cases",
                   ",".join(FEW), "--json")["run_id"]
    store = open_store(db)
    assert check_runs(store, [run]) == 2 and check_runs(store, [run]) == 0
    first = store.list_consultations(run_id=run)[0].id
    store.save_fidelity(first, [], case_hash="old", rules_hash="old")
    assert check_runs(store, [run]) == 1
    assert store.fidelity_findings([first])[first] != []
    assert check_runs(store, [run], recompute=True) == 2


def _grader(body: dict[str, Any], _: int) -> str:
    """A grader that fails the canned model patient's answer wherever it is given."""
    text = body["messages"][-1]["content"]
    answer = text.rsplit("ANSWERED\n", 1)[-1]
    bad = "heavy weight on my chest" in answer and "DOCTOR ASKED\nWhat brings" not in text
    verdict = "no" if bad else "yes"
    return json.dumps({"consistent": verdict, "addresses": verdict, "accurate": "yes",
                       "reason": "checked"})


@pytest.fixture()
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(replies={"fidelity_grader": _grader}) as srv:
        yield srv


def test_model_agents_are_ranked_beside_the_retrieval_ones_with_a_grader(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], server: FakeOpenAIServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIDELITY_TEST_KEY", KEY)
    replay = write_replay(tmp_path / "r.jsonl", [PROBES / "bundled_tune.jsonl"], FEW)
    db = str(tmp_path / "x.db")
    offline = cli_json(capsys, "run", "--db", db, "--doctor", f"replay:{replay}", "--name",
                       "offline", "--cases", ",".join(FEW), "--json")["run_id"]
    model = cli_json(capsys, "run", "--db", db, "--doctor", f"replay:{replay}", "--cases",
                     ",".join(FEW), "--patient",
                     "openai/fake-patient", "--examiner", "openai/fake-examiner",
                     "--api-base", server.base_url, "--api-key-env", "FIDELITY_TEST_KEY",
                     "--name", "model", "--json")["run_id"]
    args = ["fidelity", "--db", db, "--run", "model", "--run", "offline", "--grader",
            "openai/fake-grader", "--api-base", server.base_url, "--api-key-env",
            "FIDELITY_TEST_KEY", "--seed", "7"]
    report = cli_json(capsys, *args, "--json")
    assert report["same_questions"] and [r["run_id"] for r in report["runs"]] == [model, offline]
    patients = rows(report, "patient")
    assert [(r["run_id"], r["agent"]) for r in patients] == \
        [(offline, "retrieval"), (model, "openai/fake-patient")]
    assert patients[0]["answers"] == patients[1]["answers"] > 20  # the same questions
    assert patients[1]["checks"]["consistent"]["rate"] < patients[0]["checks"]["consistent"]["rate"]
    examiners = rows(report, "examiner")
    assert {r["agent"] for r in examiners} == {"retrieval", "openai/fake-examiner"}
    assert examiners[0]["agent"] == "retrieval"
    # The grader graded every answer, decided the rules' undecided ones, and its agreement
    # with the rules is reported where both decide.
    assert report["grader"]["model"] == "openai/fake-grader"
    assert report["grader"]["params"]["seed"] == 7
    for row in patients:
        fig = row["checks"]["consistent"]
        assert row["graded"] == row["answers"] and row["grader_failures"] == 0
        assert fig["grader_passed"] + fig["grader_failed"] == fig["undecided"]
        agree = fig["grader_agreement"]
        assert agree["n"] == fig["passed"] + fig["failed"]
        assert agree["percent"] is not None and 0 <= agree["percent"] <= 1
    assert patients[1]["checks"]["consistent"]["grader_rate"] < 1.0
    # Stored with model, parameters and prompt hash; the key never stored.
    store = open_store(db)
    graded = list(store.db["fidelity_grades"].rows)
    assert graded and {g["model"] for g in graded} == {"openai/fake-grader"}
    from core.fidelity.grader import prompt_hash

    assert {g["prompt_hash"] for g in graded} == {prompt_hash()}
    assert KEY not in Path(db).read_bytes().decode("latin-1")
    # A second report pays for nothing: every answer is already graded by this grader.
    before = len(server.requests)
    assert cli_json(capsys, *args, "--json") == report
    assert len(server.requests) == before
    capsys.readouterr()
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "grader vs rules" in out and "κ" in out and "#2" in out


def test_failed_grader_calls_exit_1_and_are_retried(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = tmp_path / "r.jsonl"
    replay.write_text(json.dumps({"case": "card-001", "say": ["Do you smoke?",
                                                              "REQUEST TEST: ECG"]}) + "\n")
    db = str(tmp_path / "x.db")
    run = cli_json(capsys, "run", "--db", db, "--doctor", f"replay:{replay}", "--cases",
                   "card-001", "--json")["run_id"]
    with FakeOpenAIServer(replies={"fidelity_grader": "I would rather not say."}) as srv:
        args = ["fidelity", "--db", db, "--run", run, "--grader", "openai/g", "--api-base",
                srv.base_url, "--retries", "0"]
        assert main(args) == 1
        err = capsys.readouterr().err
        assert "2 failed" in err and "gives no yes/no/unsure" in err
        srv.replies["fidelity_grader"] = '{"consistent": "yes", "addresses": "no", ' \
            '"accurate": "yes"}'
        assert main([*args, "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
    (patient,) = rows(report, "patient")
    assert patient["graded"] == 1 and patient["grader_failures"] == 0
    assert patient["checks"]["addresses"]["grader_rate"] == 0.0


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "x.db")
    assert main(["fidelity", "--db", db, "--run", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no run 'nope'" in err
    assert main(["fidelity", "--db", db, "--run", "x", "--concurrency", "0"]) == 2
    assert "--concurrency" in capsys.readouterr().err
    assert main(["fidelity", "--db", db, "--run", "x", "--api-key-env", "NO_SUCH_VAR_1"]) == 2
    assert "NO_SUCH_VAR_1 is not set" in capsys.readouterr().err


def test_a_run_with_nothing_to_check_exits_1(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "x.db")
    store = open_store(db)
    run = store.create_run(config={}, provenance={}, name="empty")
    assert main(["fidelity", "--db", db, "--run", "empty"]) == 1
    captured = capsys.readouterr()
    assert "nothing to check" in captured.err and run in captured.out


def test_agreement_is_percent_and_cohens_kappa() -> None:
    # Rules × grader on 100 answers: 40 pass/pass, 5 pass/fail, 10 fail/pass, 45 fail/fail.
    # p_o = 0.85; rules pass 0.45, grader pass 0.50: p_e = .45·.50 + .55·.50 = 0.5;
    # kappa = (0.85 − 0.5) / (1 − 0.5) = 0.7.
    got = agreement([[40, 5], [10, 45]])
    assert got["n"] == 100 and got["percent"] == pytest.approx(0.85)
    assert got["kappa"] == pytest.approx(0.7)
    same = agreement([[30, 0], [0, 0]])  # everyone passed: kappa undefined, said why
    assert same["percent"] == 1.0 and same["kappa"] is None and same["kappa_reason"]
    assert agreement(None)["kappa_reason"] == "no grader"


def test_labels_and_answers_are_printed_harmlessly() -> None:
    from core.fidelity.models import AnswerFinding, Check
    from core.fidelity.table import Member, agent_rows, examples
    from core.usecases.fidelity import FidelityTable, RunInfo

    finding = AnswerFinding(index=1, role="patient", agent="evil\x1b[31m", prompt="q\x07",
                            answer="a\x1b[2J", checks={"leak": Check(outcome="pass"),
                                                       "consistent": Check(outcome="fail",
                                                                           reason="r")})
    members = [Member(run_id="run-1", run_name="n\x1b]0;x\x07", consultation_id="c",
                      findings=[finding])]
    table = FidelityTable(runs=[RunInfo(run_id="run-1", name="n\x1b]0;x\x07")],
                          rows=agent_rows(members), examples=examples(members, 2))
    text = format_report(table)
    assert "\x1b" not in text and "\x07" not in text and "␛" in text
