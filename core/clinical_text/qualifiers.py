"""Qualifiers of a disease name: words that refine a diagnosis (side, organ site, vessel
segment, acuity, newness, severity, type or stage) and how they decide a link.

- An answer that *contradicts* a qualifier of the true name is another diagnosis: left vs
  right, acute vs chronic, mild vs severe, anterior vs inferior wall, type 1 vs type 2.
- An answer may *leave out* only the qualifiers that never change the disease entity:
  the side, a named vessel or limb segment, 'acute' and newness ('DVT' for 'left popliteal
  DVT', 'appendicitis' for 'acute appendicitis', 'Vorhofflimmern' for 'neu
  diagnostiziertes Vorhofflimmern'). Organ site, severity, 'chronic' and 'subacute' are
  part of the name: 'STEMI' is not 'inferior STEMI', 'pre-eclampsia' is not 'severe
  pre-eclampsia', unless the case accepts the shorter name.
Words that define the disease are never qualifiers: ST-elevation, aetiology ('alcoholic',
'bacterial'), 'primary'/'secondary'. All words are in `normal.normalise` form. The lists
are ours and cover English, German, French and Spanish; in Chinese, side, acuity and
severity are read from the characters (左/右/双侧, 急性/慢性/亚急性, 轻/中/重).
"""

from __future__ import annotations

import re

from core.clinical_text.normal import fold

# Side: canonical value per word. May be left out; conflicting sides refuse a link.
SIDE: dict[str, str] = {
    **dict.fromkeys("left links linke linken linker linkes linksseitig linksseitige "
                    "linksseitiger linksseitigen linksseitiges gauche gauches izquierdo "
                    "izquierda izquierdos izquierdas".split(), "left"),
    **dict.fromkeys("right rechts rechte rechten rechter rechtes rechtsseitig rechtsseitige "
                    "rechtsseitiger rechtsseitigen rechtsseitiges droit droite droits droites "
                    "derecho derecha derechos derechas".split(), "right"),
    **dict.fromkeys("bilateral bilaterale bilaterales beidseitig beidseitige beidseitiger "
                    "beidseitigen beidseits both".split(), "bilateral"),
}
# Part of an organ (heart walls, upper/lower tract): part of the name (an inferior STEMI is
# not just 'STEMI'; upper and lower GI bleeding differ); disjoint sites refuse a link.
SITE = frozenset("inferior anterior posterior lateral septal anteroseptal anterolateral "
                 "inferolateral inferoposterior posterolateral apical upper lower proximal "
                 "distal".split())
# Named vessel or limb segment: may be left out, never conflicting (a popliteal DVT is
# proximal).
SEGMENT = frozenset("popliteal femoral iliac calf sided unilateral".split())
# Acuity: canonical value per word. 'acute' may be left out; 'chronic' and 'subacute' are
# part of the name (they define diseases) and conflict with 'acute'.
ACUITY: dict[str, str] = {
    **dict.fromkeys("acute hyperacute akut akuter akute akutes akuten aigu aigue aigus aigues "
                    "agudo aguda agudos agudas".split(), "acute"),
    **dict.fromkeys("subacute subakut subakuter subakute subaigu subaigue subagudo "
                    "subaguda".split(), "subacute"),
    **dict.fromkeys("chronic chronisch chronischer chronische chronisches chronischen "
                    "chronique chroniques cronico cronica cronicos cronicas".split(), "chronic"),
}
# Newness: may be left out, never conflicting ('newly diagnosed', 'neu diagnostiziertes').
NEWNESS = frozenset(
    "new newly onset recent recently diagnosed diagnosis denovo novo first "
    "neu neue neuer neues neuem neuen diagnostiziert diagnostizierte diagnostizierter "
    "diagnostiziertes diagnostiziertem diagnostizierten erstdiagnose erstmanifestation "
    "erstmals nouveau nouvel nouvelle nouvellement recemment diagnostique diagnostiquee "
    "nuevo nueva reciente recien diagnosticado diagnosticada".split())
# Severity: canonical value per word. Part of the name ('severe pre-eclampsia' is managed
# differently); different severities refuse a link.
SEVERITY: dict[str, str] = {
    **dict.fromkeys("mild leicht leichte leichter leichtes leger legere leve".split(), "mild"),
    **dict.fromkeys("moderate mittelgradig mittelgradige mittelschwer mittelschwere modere "
                    "moderee moderado moderada".split(), "moderate"),
    # Not 'graves': Graves' disease must keep its name.
    **dict.fromkeys("severe schwer schwere schwerer schweres grave severo severa".split(),
                    "severe"),
}
# Type, stage, grade or class with its value ('type 1', 'stage 3a'): conflicting values
# refuse a link (type 1 and type 2 diabetes are different diseases).
_KIND = re.compile(r"\b(type|stage|grade|class|stadium|grad)\s+(\w+)")
# Chinese qualifiers, found as characters.
# (Korean, read the same way: 좌측/우측/양측, 급성/만성/아급성, 경증/중등도/중증.)
CJK_SIDE = {"左": "left", "右": "right", "双侧": "bilateral", "좌측": "left", "왼쪽": "left",
            "우측": "right", "오른쪽": "right", "양측": "bilateral"}
CJK_ACUITY = {"亚急性": "subacute", "急性": "acute", "慢性": "chronic", "아급성": "subacute",
              "급성": "acute", "만성": "chronic"}
CJK_SEVERITY = {"경증": "mild", "중등도": "moderate", "중증": "severe",
                "轻症": "mild", "轻度": "mild", "中度": "moderate", "中重度": "severe",
                "重症": "severe", "重度": "severe"}
CJK_OMITTABLE = ("急性", "新发", "新诊断", "左侧", "右侧", "双侧", "아급성", "급성", "좌측",
                 "우측", "양측", "왼쪽", "오른쪽")

# Hindi and Persian qualifiers, in the folded form the names are compared in (Hindi loses
# its virama there: "तीव्र" is "तीवर").
_HI_FA = {"side": {"बायां": "left", "बाएं": "left", "बाईं": "left", "बायें": "left",
                   "दायां": "right", "दाएं": "right", "दाईं": "right", "दायें": "right",
                   "چپ": "left", "راست": "right", "دوطرفه": "bilateral"},
          "acuity": {"तीव्र": "acute", "एक्यूट": "acute", "क्रोनिक": "chronic",
                     "दीर्घकालिक": "chronic", "حاد": "acute", "مزمن": "chronic"},
          "severity": {"हल्का": "mild", "हल्की": "mild", "मध्यम": "moderate",
                       "गंभीर": "severe", "خفیف": "mild", "متوسط": "moderate",
                       "شدید": "severe"}}
SIDE.update({fold(k): v for k, v in _HI_FA["side"].items()})
ACUITY.update({fold(k): v for k, v in _HI_FA["acuity"].items()})
SEVERITY.update({fold(k): v for k, v in _HI_FA["severity"].items()})
NEWNESS = NEWNESS | {fold(w) for w in "नया नई नए جدید تازه".split()}
ACUTE = frozenset(w for w, v in ACUITY.items() if v == "acute")
# Qualifiers an answer may leave out (see the module docstring).
OMITTABLE = frozenset(SIDE) | SEGMENT | NEWNESS | ACUTE
# Qualifier words an answer may add inside a name ('inferior wall STEMI').
QUALIFYING = OMITTABLE | SITE | frozenset(ACUITY) | frozenset(SEVERITY) | {"wall"}
# Dropped to find an ICD-10 code for a name (`icd`): every qualifier but 'chronic', since
# a code's specificity is checked separately.
CODE_DROPPABLE = frozenset(SIDE) | SITE | SEGMENT | NEWNESS | frozenset(SEVERITY) | (
    frozenset(ACUITY) - {w for w, v in ACUITY.items() if v == "chronic"})
# Words that invert or negate: a name holding one is never coded as the name without it.
INVERTING = frozenset("non no not without anti pseudo excluded excluding absence ohne kein "
                      "keine nicht sans pas sin".split())

Qualifiers = dict[str, frozenset[str]]


def _cjk_values(norm: str, table: dict[str, str]) -> set[str]:
    found, rest = set(), norm
    for chars in sorted(table, key=len, reverse=True):  # '亚急性' before '急性'
        if chars in rest:
            found.add(table[chars])
            rest = rest.replace(chars, " ")
    return found


def qualifier_values(norm: str) -> Qualifiers:
    """Side, site, acuity, severity and kind stated in a normalised name."""
    words = norm.split()
    return {"side": frozenset({SIDE[w] for w in words if w in SIDE}
                              | _cjk_values(norm, CJK_SIDE)),
            "site": frozenset(w for w in words if w in SITE),
            "acuity": frozenset({ACUITY[w] for w in words if w in ACUITY}
                                | _cjk_values(norm, CJK_ACUITY)),
            "severity": frozenset({SEVERITY[w] for w in words if w in SEVERITY}
                                  | _cjk_values(norm, CJK_SEVERITY)),
            "kind": frozenset(f"{k} {v}" for k, v in _KIND.findall(norm))}


def contradicts(pred: Qualifiers, truth: Qualifiers) -> str | None:
    """The qualifier class on which an answer contradicts the truth, or None.

    Omitting a qualifier is not contradicting it; stating a different one is. Walls
    conflict only when they share no word ('inferior' and 'inferior posterior' do not).
    """
    for cls in ("side", "acuity", "severity", "kind"):
        if pred[cls] and truth[cls] and pred[cls] != truth[cls]:
            return cls
    if pred["site"] and truth["site"] and not pred["site"] & truth["site"]:
        return "site"
    return None


def without_omittable_cjk(name: str) -> str:
    """A Chinese name without the qualifiers an answer may leave out ('急性…' → '…')."""
    for chars in CJK_OMITTABLE:
        name = name.replace(chars, "")
    return "".join(name.split())


def code_core(norm: str) -> frozenset[str]:
    """The words of a normalised name an ICD-10 lookup keys on (qualifiers dropped)."""
    return frozenset(w for w in norm.split() if w not in CODE_DROPPABLE)


def inverted(words: frozenset[str]) -> bool:
    """Whether a name holds a word that inverts or negates it."""
    return bool(words & INVERTING)


def tables() -> dict[str, object]:
    """What decides qualifiers, for the reproducibility hash."""
    return {"side": SIDE, "site": sorted(SITE), "segment": sorted(SEGMENT), "acuity": ACUITY,
            "newness": sorted(NEWNESS), "severity": SEVERITY, "kind": _KIND.pattern,
            "cjk": [CJK_SIDE, CJK_ACUITY, CJK_SEVERITY, CJK_OMITTABLE],
            "omittable": sorted(OMITTABLE), "qualifying": sorted(QUALIFYING),
            "inverting": sorted(INVERTING)}
