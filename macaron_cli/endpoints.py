"""Where the models are: the one module that reads the environment and the settings for them.

Claude (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN, ANTHROPIC_MODEL,
MACARON_CHAT_MODEL, else `chat_model` and `model` in config.toml) and the local model
(MACARON_DRAFT_URL/_MODEL/_API/_API_KEY, else `draft_url`, `draft_model`, `draft_api`;
`draft_served_url` and `_context`, what `macaron draft serve` started; MACARON_DRAFT_CONTEXT
and _MAX_TOKENS). Every other module asks here (features through models/registry.py), so a
variable or a setting is named and defaulted once (tests/test_one_definition.py fails when
another module reads one). It sits below the
privacy gate, which decides where these URLs are, and above config, whose Settings it reads.
Values are read at each call: a test or a long chat may change the environment between them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from macaron_cli.config import Settings

ANTHROPIC_CLOUD = "https://api.anthropic.com"
# The variables a model key is in, so what leaves this machine can be checked for their
# values (the coder's CLI gets the key apart, never in its environment: maker/coder_home.py).
KEY_VARIABLES = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")
# What the Agent SDK's CLI is handed as set: where Claude is, its keys, the models it picks.
AGENT_VARIABLES = (
    "ANTHROPIC_BASE_URL",
    *KEY_VARIABLES,
    "ANTHROPIC_MODEL",
    "ANTHROPIC_DEFAULT_SONNET_MODEL",
    "ANTHROPIC_DEFAULT_HAIKU_MODEL",
    "ANTHROPIC_DEFAULT_OPUS_MODEL",
)
# Every variable this module reads (the one-definition test checks no other module does).
VARIABLES = (
    *AGENT_VARIABLES,
    "MACARON_CHAT_MODEL",
    "MACARON_DRAFT_URL",
    "MACARON_DRAFT_MODEL",
    "MACARON_DRAFT_API",
    "MACARON_DRAFT_API_KEY",
    "MACARON_DRAFT_CONTEXT",
    "MACARON_DRAFT_MAX_TOKENS",
)
# Every setting (a config.Settings field) this module reads, for the same check.
SETTINGS = (
    "chat_model",
    "agent_model",
    "draft_url",
    "draft_model",
    "draft_api",
    "draft_served_url",
    "draft_served_context",
)
_SHORTEST_KEY = 16  # shorter values are placeholders ("local-endpoint"), not keys
DEFAULT_LOCAL_CONTEXT = 16384  # enough for a brief plus a template's files


def _env(name: str) -> str | None:
    return os.environ.get(name) or None


@dataclass(frozen=True)
class Claude:
    """Claude as this environment reaches it; `url` None means the cloud itself."""

    url: str | None
    api_key: str | None
    auth_token: str | None

    @property
    def configured(self) -> bool:
        """Is Claude reachable in principle? (a key, a token, or an endpoint of one's own)."""
        return bool(self.api_key or self.auth_token or self.url)

    @property
    def keyed(self) -> bool:
        return bool(self.api_key or self.auth_token)

    @property
    def base(self) -> str:
        return self.url or ANTHROPIC_CLOUD


def claude() -> Claude:
    return Claude(_env("ANTHROPIC_BASE_URL"), _env("ANTHROPIC_API_KEY"), _env("ANTHROPIC_AUTH_TOKEN"))


def chat_model(settings: Settings) -> str | None:
    """The Claude model chat asks for: MACARON_CHAT_MODEL, else `chat_model` in config.toml."""
    return _env("MACARON_CHAT_MODEL") or settings.chat_model


def agent_model(settings: Settings) -> str | None:
    """The Claude model the coding agent asks for: `model` in config.toml (None: the SDK picks)."""
    return settings.agent_model


def sdk_model() -> str | None:
    """The model the Agent SDK's CLI would pick by itself (ANTHROPIC_MODEL)."""
    return _env("ANTHROPIC_MODEL")


def agent_variables() -> dict[str, str]:
    """The AGENT_VARIABLES that are set, to hand to the Agent SDK's CLI as they are."""
    return {name: value for name in AGENT_VARIABLES if (value := _env(name))}


def model_keys() -> list[str]:
    """The model keys set in this environment (their values), to keep out of what is shared."""
    return [v for name in KEY_VARIABLES if len(v := os.environ.get(name, "").strip()) >= _SHORTEST_KEY]


@dataclass(frozen=True)
class LocalModel:
    """The local model (it drafts, fixes and chats) as set (URL not yet normalised; None where nothing says)."""

    url: str | None
    model: str | None
    api: str | None
    api_key: str | None


def local_model(settings: Settings) -> LocalModel:
    """MACARON_DRAFT_URL/_MODEL/_API/_API_KEY, else the person's settings."""
    return LocalModel(
        _env("MACARON_DRAFT_URL") or settings.draft_url,
        _env("MACARON_DRAFT_MODEL") or settings.draft_model,
        _env("MACARON_DRAFT_API") or settings.draft_api,
        _env("MACARON_DRAFT_API_KEY"),
    )


@dataclass(frozen=True)
class Served:
    """Where `macaron draft serve` last started a model, and with what context (None: never)."""

    url: str | None
    context: int | None


def served(settings: Settings) -> Served:
    return Served(settings.draft_served_url, settings.draft_served_context)


def local_api_override() -> str | None:
    """MACARON_DRAFT_API alone (attaching a server detects its wire unless this says it)."""
    return _env("MACARON_DRAFT_API")


def local_context() -> int:
    """Tokens of context to ask engines for (MACARON_DRAFT_CONTEXT)."""
    return int(_env("MACARON_DRAFT_CONTEXT") or DEFAULT_LOCAL_CONTEXT)


def local_max_tokens(default: int) -> int:
    """The most tokens of answer a draft asks for (MACARON_DRAFT_MAX_TOKENS)."""
    return int(_env("MACARON_DRAFT_MAX_TOKENS") or default)
