"""What a run records for reproducibility: models, parameters, prompt hashes, seeds, versions.

`describe_config` is the stored description of a configuration (with the hash of every
prompt or table its agents use); package versions are read from installed metadata, so
litellm is not imported here.
"""

from __future__ import annotations

import platform
import sys
from importlib import metadata
from typing import Any

from core import prompts
from core.config import ConsultationConfig
from core.prompts.bias import config_hashes

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


def describe_config(config: ConsultationConfig) -> dict[str, Any]:
    """The config as stored with the consultation: agents, rules, key and prompt hashes."""
    data = config.describe()
    roles = {"doctor": config.doctor.kind, "patient": config.patient.kind,
             "examiner": config.examiner.kind,
             "moderator": ",".join(dict.fromkeys(m.kind for m in config.moderators))}
    if config.protocol != "agentclinic":
        roles["protocol"] = config.protocol
    if config.intent_end:
        roles["intent"] = "rules"
    hashes = prompts.hashes_for(roles)
    if config.doctor.kind == "llm" and config.protocol in prompts.PROTOCOL_DOCTOR_PROMPTS:
        for pid in prompts.ROLE_PROMPTS["doctor"]:
            hashes.pop(pid, None)
        hashes.update({pid: prompts.PROMPTS[pid].sha256
                       for pid in prompts.PROTOCOL_DOCTOR_PROMPTS[config.protocol]})
    data["prompts"] = {**hashes, **config_hashes(config)}
    return data


def run_provenance(configs: list[ConsultationConfig]) -> dict[str, Any]:
    """Everything needed to re-run a batch: each config (with its key and prompt hashes),
    the models, the seeds, and the Python, platform and package versions."""
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
