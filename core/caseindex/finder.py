"""The examiner's test parser: which stored findings a requested test name refers to.

`FindingIndex.lookup(name)` tries, in order:
1. the exact stored name or synonym (a node's own name beats another node's synonym);
2. a whole-examination request ("physical examination") → every examination root;
3. concepts from the multilingual vocabulary (`core.caseindex.concepts`): a named group
   ("bloods" → the routine panel, with "normal" lines for the members not stored), a
   generic modality ("ultrasound", "CT", "超声" → every stored item of that modality), or
   specific tags ("abdominal exam", "uric acid", "leg ultrasound") → the best stored item
   for each, same tag first, then a narrower or broader region;
4. loose matching (containment, word subsets, close spelling, one unambiguous word, a CJK
   fragment of exactly one stored name, an abbreviation in capitals that is the initials of
   exactly one stored name), unless the candidate is plainly another thing of
   the same family (a CT of the urinary tract for "CT head").
Nothing found means the named test is not stored, which the examiner reports as normal.
Examination tags only ever match examination findings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from core.caseindex import concepts
from core.caseindex import vocab_tests as vt
from core.caseindex.concepts import Tags, relation
from core.caseindex.matching import best_for_name, contains, is_cjk, make_entries, normalise
from core.case import Item

# One word never names a test on its own, even when only one stored name contains it.
GENERIC_WORDS = frozenset("""test tests level levels serum blood urine scan exam examination
panel profile screen function count study analysis assay antibody antibodies culture swab
sample plasma total free random fasting rate left right bilateral acute chronic sign signs
tenderness status general examen exploracion untersuchung""".split())
_EXAM_FAMILIES = ("exam", "vital")
_ACRONYM = re.compile(r"^[A-Z]{3,5}$")  # an abbreviation as written: "TAB", "RDT"
Line = Item | str  # a stored item, or the display name of a group member not stored


@dataclass
class Node:
    """One stored finding with everything needed to match it."""

    item: Item
    kind: str  # "exam" | "test"
    order: int
    depth: int
    ancestors: tuple[int, ...]  # ids of the enclosing items
    name: str  # normalised own name
    terms: tuple[str, ...]  # normalised name and synonyms
    name_tags: frozenset[str] = frozenset()
    tags: frozenset[str] = frozenset()
    generic: frozenset[str] = frozenset()
    words: frozenset[str] = field(default_factory=frozenset)


class FindingIndex:
    """Matches requested names to the examination and test items of one examiner view."""

    def __init__(self, exam_roots: list[Item], test_roots: list[Item], lang: str) -> None:
        self.lang, self.exam_roots = lang, list(exam_roots)
        self.nodes: list[Node] = []
        for kind, roots in (("exam", exam_roots), ("test", test_roots)):
            for root in roots:
                self._add(root, kind, 0, ())
        self.entries = make_entries([(list(n.terms), n) for n in self.nodes])

    def _add(self, item: Item, kind: str, depth: int, above: tuple[int, ...]) -> None:
        implied = kind == "exam"
        terms = tuple(dict.fromkeys(t for t in (normalise(x) for x in
                                                 [item.name, *item.synonyms]) if t))
        tagged = [concepts.tag(t, self.lang, implied) for t in terms]
        node = Node(item, kind, len(self.nodes), depth, above, normalise(item.name), terms,
                    name_tags=tagged[0].specific if tagged else frozenset(),
                    tags=frozenset().union(*(t.specific for t in tagged)),
                    generic=frozenset().union(*(t.generic for t in tagged)),
                    words=frozenset(w for t in terms for w in t.split()))
        self.nodes.append(node)
        for child in item.children:
            self._add(child, kind, depth + 1, (*above, id(item)))

    # -- the lookup -------------------------------------------------------------------------
    def lookup(self, name: str) -> list[Line]:
        """The stored items a requested name refers to (empty: not stored)."""
        key = normalise(name)
        if not key:
            return []
        exact = self._exact(key)
        if exact:
            return [exact.item]
        if key in concepts.whole_exam():
            return list(self.exam_roots)
        tags = concepts.tag(key, self.lang)
        found = self._by_concept(key, tags)
        if found or tags.groups or (tags.generic and not tags.specific):
            return _outermost(found)
        loose = self._loose(key, tags, name)
        if loose:
            return [loose.item]
        return self._whole_exam_text(tags)

    def _whole_exam_text(self, tags: Tags) -> list[Line]:
        """An examination asked for by part ("abdominal exam", "vitals") when the case
        stores its examination as one free text (imported NEJM and AI Hospital records):
        that text, rather than a "normal" it may contradict."""
        wants_exam = tags.specific and all(
            concepts.family(t) in _EXAM_FAMILIES for t in tags.specific)
        roots = [n for n in self.nodes if n.kind == "exam" and n.depth == 0]
        if wants_exam and len(roots) == 1 and not roots[0].item.children and (
                roots[0].name in concepts.whole_exam() or not roots[0].tags):
            return [roots[0].item]
        return []

    def _exact(self, key: str) -> Node | None:
        found = [n for n in self.nodes if n.name == key] or [
            n for n in self.nodes if key in n.terms]
        return found[0] if found else None

    def _by_concept(self, key: str, tags: Tags) -> list[Line]:
        out: list[Line] = []
        for group in sorted(tags.groups):
            out.extend(self._group(group))
        named = {concepts.family(t) for t in tags.specific}
        for modality in sorted(tags.generic - named):
            stored = [n for n in self.nodes if n.depth == 0 and modality in _modalities(n)]
            # "CT angiogram" names one kind of CT: the stored one that says so, if any.
            said = [n for n in stored if len(key.split()) > 1
                    and any(contains(t, key) for t in n.terms)]
            out.extend(n.item for n in said or stored)
        both = self._covering(key, tags.specific) if len(tags.specific) > 1 else None
        if both is not None:  # one stored item that is everything the name says
            return [*out, both.item]
        for want in sorted(tags.specific):
            best = self._best(key, want)
            if best is not None:
                out.append(best.item)
        return out

    def _covering(self, key: str, wants: frozenset[str]) -> Node | None:
        """The best stored item that fits every one of several tags ("Accu-Chek" is a
        glucose and a bedside one: the capillary glucose, not the laboratory's)."""
        fits = [n for n in self.nodes if all(
            any(relation(w, h) for h in n.tags) for w in wants)]
        if not fits:
            return None
        return max(fits, key=lambda n: (max(fuzz.token_set_ratio(key, t) for t in n.terms),
                                        -n.order))

    def _group(self, group: str) -> list[Line]:
        if group == "cultures":
            return [n.item for n in self.nodes if n.depth == 0 and (
                n.tags & set(vt.GROUP_MEMBERS["cultures"])
                or any(w in t for t in n.terms for w in vt.CULTURE_WORDS))]
        out: list[Line] = []
        for member in vt.GROUP_MEMBERS.get(group, ()):
            best = self._best(member, member)
            names = vt.DISPLAY.get(member, {})
            out.append(best.item if best else
                       names.get(concepts.base_lang(self.lang)) or names.get("en") or member)
        return out

    def _best(self, key: str, want: str) -> Node | None:
        exam_only = concepts.family(want) in _EXAM_FAMILIES
        scored: list[tuple[float, float, int, Node]] = []
        for n in self.nodes:
            if exam_only and n.kind != "exam":
                continue
            rel: float = max((relation(want, have) for have in n.tags), default=0)
            if not rel and concepts.family(want) in n.generic and not any(
                    concepts.family(h) == concepts.family(want) for h in n.tags):
                rel = 0.5  # a stored "ultrasound" of no stated region may be the one asked
            if rel:
                own = 0.5 if any(relation(want, h) == rel for h in n.name_tags) else 0.0
                sim = max(fuzz.token_set_ratio(key, t) for t in n.terms)
                scored.append((rel + own, sim, -n.order, n))
        return max(scored, key=lambda s: s[:3])[3] if scored else None

    def _loose(self, key: str, tags: Tags, raw: str = "") -> Node | None:
        want = tags.specific | {f"{m}:*" for m in tags.generic}
        candidates = [e.payload for e in [best_for_name(key, self.entries)] if e]
        capitals = _ACRONYM.match(raw.strip()) is not None
        candidates += [n for n in (self._one_word(key, capitals), self._cjk_fragment(key),
                                   self._initials(key) if capitals else None) if n]
        wants_exam = {concepts.family(t) in _EXAM_FAMILIES for t in want}
        for node in candidates:
            have = node.tags | {f"{m}:*" for m in node.generic}
            if want and concepts.conflicts(frozenset(want), frozenset(have)):
                continue
            # A CT of the abdomen is not the abdominal examination, nor the other way round:
            # a word shared by the names ("abdomen") must not cross that line.
            if wants_exam and (node.kind == "exam") not in wants_exam:
                continue
            return node
        return None

    def _one_word(self, key: str, capitals: bool = False) -> Node | None:
        # An abbreviation written in capitals may be three letters ("RDT" in "malaria RDT").
        if " " in key or len(key) < (3 if capitals else 4) or key in GENERIC_WORDS or \
                is_cjk(key):
            return None
        hits = [n for n in self.nodes if key in n.words]
        roots = {n.ancestors[0] if n.ancestors else id(n.item) for n in hits}
        return min(hits, key=lambda n: n.depth) if len(roots) == 1 else None

    def _initials(self, key: str) -> Node | None:
        """The one stored item whose name (or a synonym) has these initials: "TAB" is a
        temporal artery biopsy, "CBG" a capillary blood gas where the case holds one."""
        hits = [n for n in self.nodes if any(_initials(t) == key for t in n.terms
                                             if len(t.split()) == len(key))]
        roots = {n.ancestors[0] if n.ancestors else id(n.item) for n in hits}
        return min(hits, key=lambda n: n.depth) if len(roots) == 1 else None

    def _cjk_fragment(self, key: str) -> Node | None:
        if not is_cjk(key) or len(key) < 2:
            return None
        hits = [n for n in self.nodes if any(contains(t, key) for t in n.terms)]
        roots = {n.ancestors[0] if n.ancestors else id(n.item) for n in hits}
        return min(hits, key=lambda n: n.depth) if len(roots) == 1 else None


def _initials(term: str) -> str:
    """The first letters of a normalised name's words ("temporal artery biopsy" → "tab")."""
    return "".join(w[0] for w in term.split() if not is_cjk(w))


def _modalities(node: Node) -> set[str]:
    fams = {concepts.family(t) for t in node.tags}
    return (fams & {"us", "ct", "xr", "mri"}) | set(node.generic)


def _outermost(lines: list[Line]) -> list[Line]:
    """Drop duplicates and items already inside another reported item."""
    items = [x for x in lines if isinstance(x, Item)]
    inside = {id(d) for x in items for _, d in x.walk()[1:]}
    out: list[Line] = []
    seen: set[int] = set()
    for x in lines:
        key = id(x) if isinstance(x, Item) else hash(x)
        if key in seen or (isinstance(x, Item) and key in inside):
            continue
        seen.add(key)
        out.append(x)
    return out
