"""No API key in the database, a log, an export or the terminal (issue 18, item 7), even a
key without the `sk-` prefix that a server echoes back: in a reply, in an error, in an
`Authorization: Bearer …` header or as `api_key=…`.

The end-to-end test runs, scores, judges and exports against the local fake server, which
quotes the key it was sent (`echo-key`, `echo-key-401`, `echo-key-500` faults), then greps
the SQLite file, every command's stdout and stderr (where the logs go) and every exported
file for the key.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.fake_openai_server import METRIC_ROLES, FakeOpenAIServer, detect_role
from tui.cli import main

KEY = "local-secret-4f9a2b"  # no sk- prefix: the old redaction let it through


def test_redact_hides_every_key_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    from core.secrets import redact, redact_data

    monkeypatch.setenv("MY_SERVER_VAR", KEY)  # named by --api-key-env: any name
    monkeypatch.setenv("ANTHROPIC_API_KEY", "anthropic-key-77c1")  # a provider's variable
    monkeypatch.setenv("SHORT_KEY", "abc")  # too short to hide without mangling text
    text = (f"bad key {KEY}; also anthropic-key-77c1; Authorization: Bearer tok-9x8y7z "
            "api_key=zzz-123456 sk-proj-abcdefgh12345 keep abc, risk-free")
    out = redact(text, names=["MY_SERVER_VAR"])
    for secret in (KEY, "anthropic-key-77c1", "tok-9x8y7z", "zzz-123456", "sk-proj-abcdefgh"):
        assert secret not in out, out
    assert out.count("[redacted]") == 5 and out.endswith("keep abc, risk-free")
    assert redact_data({"a": [text, 3], "b": None}, names=["MY_SERVER_VAR"]) == \
        {"a": [out, 3], "b": None}
    assert redact("http://h/v1?api_key=q9w8e7r6&x=1") == "http://h/v1?api_key=[redacted]&x=1"


STUDY = """name = "keys"
raters = ["ann"]
overlap = 1
calibration = 0
[select]
end_reasons = []
"""


def _faults(body: dict[str, Any], n: int) -> str | None:
    """The first consultation fails with an error quoting the key; patients, judges and
    graders echo it in their replies; the report judge's call fails quoting it."""
    role = detect_role(body)
    if n == 0 or role == "report_judge":
        return "echo-key-500"
    if role in ("patient", "examiner", "rating_patient", "unknown"):  # unknown: the judge
        return "echo-key"
    return None


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str], seen: list[str]) -> int:
    code = main(argv)
    out, err = capsys.readouterr()
    seen += [out, err]
    return code


def test_no_key_is_stored_logged_printed_or_exported(tmp_path: Path, monkeypatch,
                                                     capsys) -> None:
    monkeypatch.setenv("LOCAL_MODEL_KEY", KEY)
    db = str(tmp_path / "x.db")
    seen: list[str] = []
    with FakeOpenAIServer(fault_rule=_faults,
                          replies=dict.fromkeys(METRIC_ROLES, "not json")) as server:
        model = ["--api-base", server.base_url, "--api-key-env", "LOCAL_MODEL_KEY",
                 "--retries", "0", "--timeout", "10"]
        assert _cli(["run", "--db", db, "--doctor", "openai/fake", "--patient", "openai/fake",
                     "--cases", "card-001,card-002,card-003", "--concurrency", "1",
                     "--final-report", "--name", "keys", *model], capsys, seen) == 1
        _cli(["score", "--db", db, "--run", "keys", "--judge", "openai/j",
              "--rating-patient", "openai/p", *model], capsys, seen)
        study = tmp_path / "study.toml"
        study.write_text(STUDY)
        assert _cli(["study", "create", "--db", db, str(study)], capsys, seen) == 0
        _cli(["judge", "--db", db, "--study", "keys", "--model", "openai/fake",
              "--attempts", "1", *model], capsys, seen)
        server.faults.append("echo-key-401")  # a refused key, quoted back
        _cli(["judge", "--db", db, "--study", "keys", "--model", "openai/other", *model],
             capsys, seen)
    assert all(h["authorization"] == f"Bearer {KEY}" for h in server.headers)
    exports = tmp_path / "exports"
    exports.mkdir()
    for argv in (["results", "--json"], ["results", "--csv"], ["results"],
                 ["results", "--per-consultation"], ["results", "--per-consultation", "--json"],
                 ["runs", "show", "keys"], ["runs", "list", "--json"],
                 ["transcripts", "export", "-o", str(exports / "t.jsonl")],
                 ["transcripts", "export", "--format", "md", "-o", str(exports / "t.md")],
                 ["ratings", "export", "--study", "keys", "-o", str(exports / "r.csv")],
                 ["ratings", "export", "--study", "keys", "--format", "jsonl"]):
        assert _cli([*argv, "--db", db], capsys, seen) == 0, seen[-1]
    said = "\n".join(seen)
    assert KEY not in said
    assert "[redacted]" in said  # the echoes did reach us, hidden
    for path in exports.iterdir():
        assert KEY not in path.read_text(), path
    dump = "\n".join(sqlite3.connect(db).iterdump())
    assert KEY not in dump
    assert "[redacted]" in dump
