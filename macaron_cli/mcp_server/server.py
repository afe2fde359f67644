"""The MCP wire: tools and the profile resource, each a thin call into `access`.

Built on the `mcp` package's FastMCP: it validates arguments against each tool's signature
and answers a bad one (or anything a tool raises) as an MCP error result, so a client's
mistake never stops the server. Store work runs on a worker thread: the protocol (pings,
a second client over HTTP) is never blocked by a search.
"""

from __future__ import annotations

import threading
from typing import Annotated

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from pydantic import Field, ValidationError

from macaron_cli.errors import UserError
from macaron_cli.mcp_server.access import MAX_K, MAX_QUERY, MAX_TEXT, MemoryAccess, client_name
from macaron_cli.memory.records import MAX_NAME

INSTRUCTIONS = (
    "The person's own memory, kept by macaron on their machine: facts, preferences and "
    "episodes in any language. Search it before asking the person something they may have "
    "said before; add what they ask you to remember. Private memories reach you only if the "
    "person declared this client local or trusted; secret ones never."
)
PROFILE_URI = "macaron://profile"


class _Server(FastMCP):
    """FastMCP that says when it has listed its tools (a client's last question before it
    starts working, so the time to load the store in the background), answers a refused
    call in one line, and has the ledger record it."""

    listed: threading.Event
    access: MemoryAccess

    async def list_tools(self):
        tools = await super().list_tools()
        self.listed.set()
        return tools

    async def call_tool(self, name, arguments):
        try:
            return await super().call_tool(name, arguments)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):  # a bad argument: one line naming it
                message = f"{name}: {bad_arguments(cause)}"
            elif isinstance(cause, ToolError):  # macaron's own refusal (what is wrong; the fix)
                message = f"{name}: {cause}"
            else:
                message = str(exc)
            client = client_of(self.get_context())
            await anyio.to_thread.run_sync(self.access.refused, client, name, sorted(arguments or {}), message)
            raise ToolError(message) from None


def bad_arguments(error: ValidationError) -> str:
    """Pydantic's report as one line: each argument, what is wrong with it, the fix."""
    problems = [f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg'].lower()}" for e in error.errors()]
    return "; ".join(problems) + " (the tool's input schema says what each argument takes)."


def build(access: MemoryAccess, **settings) -> _Server:
    """The server; `settings` go to FastMCP (host, port, paths for HTTP). The store warms up
    once the tools are listed (see MemoryAccess.warm)."""
    server = _Server("macaron", instructions=INSTRUCTIONS, log_level="WARNING", **settings)
    server.listed = threading.Event()
    server.access = access
    access.warm(server.listed)

    async def answer(ctx: Context | None, method, *args):
        client = client_of(ctx)
        try:
            return await anyio.to_thread.run_sync(method, client, *args)
        except UserError as exc:
            raise ToolError(str(exc)) from None

    @server.tool(structured_output=False)
    async def search(
        ctx: Context,
        query: Annotated[str, Field(max_length=MAX_QUERY, description="what to look for, in any language")],
        k: Annotated[int, Field(ge=1, le=MAX_K, description="how many memories at most")] = 5,
    ) -> str:
        """Search what the person told macaron (facts, preferences, episodes) by meaning and
        words, in any language. One memory per line, best first."""
        return await answer(ctx, access.search, query, k)

    @server.tool(structured_output=False)
    async def add(
        ctx: Context,
        text: Annotated[
            str, Field(max_length=MAX_TEXT, description="the memory, one fact or preference in the person's words")
        ],
        domain: Annotated[
            str | None, Field(max_length=MAX_NAME, description="e.g. food, health, work, family, hobby")
        ] = None,
        privacy: Annotated[
            str | None,
            Field(
                max_length=MAX_NAME,
                description="public | personal (default) | private | secret (never shown to a model)",
            ),
        ] = None,
    ) -> str:
        """Remember something the person asked you to remember. Secrets (keys, passwords,
        card numbers) are redacted before it is stored."""
        return await answer(ctx, access.add, text, domain, privacy)

    @server.tool(structured_output=False)
    async def recent(
        ctx: Context,
        n: Annotated[int, Field(ge=1, le=MAX_K, description="how many")] = 10,
    ) -> str:
        """The newest memories, newest first."""
        return await answer(ctx, access.recent, n)

    if access.allow_forget:

        @server.tool(structured_output=False)
        async def forget(
            ctx: Context,
            id: Annotated[str, Field(max_length=MAX_NAME, description="the memory's id, e.g. m_0123456789ab")],
        ) -> str:
            """Forget a memory for good, when the person asks you to (older versions too)."""
            return await answer(ctx, access.forget, id)

    @server.resource(PROFILE_URI, name="profile", mime_type="text/plain")
    async def profile() -> str:
        """Who the person is, in short: their name, languages and preferences."""
        try:
            return await answer(server.get_context(), access.profile)
        except ToolError as exc:
            raise ValueError(str(exc)) from None

    return server


def client_of(ctx: Context | None) -> str:
    """The name the client gave in its MCP initialize (clientInfo.name)."""
    try:
        params = ctx.session.client_params if ctx else None
    except (AttributeError, ValueError):  # outside a request
        params = None
    return client_name(params.clientInfo.name if params else None)
