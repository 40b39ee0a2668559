"""Widgets of the rating screen: a rating field per rubric unit and small modals (ask, confirm,
instructions).

Attributes down, messages up: a field is handed its rubric item and current answer; it
never touches the database. Every piece of transcript or case text is untrusted and is shown
through `tui.app.widgets.literal` (never parsed as markup).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from annotation.rubric import RubricItem
from tui.app.widgets.literal import literal


class KeyHold:
    """The rating screen's hold on keys while a save commits and the next transcript loads.

    Textual hands a key to the widget focused when it arrives, and a question handles the
    keys of a burst before the screen has even started the save its Enter asked for: a digit
    typed just after Enter would change the answer being saved, or answer (or skip) a
    transcript the rater has not seen yet. So the focused field itself starts the save on
    Enter (`take_key`) and, from then until the next transcript is shown, every key is
    dropped (and the rater told how many were); the screen's bindings are off meanwhile.
    """

    keys_held = False
    _dropped = 0

    def begin_save(self) -> None:
        """Hold the keys and save (the screen's `save_and_load`), once at a time."""
        if self.keys_held:
            return
        self.keys_held = True
        self.run_worker(self.save_and_load(), exclusive=True,  # type: ignore[attr-defined]
                        group="save")

    async def save_and_load(self) -> None:
        """Save the answers on screen and open the next transcript (the screen's)."""
        raise NotImplementedError

    def drop_key(self) -> None:
        """Count a key typed while held."""
        self._dropped += 1

    def release_keys(self) -> None:
        """Let keys through again; say how many were dropped."""
        self.keys_held = False
        self.refresh_bindings()  # type: ignore[attr-defined]  # the bar shows them again
        if self._dropped:
            self.notify(f"{self._dropped} key(s) typed while the next transcript "  # type: ignore[attr-defined]
                        "loaded were ignored.", markup=False)
            self._dropped = 0


def take_key(widget: Any, event: events.Key) -> bool:
    """Whether the rating screen takes this key from its field: dropped while keys are held,
    or an Enter, which starts the save (and the hold) at once. False elsewhere."""
    screen = widget.screen
    if not isinstance(screen, KeyHold):
        return False
    if screen.keys_held:
        screen.drop_key()
    elif event.key == "enter":
        screen.begin_save()
    else:
        return False
    event.stop()
    event.prevent_default()
    return True


class AnswerInput(Input):
    """The text box of a free-text question: Enter saves, with the keys held (`KeyHold`)."""

    async def _on_key(self, event: events.Key) -> None:
        if not take_key(self, event):
            await super()._on_key(event)


def short_label(item: RubricItem) -> str:
    """The few words a per-turn question shows on its line: its `short`, else the default
    rubric's for the same question (a study stores its rubric whole, so studies made
    before `short` existed hold the default items without it), else its label."""
    from annotation.rubric_default import default_rubric

    if item.short:
        return item.short
    same = default_rubric().item(item.id)
    return same.short if same is not None and same.label == item.label and same.short \
        else item.label


class UnitField(Static, can_focus=True):
    """One rating unit (a scale or choice item, on a turn or the whole transcript).

    Digits set the answer (0 means 10 on a scale; 1..n pick a choice; y/n answer yes/no),
    Backspace clears it. Tab moves on; the screen's keys (Enter, u, s, c) bubble up.

    A per-turn unit is `compact`: one line under its turn (the item's short label and its
    options), so a long transcript stays readable. A unit of the form shows its label and
    values, and its anchors ('1 = not realistic at all …') only while it has the focus, so
    four questions fit an 80×24 terminal.
    """

    def __init__(self, item: RubricItem, turn_idx: int, value: str | None,
                 comment: str | None, *, compact: bool = False) -> None:
        super().__init__(classes="unit-compact" if compact else "unit")
        self.item, self.turn_idx = item, turn_idx
        self.value, self.comment = value, comment
        self.compact = compact

    @property
    def unit(self) -> tuple[str, int]:
        """(item id, turn index) — the ratings key."""
        return self.item.id, self.turn_idx

    def on_mount(self) -> None:
        """Paint the current answer."""
        self.show()

    def on_focus(self) -> None:
        """The anchors appear with the focus."""
        self.show()

    def on_blur(self) -> None:
        """… and go with it."""
        self.show()

    def _values(self, text: Text) -> None:
        item = self.item
        if item.kind == "scale":
            # One space between values: 1..10 fits the form pane of an 80-column terminal.
            for v in range(item.min, item.max + 1):
                text.append(str(v), style="reverse bold" if self.value == str(v) else "")
                text.append(" ")
            return
        for n, option in enumerate(item.options, 1):
            style = "reverse bold" if self.value == option else ""
            text.append(option if self.compact else f"{n}:{option}", style=style)
            text.append(" ")

    @property
    def focused(self) -> bool:
        """Whether this question has the screen's focus (set at once by `focus()`, also while
        a dialog is on top, unlike `has_focus`)."""
        return self.is_mounted and self.screen.focused is self

    def show(self) -> None:
        """Re-render label, choices and the selected answer."""
        item = self.item
        if self.compact:
            text = Text(short_label(item) + " ", style="bold" if self.focused else "")
            if item.kind == "scale":
                text.append(self.value or "·", style="reverse bold" if self.value else "dim")
                text.append(f" ({item.min}-{item.max})", style="dim")
            else:
                self._values(text)
                text.rstrip()
            if self.comment:
                text.append(" ✎", style="italic dim")
            self.update(text)
            return
        text = Text(("* " if item.required else "") + item.label, style="bold")
        text.append("\n")
        self._values(text)
        anchors = " · ".join(f"{k} {a}" for k, a in sorted(item.anchors.items()))
        if self.focused and (anchors or item.help):
            text.append("\n" + (anchors or item.help or ""), style="dim")
        if self.comment:
            text.append("\ncomment: ", style="italic dim")
            text.append_text(literal(self.comment, "italic"))
        self.update(text)

    def set_value(self, value: str | None) -> None:
        """Set (or clear) the answer and repaint."""
        self.value = value
        self.show()

    def on_key(self, event: events.Key) -> None:
        """Digits and y/n answer; Backspace/Delete clear; Tab moves at once.

        Keys can arrive in a burst (a slow link, a busy machine): Textual hands every key
        of the burst to the widget focused when it arrived. Moving the focus here, at once,
        and passing on, in order, any key that arrives after the focus has moved, lets
        "7 Tab 5 Tab 3 Enter" land where the rater meant it.
        """
        focused = self.screen.focused
        if focused is not None and focused is not self:
            event.stop()
            event.prevent_default()
            focused.post_message(events.Key(event.key, event.character))
            return
        if take_key(self, event):  # Enter saves; keys after it wait for the next transcript
            return
        if event.key in ("tab", "shift+tab"):
            event.stop()
            event.prevent_default()
            if event.key == "tab":
                self.screen.focus_next()
            else:
                self.screen.focus_previous()
            return
        answer = self._answer_for(event.key)
        if answer is not None:
            event.stop()
            event.prevent_default()
            self.set_value(answer or None)

    def _answer_for(self, key: str) -> str | None:
        """The answer a key gives ("" clears), or None when the key is not an answer."""
        item = self.item
        if key in ("backspace", "delete"):
            return ""
        if item.kind == "choice":
            if key.isdigit() and 1 <= int(key) <= len(item.options):
                return item.options[int(key) - 1]
            by_letter = {"y": "yes", "n": "no"}
            if key in by_letter and by_letter[key] in item.options:
                return by_letter[key]
            return None
        if key.isdigit():
            v = 10 if key == "0" else int(key)
            return str(v) if item.min <= v <= item.max else None
        return None


class TextField(Vertical):
    """A free-text rubric item (per transcript)."""

    def __init__(self, item: RubricItem, value: str | None, comment: str | None) -> None:
        super().__init__(classes="unit-text")
        self.item, self.turn_idx, self.comment = item, -1, comment
        self._initial = value or ""

    @property
    def unit(self) -> tuple[str, int]:
        """(item id, -1)."""
        return self.item.id, -1

    @property
    def value(self) -> str | None:
        """The text typed, or None when empty."""
        return self.query_one(Input).value.strip() or None

    def set_value(self, value: str | None) -> None:
        """Replace the text."""
        self.query_one(Input).value = value or ""

    def compose(self) -> ComposeResult:
        """Label and input."""
        yield Static(Text(self.item.label, style="bold"))
        yield AnswerInput(self._initial, placeholder="type, then Enter saves", compact=True)


class AskText(ModalScreen[str | None]):
    """Ask for one line of text (skip reason, comment); Escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    AskText { align: center middle; }
    AskText .dialog { width: 70; max-width: 90%; height: auto; max-height: 90%;
                  border: thick $accent; background: $surface; padding: 1 2; }
    """

    def __init__(self, prompt: str, initial: str = "") -> None:
        super().__init__(classes="ask")
        self._prompt, self._initial = prompt, initial

    def compose(self) -> ComposeResult:
        """The prompt and the input."""
        with Vertical(classes="dialog"):
            yield Static(literal(self._prompt))
            yield Input(self._initial, id="ask-input")
            yield Static(Text("Enter: OK · Escape: cancel", style="dim"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Return the text."""
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        """Return None."""
        self.dismiss(None)


KEYS_HELP = ("Keys: digits set a score (0 = 10) or pick an option, y/n answer yes/no, "
             "Backspace clears · Tab / Shift+Tab next / previous question · Enter saves and "
             "opens the next transcript · u undo the last save · s skip (with a reason) · "
             "c comment on the question · r case record · PgUp/PgDn scroll the transcript · "
             "i this help · q quit (you resume where you left off). Questions marked * must "
             "be answered; the others, and the one-line questions under the turns of the "
             "transcript, are optional.")


def reflow(text: str) -> str:
    """Study instructions as paragraphs: the line breaks of a study file's multi-line
    string are joined (the dialog wraps to its own width); blank lines, and lines that
    start a list item, stay breaks."""
    paragraphs = []
    for block in text.strip().split("\n\n"):
        lines: list[str] = []
        for line in block.splitlines():
            item = line.lstrip().startswith(("-", "*", "•")) or line.lstrip()[:2].rstrip(
                ".)").isdigit()
            if lines and not item:
                lines[-1] += " " + line.strip()
            else:
                lines.append(line.strip())
        paragraphs.append("\n".join(lines))
    return "\n\n".join(p for p in paragraphs if p)


class InstructionsScreen(ModalScreen[None]):
    """The study's instructions, shown before the first item (and on `i`)."""

    BINDINGS = [Binding("enter,escape,space", "close", "Start")]
    DEFAULT_CSS = """
    InstructionsScreen { align: center middle; }
    InstructionsScreen .dialog { width: 70; max-width: 90%; height: auto; max-height: 90%;
                  border: thick $accent; background: $surface; padding: 1 2; }
    """

    def __init__(self, instructions: str) -> None:
        super().__init__(classes="ask")
        self._text = instructions

    def compose(self) -> ComposeResult:
        """Instructions as literal text."""
        # Scrollable: long instructions must not be cut off on a small terminal.
        with VerticalScroll(classes="dialog"):
            yield Static(Text("Instructions", style="bold"))
            yield Static(literal(reflow(self._text) or "(no instructions)"), id="instructions")
            yield Static(Text(KEYS_HELP, style="dim"), id="keys-help")
            yield Static(Text("Enter: begin", style="dim"))

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)
