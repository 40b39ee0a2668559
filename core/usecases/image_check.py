"""Before a run: what will go wrong with images, said once, up front (`bedside run`).

A run's model doctors need every image of its image cases: an image that cannot be had (a
URL not fetched into the cache, a missing file) and a model that litellm knows cannot see
images fail those consultations (`core.solvers.images`), and a model litellm does not know
is sent them anyway. `image_warnings` lists each of these in one line, so a user sees them
before the run starts rather than as failures at its end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.case import Case
from core.config import ConsultationConfig
from core.image_cache import ImageCache
from core.images import UPFRONT, load_images


def image_warnings(cases: Sequence[Case], configs: Sequence[ConsultationConfig],
                   cache: ImageCache, vision: Callable[[str], bool | None]) -> list[str]:
    """One line per image a model doctor cannot have and per model doctor that cannot (or
    may not) see images; [] when no model doctor meets a case with images. `vision(model)`
    is `core.llm.vision_support` (True, False, or None for unknown)."""
    with_images = [c for c in cases if c.images]
    models = sorted({c.doctor.model for c in configs
                     if c.doctor.kind == "llm" and c.doctor.model})
    if not with_images or not models:
        return []
    out = [f"{image.problem}; its consultations with a model doctor will fail"
           for case in with_images for image in load_images(case, UPFRONT, cache)
           if image.problem]
    n = len(with_images)
    cases_text = f"{n} case{'s' if n != 1 else ''} with images"
    for model in models:
        sees = vision(model)
        if sees is False:
            out.append(f"{model} cannot see images (litellm's model map says so): its "
                       f"consultations of the {cases_text} will fail")
        elif sees is None:
            out.append(f"litellm does not know whether {model} can see images; it is sent "
                       f"the images of the {cases_text} anyway")
    return out
