"""The live screen's bookkeeping: an attached run shows only its own consultations, a run
started elsewhere shows its queued ones (from its stored plan) and its limits, cancelling
counts each consultation once. The registry is filled directly (it is the app's own data
model; the engine side is covered by tests/test_app_live.py)."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import DataTable

from core.transcript import Role, Turn
from tests.app_support import wait_until, painted_text
from tui.app.application import BedsideApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.live import LiveScreen, describe_counts
from tui.app.live_registry import LiveItem, LiveRegistry
from core.usecases.runs import outcome_message, planned_size


def registry_items(app: BedsideApp, run_id: str, statuses: list[str]) -> list[LiveItem]:
    """Consultations 'started in this app' for `run_id`, in the given states."""
    items = []
    for i, status in enumerate(statuses):
        item = app.live.register(LiveItem(f"c-{run_id}-{i:02d}", "card-001", "openai/x",
                                          run_id=run_id))
        item.status = status
        item.doctor_turn = i
        items.append(item)
    return items


def external_run(app: BedsideApp, run_id: str, n_cases: int, n_configs: int,
                 statuses: list[str]) -> None:
    """A run as `bedside run` in another terminal stores it: its plan and the consultations
    started so far."""
    from db.cases import save_cases
    from db.runs import create_run

    db = app.db
    if not db["cases"].count_where("id = 'card-001'"):
        from core.caseio import load_bundled_cases

        save_cases(db, [c for c in load_bundled_cases() if c.id == "card-001"])
    create_run(db, run_id=run_id, provenance={}, config={
        "cases": [f"case-{i}" for i in range(n_cases)],
        "configurations": [{"doctor": {"kind": "llm"}}] * n_configs, "concurrency": 2})
    for i, status in enumerate(statuses):
        db["consultations"].insert({"id": f"ext-{i:02d}", "case_id": "card-001",
                                    "doctor": "openai/y", "status": status, "run_id": run_id,
                                    "started_at": f"2025-01-01T00:00:0{i}Z"})


async def _live(pilot, app: BedsideApp, run_id: str | None) -> LiveScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
    app.open_live(run_id)
    await wait_until(pilot, lambda: isinstance(app.screen, LiveScreen))
    await pilot.pause(0.2)
    return app.screen  # type: ignore[return-value]


async def test_attached_run_counts_only_its_own_consultations(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
        registry_items(app, "run-here", ["finished"] * 20 + ["running"])
        external_run(app, "run-else", n_cases=5, n_configs=2,
                     statuses=["finished", "finished", "running"])
        live = await _live(pilot, app, "run-else")
        table = live.query_one("#live-table", DataTable)
        assert table.row_count == 3  # not the 21 started here for another run
        status = str(live.query_one("#live-status").render())
        # 10 planned (5 cases x 2 configurations), 3 started: 7 still queued.
        assert "1 running · 7 queued · 2 finished" in status and "10 planned" in status
        assert "stop it in its own terminal" in status
        await pilot.press("escape")
        live = await _live(pilot, app, None)  # not attached: what was started here
        assert live.query_one("#live-table", DataTable).row_count == 21
        assert "1 running · 20 finished" in str(live.query_one("#live-status").render())


async def test_attaching_follows_the_newest_run_and_refuses_to_cancel_it(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
        registry_items(app, "run-here", ["running", "queued"])
        external_run(app, "run-else", n_cases=2, n_configs=1, statuses=["running"])
        live = await _live(pilot, app, None)
        assert live.query_one("#live-table", DataTable).row_count == 2
        await pilot.press("a")
        await wait_until(pilot, lambda: live.run_id == "run-else")
        await wait_until(pilot, lambda: live.query_one("#live-table", DataTable).row_count == 1)
        assert "1 running · 1 queued" in str(live.query_one("#live-status").render())
        await pilot.press("x")
        await pilot.press("c")
        await pilot.pause(0.2)
        messages = [str(n.message) for n in app._notifications]
        assert sum("another terminal" in m for m in messages) == 2
        assert app.db["consultations"].get("ext-00")["status"] == "running"
        assert all(not i.cancel_event.is_set() for i in app.live.items.values())


def test_cancel_counts_each_consultation_once() -> None:
    reg = LiveRegistry()
    items = [reg.register(LiveItem(f"c-{i}", "card-001", "x", run_id="r")) for i in range(4)]
    items[3].status = "finished"
    assert reg.cancel("c-0") is True
    assert reg.cancel("c-0") is False  # still 'queued' until its job runs: not twice
    assert reg.cancel("c-3") is False  # already over
    assert [i.consultation_id for i in reg.active()] == ["c-1", "c-2"]
    assert reg.cancel_all() == 2 and reg.cancel_all() == 0


def test_planned_size_reads_both_run_formats(tmp_path: Path) -> None:
    from db.connection import open_db
    from db.runs import create_run

    from db.store import SqliteStore

    db = open_db(tmp_path / "b.db")
    create_run(db, run_id="cli", provenance={},
               config={"cases": ["a", "b", "c"], "configurations": [{}, {}]})
    create_run(db, run_id="old", provenance={}, config={"cases": ["a"], "models": ["m", "n"]})
    create_run(db, run_id="none", provenance={}, config={})
    create_run(db, run_id="junk", provenance={}, config={})
    db["runs"].update("none", {"config": json.dumps("not a dict")})
    db["runs"].update("junk", {"config": "{not json"})
    store = SqliteStore(db)

    def planned(run_id: str) -> int | None:
        return planned_size(store.find_run(run_id))

    assert (planned("cli"), planned("old")) == (6, 2)
    assert planned("none") is None and planned("junk") is None and planned("missing") is None


def test_counts_are_described_in_a_fixed_order() -> None:
    assert describe_counts({"finished": 6, "queued": 11, "running": 3, "odd": 1}) == \
        "3 running · 11 queued · 6 finished · 1 odd"
    assert describe_counts({}) == ""


async def test_the_focused_consultation_streams_literally(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
        item, = registry_items(app, "run-here", ["running"])
        item.turns.append(Turn(index=0, role=Role.DOCTOR, content="Hello [b]there[/b]",
                               doctor_turn=1, kind="question"))
        item.stream_role, item.stream_text = "patient", "It hurts \x1b[31mhere"
        live = await _live(pilot, app, None)
        view = live.query_one("#live-stream")
        await wait_until(pilot, lambda: view.turn_count == 1 and view.stream_text)
        item.stream_text += " and [red]there"
        await wait_until(pilot, lambda: view.stream_text.endswith("[red]there"))

        shown = painted_text(app)
        assert "Hello [b]there[/b]" in shown and "␛[31mhere and [red]there" in shown


def test_run_outcome_counts_failures_and_quotes_the_first(tmp_path: Path) -> None:
    from db.connection import open_db
    from db.runs import create_run
    from db.store import SqliteStore

    db = open_db(tmp_path / "b.db")
    from core.caseio import load_bundled_cases
    from db.cases import save_cases

    save_cases(db, load_bundled_cases()[:1])
    case_id = load_bundled_cases()[0].id
    create_run(db, run_id="r", provenance={}, config={})
    for i, status in enumerate(["failed", "failed"]):
        db["consultations"].insert({"id": f"c{i}", "case_id": case_id, "run_id": "r",
                                    "status": status, "error": f"Model error: 500 #{i}",
                                    "started_at": f"2025-01-01T00:00:0{i}Z"})
    message, severity = outcome_message(SqliteStore(db), "r")
    assert severity == "error" and "2 failed" in message and "500 #0" in message
    db["consultations"].insert({"id": "c9", "case_id": case_id, "run_id": "r",
                                "status": "finished"})
    message, severity = outcome_message(SqliteStore(db), "r")
    assert severity == "warning" and "1 finished, 2 failed" in message


async def test_a_batch_with_a_failing_model_says_how_many_failed(tmp_path: Path) -> None:
    from tests.fake_openai_server import FakeOpenAIServer
    from tui.app.screens.forms_batch import BatchRequest

    def broken(body: dict, n: int) -> str | None:
        return "500" if body.get("model") == "broken" else None

    app = BedsideApp(tmp_path / "b.db")
    with FakeOpenAIServer(fault_rule=broken) as server:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
            app.start_batch(BatchRequest(cases="card-001", models=["openai/ok", "openai/broken"],
                                         concurrency=2, api_base=server.base_url))
            await wait_until(pilot, lambda: any("Batch" in str(n.message)
                                           for n in app._notifications), tries=800)
            note = next(n for n in app._notifications if "Batch" in str(n.message))
    assert note.severity == "warning"
    assert "1 failed" in note.message and "1 finished" in note.message
    assert "First failure" in note.message
