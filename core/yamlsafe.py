"""Loading YAML (and JSON) from files a user hands us, with bounds on what a file may make
us do: every YAML load of ours (cases, studies, rubrics) goes through `load` or `compose`.

Two things in YAML cost far more than the file's size, and both are refused with an error
naming the line (`YamlLimitError`, a `yaml.MarkedYAMLError`, so callers that report a
syntax error's line report these too):

- aliases: `&a [x, x]`, `&b [*a, *a]`, … doubles at each step, so 343 bytes of anchors
  stand for 9⁹ values ("billion laughs"). The composed tree shares the aliased node, so it
  stays small, but anything that walks the data (the duplicate-key check, pydantic, a
  dump) walks the expansion. The expansion is counted once per node (memoised) and refused
  above `MAX_VALUES`, far beyond any real case (the largest bundled one has under 1,000); an
  alias that contains itself (`&t [x, *t]`) is refused outright.
- depth: every walk of a tree recurses, and Python's stack ends near 1,000 frames (the pure
  Python composer itself recurses three frames a level). Nesting beyond `MAX_DEPTH` levels
  (a real case has under 15) is refused, during composition for the pure-Python loader and
  after it for libyaml's (which stops at 1,000 levels by itself).
"""

from __future__ import annotations

from typing import Any

import yaml

#: Most levels of nesting (mappings and lists) a file may have, the top level being 1.
MAX_DEPTH = 100
#: Most values (scalars, mappings and lists) a file may stand for with its aliases expanded.
MAX_VALUES = 100_000

# libyaml's C loader is ~10x faster than the pure-Python one; fall back when it is absent.
FAST_LOADER: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlLimitError(yaml.MarkedYAMLError):
    """A file beyond our bounds; `problem` says which, `problem_mark` where."""

    def __init__(self, problem: str, mark: yaml.Mark | None) -> None:
        super().__init__(problem=problem, problem_mark=mark)


class BoundedComposer:
    """Mix into a pure-Python loader class (before it) to stop composing past `MAX_DEPTH`
    before Python's stack runs out (libyaml's composer is C and is bounded after)."""

    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark  # type: ignore[attr-defined]
                raise YamlLimitError(_too_deep(), mark)
            return super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            self._depth -= 1


def _too_deep() -> str:
    return f"nested more than {MAX_DEPTH} levels deep"


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def check_bounds(root: yaml.Node | None) -> None:
    """Raise YamlLimitError if the tree (aliases expanded) is too deep, too large, or
    contains itself. Iterative and memoised per node: linear in the file, not the expansion."""
    if root is None:
        return
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    open_: set[int] = set()  # nodes whose subtree is being walked (a cycle comes back here)
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            kids = _children(node)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            height[key] = 1 + max((height[id(k)] for k in kids), default=0)
            open_.discard(key)
            if size[key] > MAX_VALUES:
                raise YamlLimitError(f"YAML aliases expand this value to more than "
                                     f"{MAX_VALUES} values (refused)", node.start_mark)
            continue
        if key in size:
            continue
        open_.add(key)
        stack.append((node, True))
        for kid in _children(node):
            if id(kid) in open_:
                raise YamlLimitError("a YAML alias here contains itself (refused)",
                                     kid.start_mark if kid is not node else node.start_mark)
            if id(kid) not in size:
                stack.append((kid, False))
    if height[id(root)] > MAX_DEPTH:
        raise YamlLimitError(_too_deep(), _deepest_at(root, height).start_mark)


def _deepest_at(root: yaml.Node, height: dict[int, int]) -> yaml.Node:
    """The node at level MAX_DEPTH + 1 along the deepest path: where the limit is passed."""
    node = root
    for _ in range(MAX_DEPTH):
        node = max(_children(node), key=lambda k: height.get(id(k), 0))
    return node


def compose(text: str, loader: type[Any] = FAST_LOADER) -> yaml.Node | None:
    """The node tree of one document, checked against the bounds."""
    return load(text, loader)[0]


def load(text: str, loader: type[Any] = FAST_LOADER) -> tuple[yaml.Node | None, Any]:
    """(node tree, data) of one document in one pass, the tree checked against the bounds
    before anything is built from it; yaml.YAMLError (YamlLimitError past a bound)."""
    parser = loader(text)
    try:
        node = parser.get_single_node()
        check_bounds(node)
        return node, (parser.construct_document(node) if node is not None else None)
    finally:
        parser.dispose()


def problem_text(err: yaml.MarkedYAMLError, what: str = "YAML/JSON") -> str:
    """A one-line reason for a load error: the bound passed, or `not valid YAML/JSON (…)`."""
    if isinstance(err, YamlLimitError):
        return str(err.problem)
    return f"not valid {what} ({err.problem})"
