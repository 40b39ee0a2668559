"""Doctor tools through the real engine, the run use case and a real SQLite file, with every
model role played over HTTP by the local OpenAI-compatible server: each tool's text reaches
the doctor's requests and nothing else's (patient, examiner, moderator); SEARCH returns
corpus and web passages recorded with their sources on the turn; the notebook is read and
rewritten in case order with every version stored; tool turns never count against the
turn budget."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig
from core.engine import run_consultation
from core.events import ListSink
from core.factors import parse_values, grid
from core.llm import LLMClient
from core.records.tools import Passage
from core.solvers.solution import RunState
from core.solvers.tools import attach_corpus
from core.transcript import Role
from core.usecases import corpus, runs
from db.store import open_store
from tests.fake_openai_server import TEST_KEY, FakeOpenAIServer, default_doctor, detect_role

KEY = TEST_KEY
CASES = load_bundled_cases()
DOCTOR_SIDE = {"doctor", "critique", "reflect", "notebook"}  # requests the doctor answers


def _doctor(body: dict[str, Any], n: int) -> str:
    """A doctor that reasons (RSN marks), searches when it may, asks, orders a test, then
    diagnoses (with search and reflection: a draft, DRAFT-MARK, that the final replaces)."""
    msgs = body["messages"]
    if any("Now write your final message" in m["content"] for m in msgs[-2:]):
        return "DIAGNOSIS READY: Inferior ST-elevation myocardial infarction"  # after critique
    said = sum(1 for m in msgs if m["role"] == "assistant")
    searching = "SEARCH: <what to look up>" in msgs[0]["content"]
    # (the configuration that searches also reflects: its diagnosis is a draft)
    diagnosis = "DRAFT-MARK disease" if searching else "Inferior STEMI"
    steps = (["SEARCH: inferior leads elevation"] if searching else []) + [
        "What brings you in today?", "REQUEST TEST: ECG", f"DIAGNOSIS READY: {diagnosis}"]
    return f"REASONING: RSN-MARK-{said} weighing it up\nMESSAGE: {steps[min(said, len(steps) - 1)]}"


def _notebook(body: dict[str, Any], n: int) -> str:
    system = body["messages"][0]["content"]
    read = system.split("It says:\n", 1)[1].split("\n")[0]
    return f"NOTE-MARK after [{read[:60]}]"


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    replies = {"doctor": _doctor, "critique": "CRITIQUE-MARK: it fits, nothing against it.",
               "notebook": _notebook}
    with FakeOpenAIServer(replies=replies) as srv:
        yield srv


class _Web(BaseHTTPRequestHandler):
    """A SearxNG-style JSON endpoint on 127.0.0.1: one result naming the query."""

    queries: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        params = parse_qs(urlsplit(self.path).query)
        self.queries.append(params["q"][0])
        body = json.dumps({"results": [{"url": "https://example.org/stemi", "title": "Web page",
                                        "content": f"WEB-MARK about {params['q'][0]}"}]})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def web() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Web)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/search"
    httpd.shutdown()


def _configs(server: FakeOpenAIServer, tools: str, max_turns: str = "3"
             ) -> list[ConsultationConfig]:
    params = {"api_base": server.base_url, "retries": 0, "timeout": 30.0}
    given = {"doctor": ["openai/fake-doctor"], "patient": ["openai/fake-patient"],
             "examiner": ["openai/fake-examiner"], "moderator": ["exact+openai/fake-moderator"],
             "doctor_tool": [tools], "max_turns": [max_turns]}
    return grid(parse_values(given, params), ConsultationConfig())


def _run(tmp_path: Path, configs: list[ConsultationConfig], n_cases: int) -> tuple[Any, str]:
    store = open_store(tmp_path / "t.db")
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "stemi.md").write_text("# Inferior STEMI\n\nCORPUS-MARK: ST elevation in the "
                                   "inferior leads II, III and aVF.\n", encoding="utf-8")
    corpus.add(store, docs)
    spec = runs.create(store, CASES[:n_cases], configs, concurrency=4)
    outcomes = asyncio.run(runs.execute(store, spec, llm=LLMClient(KEY)))
    assert [o.status for o in outcomes] == ["finished"] * len(outcomes), outcomes
    return store, spec.run_id


def test_each_tool_reaches_the_doctors_requests_and_nothing_else(
        server: FakeOpenAIServer, web: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BEDSIDE_WEB_SEARCH", web)
    configs = _configs(server, "zero_shot_cot+reflection+notebook+retrieval+web_search,"
                               "one_shot_cot")
    first = len(server.requests)
    store, run_id = _run(tmp_path, configs, 2)
    bodies = [(detect_role(b), json.dumps(b, ensure_ascii=False))
              for b in server.requests[first:]]
    roles = {role for role, _ in bodies}
    assert {"doctor", "critique", "notebook", "patient", "examiner", "moderator"} <= roles
    marks = ["Reasoning: before each message",  # zero-shot chain of thought
             "carboxyhaemoglobin",  # the one-shot worked example
             "RSN-MARK",  # the doctor's own reasoning
             "SEARCH: <what to look up>",  # how to search
             "CORPUS-MARK", "WEB-MARK",  # what the searches found
             "DRAFT-MARK",  # the draft diagnosis, replaced after the critique
             "Before this diagnosis is committed", "CRITIQUE-MARK",  # the reflection
             "Now write your final message",
             "Rewrite your notebook", "NOTE-MARK"]  # the notebook (the 2nd case reads it)
    for mark in marks:
        where = {role for role, text in bodies if mark in text}
        assert where and where <= DOCTOR_SIDE, (mark, where)
    # The patient heard the question said after the reasoning, never the reasoning.
    patient = [text for role, text in bodies if role == "patient"]
    assert patient and all("What brings you in today?" in t for t in patient)
    assert _Web.queries and set(_Web.queries) == {"inferior leads elevation"}


def test_search_passages_and_sources_are_recorded_and_tools_do_not_use_turns(
        server: FakeOpenAIServer, web: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BEDSIDE_WEB_SEARCH", web)
    # Budget 3: a search, reasoning each time, a draft and its critique all fit around the
    # three doctor turns (question, test, diagnosis).
    store, run_id = _run(tmp_path, _configs(server, "zero_shot_cot+reflection+retrieval+"
                                                    "web_search"), 1)
    (row,) = store.list_consultations(run_id=run_id)
    assert row.status == "finished" and row.doctor_turns == 3 and row.correct is True
    turns = store.get_transcript(row.id).turns
    kinds = [(str(t.role), t.kind, t.doctor_turn) for t in turns
             if str(t.role) in ("doctor", "tool")]
    assert kinds == [
        ("tool", "reasoning", 1), ("tool", "search", 1), ("tool", "search_result", 1),
        ("tool", "reasoning", 1), ("doctor", "question", 1),
        ("tool", "reasoning", 2), ("doctor", "test_request", 2),
        ("tool", "reasoning", 3), ("tool", "draft", 3), ("tool", "critique", 3),
        ("doctor", "diagnosis", 3)]
    result = next(t for t in turns if t.kind == "search_result")
    sources = [(p["provider"], p["source"]) for p in result.meta["passages"]]
    assert sources == [("corpus", str((tmp_path / "docs" / "stemi.md").resolve())),
                       ("web", "https://example.org/stemi")]
    assert "CORPUS-MARK" in result.content and "WEB-MARK" in result.content
    assert result.meta["query"] == "inferior leads elevation"
    assert result.meta["passages"][0]["sha256"]  # the document's version, for the record
    # The doctor turns hold the messages only; the first reasoning holds the model call.
    assert all("RSN-MARK" not in t.content for t in turns if t.role == Role.DOCTOR)
    assert turns[0].raw_request and turns[0].usage.completion_tokens > 0
    # The stored description names the tools and the hashes of the prompts they add.
    assert row.config["solver"] == "tools"
    assert {"tool-cot-zero/v1", "critique/v1", "reflect/v1", "tool-search/v1"} <= \
        set(row.config["prompts"])


class _Corpus:
    def corpus_search(self, query: str, limit: int) -> list[Passage]:
        return [Passage(text=f"about {query}", title="T", source="/t.md", provider="corpus")]


def test_a_search_after_the_last_one_is_refused_and_uses_the_turn(
        server: FakeOpenAIServer) -> None:
    def searcher(body: dict[str, Any], n: int) -> str:
        said = sum(1 for m in body["messages"] if m["role"] == "assistant")
        return "SEARCH: chest pain" if said < 3 else "DIAGNOSIS READY: Inferior STEMI"

    server.replies["doctor"] = searcher  # (restored below: the module's doctor)
    try:
        spec = AgentSpec(kind="llm", model="openai/fake-doctor", api_base=server.base_url,
                         retries=0)
        config = ConsultationConfig(doctor=spec, max_turns=2, solver="tools",
                                    solver_options={"tools": ["retrieval"], "searches": 1})
        state = RunState()
        attach_corpus(state, _Corpus())
        t = asyncio.run(run_consultation(CASES[0], config, ListSink(), consultation_id="c",
                                         llm=LLMClient(KEY), run_state=state))
    finally:
        server.replies["doctor"] = _doctor
    steps = [(t_.kind, t_.doctor_turn, t_.meta.get("refused")) for t_ in t.turns]
    # One free search; the second is refused and takes turn 1; the third, on turn 2, too:
    # a doctor that only searches still reaches the end of its budget.
    assert steps == [("search", 1, None), ("search_result", 1, None),
                     ("search", 1, True), ("search_result", 1, True),
                     ("search", 2, True), ("search_result", 2, True)]
    assert t.end_reason == "budget" and t.diagnosis is None


def test_the_notebook_follows_case_order_and_keeps_every_version(
        server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(server.replies, "doctor", default_doctor)  # four plain turns
    store, run_id = _run(tmp_path, _configs(server, "notebook", "4"), 3)
    versions = store.notebook_versions(run_id)
    assert [v.case_id for v in versions] == [c.id for c in CASES[:3]]
    assert [v.version for v in versions] == [1, 2, 3]
    rows = {r.case_id: r for r in store.list_consultations(run_id=run_id)}
    before = ""
    for case, version in zip(CASES[:3], versions, strict=True):
        turns = store.get_transcript(rows[case.id].id).turns
        read = next(t for t in turns if t.kind == "notebook_read")
        assert read.content == before and read.role == Role.TOOL  # what the last one wrote
        assert version.consultation_id == rows[case.id].id
        assert version.text == f"NOTE-MARK after [{(before or '(empty: this is your first consultation)')[:60]}]"
        before = version.text
        assert rows[case.id].doctor_turns == 4  # the default doctor's four turns, no more
