"""The MCP wire: tools and the profile resource, each a thin call into `access`.

Built on the `mcp` package's FastMCP, its way: what the tools share (the MemoryAccess, with
its store and ledger) is the server's lifespan state, read from each call's context; each
tool says what it does to the memory in its annotations (read-only, idempotent,
destructive), which clients show the person before they allow a call; arguments are typed
(a privacy level is one of the gate's LEVELS), so the input schema a client reads says
every cap and choice, and FastMCP refuses a bad argument as an MCP error result without
stopping the server. Store work runs on a worker thread: the protocol (pings, a second
client over HTTP) is never blocked by a search.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from macaron_cli.errors import UserError
from macaron_cli.mcp_server.access import MAX_K, MAX_QUERY, MAX_TEXT, MemoryAccess, client_name
from macaron_cli.memory.records import MAX_NAME
from macaron_cli.privacy import LEVELS, MEANING, Level

INSTRUCTIONS = (
    "The person's own memory, kept by macaron on their machine: facts, preferences and "
    "episodes in any language. Search it before asking the person something they may have "
    "said before; add what they ask you to remember. Private memories reach you only if the "
    "person declared this client local or trusted; secret ones never."
)
PROFILE_URI = "macaron://profile"
# What each tool does to the memory, for the client to show (all of it on this machine: no
# tool reaches the open world). `add` is idempotent: the same text again returns the memory
# already there; `forget` destroys, and forgetting a forgotten id changes nothing more.
READS = ToolAnnotations(readOnlyHint=True, openWorldHint=False)
ADDS = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False)
FORGETS = ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True, openWorldHint=False)
PRIVACY_CHOICES = "; ".join(f"{level}: {MEANING[level]}" for level in LEVELS)


@dataclass(frozen=True)
class Serving:
    """The lifespan's state: what every call reads from its context."""

    access: MemoryAccess


def lifespan(access: MemoryAccess) -> Callable[[FastMCP], Any]:
    """The server's lifespan over `access`: serving starts loading the store and the
    embedding model in the background (MemoryAccess.warm), so the client's first questions
    are answered at once and its first search finds them ready. Over HTTP each session
    enters it; they share the one access (and store) of the process."""

    @asynccontextmanager
    async def serving(_server: FastMCP) -> AsyncIterator[Serving]:
        access.warm()
        yield Serving(access)

    return serving


class _Server(FastMCP):
    """FastMCP whose refused calls are one line and in the ledger (with the names of the
    arguments the client sent): a tool's own refusal (`answer`), an argument the input
    schema refuses, an unknown tool. The last two never reach a tool, and mcp 1.x has no
    hook for them but this method (2.x's is a middleware, provisional)."""

    async def call_tool(self, name, arguments):
        result: Any
        try:
            result = await super().call_tool(name, arguments)
        except ToolError as exc:
            cause = exc.__cause__
            result = refusal(f"{name}: {bad_arguments(cause)}" if isinstance(cause, ValidationError) else str(exc))
        if isinstance(result, CallToolResult) and result.isError:
            said = " ".join(block.text for block in result.content if isinstance(block, TextContent))
            ctx = self.get_context()
            await anyio.to_thread.run_sync(access_of(ctx).refused, client_of(ctx), name, sorted(arguments or {}), said)
        return result


def bad_arguments(error: ValidationError) -> str:
    """Pydantic's report as one line: each argument, what is wrong with it, the fix."""
    problems = [f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {_problem(e)}" for e in error.errors()]
    return "; ".join(problems) + " (the tool's input schema says what each argument takes)."


def _problem(error) -> str:
    if error["type"] == "literal_error":  # "'a', 'b' or 'c'": the choices, as a list
        return "one of " + error["ctx"]["expected"].replace("'", "").replace(" or ", ", ")
    return error["msg"].lower()


def access_of(ctx: Context) -> MemoryAccess:
    return ctx.request_context.lifespan_context.access


def refusal(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], isError=True)


async def answer(ctx: Context, tool: str, method: Callable[..., str], *arguments) -> CallToolResult:
    """`method` (a MemoryAccess tool) run on a worker thread for the calling client; its
    refusal (macaron's UserError: what is wrong; the fix) is an error result."""
    try:
        text = await anyio.to_thread.run_sync(method, client_of(ctx), *arguments)
    except UserError as exc:
        return refusal(f"{tool}: {exc}")
    return CallToolResult(content=[TextContent(type="text", text=text)])


def build(access: MemoryAccess, **settings) -> FastMCP:
    """The server; `settings` go to FastMCP (host, port, paths for HTTP)."""
    server = _Server("macaron", instructions=INSTRUCTIONS, log_level="WARNING", lifespan=lifespan(access), **settings)

    @server.tool(title="Search the person's memory", annotations=READS)
    async def search(
        ctx: Context,
        query: Annotated[str, Field(max_length=MAX_QUERY, description="what to look for, in any language")],
        k: Annotated[int, Field(ge=1, le=MAX_K, description="how many memories at most")] = 5,
    ) -> CallToolResult:
        """Search what the person told macaron (facts, preferences, episodes) by meaning and
        words, in any language. One memory per line, best first: what is true now (an older
        fact a newer one replaced is left out, and a last line says so); a memory only near in
        meaning, sharing no word, is marked ≈ and comes after the matches."""
        return await answer(ctx, "search", access_of(ctx).search, query, k)

    @server.tool(title="Remember something", annotations=ADDS)
    async def add(
        ctx: Context,
        text: Annotated[
            str, Field(max_length=MAX_TEXT, description="the memory, one fact or preference in the person's words")
        ],
        domain: Annotated[
            str | None, Field(max_length=MAX_NAME, description="e.g. food, health, work, family, hobby")
        ] = None,
        privacy: Annotated[
            Level | None, Field(description=f"who may read it (default personal): {PRIVACY_CHOICES}")
        ] = None,
    ) -> CallToolResult:
        """Remember something the person asked you to remember. Secrets (keys, passwords,
        card numbers) are redacted before it is stored; the same text again returns the
        memory already there."""
        return await answer(ctx, "add", access_of(ctx).add, text, domain, privacy)

    @server.tool(title="The newest memories", annotations=READS)
    async def recent(
        ctx: Context,
        n: Annotated[int, Field(ge=1, le=MAX_K, description="how many")] = 10,
    ) -> CallToolResult:
        """The newest memories, newest first."""
        return await answer(ctx, "recent", access_of(ctx).recent, n)

    if access.allow_forget:

        @server.tool(title="Forget a memory for good", annotations=FORGETS)
        async def forget(
            ctx: Context,
            id: Annotated[str, Field(max_length=MAX_NAME, description="the memory's id, e.g. m_0123456789ab")],
        ) -> CallToolResult:
            """Forget a memory for good, when the person asks you to (older versions too)."""
            return await answer(ctx, "forget", access_of(ctx).forget, id)

    @server.resource(PROFILE_URI, name="profile", mime_type="text/plain")
    async def profile() -> str:
        """Who the person is, in short: their name, languages and preferences."""
        ctx = server.get_context()  # a resource without parameters is given no context in mcp 1.x
        try:
            return await anyio.to_thread.run_sync(access_of(ctx).profile, client_of(ctx))
        except UserError as exc:
            raise ValueError(str(exc)) from None

    return server


def client_of(ctx: Context | None) -> str:
    """The name the client gave in its MCP initialize (clientInfo.name)."""
    try:
        params = ctx.session.client_params if ctx else None
    except (AttributeError, ValueError):  # outside a request
        params = None
    return client_name(params.clientInfo.name if params else None)
