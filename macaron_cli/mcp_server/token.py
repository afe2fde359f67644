"""The bearer token that guards `macaron memory serve --http`.

Listening on 127.0.0.1 keeps other machines out but not other programs on this one (or a
web page that finds the port): every request must carry `Authorization: Bearer TOKEN`.
The token is made once, kept in $MACARON_HOME/mcp-token readable by the person alone, and
shown by `macaron memory serve --show-token`.
"""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.files import write_atomic

TOKEN_FILE = "mcp-token"


def token_path() -> Path:
    return config.home() / TOKEN_FILE


def load_or_create() -> str:
    """The token, made (0600) the first time it is asked for."""
    path = token_path()
    if not path.exists():
        config.ensure_private_dir(path.parent)
        try:
            write_atomic(path, secrets.token_urlsafe(32) + "\n", overwrite=False)
        except UserError:
            if not path.exists():  # not another `serve` that made it at the same moment
                raise
    token = path.read_text(encoding="utf-8").strip()
    if len(token) < 16:
        raise UserError(f"{path} holds no usable token; delete it and run `macaron memory serve --http` again.")
    return token


class BearerToken:
    """ASGI middleware: a request without the token is answered 401 and goes no further."""

    def __init__(self, app, token: str):
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                await _refuse(send)
                return
        await self.app(scope, receive, send)


async def _refuse(send) -> None:
    body = b'{"error": "missing or wrong bearer token; see `macaron memory serve --show-token`"}'
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"www-authenticate", b'Bearer realm="macaron"'),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
