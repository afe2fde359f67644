"""The models by name, as simonw/llm keeps them: a Model protocol and the registry that builds one.

`open_model("claude" | "local" | "none", settings)` is what chat, `/model` and the life
commands ask for; each entry is built from endpoints.py (where the model is) and carries the
destination the privacy gate decided for it. Every Model streams text, keeps the `usage` of
its last answer, and raises models/failures.py's ModelFailure when the call fails. A new
kind of model is a class with this shape and a row in MODELS.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol, runtime_checkable

from macaron_cli import endpoints, privacy
from macaron_cli.config import Settings
from macaron_cli.errors import UserError
from macaron_cli.models.chat import DEFAULT_CLAUDE_MODEL, AnthropicWireModel, ChatModel, DraftClientModel, NoModel
from macaron_cli.models.client import Usage
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
    from macaron_cli.models.client import draft_endpoint

    endpoint = draft_endpoint(settings, required=True)
    return DraftClientModel(endpoint.client(), privacy.draft(endpoint.url, settings))


# name → how to build it from the settings (`switch`: how the person names a model where they are).
MODELS: dict[str, Callable[[Settings, str], ChatModel]] = {
    "claude": _claude,
    "local": _local,
    "none": lambda settings, switch: NoModel(),
}


def default_model_name(settings: Settings) -> str:
    """Claude when a key or endpoint is set, else the local draft model if one is set up, else none."""
    if endpoints.claude().configured:
        return "claude"
    if endpoints.draft(settings).url:
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
