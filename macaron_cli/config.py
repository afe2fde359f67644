"""Where macaron keeps things, and the person's settings.

Every path comes from here so tests (and people with several identities) can point
MACARON_HOME and MACARON_APPS_DIR anywhere. Reading settings never imports anything heavy.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from macaron_cli.errors import UserError


def home() -> Path:
    return Path(os.environ.get("MACARON_HOME") or Path.home() / ".macaron").expanduser()


def apps_dir() -> Path:
    return Path(os.environ.get("MACARON_APPS_DIR") or Path.home() / "macaron-apps").expanduser()


def memory_uri() -> str:
    """A local directory, or a LanceDB URI (s3://…, db://…) for people who outgrow one machine."""
    return os.environ.get("MACARON_MEMORY_URI") or str(home() / "memory")


def config_path() -> Path:
    return home() / "config.toml"


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (and parents under it) readable by the person alone."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


@dataclass
class Settings:
    """The person's settings from $MACARON_HOME/config.toml; every key is optional."""

    budget_usd: float = 2.0
    # Endpoints (base URLs) the person trusts with private memories, besides loopback.
    trusted_endpoints: list[str] = field(default_factory=list)
    language: str | None = None
    color: str | None = None
    # λ of the memory weight reward0·e^(−λ·age): per day. 0.002 ≈ half weight after a year.
    decay_per_day: float = 0.002
    draft_url: str | None = None
    draft_model: str | None = None
    draft_api: str | None = None
    # What an hour of the person's GPU costs them, for draft-phase cost estimates.
    gpu_usd_per_hour: float = 0.0
    raw: dict = field(default_factory=dict)


def load_settings() -> Settings:
    path = config_path()
    if not path.exists():
        return Settings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path} is not valid TOML ({exc}); fix or delete it.") from None
    known = {k: v for k, v in data.items() if k in Settings.__dataclass_fields__ and k != "raw"}
    return Settings(**known, raw=data)


def save_settings(updates: dict) -> None:
    """Merge `updates` into config.toml, keeping keys macaron does not know about."""
    data = dict(load_settings().raw)
    data.update({k: v for k, v in updates.items() if v is not None})
    ensure_private_dir(home())
    path = config_path()
    tmp = path.with_suffix(".tmp")
    tmp.write_text(_dump_toml(data), encoding="utf-8")
    os.chmod(tmp, 0o600)
    tmp.replace(path)


def _dump_toml(data: dict) -> str:
    """A minimal TOML writer for flat tables of str/int/float/bool/list values."""
    lines = []
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    for key, value in data.items():
        if not isinstance(value, dict):
            lines.append(f"{key} = {_toml_value(value)}")
    for name, table in tables.items():
        lines.append(f"\n[{name}]")
        lines.extend(f"{k} = {_toml_value(v)}" for k, v in table.items())
    return "\n".join(lines) + "\n"


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)
