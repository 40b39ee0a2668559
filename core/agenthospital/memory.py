"""MedAgent-Zero's memory: the medical-record library and the experience base.

- A `Record` is a correctly answered task of a case: the context the doctor had (the
  patient's account, the chosen examination's finding, the diagnosis) and the answer.
- A `Principle` is a lesson written after a wrong answer (by the doctor reflecting on the
  case, its answer and the right answer) and kept only because a retry with it answered
  right; it is found by its text and the case it came from. A model's principle is text;
  an offline principle also names the answer it argues for (`answer`), which is how the
  nearest-record doctor uses it.

Items are kept per task, each with the training step it was added at (the library at step
s is every item whose step is at most s: that is how the store versions it). `recall`
gives the top-k records and the top-k principles for a task by similarity of their text
to the question's context (`core.agenthospital.retrieval`); an arm of the ablation decides
which of the two are used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from core.agenthospital.retrieval import Bm25, Index
from core.agenthospital.tasks import TASKS, Task

Arm = Literal["none", "records", "experience", "both"]
ARMS: tuple[Arm, ...] = ("none", "records", "experience", "both")
DEFAULT_K = 3


@dataclass(frozen=True)
class Record:
    """A correctly answered task of a case."""

    task: Task
    case_id: str
    context: str
    answer: str
    step: int = 0

    def text(self) -> str:
        """What retrieval matches on."""
        return self.context

    def render(self) -> str:
        """As shown in a prompt."""
        return f"{self.context}\nCorrect answer: {self.answer}"


@dataclass(frozen=True)
class Principle:
    """A lesson kept in the experience base."""

    task: Task
    case_id: str
    text_: str
    wrong: str
    right: str
    answer: str | None = None  # the answer an offline principle argues for
    step: int = 0
    meta: dict[str, Any] = field(default_factory=dict)  # who wrote it (model, prompt hash)
    context: str = ""  # the case it was learned from, as the doctor saw it

    def text(self) -> str:
        """What retrieval matches on: the principle and the case that taught it (a lesson
        is recalled for patients like the one it came from, even when its words are not
        theirs)."""
        return f"{self.text_}\n{self.context}" if self.context else self.text_

    def render(self) -> str:
        """As shown in a prompt."""
        return self.text_


Item = Record | Principle


def item_data(item: Item) -> dict[str, Any]:
    """An item as plain data (for the store)."""
    data = asdict(item)
    data["kind"] = "record" if isinstance(item, Record) else "principle"
    return data


def item_from(data: dict[str, Any]) -> Item:
    """An item from `item_data`'s output."""
    body = {k: v for k, v in data.items() if k != "kind"}
    return Record(**body) if data.get("kind") == "record" else Principle(**body)


@dataclass
class Recalled:
    """What memory gives a doctor for one question: items with their similarity."""

    records: list[tuple[Record, float]] = field(default_factory=list)
    principles: list[tuple[Principle, float]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.records or self.principles)


class _Shelf:
    """One kind of item for one task, with its index."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.items: list[Item] = []

    async def add(self, item: Item) -> None:
        await self.index.add(item.text())
        self.items.append(item)

    async def search(self, text: str, k: int) -> list[tuple[Item, float]]:
        return [(self.items[i], s) for i, s in await self.index.search(text, k)]


class Memory:
    """The library and the experience base of one doctor (one arm)."""

    def __init__(self, make_index: Callable[[], Index] = Bm25) -> None:
        self._records = {t: _Shelf(make_index()) for t in TASKS}
        self._principles = {t: _Shelf(make_index()) for t in TASKS}
        self.added: list[Item] = []  # in order: what the store has not taken yet

    async def add(self, item: Item) -> None:
        """Keep a record or a principle."""
        shelves = self._records if isinstance(item, Record) else self._principles
        await shelves[item.task].add(item)
        self.added.append(item)

    async def load(self, items: list[Item]) -> None:
        """Fill from stored items (not counted as newly added)."""
        for item in items:
            shelves = self._records if isinstance(item, Record) else self._principles
            await shelves[item.task].add(item)

    def take_added(self) -> list[Item]:
        """Items added since the last call, in order (for the store)."""
        out, self.added = self.added, []
        return out

    def counts(self, task: Task | None = None) -> tuple[int, int]:
        """(records, principles), of one task or all."""
        tasks = TASKS if task is None else (task,)
        return (sum(len(self._records[t].items) for t in tasks),
                sum(len(self._principles[t].items) for t in tasks))

    def items(self) -> list[Item]:
        """Every item, records first, by task."""
        return [i for shelves in (self._records, self._principles) for t in TASKS
                for i in shelves[t].items]

    async def recall(self, task: Task, context: str, k: int, arm: Arm) -> Recalled:
        """The top-k records and principles of a task for a context, as the arm allows."""
        out = Recalled()
        if arm in ("records", "both"):
            out.records = [(i, s) for i, s in await self._records[task].search(context, k)
                           if isinstance(i, Record)]
        if arm in ("experience", "both"):
            out.principles = [(i, s) for i, s in await self._principles[task].search(context, k)
                              if isinstance(i, Principle)]
        return out
