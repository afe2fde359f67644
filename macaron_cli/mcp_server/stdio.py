"""The stdio transport: one JSON-RPC message a line, each read in full before the protocol sees it.

The `mcp` package's own transport hands a line it cannot read to the session, which logs it
and answers nothing: the client waits forever for its answer (a lone surrogate escape, a
100k-deep nesting, bytes that are not UTF-8), and a closed stdin after garbage ended in a
traceback. Here a request that cannot be read is answered with a JSON-RPC error under its
own id (found by a shallow scan of the line), a line with no id to answer is dropped, a
line over MAX_LINE is refused without being kept, and end of input ends the server quietly.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import BinaryIO

import anyio
from mcp import types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

# A request is small: a search's query is capped far below this (access.MAX_QUERY).
MAX_LINE = 4 * 2**20
# The top-level id of a request that cannot be read whole is looked for in its first bytes
# (clients write it before the params).
ID_SCAN = 64 * 1024
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_ID = re.compile(r'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,256}")')


def read_line(stream: BinaryIO) -> bytes | None:
    """The next line (without its end), at most MAX_LINE + 1 bytes of it kept; None at the end."""
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) > MAX_LINE and not line.endswith(b"\n"):
        while (rest := stream.readline(MAX_LINE)) and not rest.endswith(b"\n"):
            pass  # the rest of a line too long to read: dropped, never held whole
    return line.rstrip(b"\r\n")


def screen(line: bytes) -> tuple[types.JSONRPCMessage | None, types.JSONRPCMessage | None]:
    """The message on `line`, or the error that answers it (None, None: nothing to answer)."""
    if not line.strip():
        return None, None
    if len(line) > MAX_LINE:
        return None, _error(line, types.INVALID_REQUEST, f"the request is over {MAX_LINE // 2**20} MiB")
    try:
        data = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        return None, _error(line, types.PARSE_ERROR, "the request is not UTF-8 text")
    except RecursionError:
        return None, _error(line, types.INVALID_REQUEST, "the request nests too deep")
    except ValueError:
        return None, _error(line, types.PARSE_ERROR, "the request is not JSON")
    if not _all_text(data):
        return None, _error(line, types.INVALID_REQUEST, "a string holds a lone surrogate escape (\\ud800…), not text")
    try:
        return types.JSONRPCMessage.model_validate(data), None
    except (ValidationError, RecursionError):
        return None, _error(line, types.INVALID_REQUEST, "not a JSON-RPC 2.0 request")


def _all_text(value) -> bool:
    """No string in `value` (keys included) holds a lone surrogate: all of it is Unicode text."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            stack += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            stack += item
    return True


def _error(line: bytes, code: int, message: str) -> types.JSONRPCMessage | None:
    ident = request_id(line)
    if ident is None:  # a notification, or garbage: nobody waits for an answer
        return None
    error = types.ErrorData(code=code, message=message + "; send one JSON-RPC 2.0 message a line.")
    return types.JSONRPCMessage(types.JSONRPCError(jsonrpc="2.0", id=ident, error=error))


def request_id(line: bytes) -> int | str | None:
    """The top-level "id" of a line that could not be read whole, if its first bytes have one."""
    text = line[:ID_SCAN].decode("utf-8", "replace")
    depth, at = 0, 0
    while at < len(text):
        char = text[at]
        if char == '"':
            if depth == 1 and (found := _ID.match(text, at)):
                return _id_value(found.group(1))
            string = _STRING.match(text, at)
            if string is None:  # an unterminated string: the scan ends here
                return None
            at = string.end()
            continue
        depth += 1 if char in "{[" else -1 if char in "}]" else 0
        at += 1
    return None


def _id_value(token: str) -> int | str | None:
    if not token.startswith('"'):
        return int(token)
    try:
        value = json.loads(token)
        value.encode("utf-8")
    except (ValueError, UnicodeEncodeError):  # an id that is no text cannot be answered under it
        return None
    return value


@asynccontextmanager
async def transport(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> AsyncIterator[tuple]:
    """(read, write) streams for the server, over stdin and stdout as bytes."""
    source = stdin or sys.stdin.buffer
    sink = stdout or sys.stdout.buffer
    read_in, read_out = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_in, write_out = anyio.create_memory_object_stream[SessionMessage](0)
    answers = write_in.clone()  # the reader answers what it cannot read, beside the server

    async def reader() -> None:
        async with read_in, answers:
            while (line := await anyio.to_thread.run_sync(read_line, source, abandon_on_cancel=True)) is not None:
                message, error = screen(line)
                if message is not None:
                    await read_in.send(SessionMessage(message))
                elif error is not None:
                    await answers.send(SessionMessage(error))

    async def writer() -> None:
        async with write_out:
            async for sent in write_out:
                data = sent.message.model_dump_json(by_alias=True, exclude_none=True).encode("utf-8") + b"\n"
                await anyio.to_thread.run_sync(_write, sink, data)

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(reader)
        tasks.start_soon(writer)
        yield read_out, write_in


def _write(sink: BinaryIO, data: bytes) -> None:
    sink.write(data)
    sink.flush()


async def serve(server) -> None:
    """Run a FastMCP `server` over stdio until stdin ends (what its own run("stdio") does,
    over this transport)."""
    protocol = server._mcp_server  # the low-level server FastMCP wraps; FastMCP runs it the same way
    async with transport() as (read, write):
        await protocol.run(read, write, protocol.create_initialization_options())
