"""One streaming client for both model wires: Anthropic Messages and OpenAI chat.

Local engines (vLLM, SGLang, llama.cpp, Ollama, llama-cpp-python) speak one or both of
these; Claude speaks the first. Callers see one interface:

    client = ModelClient("http://127.0.0.1:8000", "deepseek-coder")
    for chunk in client.stream(system, [{"role": "user", "content": "hi"}], max_tokens=512):
        print(chunk, end="")
    client.last_usage  # Usage(input_tokens, output_tokens, seconds, ...)

The wire is auto-detected when `api` is None: the first request goes to /v1/messages and
a 404/405 there (llama-cpp-python's server, older llama.cpp) switches the endpoint to the
OpenAI wire for good. Only httpx is used: no SDK, so the draft path stays lean and fast.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass

import httpx

from macaron_cli.errors import UserError
from macaron_cli.models.failures import ContextExceeded, ModelError, ModelFailure, ModelUnreachable

ANTHROPIC = "anthropic"
OPENAI = "openai"
APIS = (ANTHROPIC, OPENAI)
ANTHROPIC_VERSION = "2023-06-01"

LOCAL_HINT = "start one with `macaron draft serve --engine … --model …` or set MACARON_DRAFT_URL"

# The wire each base URL turned out to speak, so auto-detection costs one 404 per process.
_detected: dict[str, str] = {}
_detected_lock = threading.Lock()


# How servers word a context refusal: vLLM and llama-cpp-python ("maximum context length
# is N tokens"), llama.cpp's llama-server ("exceeds the available context size", n_ctx).
_CONTEXT_SIZE = re.compile(r"(?:maximum context length is|context window of|context size of|n_ctx\W+)\s*(\d+)", re.I)
_CONTEXT_WORDS = re.compile(r"context (?:length|window|size)|n_ctx", re.I)
_PROMPT_SIZE = re.compile(r"\((\d+) in the messages|requested tokens \((\d+)\)|n_prompt_tokens\W+(\d+)", re.I)


def context_refusal(base_url: str, error) -> ContextExceeded | None:
    """A ContextExceeded when a server's error (its text or JSON) is a context refusal."""
    text = json.dumps(error) if isinstance(error, dict) else str(error)
    if not _CONTEXT_WORDS.search(text):
        return None
    size, prompt = _CONTEXT_SIZE.search(text), _PROMPT_SIZE.search(text)
    tokens = next((int(g) for g in prompt.groups() if g), None) if prompt else None
    return ContextExceeded(base_url, int(size[1]) if size else None, tokens)


@dataclass
class Usage:
    """Tokens and time of one request. `estimated` when the server sent no usage (then
    the answer's chunks and the prompt's characters stand in). `stop`: why the answer
    ended as the server said it ("stop", "end_turn"; "length" and "max_tokens" mean cut)."""

    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0
    first_token_seconds: float | None = None
    estimated: bool = False
    stop: str | None = None

    @property
    def cut(self) -> bool:
        """The answer ended because it ran out of tokens, not because the model finished."""
        return self.stop in ("length", "max_tokens")

    @property
    def tokens_per_second(self) -> float:
        """Output tokens per second of generation (after the first token arrived)."""
        # The first token's wait is prompt processing; count the tokens generated after it.
        gen = self.seconds - (self.first_token_seconds or 0.0)
        return (self.output_tokens - 1) / gen if gen > 0 and self.output_tokens > 1 else 0.0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.seconds + other.seconds,
            self.first_token_seconds,
            self.estimated or other.estimated,
            other.stop or self.stop,
        )

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Endpoint:
    """Where a model lives: base URL (without /v1), model name, wire (None = detect)."""

    url: str
    model: str | None = None
    api: str | None = None
    api_key: str | None = None
    auth_token: str | None = None
    name: str = "draft"
    hint: str = LOCAL_HINT

    def client(self, **kw) -> ModelClient:
        return ModelClient(
            self.url,
            self.model,
            api=self.api,
            api_key=self.api_key,
            auth_token=self.auth_token,
            name=self.name,
            hint=self.hint,
            **kw,
        )


def normalize_base_url(url: str) -> str:
    """'127.0.0.1:8000/v1/' → 'http://127.0.0.1:8000' (routes add /v1 themselves)."""
    url = url.strip().rstrip("/")
    if "//" not in url:
        url = "http://" + url
    if url.endswith("/v1"):
        url = url[:-3]
    return url


def check_api(api: str | None) -> str | None:
    if api is None or api == "":
        return None
    api = api.strip().lower()
    if api not in APIS:
        raise UserError(
            f"unknown model wire {api!r}; use MACARON_DRAFT_API=anthropic or openai (or unset it to auto-detect)"
        )
    return api


class ModelClient:
    """Streams text from a model over the Anthropic or OpenAI wire (see module docs)."""

    def __init__(
        self,
        base_url: str,
        model: str | None,
        api: str | None = None,
        api_key: str | None = None,
        *,
        auth_token: str | None = None,
        name: str = "draft",
        hint: str = LOCAL_HINT,
        connect_timeout: float = 5.0,
        read_timeout: float = 300.0,
    ):
        self.base_url = normalize_base_url(base_url)
        self._model = model
        self.api = check_api(api) or _detected.get(self.base_url)
        self.api_key = api_key
        self.auth_token = auth_token  # sent as a Bearer token (ANTHROPIC_AUTH_TOKEN)
        self.name, self.hint = name, hint  # for error messages: "no draft server at URL; <hint>"
        # read_timeout bounds the gap between two chunks, not the whole answer: a big
        # model on a small GPU may take minutes overall but never goes silent that long.
        self.timeout = httpx.Timeout(connect=connect_timeout, read=read_timeout, write=30.0, pool=connect_timeout)
        self.last_usage = Usage()
        self._http = httpx.Client(timeout=self.timeout)

    # ── public ──
    @property
    def model(self) -> str:
        """The model name; asked of the server (/v1/models) when none was given."""
        if not self._model:
            served = self.list_models()
            self._model = served[0] if served else "default"
        return self._model

    def list_models(self) -> list[str]:
        response = self._send("GET", "/v1/models")
        if response.status_code != 200:
            return []
        return [m.get("id") for m in response.json().get("data", []) if m.get("id")]

    def stream(
        self, system: str | None, messages: list[dict], max_tokens: int = 4096, temperature: float | None = None
    ) -> Iterator[str]:
        """Yield the answer's text as it arrives; `last_usage` is set when it ends."""
        api = self.api or ANTHROPIC
        started = time.perf_counter()
        usage = Usage(estimated=True)  # until the server reports its own figures
        self.last_usage = usage
        body = self._body(api, system, messages, max_tokens, temperature)
        with self._stream_request(api, body) as response:
            if response.status_code in (404, 405) and self.api is None:
                # No /v1/messages here (llama-cpp-python, older llama.cpp): the OpenAI wire.
                self._remember(OPENAI)
            else:
                self._raise_for_status(response)
                if self.api is None:
                    self._remember(api)
                prompt_chars = len(system or "") + sum(len(_plain_text(m["content"])) for m in messages)
                try:
                    yield from self._read(api, response, usage, started, prompt_chars)
                except _EmptyStream as exc:
                    raise self._refusal(api, body) or ModelError(str(exc)) from None
                return
        yield from self.stream(system, messages, max_tokens, temperature)

    def _read(
        self, api: str, response: httpx.Response, usage: Usage, started: float, prompt_chars: int
    ) -> Iterator[str]:
        parse = _anthropic_chunks if api == ANTHROPIC else _openai_chunks
        chunks = 0
        try:
            for text in parse(_sse_events(response), usage, self.base_url):
                if text:
                    if usage.first_token_seconds is None:
                        usage.first_token_seconds = time.perf_counter() - started
                    chunks += 1
                    yield text
        except httpx.TimeoutException:
            raise ModelError(
                f"the model at {self.base_url} went silent for {self.timeout.read:.0f}s mid-answer; "
                "try again, or use a smaller model"
            ) from None
        except httpx.TransportError as exc:
            raise ModelError(
                f"the model at {self.base_url} cut its answer short ({exc.__class__.__name__}); try again"
            ) from None
        if usage.estimated:
            # No usage from the server (llama-cpp-python): engines stream about one token
            # per chunk, and a prompt is about four characters a token. Marked as estimated.
            usage.output_tokens = usage.output_tokens or chunks
            usage.input_tokens = usage.input_tokens or prompt_chars // 4
        usage.seconds = time.perf_counter() - started

    def complete(
        self, system: str | None, messages: list[dict], max_tokens: int = 4096, temperature: float | None = None
    ) -> tuple[str, Usage]:
        """The whole answer at once: (text, usage). Streams underneath so timeouts stay per chunk."""
        text = "".join(self.stream(system, messages, max_tokens, temperature))
        return text, self.last_usage

    def probe(self, method: str, path: str, body: dict | None = None) -> dict | None:
        """A JSON answer from one of the server's own routes (/props, /api/show), or None
        when the server has no such route or answers something else."""
        try:
            response = self._http.request(
                method, self.base_url + path, json=body, headers=self._headers(self.api or OPENAI)
            )
        except httpx.HTTPError as exc:
            raise self._transport_error(exc) from None
        if response.status_code != 200:
            return None
        try:
            data = response.json()
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def _refusal(self, api: str, body: dict) -> ContextExceeded | None:
        """Why a stream ended before its first event. llama-cpp-python refuses a prompt
        over its context that way, without a word; the same request unstreamed, for one
        token, gets its reason (the refusal comes before any generation)."""
        if api != OPENAI:
            return None
        try:  # on a new connection: the server may have dropped the pooled one with the stream
            with httpx.Client(timeout=self.timeout) as fresh:
                response = fresh.post(
                    self.base_url + "/v1/chat/completions",
                    json={**{k: v for k, v in body.items() if k != "stream_options"}, "stream": False, "max_tokens": 1},
                    headers=self._headers(api),
                )
        except httpx.HTTPError:
            return None
        return context_refusal(self.base_url, _error_message(response)) if response.status_code != 200 else None

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ModelClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ── wire details ──
    def _remember(self, api: str) -> None:
        self.api = api
        with _detected_lock:
            _detected[self.base_url] = api

    def _headers(self, api: str) -> dict:
        headers = {"content-type": "application/json"}
        if api == ANTHROPIC:
            headers["anthropic-version"] = ANTHROPIC_VERSION
            if self.api_key:
                headers["x-api-key"] = self.api_key
        elif self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        if self.auth_token:
            headers["authorization"] = f"Bearer {self.auth_token}"
        return headers

    def _body(self, api, system, messages, max_tokens, temperature) -> dict:
        body: dict = {"model": self.model, "max_tokens": max_tokens, "stream": True}
        if temperature is not None:
            body["temperature"] = temperature
        if api == ANTHROPIC:
            body["messages"] = [{"role": m["role"], "content": m["content"]} for m in messages]
            if system:
                body["system"] = system
        else:
            body["messages"] = ([{"role": "system", "content": system}] if system else []) + [
                {"role": m["role"], "content": _plain_text(m["content"])} for m in messages
            ]
            body["stream_options"] = {"include_usage": True}
        return body

    def _stream_request(self, api: str, body: dict) -> _OpenedStream:
        path = "/v1/messages" if api == ANTHROPIC else "/v1/chat/completions"
        return _OpenedStream(
            self._http.stream("POST", self.base_url + path, json=body, headers=self._headers(api)), self
        )

    def _send(self, method: str, path: str) -> httpx.Response:
        try:
            return self._http.request(method, self.base_url + path, headers=self._headers(self.api or OPENAI))
        except httpx.HTTPError as exc:
            raise self._transport_error(exc) from None

    def _transport_error(self, exc: Exception) -> ModelFailure:
        if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout)):
            return ModelUnreachable(f"no {self.name} server at {self.base_url}; {self.hint}")
        if isinstance(exc, httpx.TimeoutException):
            return ModelError(
                f"the model at {self.base_url} did not answer within {self.timeout.read:.0f}s; "
                "try again, or use a smaller model"
            )
        return ModelError(f"talking to the model at {self.base_url} failed: {exc.__class__.__name__}: {exc}")

    def _raise_for_status(self, response: httpx.Response) -> None:
        if response.status_code == 200:
            return
        response.read()
        message = _error_message(response)
        refused = context_refusal(self.base_url, message) if response.status_code in (400, 413, 422) else None
        if refused:
            raise refused
        if response.status_code in (401, 403):
            raise ModelUnreachable(
                f"the model server at {self.base_url} refused the request (HTTP "
                f"{response.status_code}: {message}); check its API key"
            )
        raise ModelError(f"the model at {self.base_url} answered HTTP {response.status_code}: {message}")


class _OpenedStream:
    """Wraps httpx's stream context so connection errors become macaron's errors."""

    def __init__(self, cm, client: ModelClient):
        self._cm, self._client = cm, client

    def __enter__(self) -> httpx.Response:
        try:
            return self._cm.__enter__()
        except httpx.HTTPError as exc:
            raise self._client._transport_error(exc) from None

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


def _plain_text(content) -> str:
    """OpenAI servers want a string; Anthropic-style block lists become their text."""
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")


def _error_message(response: httpx.Response) -> str:
    try:
        data = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return response.text[:200].strip() or response.reason_phrase
    error = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(error, dict):
        return str(error.get("message") or error.get("detail") or error)[:300]
    return str(error)[:300]


def _sse_events(response: httpx.Response) -> Iterator[tuple[str | None, str]]:
    """(event name, data) pairs of a server-sent event stream."""
    name: str | None = None
    data: list[str] = []
    for line in response.iter_lines():
        if not line:
            if data:
                yield name, "\n".join(data)
            name, data = None, []
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" "))
        elif line.startswith("event:"):
            name = line[6:].strip()
    if data:
        yield name, "\n".join(data)


def _anthropic_chunks(events, usage: Usage, base_url: str) -> Iterator[str]:
    finished = False
    for _, data in events:
        event = json.loads(data)
        kind = event.get("type")
        if kind == "content_block_delta":
            delta = event.get("delta", {})
            if delta.get("type") == "text_delta":
                yield delta.get("text", "")
        elif kind == "message_start":
            u = event.get("message", {}).get("usage", {})
            if u:
                usage.estimated = False
            usage.input_tokens = (
                u.get("input_tokens", 0) + u.get("cache_read_input_tokens", 0) + u.get("cache_creation_input_tokens", 0)
            )
        elif kind == "message_delta":
            usage.output_tokens = event.get("usage", {}).get("output_tokens", usage.output_tokens)
            usage.stop = (event.get("delta") or {}).get("stop_reason") or usage.stop
        elif kind == "message_stop":
            finished = True
        elif kind == "error":
            _raise_stream_error(base_url, event.get("error", event))
    if not finished:
        raise ModelError("the model's answer was cut short (no message_stop); try again")


def _openai_chunks(events, usage: Usage, base_url: str) -> Iterator[str]:
    finished, seen = False, 0
    for _, data in events:
        seen += 1
        if data.strip() == "[DONE]":
            finished = True
            break
        event = json.loads(data)
        if "error" in event:
            _raise_stream_error(base_url, event["error"])
        for choice in event.get("choices") or []:
            text = (choice.get("delta") or {}).get("content")
            if text:
                yield text
            if choice.get("finish_reason"):
                finished, usage.stop = True, choice["finish_reason"]
        if event.get("usage"):
            usage.input_tokens = event["usage"].get("prompt_tokens", 0)
            usage.output_tokens = event["usage"].get("completion_tokens", 0)
            usage.estimated = False
    if not seen:
        raise _EmptyStream("the model server closed its answer before sending anything; try again")
    if not finished:
        raise ModelError("the model's answer was cut short (no finish); try again")


class _EmptyStream(ModelError):
    """A stream that ended before its first event (see ModelClient._refusal)."""


def _raise_stream_error(base_url: str, error) -> None:
    """An error event inside a stream: a context refusal says so, anything else as the server put it."""
    raise context_refusal(base_url, error) or ModelError(f"the model stopped with an error: {_error_text(error)}")


def _error_text(error) -> str:
    return error.get("message", str(error)) if isinstance(error, dict) else str(error)
