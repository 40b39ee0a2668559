"""Qualifiers of a disease name: words that refine a diagnosis without changing the disease
entity (side, site, acuity, newness, severity), and words that invert it.

Used by entity linking (`entities`): two names link at the 'core' level when they are equal
once these qualifiers are dropped, and a link is refused when the answer contradicts a
qualifier of the true diagnosis (left vs right, acute vs chronic, mild vs severe, anterior
vs inferior wall) or carries an inverting word the true name lacks ('non-ST elevation').

Words that define the disease are never dropped: type 1 / type 2, ST-elevation, aetiology
('alcoholic', 'bacterial', 'viral'), 'chronic' (acute and chronic kidney disease differ).
All words are in `textnorm.fold` form (lower case, no accents). The lists are ours and cover
English, German, French and Spanish; Chinese names are not split into words, so for them
only exact names, synonyms and ICD codes link.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

# Side: canonical value per word. Dropped from cores; conflicting sides refuse a link.
SIDE: dict[str, str] = {
    **dict.fromkeys("left links linke linken linker linkes linksseitig linksseitige gauche "
                    "gauches izquierdo izquierda izquierdos izquierdas".split(), "left"),
    **dict.fromkeys("right rechts rechte rechten rechter rechtes rechtsseitig rechtsseitige "
                    "droit droite droits droites derecho derecha derechos derechas".split(),
                    "right"),
    **dict.fromkeys("bilateral bilaterale bilaterales beidseitig beidseitige beidseits "
                    "both".split(), "bilateral"),
}
# Part of an organ (heart walls, upper/lower tract): dropped; disjoint sites refuse a link
# ('anterior' vs 'inferior' STEMI, 'upper' vs 'lower' GI bleeding).
SITE = frozenset("inferior anterior posterior lateral septal anteroseptal anterolateral "
                 "inferolateral inferoposterior posterolateral apical upper lower proximal "
                 "distal".split())
# Named vessel or limb segment: dropped, never conflicting (a popliteal DVT is proximal).
SEGMENT = frozenset("popliteal femoral iliac calf sided unilateral".split())
# Acuity: canonical value per word. 'acute' is dropped; 'chronic' is kept (it defines
# diseases) but still conflicts with 'acute'.
ACUITY: dict[str, str] = {
    **dict.fromkeys("acute hyperacute akut akuter akute akutes akuten aigu aigue aigus aigues "
                    "agudo aguda agudos agudas".split(), "acute"),
    **dict.fromkeys("subacute subakut subakuter subakute subaigu subaigue subagudo "
                    "subaguda".split(), "subacute"),
    **dict.fromkeys("chronic chronisch chronischer chronische chronisches chronischen "
                    "chronique chroniques cronico cronica cronicos cronicas".split(), "chronic"),
}
ACUITY_KEPT = frozenset(w for w, v in ACUITY.items() if v == "chronic")
# Newness: dropped, never conflicting ('newly diagnosed', 'neu diagnostiziertes').
NEWNESS = frozenset(
    "new newly onset recent recently diagnosed diagnosis denovo novo first "
    "neu neue neuer neues neuem neuen diagnostiziert diagnostizierte diagnostizierter "
    "diagnostiziertes diagnostiziertem diagnostizierten erstdiagnose erstmanifestation "
    "erstmals nouveau nouvel nouvelle nouvellement recemment diagnostique diagnostiquee "
    "nuevo nueva reciente recien diagnosticado diagnosticada".split())
# Severity: canonical value per word. Dropped; different severities refuse a link.
SEVERITY: dict[str, str] = {
    **dict.fromkeys("mild leicht leichte leichter leichtes leger legere leve".split(), "mild"),
    **dict.fromkeys("moderate mittelgradig mittelgradige mittelschwer mittelschwere modere "
                    "moderee moderado moderada".split(), "moderate"),
    # Not 'graves': Graves' disease must keep its name.
    **dict.fromkeys("severe schwer schwere schwerer schweres grave severo severa".split(),
                    "severe"),
}
# Words that invert what follows (or state an absence). A link whose extra words contain
# one of these is refused: 'non st elevation myocardial infarction' is not a STEMI.
INVERTING = frozenset("non no not without anti pseudo excluded excluding negative absent "
                      "absence ohne kein keine nicht sans pas sin".split())

DROPPABLE = frozenset(SIDE) | SITE | SEGMENT | NEWNESS | frozenset(SEVERITY) | (
    frozenset(ACUITY) - ACUITY_KEPT)


def core(norm: str) -> frozenset[str]:
    """The words of a normalised name that define the disease (qualifiers dropped)."""
    return frozenset(w for w in norm.split() if w not in DROPPABLE)


def qualifier_values(norm: str) -> dict[str, frozenset[str]]:
    """Side, site, acuity and severity stated in a normalised name, as canonical values."""
    words = norm.split()
    return {"side": frozenset(SIDE[w] for w in words if w in SIDE),
            "site": frozenset(w for w in words if w in SITE),
            "acuity": frozenset(ACUITY[w] for w in words if w in ACUITY),
            "severity": frozenset(SEVERITY[w] for w in words if w in SEVERITY)}


def contradicts(pred: dict[str, frozenset[str]], truth: dict[str, frozenset[str]]) -> str | None:
    """The qualifier class on which an answer contradicts the truth, or None.

    Omitting a qualifier is fine; stating a different one is not. Walls conflict only when
    they share no word ('inferolateral' vs 'inferior' would, 'inferior' vs 'inferior' not).
    """
    for cls in ("side", "acuity", "severity"):
        if pred[cls] and truth[cls] and pred[cls] != truth[cls]:
            return cls
    if pred["site"] and truth["site"] and not pred["site"] & truth["site"]:
        return "site"
    return None


def inverted(extra: frozenset[str]) -> bool:
    """Whether words present on one side only invert the meaning."""
    return bool(extra & INVERTING)
