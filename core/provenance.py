"""What a run records for reproducibility: models, parameters, prompt hashes, seeds, versions.

Package versions are read from installed metadata, so litellm is not imported here.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

import platform
import sys
from importlib import metadata
from typing import Any

from core.config import ConsultationConfig

PACKAGES = ("bedside", "litellm", "openai", "pydantic", "rapidfuzz", "pyyaml", "sqlite-utils")


def package_versions() -> dict[str, str | None]:
    """Installed versions of the packages that shape a run (None when not installed)."""
    out: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def run_provenance(configs: list[ConsultationConfig]) -> dict[str, Any]:
    """Everything needed to re-run a batch: each config (with its key and prompt hashes),
    the models, the seeds, and the Python, platform and package versions."""
    from core.engine import describe_config  # the engine owns the prompt-hash bookkeeping

    described = [describe_config(c) for c in configs]
    hashes: dict[str, str] = {}
    for d in described:
        hashes.update(d.get("prompts", {}))
    return {
        "configs": described,
        "models": sorted({m for c in configs for m in c.models()}),
        "seeds": sorted({c.seed for c in configs}),
        "prompts": dict(sorted(hashes.items())),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": package_versions(),
    }
