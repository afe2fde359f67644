"""The models by name, as simonw/llm keeps them: a Model protocol and the registry that builds one.

Every part of macaron that calls a model asks here, and only here is endpoints.py (where the
models are: the environment and the settings) read for them:
- chat, `/model` and the life commands: `open_model("claude" | "local" | "none", settings)`,
  a Model that streams text, keeps the `usage` of its last answer and carries the
  destination the privacy gate decided for it; a new kind is a class and a row in MODELS;
- make and change: `coder(settings)`, Claude through the Agent SDK (the SDK is its engine,
  maker/session.py runs it; the entry says its model, endpoint variables, destination and
  price), and `local_endpoint(settings)`, the local model that drafts and fixes whole files;
- `draft serve|status` and doctor: `local_endpoint` and `coder` too. (MCP calls no model:
  its clients run their own, placed by privacy.mcp_client.)
Every call raises models/failures.py's ModelFailure when it fails.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal, Protocol, overload, runtime_checkable

from macaron_cli import endpoints, privacy
from macaron_cli.config import Settings
from macaron_cli.errors import UserError
from macaron_cli.models.chat import DEFAULT_CLAUDE_MODEL, AnthropicWireModel, ChatModel, LocalChatModel, NoModel
from macaron_cli.models.client import ANTHROPIC, LOCAL_HINT, Endpoint, Usage, check_api, normalize_base_url
from macaron_cli.privacy import Destination


@runtime_checkable
class Model(Protocol):
    name: str
    endpoint: str | None
    destination: Destination
    usage: Usage | None

    @property
    def model(self) -> str: ...

    def stream(self, system: str, messages: list[dict], max_tokens: int = 1024) -> Iterator[str]: ...


def _claude(settings: Settings, switch: str) -> ChatModel:
    claude = endpoints.claude()
    if not claude.configured:
        raise UserError(f"no Claude credentials; set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL), or use {switch} none.")
    model = endpoints.chat_model(settings) or DEFAULT_CLAUDE_MODEL
    destination = privacy.claude(settings, claude.url)
    return AnthropicWireModel("claude", claude.url, model, claude.api_key, claude.auth_token, destination)


def _local(settings: Settings, switch: str) -> ChatModel:
    endpoint = local_endpoint(settings, required=True)
    return LocalChatModel(endpoint.client(), privacy.local_model(endpoint.url, settings))


# name → how to build it from the settings (`switch`: how the person names a model where they are).
MODELS: dict[str, Callable[[Settings, str], ChatModel]] = {
    "claude": _claude,
    "local": _local,
    "none": lambda settings, switch: NoModel(),
}


def default_model_name(settings: Settings) -> str:
    """Claude when a key or endpoint is set, else the local draft model if one is set up, else none."""
    if claude_configured():
        return "claude"
    if endpoints.local_model(settings).url:
        return "local"
    return "none"


def open_model(name: str | None, settings: Settings, switch: str = "--model") -> ChatModel:
    """The model `--model NAME` asks for (the default when None); UserError if unusable,
    naming the fix as `switch` is typed where the person is (`--model`, or `/model` in chat)."""
    name = (name or default_model_name(settings)).lower()
    build = MODELS.get(name)
    if build is None:
        raise UserError(f"unknown model {name!r}; use {switch} claude, local or none.")
    return build(settings, switch)


def claude_configured() -> bool:
    """Is Claude reachable in principle? (a key, a token, or an endpoint of one's own)."""
    return endpoints.claude().configured


def model_keys() -> list[str]:
    """The model keys set here (their values), to keep out of what leaves this machine."""
    return endpoints.model_keys()


# ── the local model: drafts and fixes whole files, chats as "local" ─────────────────────
@overload
def local_endpoint(settings: Settings, required: Literal[True] = True) -> Endpoint: ...
@overload
def local_endpoint(settings: Settings, required: bool) -> Endpoint | None: ...
def local_endpoint(settings: Settings, required: bool = True) -> Endpoint | None:
    """The local model from MACARON_DRAFT_URL/_MODEL/_API, else the person's settings; a
    UserError naming the fix (or None when not `required`) when none is set up."""
    local = endpoints.local_model(settings)
    if not local.url:
        if required:
            raise UserError(f"no draft model is set up; {LOCAL_HINT}")
        return None
    return Endpoint(
        url=normalize_base_url(local.url), model=local.model, api=check_api(local.api), api_key=local.api_key
    )


# ── the coder: Claude through the Agent SDK, for make and change ────────────────────────
# An endpoint of one's own needs no key, but the SDK's CLI refuses to start without one.
_PLACEHOLDER_KEY = "local-endpoint"


@dataclass(frozen=True)
class Coder:
    """Claude as make's and change's coding agent. The Agent SDK is its engine (maker/session.py
    builds the session's options from this entry and runs it); the entry says which model,
    what the SDK's CLI is handed to reach it, where its requests go, and what they cost."""

    name: ClassVar[str] = "agent"
    model: str | None  # `model` in config.toml; None lets the SDK pick
    endpoint: str  # the base URL its requests go to
    destination: Destination
    configured: bool  # a key, a token or an endpoint of one's own
    keyed: bool  # a key or a token is set
    settings: Settings

    def environment(self) -> dict[str, str]:
        """Where Claude is and which models, as set here, for the SDK's CLI: never the key,
        which its shell would inherit (`key` is handed over apart, maker/coder_home.py)."""
        return {k: v for k, v in endpoints.agent_variables().items() if k not in endpoints.KEY_VARIABLES}

    def key(self) -> str:
        """The key (else the token) the CLI sends, or a placeholder where none is set."""
        claude = endpoints.claude()
        return claude.api_key or claude.auth_token or _PLACEHOLDER_KEY

    def direct(self) -> Endpoint:
        """The same Claude over the Messages API, for a request without the SDK (a make's
        spec): the model the SDK would use (config.toml, ANTHROPIC_MODEL), else chat's default."""
        claude = endpoints.claude()
        return Endpoint(
            url=normalize_base_url(claude.base),
            model=self.model or endpoints.sdk_model() or DEFAULT_CLAUDE_MODEL,
            api=ANTHROPIC,
            api_key=claude.api_key,
            auth_token=claude.auth_token,
            name="Claude",
            hint="check ANTHROPIC_BASE_URL and your network, or use --offline",
        )

    @staticmethod
    def tokens(usage: Mapping) -> dict[str, int]:
        """One response's usage as the SDK reports it, by what each kind of token costs."""
        return {
            "input": int(usage.get("input_tokens") or 0),
            "output": int(usage.get("output_tokens") or 0),
            "cache_write": int(usage.get("cache_creation_input_tokens") or 0),
            "cache_read": int(usage.get("cache_read_input_tokens") or 0),
        }

    def cost(self, model: str | None, tokens: Mapping[str, int]) -> float | None:
        """USD for those `tokens` of one of its responses (a subagent may name another
        `model`), the person's [prices] first; None when no price of `model` is known."""
        from macaron_cli.models.prices import token_cost

        parts = (tokens["input"], tokens["output"], tokens["cache_write"], tokens["cache_read"])
        return token_cost(model, *parts, settings=self.settings)


def coder(settings: Settings) -> Coder:
    claude = endpoints.claude()
    return Coder(
        model=endpoints.agent_model(settings),
        endpoint=claude.base,
        destination=privacy.claude(settings, claude.url),
        configured=claude.configured,
        keyed=claude.keyed,
        settings=settings,
    )
