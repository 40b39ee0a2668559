"""The rating screen: a rater works through their assignments of a study, keyboard first.

Transcript on the left (per-turn questions under their turns), the form on the right.
Digits set a score (0 = 10), Tab moves from question to question, Enter saves and opens the
next transcript, `u` undoes the last save, `s` skips with a reason, `c` comments on the
focused question, `r` shows or hides the case record, `i` shows the instructions, PgUp/PgDn
scroll the transcript, `q` quits (asking first when answers on screen are not saved). Every
save is committed at once; on return the rater resumes at their first unrated transcript,
with the answers of an undone save filled in again.

Blinding: the screen works through an `annotation.session.RatingSession`, which gives it
only a `RaterView` (study name, instructions, rubric, show_truth), the blinded item
(`annotation.blinding.BlindItem`) and the rater's own ratings — never the study's selection
(models, runs), its list of raters, or anything of the consultation beyond the blinded
turns. The screen holds no SQL: the session reads and writes through the study store.

Entry points: `RatingScreen(study, rater)`, `open_study(app, study_id)` (asks for the rater's
name; used by the home screen) and `RatingApp` (for `bedside rate`).
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
from textual.widgets import Collapsible, Input, Static
from textual.widgets.collapsible import CollapsibleTitle

from core.errors import BedsideError, InputError
from tui.app.rating.widgets import (AskText, InstructionsScreen, KeyHold, TextField,
                                    UnitField)
from tui.app.widgets.confirm import ConfirmScreen
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import literal

if TYPE_CHECKING:
    from sqlite_utils import Database

    from annotation.blinding import BlindItem, RaterView
    from annotation.session import RatingSession

ROLE_STYLES = {"doctor": "bold #5fafff", "patient": "bold #87d787", "examiner": "bold #ffaf5f",
               "host": "bold #d7af87"}
Answers = dict[tuple[str, int], tuple[str | None, str | None]]


#: Above the transcript, when the rubric has per-turn questions.
TURN_HINT = "Under a turn: optional questions about it (Tab to one, then y/n)."
#: Above the form: what `*` means.
FORM_HINT = "* must be answered; the rest is optional."


def _minutes(seconds: float | None) -> str:
    if seconds is None:
        return "time left: estimating…"
    return f"about {max(1, round(seconds / 60))} min left"


class RatingScreen(KeyHold, Screen[None]):
    """Rate one study as one rater."""

    CSS_PATH = "rating.tcss"
    AUTO_FOCUS = ""  # none: `load` focuses the first question itself, panes at the top
    # Short descriptions so that all of them, `q Quit` included, fit in 80 columns. `i` is
    # this screen's help (the study's instructions, with the keys): its action is named
    # `help` so that the app's KeyFooter puts it first; in the bedside app it stands in the
    # bar for F1 (bindings are shown once per action), and F1 still opens the key list.
    # The bar says how to answer (digits, 0 = 10, Tab) to a rater who has never used a
    # terminal app; to fit 80 columns with the bedside app's ^q, Undo and Record are left
    # to the help (i) and the form ("Case record (r)").
    BINDINGS = [
        Binding("enter", "save", "Save"),
        Binding("1,2,3,4,5,6,7,8,9,0", "digit", "Score, 0=10", key_display="0-9"),
        Binding("tab", "app.focus_next", "Next", key_display="Tab"),
        Binding("u", "undo", "Undo", show=False),
        Binding("s", "skip", "Skip"),
        Binding("c", "comment", "Comment"),
        Binding("r", "record", "Record", show=False),
        Binding("i", "help", "Help"),
        Binding("q", "leave", "Quit"),
        # Priority: the focused question sits in a scrolling pane whose own PgUp/PgDn would
        # otherwise win and scroll the form instead of the transcript.
        Binding("pageup", "page(-1)", "Scroll up", show=False, priority=True),
        Binding("pagedown", "page(1)", "Scroll down", show=False, priority=True),
    ]

    #: The bar's order after Help and Quit: how to answer before what else there is.
    FOOTER_ORDER = ("save", "digit", "app.focus_next", "skip", "comment")

    def __init__(self, study: str, rater: str) -> None:
        super().__init__()
        self.study_key, self.rater_name = study, rater
        #: The study as the rater may know it (never the selection or the other raters).
        self.view: RaterView | None = None
        #: The rater's session (set on mount, once study and rater are resolved).
        self.session: RatingSession | None = None
        #: The blinded transcript on screen (None when the rater has finished).
        self.item: BlindItem | None = None
        self.saves = 0
        self._shown: Answers = {}  # the answers as loaded, to tell unsaved changes

    @property
    def db(self) -> Database:
        """The app's database connection (opened on the app's thread)."""
        return self.app.db  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        """Progress line, the two panes, the key hints."""
        yield Static(id="progress")
        with Horizontal(id="panes"):
            # Not focusable themselves: Tab goes from question to question.
            yield VerticalScroll(id="transcript", can_focus=False)
            yield VerticalScroll(id="form", can_focus=False)
        yield KeyFooter()

    async def on_mount(self) -> None:
        """Resolve study and rater, then show where the rater left off."""
        from annotation.session import RatingSession
        from db.study_store import SqliteStudyStore

        try:
            self.session = RatingSession(SqliteStudyStore(self.db), self.study_key,
                                         self.rater_name)
        except InputError as err:  # not one of the study's raters
            self.app.notify(err.reason, severity="error", markup=False)
            self._close()
            return
        except BedsideError as err:
            self.app.notify(str(err), severity="error", markup=False)
            self._close()
            return
        self.view = self.session.view
        if self.session.progress().finished == 0:
            self.app.push_screen(InstructionsScreen(self.view.instructions))
        await self.load()

    # -- loading ------------------------------------------------------------------------
    async def load(self, assignment_id: str | None = None) -> None:
        """Show an assignment (default: the first unrated one) with its answers, both panes
        scrolled to the top and the first question focused."""
        assert self.session is not None
        held, self.keys_held = self.keys_held, True  # keys typed meanwhile are dropped
        try:
            await self._load(assignment_id)
        finally:
            if not held:
                self.release_keys()

    async def _load(self, assignment_id: str | None) -> None:
        assert self.session is not None
        opened = self.session.open(assignment_id)
        left = self.query_one("#transcript", VerticalScroll)
        form = self.query_one("#form", VerticalScroll)
        await left.remove_children()
        await form.remove_children()
        self.item, self._shown = None, {}
        item = None
        if opened is None:
            await left.mount(Static(Text("All transcripts rated. Thank you! (q: quit, "
                                         "u: undo the last save)"), id="finished"))
        else:
            item = opened.item
            await self._mount_item(left, form, item, opened.answers)
        # From here on nothing awaits: the new item, its answers, the panes, the focus and
        # the progress line change together.
        self.item = item
        self._shown = self.answers()
        for pane in (left, form):
            pane.scroll_home(animate=False, immediate=True)
        first = next(iter(form.query(UnitField)), None) or next(iter(self._fields()), None)
        if first is not None:
            first.focus(scroll_visible=False)
        self.refresh_progress()

    async def _mount_item(self, left: Any, form: Any, item: BlindItem, answers: Answers) -> None:
        assert self.view is not None
        rubric = self.view.rubric
        blocks: list[Any] = []
        for turn in item.turns:
            head = Text(turn.who, style=ROLE_STYLES.get(turn.role, "bold"))
            kind = turn.kind.replace("_", " ")
            head.append(f"  #{turn.index} {kind}" + (f", round {turn.round}" if turn.round
                                                        else ""), style="dim")
            head.append("\n")
            head.append_text(literal(turn.content))
            blocks.append(Static(head, classes=f"turn {turn.role}", markup=False))
            units = [UnitField(ri, turn.index, *answers.get((ri.id, turn.index), (None, None)),
                               compact=True)
                     for ri in rubric.items if ri.applies_to(turn.role, turn.kind)]
            if units:  # one line under the turn, whatever the number of questions
                blocks.append(Horizontal(*units, classes="turn-units"))
        if any(ri.unit == "turn" for ri in rubric.items):
            blocks.insert(0, Static(Text(TURN_HINT, style="dim"), id="turn-hint"))
        await left.mount_all(blocks)
        fields: list[Any] = [Static(Text(FORM_HINT, style="dim"), id="form-hint"),
                             self._reference(item)]
        for ri in rubric.items:
            if ri.unit == "transcript":
                v, c = answers.get((ri.id, -1), (None, None))
                fields.append(TextField(ri, v, c) if ri.kind == "text" else UnitField(ri, -1, v, c))
        await form.mount_all(fields)
        for title in form.query(CollapsibleTitle):
            title.can_focus = False  # `r` opens and closes the record; Tab skips it

    def _reference(self, item: BlindItem) -> Any:
        ref = item.reference
        if ref is None:
            return Static(Text("Case record: not available for this transcript (an imported "
                               "dialogue); rate from the transcript alone.", style="dim"),
                          id="no-reference")
        text = Text("Patient record\n", style="bold")
        text.append_text(literal(ref.patient or "(none)"))
        text.append("\n\nStored findings and results\n", style="bold")
        text.append_text(literal(ref.findings or "(none)"))
        if ref.truth:
            text.append("\n\nCorrect diagnosis: ", style="bold")
            text.append_text(literal(ref.truth))
        if ref.treatment:
            text.append("\n\nRecord's treatment: ", style="bold")
            text.append_text(literal(ref.treatment))
        return Collapsible(Static(text, markup=False), title="Case record (r)",
                           collapsed=True, id="reference")

    def refresh_progress(self) -> None:
        """Study, rater, progress `12 / 40` and the time-left estimate."""
        assert self.session is not None
        p = self.session.progress()
        name = self.view.study if self.view else self.study_key
        left = "all rated" if p.total and p.finished >= p.total else _minutes(p.seconds_left)
        line = literal(f"{name} · {self.session.rater_name} · {p.finished} / {p.total} · "
                       f"{left}")  # names are user-typed text
        if self.item is not None and self.item.calibration:
            line.append("  · calibration", style="bold yellow")
        self.query_one("#progress", Static).update(line)

    # -- state --------------------------------------------------------------------------
    def _fields(self) -> list[Any]:
        return [*self.query(UnitField), *self.query(TextField)]

    def answers(self) -> Answers:
        """The answers on screen, by unit."""
        return {f.unit: (f.value, f.comment) for f in self._fields()}

    def unsaved(self) -> bool:
        """Whether the answers on screen differ from those loaded (saved or pre-filled)."""
        return self.item is not None and self.answers() != self._shown

    async def may_discard(self, question: str) -> bool:
        """True when nothing is unsaved or the rater agrees to drop it."""
        if not self.unsaved():
            return True
        return bool(await self.app.push_screen_wait(ConfirmScreen(question)))

    # -- actions ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No key binding acts while a save and the next load are under way (`KeyHold`)."""
        return not self.keys_held

    def action_save(self) -> None:
        """Save and open the next transcript (Enter; keys typed meanwhile are held)."""
        self.begin_save()

    async def save_and_load(self) -> None:
        """Check required answers, commit, open the next transcript; then let keys in."""
        try:
            await self._save()
        finally:
            self.release_keys()

    async def _save(self) -> None:
        if self.item is None or self.session is None:
            return
        values = self.answers()
        missing = self.session.missing(self.item, values)
        if missing:
            names = ", ".join(sorted({i.label for i, _ in missing}))
            self.app.notify(f"Still to rate: {names}", severity="warning", markup=False)
            target = next(f for f in self._fields() if f.unit == (missing[0][0].id, missing[0][1]))
            target.focus()
            return
        self.session.save(self.item, values)
        self.saves += 1
        await self.load()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a free-text item saves too."""
        event.stop()
        self.begin_save()

    @work(exclusive=True, group="ask")
    async def action_undo(self) -> None:
        """Revert the last save or skip and show that transcript again, answers filled in."""
        if self.session is None:
            return
        if not await self.may_discard("Undo the last save? The answers you changed on this "
                                       "transcript are not saved and will be lost."):
            return
        undone = self.session.undo()
        if undone is None:
            self.app.notify("Nothing to undo.")
            return
        await self.load(undone.assignment_id)
        self.app.notify("Skip undone: this transcript is unrated again." if undone.kind == "skip"
                        else "Save undone: this transcript is unrated again; its answers are "
                        "filled in (Enter saves them).")

    @work(exclusive=True, group="ask")
    async def action_skip(self) -> None:
        """Ask for a reason; skip this transcript (unsaved answers on it are dropped)."""
        if self.item is None or self.session is None:
            return
        item_id = self.item.assignment_id
        prompt = "Why skip this transcript?" + (" (your unsaved answers on it are dropped)"
                                                if self.unsaved() else "")
        reason = await self.app.push_screen_wait(AskText(prompt))
        if not reason or not reason.strip():
            return
        self.session.skip(item_id, reason)
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

    def action_record(self) -> None:
        """Show or hide the case record (and bring it into view)."""
        found = self.query("#reference")
        if not found:
            self.app.notify("No case record for this transcript.")
            return
        record = found.first(Collapsible)
        record.collapsed = not record.collapsed
        if not record.collapsed:
            self.query_one("#form", VerticalScroll).scroll_home(animate=False)

    def action_digit(self) -> None:
        """A digit with no question focused (the focused question takes its own digits)."""
        self.app.notify("Move to a question first (Tab), then type its score.")

    def action_page(self, direction: int) -> None:
        """PgUp/PgDn scroll the transcript without moving the focus."""
        pane = self.query_one("#transcript", VerticalScroll)
        if direction > 0:
            pane.scroll_page_down()
        else:
            pane.scroll_page_up()

    def action_help(self) -> None:
        """Show the study's instructions (and the keys) again."""
        if self.view is not None:
            self.app.push_screen(InstructionsScreen(self.view.instructions))

    @work(exclusive=True, group="ask")
    async def action_leave(self) -> None:
        """Quit: everything saved stays saved; unsaved answers are dropped only if confirmed."""
        if await self.may_discard("Quit without saving the answers on this transcript?"):
            self._close()

    def _close(self) -> None:
        if isinstance(self.app, RatingApp):
            self.app.exit()
        else:
            self.app.pop_screen()


class RatingApp(App[None]):
    """`bedside rate`: the rating screen on its own."""

    TITLE = "bedside · rating"
    ENABLE_COMMAND_PALETTE = False

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

    async def action_quit(self) -> None:
        """ctrl+q asks like `q` when answers on screen are not saved."""
        screen = next((s for s in self.screen_stack if isinstance(s, RatingScreen)), None)
        if screen is None or not screen.unsaved():
            self.exit()
        elif self.screen is screen:
            screen.action_leave()
        else:
            self.notify("Unsaved answers: close this dialog first, then press q.")


def open_study(app: Any, study_id: str, problem: str = "") -> None:
    """From the home screen: ask who is rating (the prompt lists the study's raters; any
    case will do), then open the rating screen; a name not in the study asks again."""
    from annotation.session import match_rater, study_raters
    from db.study_store import SqliteStudyStore

    try:
        study, raters = study_raters(SqliteStudyStore(app.db), study_id)
    except BedsideError as err:
        app.notify(str(err), severity="error", markup=False)
        return

    def start(name: str | None) -> None:
        """Open the screen for the rater named; ask again for a name not in the study."""
        if not name or not name.strip():
            return
        found = match_rater(raters, name)
        if found is None:
            open_study(app, study_id, f"'{name.strip()}' is not a rater of this study.")
            return
        app.push_screen(RatingScreen(study_id, found))

    prompt = (f"{problem}\n" if problem else "") + (
        f"Who is rating '{study}'? Type your rater name (upper or lower case alike). "
        f"This study's raters: {', '.join(raters)}.")
    app.push_screen(AskText(prompt), start)
