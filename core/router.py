"""Router files: a litellm Router configuration for `bedside run --router FILE`.

The file (YAML or JSON) is litellm's own: a `model_list` of deployments, several of which
may share a `model_name` (a fleet of vLLM/Ollama servers, or one provider under several
keys), each with its `litellm_params` (model, api_base, api_key, …) and optional `rpm` /
`tpm` limits; and the Router's settings (`routing_strategy`, `num_retries`, `fallbacks`,
`timeout`, `allowed_fails`, `cooldown_time`, …), either under `router_settings` (as
litellm's proxy writes them) or at the top level. litellm's Router does the routing
(`core.llm` builds it); this module only reads and checks the file, without litellm.

Keys never belong in a file that is stored with a run: every field whose name has the word
key, secret, token, password or credentials must be an environment reference
(`os.environ/VAR`, which the Router resolves when it calls), and no value may look like a
key. A bad file is one
InputError naming the file and the field, never echoing a value that may be a key.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import InputError

ENV_PREFIX = "os.environ/"
SETTINGS_KEY = "router_settings"
# A field named for a secret: a word of its name (api_key, aws_secret_access_key,
# azure_ad_token, vertex_credentials), not `max_tokens` or `tokenizer`.
_SECRET_WORDS = {"key", "secret", "token", "password", "credential", "credentials"}
_KEY_LIKE = re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}")
_ENV_VAR = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass
class RouterFile:
    """A router file, read and checked."""

    path: str
    text: str
    model_list: list[dict[str, Any]]
    settings: dict[str, Any]

    def names(self) -> list[str]:
        """The model names the file routes (each may have several deployments)."""
        return sorted({str(d["model_name"]) for d in self.model_list})

    def env_vars(self) -> list[str]:
        """The environment variables the file's keys are read from."""
        found: list[str] = []
        _walk(self.model_list, lambda where, v: found.append(v[len(ENV_PREFIX):])
              if isinstance(v, str) and v.startswith(ENV_PREFIX) else None, "model_list")
        return sorted(set(found))

    def error(self, field: str, message: str) -> InputError:
        """An InputError naming this file and `field`."""
        return InputError(message, path=self.path, field=field)

    def stored(self) -> dict[str, Any]:
        """What the run stores of the file: its name, text and sha256."""
        return {"path": Path(self.path).name, "text": self.text,
                "sha256": hashlib.sha256(self.text.encode("utf-8")).hexdigest()}

    def check_models(self, models: dict[str, str]) -> None:
        """Every model agent of the run (model → the role that plays it) is a model name
        of the file."""
        names = set(self.names())
        for model, role in models.items():
            if model not in names:
                raise self.error("model_list", f"no deployment has model_name '{model}' "
                                 f"(the {role}'s model); it routes {', '.join(sorted(names))}")


def models_of(configs: list[Any]) -> dict[str, str]:
    """Every model an agent of `configs` calls (model → the first role seen playing it)."""
    from pydantic import BaseModel

    from core.config import AgentSpec

    found: dict[str, str] = {}

    def visit(value: Any, role: str) -> None:
        if isinstance(value, AgentSpec):
            if value.kind == "llm" and value.model:
                found.setdefault(value.model, role)
        elif isinstance(value, BaseModel):
            for name in type(value).model_fields:
                visit(getattr(value, name), name)
        elif isinstance(value, (list, tuple)):
            for item in value:
                visit(item, role)

    for config in configs:
        visit(config, "agent")
    return found


def _walk(value: Any, visit: Any, where: str) -> None:
    """Call visit(field path, value) for every leaf under `value`."""
    if isinstance(value, dict):
        for k, v in value.items():
            _walk(v, visit, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _walk(v, visit, f"{where}[{i}]")
    else:
        visit(where, value)


def _check_secrets(path: str, data: dict[str, Any]) -> None:
    """Refuse a literal key anywhere in the file (never echoing it)."""
    def visit(where: str, value: Any) -> None:
        where = where.lstrip(".")
        name = re.split(r"[.\[]", where)[-1]
        if not isinstance(value, str):
            return
        secret = _SECRET_WORDS & set(name.lower().split("_"))
        if secret and value and not value.startswith(ENV_PREFIX):
            raise InputError("a key must be an environment reference (os.environ/VAR), "
                             "never the key itself", path=path, field=where)
        if value.startswith(ENV_PREFIX) and not _ENV_VAR.fullmatch(value[len(ENV_PREFIX):]):
            raise InputError("os.environ/ must be followed by a variable name", path=path,
                             field=where)
        if _KEY_LIKE.search(value):
            raise InputError("holds what looks like an API key; put it in the environment "
                             "and write os.environ/VAR", path=path, field=where)
    _walk(data, visit, "")


def _read(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", path=path, field="--router") from None
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read it ({type(err).__name__})", path=path,
                         field="--router") from None
    return text


def _load_text(text: str, path: str) -> Any:
    """The file's data: JSON for a .json file, else YAML (bounded, `core.yamlsafe`)."""
    if path.endswith(".json"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"not valid JSON ({err.msg})", path=path,
                             line=err.lineno) from None
    import yaml

    from core import yamlsafe

    try:
        return yamlsafe.load(text)[1]
    except yaml.MarkedYAMLError as err:
        line = err.problem_mark.line + 1 if err.problem_mark else None
        raise InputError(yamlsafe.problem_text(err), path=path, line=line) from None
    except yaml.YAMLError:
        raise InputError("not valid YAML/JSON", path=path) from None


def parse(text: str, path: str) -> RouterFile:
    """Check a router file's text; InputError naming file and field when it cannot be used."""
    data = _load_text(text, path)
    if not isinstance(data, dict):
        raise InputError("must be a mapping with a model_list (YAML or JSON)", path=path)
    _check_secrets(path, data)
    deployments = data.get("model_list")
    if not isinstance(deployments, list) or not deployments:
        raise InputError("missing or empty: list the deployments", path=path,
                         field="model_list")
    for i, d in enumerate(deployments):
        where = f"model_list[{i}]"
        if not isinstance(d, dict) or not isinstance(d.get("model_name"), str) \
                or not d["model_name"].strip():
            raise InputError("each deployment needs a model_name", path=path, field=where)
        params = d.get("litellm_params")
        if not isinstance(params, dict) or not isinstance(params.get("model"), str):
            raise InputError("needs litellm_params with a model (e.g. openai/llama3)",
                             path=path, field=f"{where}.litellm_params")
    settings = data.get(SETTINGS_KEY, {})
    if not isinstance(settings, dict):
        raise InputError("must be a mapping", path=path, field=SETTINGS_KEY)
    top = {k: v for k, v in data.items() if k not in ("model_list", SETTINGS_KEY)}
    return RouterFile(path=path, text=text, model_list=deployments,
                      settings={**top, **settings})


def load(path: str | Path) -> RouterFile:
    """Read and check a router file."""
    return parse(_read(str(path)), str(path))


def of_run(stored: dict[str, Any] | None) -> RouterFile | None:
    """The router file a run stored (`RouterFile.stored`), checked again; None without."""
    if not stored:
        return None
    return parse(str(stored.get("text", "")), str(stored.get("path", "router file")))


def build_router(lib: Any, router: RouterFile) -> Any:
    """litellm's Router for a router file (`lib` is litellm: only core.llm imports it);
    InputError naming file and setting for a setting the Router does not take."""
    import inspect

    known = set(inspect.signature(lib.Router.__init__).parameters) - {"self", "model_list"}
    for name in router.settings:
        if name not in known:
            raise router.error(name, "not a litellm Router setting (e.g. routing_strategy, "
                               "num_retries, fallbacks, timeout, allowed_fails)")
    try:
        return lib.Router(model_list=router.model_list, **router.settings)
    except Exception as err:  # litellm's own checks of the list and settings
        raise router.error("model_list", f"litellm's Router refused it: "
                           f"{type(err).__name__}") from None


def deployment_of(response: Any) -> dict[str, Any] | None:
    """The deployment a Router call went to, as litellm tells it (its hidden params)."""
    hidden = getattr(response, "_hidden_params", None) or {}
    found = {k: hidden.get(k) for k in ("model_id", "api_base") if hidden.get(k)}
    return found or None
