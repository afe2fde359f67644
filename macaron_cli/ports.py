"""A port the person named for a server on 127.0.0.1 (`macaron run`, `macaron draft serve`):
refused in one line, before anything starts, when it cannot be had."""

from __future__ import annotations

import socket

from macaron_cli.errors import UserError


def check_free(port: int, *, otherwise: str) -> None:
    """Refuse `port` unless it is a port and free on 127.0.0.1; `otherwise` says what the
    person can do instead."""
    if not 1 <= port <= 65535:
        raise UserError(f"--port {port} is not a port (1–65535); {otherwise}.")
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            raise UserError(f"port {port} on 127.0.0.1 is already in use; {otherwise}.") from None
