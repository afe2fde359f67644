"""Where macaron keeps things, and the person's settings.

Every path comes from here so tests (and people with several identities) can point
MACARON_HOME and MACARON_APPS_DIR anywhere. Reading settings never imports anything heavy.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from macaron_cli.errors import UserError
from macaron_cli.files import write_atomic


def home() -> Path:
    return Path(os.environ.get("MACARON_HOME") or Path.home() / ".macaron").expanduser()


def apps_dir() -> Path:
    return Path(os.environ.get("MACARON_APPS_DIR") or Path.home() / "macaron-apps").expanduser()


def memory_uri(settings: Settings) -> str:
    """A local directory, or a LanceDB URI (s3://…, gs://…, az://…) for a memory several
    machines share: MACARON_MEMORY_URI, else `uri` under `[memory]` in config.toml."""
    return os.environ.get("MACARON_MEMORY_URI") or memory_settings(settings)[0] or str(home() / "memory")


def memory_settings(settings: Settings) -> tuple[str | None, dict[str, str]]:
    """`[memory]` of config.toml: its `uri`, and its `[memory.storage]` table (object-storage
    options such as endpoint and region, passed to LanceDB as strings)."""
    path = config_path()
    table = settings.raw.get("memory", {})
    storage = table.get("storage", {}) if isinstance(table, Mapping) else None
    uri = table.get("uri") if isinstance(table, Mapping) else None
    if not isinstance(storage, Mapping) or not (uri is None or isinstance(uri, str)):
        raise UserError(
            f"{path}: `[memory]` must be a table with `uri` (a string) and a `[memory.storage]` "
            "table; fix those lines or delete them."
        )
    bad = [k for k, v in storage.items() if isinstance(v, (Mapping, tuple))]
    if bad:
        raise UserError(f"{path}: `memory.storage.{bad[0]}` must be a string, number or true/false; fix that line.")
    return uri, {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in storage.items()}


def config_path() -> Path:
    return home() / "config.toml"


def cache_dir() -> Path:
    """`$MACARON_HOME/cache`, made private like the rest of the home: what is cached there
    (vectors of template texts) says which apps the person asked for."""
    return ensure_private_dir(cache_path())


def cache_path() -> Path:
    """Where cache_dir() is, made or not."""
    return home() / "cache"


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (and parents under it) readable by the person alone. One that already
    existed looser (made by an older macaron, or by hand) is tightened with all it holds."""
    if path.is_dir() and path.stat().st_mode & 0o077:
        from macaron_cli.files import make_private

        make_private(path)
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


@dataclass(frozen=True)
class Settings:
    """The person's settings from $MACARON_HOME/config.toml; every key is optional.

    Loaded once by the command (load_settings) and passed down to what needs it; frozen, with
    `raw` read-only all the way down, so no reader can change what another one reads. A new
    setting: a field here and its type in _TYPES.
    """

    budget_usd: float = 2.0
    # Endpoints (base URLs) the person trusts with private memories (see privacy.py: Claude
    # on a loopback URL is still the cloud unless listed here).
    trusted_endpoints: tuple[str, ...] = ()
    language: str | None = None
    color: str | None = None
    # λ of the memory weight reward0·e^(−λ·age): per day. 0.002 ≈ half weight after a year.
    decay_per_day: float = 0.002
    draft_url: str | None = None
    draft_model: str | None = None
    draft_api: str | None = None
    # Where and with what context `macaron draft serve` last started a model (it writes them).
    draft_served_url: str | None = None
    draft_served_context: int | None = None
    # The Claude model chat asks for (MACARON_CHAT_MODEL overrides it).
    chat_model: str | None = None
    # What an hour of the person's GPU costs them, for draft-phase cost estimates.
    gpu_usd_per_hour: float = 0.0
    # A larger embedding model for memory instead of the bundled one: a sentence-transformers
    # model name (needs `pip install sentence-transformers`, a download, ideally a GPU).
    embedding_model: str | None = None
    # At a greeting the friend may mention one thing an app recorded worth celebrating, or
    # a goal missed two days running (once each); false keeps it quiet.
    app_nudges: bool = True
    # The Claude model the coding agent asks for (`model` in config.toml; None lets the SDK
    # choose). Read through endpoints.py, as every setting of where the models are.
    agent_model: str | None = None
    # The image the docker sandbox runs app code in (MACARON_DOCKER_IMAGE overrides it).
    docker_image: str | None = None
    # The friend the person met (friend/persona.py reads its keys): None until they have.
    persona: Mapping | None = None
    # The person's own prices, `[prices."MODEL"]` tables (models/prices.py checks each).
    prices: Mapping = field(default_factory=lambda: MappingProxyType({}))
    # The whole file as read (tables as read-only mappings, arrays as tuples), for the
    # tables that have readers of their own ([mcp], [memory], [prices], persona …).
    raw: Mapping = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self):
        object.__setattr__(self, "trusted_endpoints", tuple(self.trusted_endpoints))
        for name in ("persona", "prices", "raw"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))


def _frozen(value):
    """A read-only copy of a TOML value: tables become mappings no one can change, arrays tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


# The type each known setting must have, for a one-line refusal instead of a crash later.
_NUMBER, _TEXT, _FLAG, _TABLE = (int, float), (str,), (bool,), (Mapping,)
_TYPES = {
    "budget_usd": _NUMBER,
    "decay_per_day": _NUMBER,
    "gpu_usd_per_hour": _NUMBER,
    "language": _TEXT,
    "color": _TEXT,
    "draft_url": _TEXT,
    "draft_model": _TEXT,
    "draft_api": _TEXT,
    "draft_served_url": _TEXT,
    "draft_served_context": _NUMBER,
    "chat_model": _TEXT,
    "embedding_model": _TEXT,
    "app_nudges": _FLAG,
    "agent_model": _TEXT,
    "docker_image": _TEXT,
    "persona": _TABLE,
    "prices": _TABLE,
}
# A setting whose key in config.toml is not its field's name (`model` predates the others).
_KEYS = {"agent_model": "model"}


def load_settings() -> Settings:
    path = config_path()
    if not path.exists():
        return Settings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path} is not valid TOML ({exc}); fix or delete it.") from None
    keys = {_KEYS.get(name, name): name for name in Settings.__dataclass_fields__ if name != "raw"}
    known = {keys[k]: v for k, v in data.items() if k in keys}
    for name, value in known.items():
        key, wanted = _KEYS.get(name, name), _TYPES.get(name)
        bad = (
            not isinstance(value, bool)
            if wanted is _FLAG
            else (isinstance(value, bool) or not isinstance(value, wanted))
            if wanted
            else (
                name == "trusted_endpoints" and not (isinstance(value, list) and all(isinstance(v, str) for v in value))
            )
        )
        if bad:
            kind = (
                {_NUMBER: "a number", _TEXT: "a string", _FLAG: "true or false", _TABLE: "a table"}[wanted]
                if wanted
                else "a list of strings"
            )
            raise UserError(f"{path}: `{key}` must be {kind}, not {value!r}; fix that line or delete it.")
    return Settings(**known, raw=data)


# Where an MCP client's model runs, as the person declares it under [mcp.clients.NAME]
# (`model = "local"`): the privacy gate turns it into a destination. Undeclared: cloud.
MCP_CLIENT_MODELS = ("cloud", "local", "trusted")


@dataclass(frozen=True)
class McpSettings:
    """`[mcp]` of config.toml: may clients forget memories, and where each client's model runs."""

    allow_forget: bool = False
    clients: dict[str, str] = field(default_factory=dict)  # client name, case-folded → MCP_CLIENT_MODELS

    def model_of(self, client: str) -> str:
        return self.clients.get(client.casefold(), "cloud")


def mcp_settings(settings: Settings) -> McpSettings:
    """The `[mcp]` table, checked: a wrong shape is one line naming the key to fix."""
    table = settings.raw.get("mcp", {})
    path = config_path()
    example = '[mcp.clients.NAME] with model = "local", "trusted" or "cloud"'
    if not isinstance(table, Mapping):
        raise UserError(f"{path}: `mcp` must be a table (`[mcp]`); fix or delete it.")
    allow = table.get("allow_forget", False)
    if not isinstance(allow, bool):
        raise UserError(f"{path}: `mcp.allow_forget` must be true or false, not {allow!r}; fix that line.")
    clients = table.get("clients", {})
    if not isinstance(clients, Mapping):
        raise UserError(f"{path}: `mcp.clients` must hold tables such as {example}; fix it.")
    models = {}
    for name, client in clients.items():
        model = client.get("model", "cloud") if isinstance(client, Mapping) else None
        if model not in MCP_CLIENT_MODELS:
            raise UserError(f"{path}: `mcp.clients.{name}` must be a table such as {example}; fix it.")
        models[name.casefold()] = model
    return McpSettings(allow_forget=allow, clients=models)


def save_settings(updates: dict) -> Settings:
    """Merge `updates` into config.toml. Only those keys change: the person's comments,
    layout and every other setting stay byte for byte as they wrote them. Returns the
    settings as they now are, for a long-lived command (chat, memory serve) to hold."""
    import tomlkit

    load_settings()  # refuse (UserError) to write over a file we cannot read
    path = config_path()
    document = tomlkit.parse(path.read_text(encoding="utf-8")) if path.exists() else tomlkit.document()
    for key, value in updates.items():
        if value is not None:
            _merge(document, key, value)
    ensure_private_dir(home())
    write_atomic(path, tomlkit.dumps(document))
    return load_settings()


def _merge(container, key: str, value) -> None:
    """Set container[key] = value; a table is updated key by key, so its comments stay."""
    current = container.get(key)
    if isinstance(value, dict) and hasattr(current, "items") and not isinstance(current, list):
        for sub_key, sub_value in value.items():
            if sub_value is not None:
                _merge(current, sub_key, sub_value)
        return
    plain = current.unwrap() if hasattr(current, "unwrap") else current
    if plain == value and type(plain) is type(value):
        return  # unchanged: keep the person's spelling of it
    container[key] = _without_none(value)


def _without_none(value):
    """TOML has no null: an unset value inside a table is left out."""
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    return value
