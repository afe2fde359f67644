"""What the server logs while it serves: one line a problem on stderr, never in its way.

The `mcp` package and uvicorn log through Python's logging (Rich tracebacks, written by the
thread that serves). Here every record goes through a bounded queue to a thread of its own:
a reader of stderr that is slow (or never reads) loses lines, never stalls a request. A
client that hangs up (a closed stream, a reset connection) is the ordinary end of a
connection, not logged at all; another error is one line, its exception's name and message.
"""

from __future__ import annotations

import logging
import queue
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from logging.handlers import QueueHandler, QueueListener

import anyio

QUEUE_SIZE = 1000
LEVEL = logging.WARNING
# The loggers that set up handlers of their own, which would write on the serving thread.
_OWN_HANDLERS = ("uvicorn", "uvicorn.error", "uvicorn.access")
_HANGUPS = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, ConnectionError)


def hangup(error: BaseException | None) -> bool:
    """Is `error` a client going away (every part of it, for a group of errors)?"""
    if isinstance(error, BaseExceptionGroup):
        return all(hangup(e) for e in error.exceptions)
    return isinstance(error, _HANGUPS)


class _Hangups(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and hangup(record.exc_info[1]))


class _Dropping(QueueHandler):
    """Queues a record, or drops it when the queue is full (a reader that does not keep up)."""

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            pass


class _OneLine(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = f"macaron memory serve: {record.levelname.lower()}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line += f" ({type(error).__name__}: {error})" if str(error) else f" ({type(error).__name__})"
        return " ".join(line.split())


@contextmanager
def kept_off_the_wire() -> Iterator[None]:
    """Route every logger through the queue while the server runs; flush what is left after."""
    lines: queue.Queue = queue.Queue(QUEUE_SIZE)
    handler = _Dropping(lines)
    handler.addFilter(_Hangups())
    handler.setFormatter(_OneLine())  # the record is formatted here: its traceback never travels
    out = logging.StreamHandler(sys.stderr)
    out.setFormatter(logging.Formatter("%(message)s"))
    listener = QueueListener(lines, out)
    root = logging.getLogger()
    kept = root.handlers[:], root.level
    root.handlers, root.level = [handler], LEVEL
    for name in _OWN_HANDLERS:
        logger = logging.getLogger(name)
        logger.handlers, logger.propagate = [], True
    listener.start()
    try:
        yield
    finally:
        listener.stop()
        root.handlers, root.level = kept
