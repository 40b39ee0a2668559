"""The start-a-batch form: which cases, which models, how many at once.

Must not import: db, core.engine, litellm.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static


@dataclass
class BatchRequest:
    """A batch to start in the app."""

    cases: str  # a `--cases` filter (see core.selection); '' means every case
    models: list[str]
    concurrency: int = 2
    limit: int | None = None
    api_base: str | None = None  # an OpenAI-compatible server for the model doctors


def parse_batch(cases: str, models: str, concurrency: str, limit: str,
                api_base: str = "") -> BatchRequest | str:
    """Validate the form; return the request or a one-line problem."""
    names = [m.strip() for m in models.split(",") if m.strip()]
    if not names:
        return "Name at least one doctor: 'offline' or a model such as openai/gpt-4o-mini."
    if not concurrency.strip().isdigit() or not 1 <= int(concurrency) <= 64:
        return "Concurrency must be a whole number from 1 to 64."
    if limit.strip() and (not limit.strip().isdigit() or int(limit) < 1):
        return "Limit must be a positive whole number, or empty for no limit."
    base = api_base.strip()
    if base and not base.startswith(("http://", "https://")):
        return "The API base URL must start with http:// or https://."
    return BatchRequest(cases=cases.strip(), models=names, concurrency=int(concurrency),
                        limit=int(limit) if limit.strip() else None, api_base=base or None)


class StartBatchScreen(ModalScreen[BatchRequest | None]):
    """Form for a new in-app batch."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        """Cases, models, concurrency, limit."""
        with VerticalScroll(classes="form", id="batch-form"):
            yield Static(Text("Start a batch", style="bold"))
            yield Label("Cases: specialties, languages, sources or ids, comma-separated "
                        "(empty: all)")
            yield Input(id="batch-cases", placeholder="cardiology,en")
            yield Label("Doctors: 'offline' or model strings, comma-separated")
            yield Input(id="batch-models", value="offline")
            yield Input(id="batch-api-base",
                        placeholder="API base URL for the models (optional), e.g. "
                        "http://127.0.0.1:8000/v1")
            with Horizontal(classes="row"):
                yield Label("At once ")
                yield Input(id="batch-concurrency", value="2", type="integer")
                yield Label(" Limit ")
                yield Input(id="batch-limit", type="integer")
            yield Static("", id="batch-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="batch-cancel")
                yield Button("Start", id="batch-start", variant="primary")

    def on_mount(self) -> None:
        """Focus the case filter."""
        self.query_one("#batch-cases", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start or cancel."""
        if event.button.id == "batch-start":
            self.submit()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter starts."""
        self.submit()

    def submit(self) -> None:
        """Validate and return the request."""
        result = parse_batch(*(self.query_one(f"#batch-{n}", Input).value
                               for n in ("cases", "models", "concurrency", "limit",
                                         "api-base")))
        if isinstance(result, str):
            self.query_one("#batch-error", Static).update(Text(result))
            return
        self.dismiss(result)

    def action_cancel(self) -> None:
        """Close without starting."""
        self.dismiss(None)
