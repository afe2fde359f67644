"""A local server that speaks the models' wire protocols, standing in for the model.

The model is the only stand-in in macaron's tests: everything else (the Agent SDK and
its bundled CLI, the anthropic SDK, macaron's own clients) talks to this server over
real HTTP exactly as it would to the real API. It speaks:

- Anthropic Messages: POST /v1/messages (JSON or SSE stream), /v1/messages/count_tokens
- OpenAI chat:        POST /v1/chat/completions (JSON or SSE stream), GET /v1/models

A `responder(request) -> Reply` decides each answer; every request is recorded in
`server.requests` so tests can assert on what reached "the model" (privacy tests
search these bytes). Bench scripts import it too.

A make first asks the model for the app's spec (macaron_cli/maker/model_spec.py): that
request is answered by `spec` (default: an answer with no spec, so the rules write it as
before) and recorded in `server.spec_requests`, so the scripted conversation that writes
the app keeps its order and counts; `all_bytes()` holds both.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Text:
    text: str


@dataclass
class ToolUse:
    name: str
    input: dict
    id: str = field(default_factory=lambda: "toolu_" + uuid.uuid4().hex[:20])


@dataclass
class Reply:
    """One model answer: content blocks, or an HTTP error, or a stream cut short."""

    blocks: list = field(default_factory=list)
    stop_reason: str | None = None  # default: tool_use if any ToolUse, else end_turn
    input_tokens: int = 100
    output_tokens: int = 50
    status: int = 200
    error_type: str = "api_error"
    error_message: str = "scripted error"
    cut_after_events: int | None = None  # close the SSE stream after this many events
    chunk_delay: float = 0.0  # seconds between streamed text chunks
    usage: bool = True  # False: an OpenAI server that reports no usage (llama-cpp-python)
    stream_error: dict | None = None  # an error event after the text, then the stream ends
    silent_refusal: bool = False  # a streamed request ends before any event (llama-cpp-python)

    @classmethod
    def text(cls, text: str, **kw) -> Reply:
        return cls([Text(text)], **kw)

    @classmethod
    def tool(cls, name: str, input: dict, text: str | None = None, **kw) -> Reply:
        return cls(([Text(text)] if text else []) + [ToolUse(name, input)], **kw)

    @classmethod
    def error(cls, status: int = 529, error_type: str = "overloaded_error", message: str = "Overloaded") -> Reply:
        return cls(status=status, error_type=error_type, error_message=message)

    @classmethod
    def context_refusal(cls, context: int, prompt_tokens: int, max_tokens: int = 0) -> Reply:
        """llama-cpp-python refusing a prompt over its context: a streamed request gets an
        empty stream, the same request unstreamed its HTTP 400 with the sizes."""
        message = (
            f"This model's maximum context length is {context} tokens. However, you requested "
            f"{prompt_tokens + max_tokens} tokens ({prompt_tokens} in the messages, {max_tokens} in the "
            "completion). Please reduce the length of the messages or completion."
        )
        return cls(status=400, error_type="invalid_request_error", error_message=message, silent_refusal=True)


@dataclass
class Request:
    api: str  # "anthropic" | "openai"
    path: str
    headers: dict
    body: dict

    @property
    def raw(self) -> str:
        return json.dumps(self.body, ensure_ascii=False)

    @property
    def system(self) -> str:
        system = self.body.get("system", "")
        if isinstance(system, list):
            return "\n".join(b.get("text", "") for b in system if isinstance(b, dict))
        return system or ""

    @property
    def messages(self) -> list:
        return self.body.get("messages", [])

    def assistant_turns(self) -> int:
        return sum(1 for m in self.messages if m.get("role") == "assistant")

    def last_user_text(self) -> str:
        for m in reversed(self.messages):
            if m.get("role") == "user":
                return _content_text(m.get("content"))
        return ""

    def tool_results(self) -> list[str]:
        out = []
        for m in self.messages:
            content = m.get("content")
            if isinstance(content, list):
                for b in content:
                    if isinstance(b, dict) and b.get("type") == "tool_result":
                        out.append(_content_text(b.get("content")))
            if m.get("role") == "tool":
                out.append(_content_text(m.get("content")))
        return out

    def tool_names(self) -> list[str]:
        tools = self.body.get("tools") or []
        return [t.get("name") or t.get("function", {}).get("name") for t in tools]


def is_spec_request(req: Request) -> bool:
    """Make's request for the app's spec (model_spec.py), told by its system prompt."""
    from macaron_cli.maker.model_spec import SPEC_MARK

    first = req.messages[0] if req.messages else {}
    system = req.system or (_content_text(first.get("content")) if first.get("role") == "system" else "")
    return system.startswith(SPEC_MARK)


def _content_text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b.get("text", "") if b.get("type") == "text" else _content_text(b.get("content"))
            for b in content
            if isinstance(b, dict)
        )
    return ""


Responder = Callable[[Request], Reply]


class ModelServer:
    """Run with `with ModelServer(responder) as server:`; `server.url` is the base URL."""

    def __init__(
        self,
        responder: Responder | list[Reply] | None = None,
        model: str = "scripted-model",
        host: str = "127.0.0.1",
        *,
        model_card: dict | None = None,
        routes: dict[str, dict] | None = None,
        spec: Responder | None = None,
    ):
        if isinstance(responder, list):
            responder = sequence(responder)
        self.responder = responder or (lambda req: Reply.text("Hello from the scripted model."))
        self.model = model
        # What an engine says about itself: model_card joins the model's entry in /v1/models
        # (vLLM's max_model_len), routes answer GET or POST on other paths (llama.cpp's
        # /props, Ollama's /api/show) with JSON; any other route is a 404.
        self.model_card = model_card or {}
        self.routes = routes or {}
        self.requests: list[Request] = []
        self.spec = spec or (lambda req: Reply.text("{}"))
        self.spec_requests: list[Request] = []
        self._lock = threading.Lock()
        # host: another of this machine's addresses makes a draft-model server count as a
        # cloud endpoint (macaron_cli/privacy.py; Claude is the cloud even on loopback).
        self._httpd = ThreadingHTTPServer((host, 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> ModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def requests_to(self, api: str) -> list[Request]:
        return [r for r in self.requests if r.api == api]

    def all_bytes(self) -> str:
        """Everything the model received, for privacy assertions."""
        return "\n".join(r.raw for r in self.spec_requests + self.requests)

    def _record(self, req: Request) -> Reply:
        spec = is_spec_request(req)
        with self._lock:
            (self.spec_requests if spec else self.requests).append(req)
        return self.spec(req) if spec else self.responder(req)

    def _handler_class(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def do_HEAD(self):
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    card = {"id": server.model, "object": "model", "type": "model", **server.model_card}
                    self._json(200, {"object": "list", "data": [card]})
                elif self.path in server.routes:
                    self._json(200, server.routes[self.path])
                elif self.path in ("/props", "/api/show"):
                    self._json(404, {"detail": "Not Found"})
                else:
                    self._json(200, {"ok": True})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    return self._json(400, {"error": "bad json"})
                path = self.path.split("?")[0]
                if path in server.routes:
                    return self._json(200, server.routes[path])
                if path.startswith("/api/"):
                    return self._json(404, {"detail": "Not Found"})
                if path.endswith("/messages/count_tokens"):
                    return self._json(200, {"input_tokens": len(json.dumps(body)) // 4})
                api = "openai" if path.endswith("/chat/completions") else "anthropic"
                if not (path.endswith("/messages") or api == "openai"):
                    return self._json(404, {"error": f"no route {path}"})
                reply = server._record(Request(api, self.path, dict(self.headers), body))
                stream = bool(body.get("stream"))
                if reply.silent_refusal and stream:
                    return self._sse([], None)
                if reply.status != 200:
                    return self._error(api, reply)
                model = body.get("model", server.model)
                if api == "anthropic":
                    return (
                        self._anthropic_stream(reply, model)
                        if stream
                        else self._json(200, _anthropic_message(reply, model))
                    )
                return (
                    self._openai_stream(reply, model) if stream else self._json(200, _openai_completion(reply, model))
                )

            # ── plumbing ──
            def _json(self, status, obj):
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _error(self, api, reply):
                if api == "anthropic":
                    body = {"type": "error", "error": {"type": reply.error_type, "message": reply.error_message}}
                else:
                    body = {"error": {"type": reply.error_type, "message": reply.error_message}}
                self._json(reply.status, body)

            def _sse(self, events, cut_after):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                try:
                    for n, (name, data, delay) in enumerate(events):
                        if cut_after is not None and n >= cut_after:
                            return
                        if delay:
                            time.sleep(delay)
                        prefix = f"event: {name}\n" if name else ""
                        payload = data if isinstance(data, str) else json.dumps(data)
                        self.wfile.write(f"{prefix}data: {payload}\n\n".encode())
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _anthropic_stream(self, reply, model):
                self._sse(_anthropic_events(reply, model), reply.cut_after_events)

            def _openai_stream(self, reply, model):
                self._sse(_openai_events(reply, model), reply.cut_after_events)

        return Handler


def _stop_reason(reply: Reply) -> str:
    return reply.stop_reason or ("tool_use" if any(isinstance(b, ToolUse) for b in reply.blocks) else "end_turn")


def _anthropic_message(reply: Reply, model: str) -> dict:
    content = [
        {"type": "text", "text": b.text}
        if isinstance(b, Text)
        else {"type": "tool_use", "id": b.id, "name": b.name, "input": b.input}
        for b in reply.blocks
    ]
    return {
        "id": "msg_" + uuid.uuid4().hex[:20],
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": _stop_reason(reply),
        "stop_sequence": None,
        "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
    }


def _chunks(text: str, size: int = 24):
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _anthropic_events(reply: Reply, model: str):
    msg = _anthropic_message(reply, model)
    start = {
        **msg,
        "content": [],
        "stop_reason": None,
        "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
    }
    yield "message_start", {"type": "message_start", "message": start}, 0
    for i, b in enumerate(reply.blocks):
        if isinstance(b, Text):
            yield (
                "content_block_start",
                {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
                0,
            )
            for piece in _chunks(b.text):
                yield (
                    "content_block_delta",
                    {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": piece}},
                    reply.chunk_delay,
                )
        else:
            yield (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": i,
                    "content_block": {"type": "tool_use", "id": b.id, "name": b.name, "input": {}},
                },
                0,
            )
            for piece in _chunks(json.dumps(b.input), 64):
                yield (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": i,
                        "delta": {"type": "input_json_delta", "partial_json": piece},
                    },
                    0,
                )
        yield "content_block_stop", {"type": "content_block_stop", "index": i}, 0
    if reply.stream_error:
        yield "error", {"type": "error", "error": reply.stream_error}, 0
        return
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": _stop_reason(reply), "stop_sequence": None},
            "usage": {"output_tokens": reply.output_tokens},
        },
        0,
    )
    yield "message_stop", {"type": "message_stop"}, 0


def _openai_completion(reply: Reply, model: str) -> dict:
    text = "".join(b.text for b in reply.blocks if isinstance(b, Text))
    calls = [
        {"id": b.id, "type": "function", "function": {"name": b.name, "arguments": json.dumps(b.input)}}
        for b in reply.blocks
        if isinstance(b, ToolUse)
    ]
    message = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = calls
    return {
        "id": "chatcmpl-" + uuid.uuid4().hex[:20],
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        **(
            {
                "usage": {
                    "prompt_tokens": reply.input_tokens,
                    "completion_tokens": reply.output_tokens,
                    "total_tokens": reply.input_tokens + reply.output_tokens,
                }
            }
            if reply.usage
            else {}
        ),
    }


def _openai_events(reply: Reply, model: str):
    cid, created = "chatcmpl-" + uuid.uuid4().hex[:20], int(time.time())

    def chunk(delta, finish=None, usage=None):
        c = {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        if usage:
            c["usage"] = usage
        return c

    yield None, chunk({"role": "assistant", "content": ""}), 0
    calls = 0
    for b in reply.blocks:
        if isinstance(b, Text):
            for piece in _chunks(b.text):
                yield None, chunk({"content": piece}), reply.chunk_delay
        else:
            yield (
                None,
                chunk(
                    {
                        "tool_calls": [
                            {
                                "index": calls,
                                "id": b.id,
                                "type": "function",
                                "function": {"name": b.name, "arguments": json.dumps(b.input)},
                            }
                        ]
                    }
                ),
                0,
            )
            calls += 1
    if reply.stream_error:
        yield None, {"error": reply.stream_error}, 0
        return
    usage = {
        "prompt_tokens": reply.input_tokens,
        "completion_tokens": reply.output_tokens,
        "total_tokens": reply.input_tokens + reply.output_tokens,
    }
    finish = "tool_calls" if calls else "length" if reply.stop_reason == "max_tokens" else "stop"
    yield None, chunk({}, finish, usage if reply.usage else None), 0
    yield None, "[DONE]", 0


def sequence(replies: list[Reply]) -> Responder:
    """Answer with the replies in order (the last one repeats)."""
    counter = itertools.count()
    lock = threading.Lock()

    def responder(req: Request) -> Reply:
        with lock:
            n = next(counter)
        return replies[min(n, len(replies) - 1)]

    return responder
