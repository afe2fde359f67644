"""What a model server says about its own limits: how many tokens one request may hold.

Engines say it in different places: vLLM and SGLang as `max_model_len` on each model of
`/v1/models`, llama.cpp's llama-server as `n_ctx` in `/props`, Ollama as `num_ctx` among
the parameters of `/api/show`. llama-cpp-python's server says it nowhere (`/v1/models`
has ids only, `/props` is a 404): there the context is the one `macaron draft serve`
started it with (recorded as draft_served_context), else the one macaron asks engines for
(MACARON_DRAFT_CONTEXT, default 16384), marked as assumed; if the server refuses a
request as too long, its refusal names the real size (client.ContextExceeded).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from macaron_cli import endpoints
from macaron_cli.config import Settings
from macaron_cli.models.client import ModelClient
from macaron_cli.models.engines import context_length

DEFAULT_MAX_TOKENS = 8192  # a whole small app's files fit in it
CHARS_PER_TOKEN = 3  # conservative for code (measured ~3.4), so a prompt fits the context
MARGIN_TOKENS = 256  # the chat template's own tokens around the messages
MIN_ANSWER_TOKENS = 64


@dataclass(frozen=True)
class ServerLimits:
    context: int  # tokens of prompt and answer together
    source: str  # where the number comes from, in words
    said: bool  # the server said it; False: assumed

    def to_json(self) -> dict:
        return {"context": self.context, "context_source": self.source, "context_said": self.said}


def read_limits(client: ModelClient, settings: Settings | None = None) -> ServerLimits:
    """The server's context as it says it, else as macaron started it, else assumed."""
    for found in (_vllm, _llama_server, _ollama):
        said = found(client)
        if said:
            return ServerLimits(*said, said=True)
    served = endpoints.served(settings) if settings else None
    started = _positive(served.context) if served else None
    if started and served and served.url == client.base_url:
        return ServerLimits(started, "macaron started the server with it (draft serve)", said=True)
    return assumed()


def assumed(context: int | None = None) -> ServerLimits:
    """The context when the server does not say it: MACARON_DRAFT_CONTEXT (or a refusal's size)."""
    if context:
        return ServerLimits(context, "the server's refusal", said=True)
    return ServerLimits(context_length(), "assumed: the server does not say; MACARON_DRAFT_CONTEXT sets it", said=False)


def wanted_answer() -> int:
    """The most tokens of answer to ask for (MACARON_DRAFT_MAX_TOKENS), before fitting."""
    return endpoints.local_max_tokens(DEFAULT_MAX_TOKENS)


def split_context(limits: ServerLimits, wanted: int, fixed_chars: int) -> tuple[int, int]:
    """(most tokens of answer, characters of files a prompt may carry) in the server's
    context: the answer gets at most half, the files what is left beside the prompt's own
    words (`fixed_chars`: its system prompt, brief and instructions)."""
    answer = max(MIN_ANSWER_TOKENS, min(wanted, limits.context // 2))
    room = (limits.context - answer - MARGIN_TOKENS) * CHARS_PER_TOKEN - fixed_chars
    return answer, max(0, room)


def answer_room(limits: ServerLimits, wanted: int, prompt_chars: int) -> int:
    """max_tokens for a built prompt: what its context leaves, at most `wanted`."""
    prompt_tokens = -(-prompt_chars // CHARS_PER_TOKEN)
    return max(MIN_ANSWER_TOKENS, min(wanted, limits.context - prompt_tokens - MARGIN_TOKENS))


def _positive(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _vllm(client: ModelClient) -> tuple[int, str] | None:
    data = client.probe("GET", "/v1/models") or {}
    models = [m for m in data.get("data") or [] if isinstance(m, dict)]
    mine = [m for m in models if m.get("id") == client.model] or models[:1]
    size = _positive(mine[0].get("max_model_len")) if mine else None
    return (size, "max_model_len in /v1/models") if size else None


def _llama_server(client: ModelClient) -> tuple[int, str] | None:
    props = client.probe("GET", "/props") or {}
    settings = props.get("default_generation_settings") or {}
    size = _positive(settings.get("n_ctx") if isinstance(settings, dict) else None) or _positive(props.get("n_ctx"))
    return (size, "n_ctx in /props") if size else None


def _ollama(client: ModelClient) -> tuple[int, str] | None:
    shown = client.probe("POST", "/api/show", {"model": client.model}) or {}
    match = re.search(r"^\s*num_ctx\s+(\d+)", str(shown.get("parameters") or ""), re.M)
    return (int(match[1]), "num_ctx in /api/show") if match else None
