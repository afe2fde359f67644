"""A cap on what one HTTP request may send `macaron memory serve --http`: the same as one
stdio message (stdio.MAX_LINE). A larger body is answered 413 before it is read whole, so a
client (or a page that found the port) cannot make the server hold gigabytes."""

from __future__ import annotations

from macaron_cli.mcp_server.stdio import MAX_LINE


class BodyLimit:
    """ASGI middleware: a request body over `limit` bytes gets 413 and goes no further."""

    def __init__(self, app, limit: int = MAX_LINE):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            if not declared.isdigit() or int(declared) > self.limit:
                await _too_large(send, self.limit)
                return
            await self.app(scope, receive, send)
            return
        # No length said (chunked): read it here, counting, and hand the app what came.
        messages, seen = [], 0
        while True:
            message = await receive()
            messages.append(message)
            seen += len(message.get("body", b""))
            if seen > self.limit:
                await _too_large(send, self.limit)
                return
            if message["type"] != "http.request" or not message.get("more_body"):
                break

        async def replay():
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


async def _too_large(send, limit: int) -> None:
    body = f'{{"error": "a request body may be at most {limit} bytes"}}'.encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})
