"""`macaron memory serve [--http] [--port N] [--show-token]`, called by cli.py."""

from __future__ import annotations

import socket
import sys

from macaron_cli.errors import UserError
from macaron_cli.output import Out

HOST = "127.0.0.1"
PATH = "/mcp"


def serve(http: bool, port: int, show_token: bool) -> None:
    from macaron_cli.mcp_server import token

    if show_token:
        Out().text(token.load_or_create())
        return
    from macaron_cli import config
    from macaron_cli.mcp_server.access import MemoryAccess

    access = MemoryAccess(config.load_settings)  # a bad [mcp] table is refused before serving
    if http:
        listening = _bind(port)
        secret = token.load_or_create()
        _serve_http(access, listening, secret)
    else:
        import anyio

        from macaron_cli.mcp_server import logs, stdio
        from macaron_cli.mcp_server.server import build

        server = build(access)
        with logs.kept_off_the_wire():
            anyio.run(stdio.serve, server)


def _bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise UserError(f"cannot listen on {HOST}:{port} ({exc.strerror}); choose another --port.") from None
    return sock


def _serve_http(access, listening: socket.socket, secret: str) -> None:
    import anyio
    import uvicorn

    from macaron_cli.mcp_server import logs
    from macaron_cli.mcp_server.body_limit import BodyLimit
    from macaron_cli.mcp_server.server import build
    from macaron_cli.mcp_server.token import BearerToken, token_path

    port = listening.getsockname()[1]
    app = build(access, host=HOST, port=port, streamable_http_path=PATH).streamable_http_app()
    # uvicorn's own log setup is skipped: logs.py sets up every logger the server has.
    guarded = BearerToken(BodyLimit(app), secret)
    config = uvicorn.Config(guarded, log_level="warning", lifespan="on", log_config=None)
    server = uvicorn.Server(config)
    # On stderr, so a script (or a test) reads the address as soon as it is listening.
    Out(stderr=True).line(
        "macaron memory: MCP over streamable HTTP at http://{}:{}{}\n"
        "Each request needs the header  Authorization: Bearer TOKEN\n"
        "TOKEN: `macaron memory serve --show-token` prints it (kept in {})\n"
        "Ctrl-C stops.",
        HOST,
        port,
        PATH,
        token_path(),
    )
    sys.stderr.flush()
    with logs.kept_off_the_wire():
        anyio.run(lambda: server.serve(sockets=[listening]))
