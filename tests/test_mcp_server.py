"""`macaron memory serve`: the memory as an MCP server, driven by the real `mcp` client
over stdio and streamable HTTP, as Claude Code, Cursor or any other agent would."""

from __future__ import annotations

import asyncio
import json
import os
import re
import stat
import subprocess
from contextlib import asynccontextmanager

import httpx
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import Implementation

from macaron_cli.memory import MemoryStore
from tests.conftest import REPO, macaron_command

LATTE = "I drink an oat milk latte every morning"
CAFFEINE_JA = "カフェインは午後三時以降は飲まない"
THERAPY = "my therapist appointment is on Tuesday mornings"
SURPRISE = "planning a surprise party for Ana on June 3"


@pytest.fixture
def memories(macaron_home):
    """A memory with one of each level (and two languages)."""
    store = MemoryStore.open()
    ids = {
        "latte": store.add(LATTE, domain="food", kind="preference").id,
        "caffeine": store.add(CAFFEINE_JA, domain="health", language="ja").id,
        "therapy": store.add(THERAPY, domain="health", privacy="private").id,
        "surprise": store.add(SURPRISE, domain="family", privacy="secret").id,
    }
    return ids


def _config(home, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@asynccontextmanager
async def stdio_session(client: str = "claude-code"):
    command = macaron_command()
    params = StdioServerParameters(command=command[0], args=[*command[1:], "memory", "serve"], env=_env())
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, client_info=Implementation(name=client, version="1.0")) as session,
    ):
        await session.initialize()
        yield session


def run(coroutine):
    return asyncio.run(coroutine)


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content)


async def search(session, query: str, **arguments) -> str:
    result = await session.call_tool("search", {"query": query, **arguments})
    assert not result.isError, text_of(result)
    return text_of(result)


def test_a_client_lists_the_tools_and_finds_memories_in_two_languages(memories):
    async def go():
        async with stdio_session() as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            resources = [str(r.uri) for r in (await session.list_resources()).resources]
            return tools, resources, await search(session, "latte"), await search(session, "カフェイン")

    tools, resources, english, japanese = run(go())
    assert set(tools) == {"search", "add", "recent"}  # no forget unless the person turns it on
    assert tools["search"].inputSchema["required"] == ["query"]
    assert resources == ["macaron://profile"]
    assert LATTE in english and memories["latte"] in english
    assert CAFFEINE_JA in japanese


@pytest.mark.embeddings
def test_a_question_in_one_language_finds_a_memory_told_in_another(macaron_home):
    store = MemoryStore.open()
    for text, language in [
        (CAFFEINE_JA, "ja"),
        ("저는 자전거로 출근해요", "ko"),
        ("I am allergic to peanuts", "en"),
        ("My sister lives in Lisbon", "en"),
    ]:
        store.add(text, language=language)

    async def go():
        async with stdio_session() as session:
            questions = ["when do I stop drinking coffee?", "how do I get to work?", "ピーナッツ"]
            return [(await search(session, q, k=1)) for q in questions]

    coffee, commute, peanuts = run(go())
    assert CAFFEINE_JA in coffee
    assert "자전거로 출근해요" in commute
    assert "allergic to peanuts" in peanuts


@pytest.mark.embeddings
def test_a_client_gets_the_current_truth_and_is_told_what_was_left_out(macaron_home):
    """The agent reads what is true now, as the friend does: the move, not "I live in Osaka",
    which a newer memory replaced (left out, and said so); what only is near in meaning is
    marked as such, after the matches."""
    store = MemoryStore.open()
    osaka = store.add("I live in Osaka, near the castle", created_at="2024-03-01T09:00:00Z").id
    tokyo = store.add("I moved to Tokyo last month, not in Osaka anymore", created_at="2024-04-20T09:00:00Z").id
    store.add("my sister Ana plays the cello", created_at="2024-05-01T09:00:00Z")

    async def go():
        async with stdio_session() as session:
            return await search(session, "where do I live", k=3)

    found = run(go())
    lines = found.splitlines()
    assert lines[0].startswith("- I moved to Tokyo") and f"id {tokyo}" in lines[0], found
    assert osaka not in found and "1 older memory that a newer one replaced left out" in found, found
    sister = [line for line in lines if line.startswith("- my sister")]
    assert sister and "≈ among the nearest in meaning" in sister[0], found


def test_what_a_client_adds_is_found_redacted_and_marked_as_its_own(memories, macaron_home):
    async def go():
        async with stdio_session("cursor") as session:
            added = await session.call_tool(
                "add", {"text": "I prefer window seats; my bank password is Tr0ub4dor&3", "domain": "travel"}
            )
            return text_of(added), await search(session, "window seats"), await search(session, "latte")

    added, found, latte = run(go())
    memory_id = re.search(r"m_[0-9a-f]{12}", added).group(0)
    assert "redacted" in added
    assert memory_id in found and "window seats" in found
    assert "Tr0ub4dor" not in found
    assert LATTE in latte
    stored = MemoryStore.open().get(memory_id)
    assert (stored.source, stored.domain, stored.privacy) == ("mcp:cursor", "travel", "personal")


def test_adding_the_same_text_twice_returns_the_memory_already_there(memories, macaron_home):
    async def go():
        async with stdio_session("cursor") as session:
            first = await session.call_tool("add", {"text": "I prefer aisle seats on long flights"})
            again = await session.call_tool("add", {"text": "I prefer aisle seats on long flights"})
            latte = await session.call_tool("add", {"text": LATTE})  # told in chat before
            return text_of(first), text_of(again), text_of(latte)

    first, again, latte = run(go())
    memory_id = re.search(r"m_[0-9a-f]{12}", first).group(0)
    assert f"Already remembered as {memory_id}" in again and f"Already remembered as {memories['latte']}" in latte
    assert sum(m.text == "I prefer aisle seats on long flights" for m in MemoryStore.open().live(limit=None)) == 1


def test_private_goes_only_to_a_client_declared_local_and_secret_to_none(memories, macaron_home):
    _config(macaron_home, '[mcp.clients.my-local-agent]\nmodel = "local"\n')

    async def both(client):
        async with stdio_session(client) as session:
            recent = await session.call_tool("recent", {"n": 10})
            return await search(session, "therapist"), await search(session, "surprise party"), text_of(recent)

    cloud = run(both("claude-code"))
    local = run(both("my-local-agent"))
    assert THERAPY not in "".join(cloud) and "Nothing relevant" in cloud[0]
    assert THERAPY in local[0] and THERAPY in local[2]
    for answers in (cloud, local):
        assert SURPRISE not in "".join(answers)
    assert LATTE in cloud[2] and CAFFEINE_JA in cloud[2]


def test_bad_arguments_are_mcp_errors_and_the_server_carries_on(memories):
    async def go():
        async with stdio_session() as session:
            answers = [
                await session.call_tool("search", {"query": "latte", "k": 0}),
                await session.call_tool("search", {}),
                await session.call_tool("search", {"query": "   "}),
                await session.call_tool("search", {"query": ["not", "text"]}),
                await session.call_tool("recent", {"n": "many"}),
                await session.call_tool("add", {"text": "x", "privacy": "top-secret"}),
                await session.call_tool("add", {"text": ""}),
                await session.call_tool("forget", {"id": memories["latte"]}),
            ]
            return answers, await search(session, "latte")

    answers, still = run(go())
    assert all(a.isError for a in answers), [text_of(a) for a in answers]
    assert all(len(text_of(a).splitlines()) == 1 for a in answers), [text_of(a) for a in answers]
    assert text_of(answers[0]).startswith("search: k: input should be greater than or equal to 1")
    assert text_of(answers[1]).startswith("search: query: field required")
    assert "privacy" in text_of(answers[5]) and "public, personal, private, secret" in text_of(answers[5])
    assert "empty" in text_of(answers[2])
    assert LATTE in still
    assert MemoryStore.open().get(memories["latte"]).text == LATTE  # forget is off: nothing forgotten


def test_forget_when_the_person_allows_it_and_only_what_the_client_sees(memories, macaron_home):
    _config(macaron_home, "[mcp]\nallow_forget = true\n")

    async def go():
        async with stdio_session() as session:
            names = {t.name for t in (await session.list_tools()).tools}
            hidden = await session.call_tool("forget", {"id": memories["therapy"]})
            gone = await session.call_tool("forget", {"id": memories["latte"]})
            return names, hidden, gone, await search(session, "latte")

    names, hidden, gone, after = run(go())
    assert "forget" in names
    assert hidden.isError and "no memory" in text_of(hidden)
    assert not gone.isError and LATTE not in after
    ids = {m.id for m in MemoryStore.open().list(limit=None)}
    assert memories["therapy"] in ids and memories["latte"] not in ids


def test_a_client_is_told_what_each_tool_does_to_the_memory_and_the_levels_to_choose(memories, macaron_home):
    """What a client shows the person before a call: reads, an add that is safe to repeat, a
    forget that destroys; a memory's privacy offered as the gate's own levels."""
    from macaron_cli.privacy import LEVELS

    _config(macaron_home, "[mcp]\nallow_forget = true\n")

    async def go():
        async with stdio_session() as session:
            return {t.name: t for t in (await session.list_tools()).tools}

    tools = run(go())
    hints = {name: tool.annotations for name, tool in tools.items()}
    assert hints["search"].readOnlyHint and hints["recent"].readOnlyHint
    assert not hints["add"].readOnlyHint and not hints["add"].destructiveHint and hints["add"].idempotentHint
    assert hints["forget"].destructiveHint and not hints["forget"].readOnlyHint
    assert not any(h.openWorldHint for h in hints.values())  # the memory is on this machine
    level = tools["add"].inputSchema["properties"]["privacy"]
    choices = next(option["enum"] for option in level["anyOf"] if "enum" in option)
    assert tuple(choices) == LEVELS
    assert "secret: never sent to any model" in level["description"]


def test_the_profile_holds_name_languages_and_what_the_client_may_see(memories, macaron_home):
    _config(macaron_home, '[persona]\ncall_me = "Mika"\nlanguage = "ja"\n')
    MemoryStore.open().add("I prefer quiet cafés", kind="preference", privacy="private")

    async def go():
        async with stdio_session() as session:
            return (await session.read_resource("macaron://profile")).contents[0].text

    profile = run(go())
    assert "Name: Mika" in profile and "Languages: ja, en" in profile
    assert LATTE in profile and "quiet cafés" not in profile


def test_a_name_given_in_chat_while_serving_is_in_the_next_profile(memories, macaron_home):
    from macaron_cli.friend.persona import Persona, save_persona

    save_persona(Persona(call_me="Mika"))

    async def go():
        async with stdio_session() as session:
            before = (await session.read_resource("macaron://profile")).contents[0].text
            save_persona(Persona(call_me="Sam"))  # `/name Sam` in a chat meanwhile
            after = (await session.read_resource("macaron://profile")).contents[0].text
            return before, after

    before, after = run(go())
    assert "Name: Mika" in before and "Name: Sam" in after


def test_why_shows_each_call_and_what_went_out(memories, macaron):
    async def go():
        async with stdio_session("claude-code") as session:
            await search(session, "latte")
            await session.call_tool("add", {"text": "I run on Sundays", "domain": "fitness"})
            await session.call_tool("add", {"text": "my pin is 4921", "privacy": "very"})
            await session.call_tool("search", {"query": "   "})  # refused by macaron, not the schema

    run(go())
    calls = macaron("why", "mcp")
    assert calls.returncode == 0, calls.stderr
    assert "mcp:claude-code search(query='latte', k=5): 1 memory went to the cloud" in calls.stdout
    assert LATTE in calls.stdout and "I run on Sundays" in calls.stdout
    assert "mcp:claude-code add(privacy, text): refused, nothing went out" in calls.stdout
    assert "mcp:claude-code search(query): refused, nothing went out" in calls.stdout
    assert "4921" not in calls.stdout  # a refused add was never redacted: its text is not kept
    used = macaron("why", memories["latte"])
    assert "sent to mcp:claude-code (cloud)" in used.stdout


def test_a_bad_mcp_table_is_refused_in_one_line(memories, macaron_home, macaron):
    _config(macaron_home, '[mcp.clients.cursor]\nmodel = "moon"\n')
    result = macaron("memory", "serve", input="")
    assert result.returncode == 2
    assert "mcp.clients.cursor" in result.stderr and "Traceback" not in result.stderr


@pytest.fixture
def http_server(memories, macaron_home):
    command = [*macaron_command(), "memory", "serve", "--http", "--port", "0"]
    process = subprocess.Popen(command, env=_env(), stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        line = process.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/mcp", line)
        assert match, line + process.stderr.read()
        yield match.group(0)
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_http_needs_the_token_and_then_answers_like_stdio(http_server, macaron_home, macaron):
    token_file = macaron_home / "mcp-token"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    token = macaron("memory", "serve", "--show-token").stdout.strip()
    assert token == token_file.read_text().strip()
    hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"Accept": "application/json, text/event-stream"}
    assert httpx.post(http_server, json=hello, headers=headers).status_code == 401
    wrong = {**headers, "Authorization": "Bearer " + "x" * len(token)}
    assert httpx.post(http_server, json=hello, headers=wrong).status_code == 401
    # A web page that found the port (DNS rebinding) names another host: refused even with the token.
    rebound = {**headers, "Authorization": f"Bearer {token}", "Host": "evil.example:80"}
    assert httpx.post(http_server, json=hello, headers=rebound).status_code in (400, 403, 421)

    async def go():
        auth = {"Authorization": f"Bearer {token}"}
        async with (
            httpx.AsyncClient(headers=auth, timeout=120) as http,
            streamable_http_client(http_server, http_client=http) as (read, write, _),
            ClientSession(read, write, client_info=Implementation(name="claude-ai", version="1")) as session,
        ):
            await session.initialize()
            tools = {t.name for t in (await session.list_tools()).tools}
            return tools, await search(session, "latte"), await search(session, "therapist")

    tools, latte, therapy = run(go())
    assert tools == {"search", "add", "recent"}
    assert LATTE in latte and THERAPY not in therapy


def test_http_refuses_a_body_larger_than_a_message_and_goes_on(http_server, macaron):
    token = macaron("memory", "serve", "--show-token").stdout.strip()
    headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {token}"}
    huge = '{"jsonrpc": "2.0", "id": 1, "method": "ping", "pad": "' + "x" * (5 * 2**20) + '"}'
    said = httpx.post(http_server, content=huge, headers={**headers, "Content-Type": "application/json"})
    assert said.status_code == 413 and "at most" in said.text

    def chunks():  # no length given: counted as it comes
        for _ in range(6):
            yield b"x" * 2**20

    streamed = httpx.post(http_server, content=chunks(), headers={**headers, "Content-Type": "application/json"})
    assert streamed.status_code == 413
    probe = {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}
    hello = {"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": probe}
    assert httpx.post(http_server, json=hello, headers=headers).status_code == 200


def test_http_listens_on_loopback_only(http_server):
    port = int(http_server.rsplit(":", 1)[1].split("/")[0])
    from tests.support.addresses import non_loopback_address

    address = non_loopback_address()
    if address is None:  # a machine with loopback alone: nothing else to reach
        return
    with pytest.raises(httpx.ConnectError):
        httpx.post(f"http://{address}:{port}/mcp", json={}, timeout=5)


def test_serve_help_names_http_and_the_token(macaron):
    result = macaron("memory", "serve", "--help")
    assert result.returncode == 0
    assert "--http" in result.stdout and "--show-token" in result.stdout


def test_a_port_in_use_is_refused_in_one_line(macaron, macaron_home):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = macaron("memory", "serve", "--http", "--port", taken.getsockname()[1])
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "choose another --port" in result.stderr
    assert not (macaron_home / "mcp-token").exists()


def _ledger_bytes(home) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(home.glob("ledger.db*")))


def test_the_ledger_keeps_a_clients_arguments_redacted(memories, macaron_home, macaron):
    async def go():
        async with stdio_session("claude-code") as session:
            await search(session, "my pin is 4921 and my password is Tr0ub4dor&3x")
            await session.call_tool("search", {"query": "card pin 7305", "k": 0})  # refused: its message too

    run(go())
    calls = macaron("why", "mcp")
    assert calls.returncode == 0, calls.stderr
    assert "«redacted:pin»" in calls.stdout and "«redacted:password»" in calls.stdout
    kept = calls.stdout.encode() + _ledger_bytes(macaron_home)
    assert b"4921" not in kept and b"Tr0ub4dor" not in kept and b"7305" not in kept


def test_a_forgotten_memory_leaves_the_ledger_and_why(memories, macaron_home, macaron):
    store = MemoryStore.open()
    allergy = store.add("I am allergic to hazelnut pralines from Turin").id
    address = store.add("My sister's new address is 14 Rua das Flores", privacy="private").id

    async def go():
        async with stdio_session("claude-code") as session:
            found = await search(session, "am I allergic to hazelnut pralines from Turin?")  # it went out
            hidden = await search(session, "My sister's new address is 14 Rua das Flores")  # it did not
            return found, hidden

    found, hidden = run(go())
    assert "hazelnut" in found and "Rua das Flores" not in hidden
    assert b"hazelnut pralines" in _ledger_bytes(macaron_home) and b"Rua das Flores" in _ledger_bytes(macaron_home)
    for memory_id in (allergy, address):
        forgot = macaron("memory", "forget", memory_id)
        assert forgot.returncode == 0, forgot.stderr
    calls = macaron("why", "mcp")
    assert calls.returncode == 0 and calls.stdout.count("search(") == 2, calls.stderr
    assert "hazelnut pralines" not in calls.stdout and "Rua das Flores" not in calls.stdout
    assert b"hazelnut pralines" not in _ledger_bytes(macaron_home)
    assert b"Rua das Flores" not in _ledger_bytes(macaron_home)
    assert LATTE.encode() not in _ledger_bytes(macaron_home)  # what was never searched for was never kept


def test_a_search_worded_from_a_forgotten_memory_leaves_the_ledger_and_why(memories, macaron_home, macaron):
    """A client's search that holds a few of the memory's words (not all, and not answered
    with it: it is private) keeps none of them once the memory is forgotten."""
    biopsy = MemoryStore.open().add("Zanthrop clinic biopsy on Tuesday at 9am", privacy="private").id

    async def go():
        async with stdio_session("claude-code") as session:
            return await search(session, "Zanthrop clinic biopsy results, my card pin 4412")

    assert "Zanthrop" not in run(go())  # private: it never went to the client
    assert b"Zanthrop clinic biopsy" in _ledger_bytes(macaron_home)
    forgot = macaron("memory", "forget", biopsy)
    assert forgot.returncode == 0, forgot.stderr
    calls = macaron("why", "mcp")
    assert calls.returncode == 0 and "search(" in calls.stdout, calls.stderr
    assert "Zanthrop" not in calls.stdout and "biopsy" not in calls.stdout
    assert b"Zanthrop" not in _ledger_bytes(macaron_home) and b"4412" not in _ledger_bytes(macaron_home)


def test_every_input_has_a_cap_answered_as_an_mcp_error(memories):
    async def go():
        async with stdio_session() as session:
            schema = {t.name: t.inputSchema for t in (await session.list_tools()).tools}
            answers = [
                await session.call_tool("search", {"query": "latte " * 1000}),
                await session.call_tool("search", {"query": "latte", "k": 51}),
                await session.call_tool("recent", {"n": 51}),
                await session.call_tool("add", {"text": "I like tea. " * 2000}),
                await session.call_tool("add", {"text": "tea", "domain": "d" * 200}),
            ]
            return schema, answers, await search(session, "latte")

    schema, answers, still = run(go())
    assert all(a.isError and len(text_of(a).splitlines()) == 1 for a in answers), [text_of(a) for a in answers]
    assert "at most 2000 characters" in text_of(answers[0]) and "at most 10000" in text_of(answers[3])
    assert schema["search"]["properties"]["query"]["maxLength"] == 2000  # a client can read the caps
    assert LATTE in still
    assert "I like tea" not in {m.text[:10] for m in MemoryStore.open().list(limit=None)}


class RawStdio:
    """`macaron memory serve` driven a line at a time, as a client that writes bytes would."""

    def __init__(self):
        import queue
        import threading

        command = [*macaron_command(), "memory", "serve"]
        self.process = subprocess.Popen(
            command, env=_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(x) for x in self.process.stdout], daemon=True).start()
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        assert "result" in self.ask({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello})
        self.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def send(self, raw: bytes) -> None:
        self.process.stdin.write(raw + b"\n")
        self.process.stdin.flush()

    def ask(self, request) -> dict:
        """The answer to one request (a dict, or the raw bytes of a line); a silent server fails."""
        self.send(request if isinstance(request, bytes) else json.dumps(request).encode())
        return json.loads(self.lines.get(timeout=60))

    def close(self) -> tuple[int, str]:
        self.process.stdin.close()
        code = self.process.wait(timeout=60)
        return code, self.process.stderr.read().decode("utf-8", "replace")


def _call(ident: int, arguments: bytes) -> bytes:
    head = b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "search", "arguments": ' % ident
    return head + arguments + b"}}"


def test_every_malformed_request_is_answered_with_an_error_and_eof_ends_quietly(memories):
    server = RawStdio()
    malformed = {
        1: _call(1, b'{"query": "caf\\ud800"}'),  # a lone surrogate: no text
        2: _call(2, b'{"query": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
        3: _call(3, b'{"query": "' + "café".encode("latin-1") + b'"}'),  # not UTF-8
        4: _call(4, b'{"query": "' + b"a" * (5 * 2**20) + b'"}'),  # over the line cap
        5: b'{"jsonrpc": "2.0", "id": 5, "method": "resources/read", "params": {"uri": "file:///etc/passwd"}}',
        6: b'{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "search", "arguments": ',
    }
    answers = {ident: server.ask(line) for ident, line in malformed.items()}
    listed = server.ask({"jsonrpc": "2.0", "id": 7, "method": "resources/list"})
    templates = server.ask({"jsonrpc": "2.0", "id": 8, "method": "resources/templates/list"})
    alive = server.ask(_call(9, b'{"query": "latte"}'))
    server.send(b"\xff\xfe garbage, not JSON")
    code, stderr = server.close()
    for ident, answer in answers.items():
        assert answer["id"] == ident and "error" in answer, answer
    assert "root:" not in json.dumps(answers[5])  # nothing of the file
    assert [r["uri"] for r in listed["result"]["resources"]] == ["macaron://profile"]
    assert templates["result"]["resourceTemplates"] == []
    assert LATTE in alive["result"]["content"][0]["text"]
    assert code == 0 and stderr == "", stderr


def test_a_client_hanging_up_over_http_is_not_an_error(memories, macaron_home, macaron):
    command = [*macaron_command(), "memory", "serve", "--http", "--port", "0"]
    process = subprocess.Popen(command, env=_env(), stderr=subprocess.PIPE, text=True)
    url = re.search(r"http://127\.0\.0\.1:\d+/mcp", process.stderr.readline()).group(0)
    token = macaron("memory", "serve", "--show-token").stdout.strip()

    async def go():
        for _ in range(2):  # each client ends its session and goes: an ordinary disconnect
            async with (
                httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http,
                streamable_http_client(url, http_client=http) as (read, write, _),
                ClientSession(read, write, client_info=Implementation(name="claude-ai", version="1")) as session,
            ):
                await session.initialize()
                await search(session, "latte")

    try:
        run(go())
    finally:
        process.terminate()
        stderr = process.stderr.read()
        process.wait(timeout=30)
    assert "Error" not in stderr and "Traceback" not in stderr, stderr


def test_a_stderr_nobody_reads_never_stalls_the_http_server(memories, macaron_home, macaron):
    import socket

    command = [*macaron_command(), "memory", "serve", "--http", "--port", "0"]
    process = subprocess.Popen(command, env=_env(), stderr=subprocess.PIPE)  # read once, then never again
    url = re.search(rb"http://127\.0\.0\.1:(\d+)/mcp", process.stderr.readline())
    port = int(url.group(1))
    token = macaron("memory", "serve", "--show-token").stdout.strip()
    try:
        for _ in range(2000):  # each is a warning line: far more than a pipe holds
            with socket.create_connection(("127.0.0.1", port), timeout=30) as bad:
                bad.sendall(b"NOT HTTP AT ALL\r\n\r\n")
                bad.recv(1024)
        headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {token}"}
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        answer = httpx.post(url.group(0).decode(), json=ping, headers=headers, timeout=60)
        assert answer.status_code != 401 and answer.status_code < 500, answer.text
    finally:
        process.kill()
        process.wait(timeout=30)
