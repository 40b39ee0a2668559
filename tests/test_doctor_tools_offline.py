"""Doctor tools without a model: the corpus (documents read safely, cut into passages,
indexed with FTS5, `bedside corpus`), the `--doctor-tool` factor (what composes, what is
refused in one line, keys), the scripted doctor searching its leading hypothesis and
keeping a notebook through `bedside run`, and the tool turns in the transcript view and
the export."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import pytest

from core.config import ConsultationConfig
from core.errors import InputError
from core.factors import FACTORS, parse_values, grid, read_value
from core.records.tools import NotebookVersion
from core.retrieval.documents import passages, read_document
from core.retrieval.search import Searcher
from core.retrieval.web import WebSearch
from core.solvers import notebook
from core.solvers.solution import RunState
from core.transcript import Role, Turn
from db.store import open_store
from tui.cli import main
from tui.app.widgets.transcript_view import render_turn, turn_header


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "stemi.md").write_text(
        "# Inferior STEMI\n\nST elevation in II, III and aVF: an inferior infarction.\n\n"
        "## Treatment\n\nPrimary PCI within 120 minutes.\n", encoding="utf-8")
    (docs / "sub" / "pe.html").write_text(
        "<html><head><title>Pulmonary embolism &amp; DVT</title>"
        "<script>document.write('SCRIPT-TEXT')</script><style>p{color:red}</style></head>"
        "<body><h1>PE</h1><p>Pleuritic pain after a long flight.\x1b[31m</p>"
        "<!-- HIDDEN-COMMENT --><p>CT pulmonary angiogram &lt;confirms&gt; it.</p>"
        "</body></html>", encoding="utf-8")
    (docs / "notes.txt").write_bytes(b"latin-1 \xe9t\xe9")  # not UTF-8
    (docs / ".hidden.md").write_text("# hidden\n\nnever read", encoding="utf-8")
    (docs / "image.png").write_bytes(b"\x89PNG")
    return docs


def test_html_becomes_inert_text_and_documents_become_passages(tmp_path: Path) -> None:
    doc = read_document(_docs(tmp_path) / "sub" / "pe.html")
    text = "\n".join(doc.passages)
    assert doc.kind == "html" and doc.title == "Pulmonary embolism & DVT"
    assert "Pleuritic pain after a long flight." in text and "<confirms>" in text
    for gone in ("SCRIPT-TEXT", "color:red", "HIDDEN-COMMENT", "\x1b"):
        assert gone not in text
    # Whole paragraphs up to 800 characters; a heading starts a passage; a long
    # paragraph is cut at sentence ends.
    body = "# A\n\n" + "\n\n".join(["Short one."] * 3) + "\n\n## B\n\n" + "Word. " * 300
    cut = passages(body)
    assert cut[0] == "# A\nShort one.\nShort one.\nShort one."
    assert cut[1].startswith("## B") and all(len(p) <= 800 for p in cut) and len(cut) >= 3


def test_corpus_commands_add_list_search_and_remove(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    db, docs = str(tmp_path / "c.db"), _docs(tmp_path)
    assert main(["corpus", "add", str(docs), "--db", db]) == 1  # one file could not be used
    out, err = capsys.readouterr()
    assert "2 added, 0 updated, 0 unchanged, 1 skipped" in out
    assert f"skipped {docs / 'notes.txt'}: not UTF-8 text" in err
    assert main(["corpus", "add", str(docs / "stemi.md"), "--db", db]) == 0
    assert "0 added, 0 updated, 1 unchanged" in capsys.readouterr().out
    (docs / "stemi.md").write_text("# Inferior STEMI\n\nRight coronary artery.\n", "utf-8")
    assert main(["corpus", "add", str(docs / "stemi.md"), "--db", db]) == 0
    assert "0 added, 1 updated" in capsys.readouterr().out
    assert main(["corpus", "list", "--json", "--db", db]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(d["kind"], Path(d["path"]).name) for d in listed] == [
        ("markdown", "stemi.md"), ("html", "pe.html")]
    # Query syntax in a query is words, never FTS5 operators.
    for query in ('flight AND "pain', "NEAR(a b)", "pain*", "-flight ^x", "()"):
        assert main(["corpus", "search", query, "--json", "--db", db]) == 0
        capsys.readouterr()
    assert main(["corpus", "search", "long flight pleuritic", "--json", "--db", db]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found[0]["source"] == str((docs / "sub" / "pe.html").resolve())
    assert main(["corpus", "remove", str(docs / "sub"), "--db", db]) == 0
    assert "pe.html" in capsys.readouterr().out
    assert main(["corpus", "remove", "doc-nope", "--db", db]) == 2
    assert "no corpus document is 'doc-nope'" in capsys.readouterr().err
    assert [d.path for d in open_store(db).corpus_documents()] == \
        [str((docs / "stemi.md").resolve())]


def _tools(text: str, doctor: str = "openai/x") -> list[ConsultationConfig]:
    return grid(parse_values({"doctor": [doctor], "doctor_tool": [text]}, {}),
                ConsultationConfig())


def test_the_doctor_tool_factor_composes_and_refuses_in_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BEDSIDE_WEB_SEARCH", raising=False)
    # No tool: the consultation and its key as before.
    assert _tools("none")[0].config_key() == grid(
        parse_values({"doctor": ["openai/x"]}, {}), ConsultationConfig())[0].config_key()
    # Several together are one value, in any order; several values are a sweep.
    a, b = _tools("retrieval+reflection")[0], _tools("reflection+retrieval")[0]
    assert a.config_key() == b.config_key() and a.solver_options == {
        "tools": ["reflection", "retrieval"]}
    assert [read_value("doctor_tool", c.describe()) for c in _tools("notebook,none,"
                                                                      "zero_shot_cot")] == \
        ["notebook", "none", "zero_shot_cot"]
    refused = {
        "zero_shot_cot+one_shot_cot": "zero_shot_cot and one_shot_cot cannot be used "
        "together (one chain of thought at a time)",
        "none+notebook": "'none' cannot be joined with tools (got 'none+notebook')",
        "notebook+notebook": "'notebook+notebook' names a tool twice",
        "telepathy": "unknown doctor tool 'telepathy' (known: none, zero_shot_cot, "
        "one_shot_cot, reflection, notebook, retrieval, web_search)",
        "web_search": "web_search needs a search endpoint: set BEDSIDE_WEB_SEARCH to its "
        "URL (a SearxNG-style JSON endpoint, e.g. http://127.0.0.1:8888/search)",
    }
    for text, reason in refused.items():
        with pytest.raises(InputError) as err:
            _tools(text)
        assert str(err.value) == f"field '--doctor-tool': {reason}"
    with pytest.raises(InputError, match="reflection needs a model doctor"):
        _tools("notebook+reflection", "scripted")
    assert _tools("notebook+retrieval", "scripted")[0].solver == "tools"
    monkeypatch.setenv("BEDSIDE_WEB_SEARCH", "http://127.0.0.1:9/search?apikey=abc")
    with pytest.raises(InputError, match="must not hold a credential"):
        _tools("web_search")
    monkeypatch.setenv("BEDSIDE_WEB_SEARCH", "http://127.0.0.1:9/search")
    assert _tools("web_search")[0].solver_options == {
        "tools": ["web_search"], "web_search": "http://127.0.0.1:9/search"}
    assert "doctor_tool" in FACTORS


def test_a_resumed_notebook_continues_from_the_last_version_in_case_order() -> None:
    state = RunState()
    versions = [NotebookVersion(consultation_id=f"c{i}", case_id=case, config_key="k",
                                status="finished", text=f"after {case}", version=n)
                for i, (case, n) in enumerate([("c", 2), ("a", 1)])]
    notebook.seed(state, versions, ["a", "b", "c", "d"])  # b failed; c, a finished
    assert notebook.current(state, "k", "d") == notebook.Page("after c", 2, "c0", "c")
    # b, redone after c (--retry-failed), reads what the case before it wrote.
    assert notebook.current(state, "k", "b") == notebook.Page("after a", 1, "c1", "a")
    assert notebook.current(state, "k", "a") == notebook.Page()
    assert notebook.current(state, "other", "d") == notebook.Page()


def test_a_web_search_that_fails_is_recorded_and_the_search_goes_on() -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    searcher = Searcher(None, WebSearch(f"http://127.0.0.1:{port}/search", timeout=5), 3)
    outcome = asyncio.run(searcher.search("chest pain"))
    assert outcome.providers == ["web"] and outcome.passages == []
    assert outcome.errors[0].startswith("web search failed: cannot reach the endpoint")
    assert "(web search failed" in outcome.words()


def test_the_scripted_doctor_searches_and_keeps_a_notebook_offline(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.db")
    args = ["run", "--limit", "2", "--doctor-tool", "retrieval+notebook", "--json", "--db", db]
    assert main(args) == 2
    assert "the retrieval tool searches the corpus, which is empty" in capsys.readouterr().err
    main(["corpus", "add", str(_docs(tmp_path) / "stemi.md"), "--db", db])
    assert main(args) == 0
    capsys.readouterr()
    store = open_store(db)
    rows = sorted(store.list_consultations(), key=lambda r: r.case_id)
    first, second = (store.get_transcript(r.id).turns for r in rows)
    search = next(t for t in first if t.kind == "search_result")
    assert search.meta["passages"][0]["source"].endswith("stemi.md")
    assert search.role == Role.TOOL and search.doctor_turn == rows[0].doctor_turns
    written = next(t for t in first if t.kind == "notebook_write").content
    assert written.startswith("- ") and "->" in written
    assert next(t for t in second if t.kind == "notebook_read").content == written
    plain = [r for r in store.list_consultations()]
    assert all(r.status == "finished" for r in plain)


def test_tool_turns_are_labelled_apart_in_the_transcript_and_the_export(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    turn = Turn(index=3, role=Role.TOOL, kind="search_result", doctor_turn=2,
                content="Search results for \"x\":\n[1] T — /a.md\npassage \x1b[2J")
    assert turn_header(turn).plain.startswith("Doctor's tool  turn 2 · search result")
    assert "\x1b" not in str(render_turn(turn).renderables[1])  # type: ignore[attr-defined]
    db = str(tmp_path / "r.db")
    main(["corpus", "add", str(_docs(tmp_path) / "stemi.md"), "--db", db])
    main(["run", "--limit", "1", "--doctor-tool", "retrieval", "--db", db])
    capsys.readouterr()
    main(["transcripts", "export", "--db", db])
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    tools = [t for t in record["turns"] if t["role"] == "tool"]
    assert [t["kind"] for t in tools] == ["search", "search_result"]
    assert tools[1]["tool"]["passages"][0]["source"].endswith("stemi.md")
    main(["transcripts", "export", "--format", "md", "--db", db])
    markdown = capsys.readouterr().out
    assert f"**Doctor's tool**, turn {tools[1]['doctor_turn']} (search result)" in markdown
    assert "stemi.md" in markdown
