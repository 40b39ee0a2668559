"""The rating screen: a rater works through their assignments of a study, keyboard first.

Transcript on the left (per-turn questions under their turns), the form on the right.
Digits set a score (0 = 10), Tab moves, Enter saves and opens the next transcript, `u`
undoes the last save, `s` skips with a reason, `c` comments on the focused question, `i`
shows the instructions, `q` quits. Every save is committed at once; on return the rater
resumes at their first unrated transcript. The screen only ever holds the blinded item
(`annotation.blinding.BlindItem`) and the rater's own ratings.

Entry points: `RatingScreen(study, rater)`, `open_study(app, study_id)` (asks for the rater's
name; used by the home screen) and `RatingApp` (for `bedside rate`).

Must not import: litellm, core.engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Collapsible, Footer, Input, Static

from core.errors import BedsideError
from tui.rating_widgets import AskText, InstructionsScreen, TextField, UnitField
from tui.widgets.literal import literal

if TYPE_CHECKING:
    from sqlite_utils import Database

    from annotation.blinding import BlindItem
    from annotation.study import StudyDefinition

ROLE_STYLES = {"doctor": "bold #5fafff", "patient": "bold #87d787", "examiner": "bold #ffaf5f"}


def _minutes(seconds: float | None) -> str:
    if seconds is None:
        return "time left: estimating…"
    return f"about {max(1, round(seconds / 60))} min left"


class RatingScreen(Screen[None]):
    """Rate one study as one rater."""

    CSS_PATH = "rating.tcss"
    BINDINGS = [
        Binding("enter", "save", "Save & next"),
        Binding("u", "undo", "Undo last save"),
        Binding("s", "skip", "Skip"),
        Binding("c", "comment", "Comment"),
        Binding("i", "instructions", "Instructions"),
        Binding("q", "leave", "Quit"),
    ]

    def __init__(self, study: str, rater: str) -> None:
        super().__init__()
        self.study_key, self.rater_name = study, rater
        self.definition: StudyDefinition | None = None
        self.study_id = self.rater_id = ""
        #: The blinded transcript on screen (None when the rater has finished).
        self.item: BlindItem | None = None
        self.saves = 0

    @property
    def db(self) -> Database:
        """The app's database connection (opened on the app's thread)."""
        return self.app.db  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        """Progress line, the two panes, the key hints."""
        yield Static(id="progress")
        with Horizontal(id="panes"):
            yield VerticalScroll(id="transcript")
            yield VerticalScroll(id="form")
        yield Footer()

    async def on_mount(self) -> None:
        """Resolve study and rater, then show where the rater left off."""
        from annotation.assignment import load_definition
        from db import studies

        try:
            row = studies.get_study(self.db, self.study_key)
            self.definition = load_definition(row)
            if self.rater_name not in self.definition.raters:
                raise BedsideError(f"'{self.rater_name}' is not a rater of study "
                                   f"'{row['name']}' ({', '.join(self.definition.raters)})")
            self.study_id = row["id"]
            self.rater_id = studies.get_rater(self.db, self.rater_name)["id"]
        except BedsideError as err:
            self.app.notify(str(err), severity="error", markup=False)
            self.action_leave()
            return
        if studies.progress(self.db, self.study_id, self.rater_id).finished == 0:
            self.app.push_screen(InstructionsScreen(self.definition.instructions))
        await self.load()

    # -- loading ------------------------------------------------------------------------
    async def load(self, assignment_id: str | None = None,
                   prefill: dict[tuple[str, int], tuple[str | None, str | None]] | None = None
                   ) -> None:
        """Show an assignment (default: the first unrated one) with its saved answers."""
        from annotation.blinding import blind_item
        from db import studies

        a = (studies.get_assignment(self.db, assignment_id) if assignment_id
             else studies.next_assignment(self.db, self.study_id, self.rater_id))
        left, form = self.query_one("#transcript"), self.query_one("#form")
        await left.remove_children()
        await form.remove_children()
        self.item = None
        if a is None:
            await left.mount(Static(Text("All transcripts rated. Thank you! (q: quit, "
                                         "u: undo the last save)"), id="finished"))
        else:
            assert self.definition is not None
            self.item = blind_item(self.db, a, self.definition.show_truth)
            answers = studies.assignment_ratings(self.db, a["id"])
            answers.update(prefill or {})
            await self._mount_item(left, form, answers)
        self.refresh_progress()

    async def _mount_item(self, left: Any, form: Any, answers: dict[Any, Any]) -> None:
        assert self.item is not None and self.definition is not None
        rubric = self.definition.effective_rubric()
        blocks: list[Any] = []
        for turn in self.item.turns:
            head = Text(turn.role.title(), style=ROLE_STYLES.get(turn.role, "bold"))
            head.append(f"  #{turn.index} {turn.kind.replace('_', ' ')}", style="dim")
            head.append("\n")
            head.append_text(literal(turn.content))
            blocks.append(Static(head, classes=f"turn {turn.role}", markup=False))
            for ri in rubric.items:
                if ri.applies_to(turn.role, turn.kind):
                    blocks.append(UnitField(ri, turn.index, *answers.get((ri.id, turn.index),
                                                                         (None, None))))
        await left.mount_all(blocks)
        fields: list[Any] = [self._reference()] if self.item.reference else []
        for ri in rubric.items:
            if ri.unit == "transcript":
                v, c = answers.get((ri.id, -1), (None, None))
                fields.append(TextField(ri, v, c) if ri.kind == "text" else UnitField(ri, -1, v, c))
        await form.mount_all(fields)
        first = next(iter(form.query(UnitField)), None)
        if first is not None:
            first.focus()

    def _reference(self) -> Collapsible:
        ref = self.item.reference if self.item else None
        assert ref is not None
        text = Text("Patient record\n", style="bold")
        text.append_text(literal(ref.patient))
        text.append("\n\nStored findings and results\n", style="bold")
        text.append_text(literal(ref.findings))
        if ref.truth:
            text.append("\n\nCorrect diagnosis: ", style="bold")
            text.append_text(literal(ref.truth))
        return Collapsible(Static(text, markup=False), title="Case record (reference)",
                           collapsed=True, id="reference")

    def refresh_progress(self) -> None:
        """Progress `12 / 40` and the time-left estimate."""
        from db import studies

        p = studies.progress(self.db, self.study_id, self.rater_id)
        line = Text(f"{self.rater_name} · {p.finished} / {p.total} · {_minutes(p.seconds_left)}")
        if self.item is not None and self.item.calibration:
            line.append("  · calibration transcript", style="bold yellow")
        self.query_one("#progress", Static).update(line)

    # -- actions ------------------------------------------------------------------------
    def _fields(self) -> list[Any]:
        return [*self.query(UnitField), *self.query(TextField)]

    async def action_save(self) -> None:
        """Check required answers, commit, open the next transcript."""
        from annotation.blinding import missing_required
        from db import studies

        if self.item is None or self.definition is None:
            return
        values = {f.unit: (f.value, f.comment) for f in self._fields()}
        missing = missing_required(self.definition.effective_rubric(), self.item.turns,
                                   {u: v for u, (v, _) in values.items()})
        if missing:
            names = ", ".join(sorted({i.label for i, _ in missing}))
            self.app.notify(f"Still to rate: {names}", severity="warning", markup=False)
            target = next(f for f in self._fields() if f.unit == (missing[0][0].id, missing[0][1]))
            target.focus()
            return
        studies.save_ratings(self.db, self.item.assignment_id, values)
        self.saves += 1
        await self.load()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a free-text item saves too."""
        event.stop()
        self.run_worker(self.action_save(), exclusive=True, group="save")

    async def action_undo(self) -> None:
        """Revert the last save or skip and show that transcript again, answers filled in."""
        from db import studies

        undone = studies.undo_last(self.db, self.study_id, self.rater_id)
        if undone is None:
            self.app.notify("Nothing to undo.")
            return
        await self.load(undone.assignment_id, undone.values)
        self.app.notify("Last save undone: nothing about it is recorded as done now.")

    @work(exclusive=True, group="ask")
    async def action_skip(self) -> None:
        """Ask for a reason; skip this transcript."""
        from db import studies

        if self.item is None:
            return
        item_id = self.item.assignment_id
        reason = await self.app.push_screen_wait(AskText("Why skip this transcript?"))
        if not reason or not reason.strip():
            return
        studies.skip(self.db, item_id, reason)
        await self.load()

    @work(exclusive=True, group="ask")
    async def action_comment(self) -> None:
        """Comment on the focused question (saved with the next Enter)."""
        target = self.focused
        field = target if isinstance(target, UnitField) else next(
            (f for f in self.query(TextField) if target in f.query("*")), None)
        if field is None:
            self.app.notify("Move to a question first (Tab), then press c.")
            return
        text = await self.app.push_screen_wait(
            AskText(f"Comment on: {field.item.label}", field.comment or ""))
        if text is not None:
            field.comment = text.strip() or None
            if isinstance(field, UnitField):
                field.show()
            field.focus()

    def action_instructions(self) -> None:
        """Show the study's instructions again."""
        if self.definition is not None:
            self.app.push_screen(InstructionsScreen(self.definition.instructions))

    def action_leave(self) -> None:
        """Quit: everything saved stays saved; unsaved answers on screen are dropped."""
        if isinstance(self.app, RatingApp):
            self.app.exit()
        else:
            self.app.pop_screen()


class RatingApp(App[None]):
    """`bedside rate`: the rating screen on its own."""

    TITLE = "bedside · rating"

    def __init__(self, db_path: Path | str | None, study: str, rater: str) -> None:
        super().__init__()
        self._db_path, self.study, self.rater = db_path, study, rater
        self._db: Database | None = None

    @property
    def db(self) -> Database:
        """The database, opened on first use on the app's thread."""
        if self._db is None:
            from db.connection import open_db

            self._db = open_db(self._db_path)
        return self._db

    def on_mount(self) -> None:
        """Open the rating screen."""
        self.push_screen(RatingScreen(self.study, self.rater))


def open_study(app: Any, study_id: str) -> None:
    """From the home screen: ask who is rating, then open the rating screen."""
    def start(name: str | None) -> None:
        if name and name.strip():
            app.push_screen(RatingScreen(study_id, name.strip()))

    app.push_screen(AskText("Your rater name:"), start)
