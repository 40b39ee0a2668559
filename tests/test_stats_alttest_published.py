"""The alternative annotator test reproduces its authors' published results on their data.

Calderon, Reichart & Dror (2025), "The Alternative Annotator Test for LLM-as-a-Judge: How to
Statistically Justify Replacing Human Annotators with LLMs" (arXiv:2501.10970). Their
repository (github.com/nitaytech/AltTest) publishes the annotations of each dataset and, in
`alt_test_example.ipynb`, the result of their procedure. For the MT-Bench subset (three human
annotators, pairwise preferences model_a / model_b / tie, accuracy alignment, ε = 0.2) it
reports, for Gemini Flash, winning rate 0.00 and advantage probability 0.72, and for Gemini
Pro, winning rate 0.00 and advantage probability 0.76.

Below are those published annotations (numbers and labels only), written compactly: each
token is <question number><pair><turn><label>, with pairs L = gpt-3.5-turbo vs llama-13b,
V = gpt-3.5-turbo vs vicuna-13b-v1.2, A = alpaca-13b vs gpt-3.5-turbo, C = claude-v1 vs
gpt-3.5-turbo, G = gpt-3.5-turbo vs gpt-4, and labels a = model_a, b = model_b, t = tie.
Every human has at least 30 usable instances, so the paired t-test applies (as in theirs).
"""

from __future__ import annotations

import pytest

from annotation.analysis.annotator_test import alt_test
from annotation.analysis.data import Row, build_matrix

HUMANS = {
    "author_0": """82L1b 82L2a 85C1t 85C2t 85V1t 85V2t 86A1b 86A2b 91L1a 91L2a 91V1t 91V2a
        92C1a 92C2b 92V1b 92V2b 96A1b 96A2t 97G1b 97G2b 99C1b 99C2t 104V1t 104V2a 105V1t
        105V2t 106V1t 106V2t 107C1t 107C2t 114A1t 114A2t 115A1b 115A2b 115C1b 115C2b 117G1b
        117G2b 117V1a 117V2a 118A1b 118A2t 130L1a 130L2a 131L1a 131L2a 133V1t 133V2a 134A1t
        134A2b 137A1b 137A2b 138A1b 138A2t 138G1t 138G2t 140L1a 140L2a 141L1a 141L2a 149L1a
        149L2a 150V1b 150V2b 156V1b 156V2b 158A1t 158A2b 159A1b 159A2t 159V1t 159V2b 160V1t
        160V2a""",
    "author_4": """82L1a 82L2a 82V1a 82V2b 84A1b 84A2b 87G1b 87G2t 91V1b 91V2a 91L1a 91L2a
        92C1a 92C2a 92G1b 92G2a 93G1b 93G2t 95C1a 95C2b 100C1b 100C2b 100A1a 100A2t 100V1t
        100V2t 103G1b 103G2b 103V1t 103V2a 104V1a 104V2a 104G1t 104G2a 105G1t 105G2t 105V1t
        105V2t 109C1t 109C2t 109V1b 109V2t 110C1t 110C2a 112C1t 112C2a 114A1b 114A2b 117G1b
        117G2b 118A1b 118A2t 118L1a 118L2a 123G1t 123G2b 133L1a 133L2a 133V1a 133V2a 134A1t
        134A2b 135A1b 135A2b 137A1b 137A2b 138A1b 138A2b 138G1a 138G2a 138L1a 138L2a 140L1a
        140L2a 149L1a 149L2a 150V1b 150V2a 155V1b 155V2a 158A1b 158A2b 160V1t 160V2t""",
    "expert_24": """82V1t 82V2t 84A1t 84A2b 85C1t 85C2a 85V1a 85V2a 86A1b 86A2b 87G1t 87G2a
        91V1b 91V2a 92G1b 92G2a 92V1t 92V2b 93G1t 93G2b 95C1a 95C2b 96A1b 96A2b 97G1b 97G2b
        99C1b 99C2t 100A1a 100A2b 100C1b 100C2b 100V1a 100V2a 103G1b 103G2b 103V1t 103V2a
        104G1t 104G2a 105G1b 105G2b 106V1t 106V2t 107C1t 107C2t 109C1t 109C2t 109V1b 109V2t
        110C1t 110C2t 112C1t 112C2t 115C1b 115C2b 115A1b 115A2b 117V1a 117V2a 118L1a 118L2t
        123G1t 123G2t 130L1a 130L2a 131L1a 131L2a 133L1a 133L2a 135A1b 135A2b 138L1a 138L2a
        138G1t 138G2b 141L1a 141L2a 150V1a 150V2b 155V1t 155V2a 156V1t 156V2b 159A1b 159A2b
        159V1t 159V2t""",
}
JUDGES = {
    "gemini_flash": """100A1b 100A2b 100C1b 100C2b 100V1b 100V2b 103G1b 103G2b 103V1b 103V2b
        104G1b 104G2b 104V1a 104V2a 105G1a 105G2a 105V1a 105V2a 106V1b 106V2b 107C1a 107C2a
        109C1a 109C2a 109V1b 109V2b 110C1a 110C2a 112C1t 112C2t 114A1b 114A2b 115A1b 115A2b
        115C1a 115C2a 117G1a 117G2a 117V1a 117V2a 118A1a 118A2a 118L1a 118L2a 123G1b 123G2b
        130L1a 130L2a 131L1a 131L2a 133L1a 133L2a 133V1a 133V2a 134A1b 134A2b 135A1b 135A2b
        137A1b 137A2b 138A1b 138A2b 138G1b 138G2b 138L1a 138L2a 140L1a 140L2a 141L1a 141L2a
        149L1a 149L2a 150V1b 150V2b 155V1a 155V2a 156V1b 156V2b 158A1b 158A2b 159A1b 159A2b
        159V1b 159V2b 160V1b 160V2b 82L1b 82L2a 82V1b 82V2b 84A1b 84A2b 85C1b 85C2b 85V1a
        85V2a 86A1b 86A2b 87G1b 87G2b 91L1a 91L2b 91V1b 91V2b 92C1a 92C2a 92G1b 92G2b 92V1b
        92V2a 93G1b 93G2b 95C1b 95C2b 96A1b 96A2b 97G1b 97G2b 99C1a 99C2a""",
    "gemini_pro": """100A1b 100A2b 100C1b 100C2b 100V1b 100V2b 103G1b 103G2b 103V1b 103V2b
        104G1a 104G2a 104V1a 104V2a 105G1t 105G2t 105V1a 105V2a 106V1t 106V2t 107C1a 107C2a
        109C1b 109C2b 109V1b 109V2b 110C1a 110C2a 112C1t 112C2t 114A1b 114A2b 115A1b 115A2b
        115C1a 115C2a 117G1a 117G2a 117V1a 117V2a 118A1a 118A2b 118L1b 118L2a 123G1t 123G2b
        130L1a 130L2a 131L1a 131L2a 133L1a 133L2a 133V1a 133V2a 134A1b 134A2b 135A1b 135A2b
        137A1b 137A2b 138A1b 138A2b 138G1a 138G2a 138L1a 138L2a 140L1a 140L2a 141L1a 141L2a
        149L1a 149L2a 150V1b 150V2b 155V1a 155V2a 156V1a 156V2a 158A1b 158A2b 159A1b 159A2b
        159V1b 159V2b 160V1b 160V2b 82L1a 82L2a 82V1b 82V2b 84A1b 84A2b 85C1a 85C2b 85V1b
        85V2b 86A1b 86A2b 87G1b 87G2b 91L1a 91L2a 91V1a 91V2a 92C1a 92C2a 92G1a 92G2a 92V1b
        92V2b 93G1b 93G2b 95C1b 95C2b 96A1b 96A2b 97G1b 97G2b 99C1a 99C2a""",
}

PUBLISHED = {"gemini_flash": (0.00, 0.72), "gemini_pro": (0.00, 0.76)}


def _parse(text: str) -> dict[str, str]:
    return {tok[:-1]: tok[-1] for tok in text.split()}


@pytest.mark.parametrize("judge", list(JUDGES))
def test_mt_bench_published_winning_rate_and_advantage_probability(judge: str) -> None:
    rows = [Row(unit, human, label) for human, text in HUMANS.items()
            for unit, label in _parse(text).items()]
    rows += [Row(unit, judge, label) for unit, label in _parse(JUDGES[judge]).items()]
    m = build_matrix(rows, level="nominal")
    result = alt_test(m, judge, nominal=True, epsilon=0.2, q=0.05)
    winning, advantage = PUBLISHED[judge]
    assert result.winning_rate.value == pytest.approx(winning, abs=0.005)
    assert result.advantage_probability.value == pytest.approx(advantage, abs=0.005)
    assert result.passed is False
    # Instances rated by the held-out human and at least one other human (and the judge).
    assert {h.rater: h.n_units for h in result.humans} == {
        "author_0": 74, "author_4": 84, "expert_24": 88}
    assert all(h.test == "t" and not h.rejected for h in result.humans)
