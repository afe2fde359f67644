"""127.0.0.1:PORT on this machine, forwarded to an app's unix socket inside its sandbox.

An app served with no network of its own (`macaron run` in bubblewrap) listens on a unix
socket in a folder bound into its sandbox; the person's browser still opens
http://127.0.0.1:PORT/, and this forwarder carries each connection both ways, byte for byte.
It runs in a thread of macaron's own, so nothing but the socket crosses the wall.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path

from macaron_cli.errors import UserError

_CHUNK = 1 << 16


class Forwarder:
    """Listens on 127.0.0.1:`port` and connects each client to the unix socket `target`."""

    def __init__(self, port: int, target: Path):
        self.port, self.target = port, target
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        started = threading.Event()
        failure: list[OSError] = []
        self._thread = threading.Thread(target=self._serve, args=(started, failure), daemon=True)
        self._thread.start()
        started.wait()
        if failure:
            self._thread.join()
            raise UserError(f"port {port} on 127.0.0.1 cannot be opened ({failure[0].strerror}); pick another --port.")

    def _serve(self, started: threading.Event, failure: list[OSError]) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._server = self._loop.run_until_complete(asyncio.start_server(self._client, "127.0.0.1", self.port))
        except OSError as exc:
            failure.append(exc)
            started.set()
            self._loop.close()
            return
        started.set()
        self._loop.run_forever()
        self._server.close()
        # Connections still open end here, each side closed: an app left holding a half-open
        # socket would wait for it before it stops.
        pending = asyncio.all_tasks(self._loop)
        for task in pending:
            task.cancel()
        self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self._loop.run_until_complete(self._server.wait_closed())
        self._loop.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            app_reader, app_writer = await asyncio.open_unix_connection(str(self.target))
        except OSError:  # the app is not listening (yet): the client sees a closed connection
            writer.close()
            return
        try:
            await asyncio.gather(_pipe(reader, app_writer), _pipe(app_reader, writer))
        finally:
            for w in (app_writer, writer):
                w.close()

    def close(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until the reader ends, then end the writer's side (the other way may go on)."""
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(_CHUNK):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
