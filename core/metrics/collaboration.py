"""How collaborations went: revision rounds and consensus per joint consultation, and the
distribution of rounds needed to reach consensus (AI Hospital's Figure 2).

`rounds` is the number of revision rounds a collaboration held (M when the host still
found a dispute after the last one); `consensus` is 1 when the host found no dispute in
the end, 0 when it still did, undefined when the source does not say (an imported
result whose `final_turn` is AI Hospital's maximum, 4: agreement in the last round and no
agreement look the same there). Both are undefined for any other consultation. The
figures come from the joint consultation's `meta["collaboration"]` (`core.collaboration`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from core.collaboration import summary_of
from core.metrics.base import Metrics, defined, undefined
from core.transcript import Transcript

NOT_COLLABORATION = "not a collaboration"
UNSAID = "the source does not say whether the doctors agreed in the last round"


def collaboration_metrics(transcript: Transcript) -> Metrics:
    """{'rounds': …, 'consensus': …} of one consultation."""
    s = summary_of(transcript.meta)
    if s is None:
        return {"rounds": undefined(NOT_COLLABORATION),
                "consensus": undefined(NOT_COLLABORATION)}
    detail = {"max_rounds": s.max_rounds, "consensus_round": s.consensus_round,
              "doctors": len(s.doctors), "dispute_resolution": s.dispute_resolution}
    consensus = undefined(UNSAID, **detail) if s.consensus is None \
        else defined(1.0 if s.consensus else 0.0, **detail)
    return {"rounds": defined(s.rounds, **detail), "consensus": consensus}


def rounds_needed(rounds: float | None, consensus: float | None) -> str | None:
    """The bar of Figure 2 a collaboration falls in: the rounds it needed ('0': agreed at
    once), 'none' (no consensus after M rounds), '?' (not said); None for no
    collaboration."""
    if rounds is None:
        return None
    if consensus is None:
        return "?"
    return str(int(rounds)) if consensus >= 0.5 else "none"


def distribution(bars: Iterable[str | None]) -> str | None:
    """'0:2 1:1 none:1': how many collaborations fall in each bar, rounds in order, then
    'none' and '?'; None when there is no collaboration."""
    counts = Counter(b for b in bars if b is not None)
    if not counts:
        return None
    order = sorted((b for b in counts if b.isdigit()), key=int) + \
        [b for b in ("none", "?") if b in counts]
    return " ".join(f"{b}:{counts[b]}" for b in order)
