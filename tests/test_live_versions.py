"""A memory the person edited shows its new text alone, to every reader: an MCP client's
recent, profile and search, the chat's opening and recall, `memory list` and `memory export`.
The old text stays as a replaced version, shown only where history is asked for."""

from __future__ import annotations

import ast
import json
from datetime import UTC, datetime, timedelta

import pytest

from macaron_cli.memory import MemoryStore
from tests.conftest import REPO
from tests.test_mcp_server import run, stdio_session, text_of

OLD = "I am saving up for a flat in Porto"
NEW = "I gave up the flat; saving up for a cargo bicycle now"
DENTIST_OLD = "Dentist appointment at the Lisbon clinic"
DENTIST_NEW = "Dentist appointment moved to the Braga clinic"
DIGESTS = [f"Water (app water), 2026-03-0{day} to 2026-03-0{day}: {day} glasses" for day in (1, 2, 3)]


@pytest.fixture
def edited(macaron_home):
    """A preference, a dated memory and an app's digest, each replaced by newer versions."""
    store = MemoryStore.open()
    store.update(store.add(OLD, kind="preference").id, text=NEW)
    soon = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    store.update(store.add(DENTIST_OLD, event_at=soon).id, text=DENTIST_NEW)
    digest = store.add(DIGESTS[0], kind="app", source="app:water", domain="health")
    for text in DIGESTS[1:]:
        digest = store.update(digest.id, text=text)
    return store


def _only_new(text: str) -> None:
    assert NEW in text and OLD not in text, text
    assert DIGESTS[-1] in text and not any(old in text for old in DIGESTS[:-1]), text


def test_an_mcp_client_sees_only_the_new_text(edited):
    async def go():
        async with stdio_session("claude-code") as session:
            recent = await session.call_tool("recent", {"n": 50})
            found = await session.call_tool("search", {"query": "saving flat Porto bicycle", "k": 50})
            water = await session.call_tool("search", {"query": "water glasses", "k": 50})
            profile = (await session.read_resource("macaron://profile")).contents[0].text
            return text_of(recent), text_of(found), text_of(water), profile

    recent, found, water, profile = run(go())
    _only_new(recent)
    assert DENTIST_NEW in recent and DENTIST_OLD not in recent
    assert NEW in found and OLD not in found
    assert DIGESTS[-1] in water and not any(old in water for old in DIGESTS[:-1])
    assert NEW in profile and OLD not in profile


def test_the_chat_opens_and_recalls_with_the_new_text(edited):
    from macaron_cli.friend.conversation import Conversation
    from macaron_cli.friend.persona import Persona
    from macaron_cli.models.chat import NoModel

    chat = Conversation(edited, NoModel(), Persona())
    opening = "\n".join(chat.opening())
    assert DENTIST_NEW in opening and DENTIST_OLD not in opening
    recalled = " ".join(h.memory.text for h in chat.recall_for("saving flat Porto bicycle").hits)
    assert NEW in recalled and OLD not in recalled


def test_list_and_export_show_the_new_text_and_all_shows_the_history(edited, macaron):
    listed = macaron("memory", "list")
    exported = macaron("memory", "export")
    assert listed.returncode == exported.returncode == 0, listed.stderr + exported.stderr
    _only_new(listed.stdout)
    _only_new(exported.stdout)
    history = macaron("memory", "list", "--all").stdout
    everything = [json.loads(line)["text"] for line in macaron("memory", "export", "--all").stdout.splitlines()]
    for text in (OLD, DENTIST_OLD, *DIGESTS):
        assert text in history and text in everything


# Where a reader may read every version, replaced ones too: (module, function) and why. Any
# other call of `.list(` or `.iter_all(` is a reader that bypasses the rule (`live`, `iter_live`).
HISTORY_READERS = {
    ("memory/store.py", "*"): "the store's own paging (live and iter_live are built on them)",
    ("memory/commands.py", "list_memories"): "`memory list --all`",
    ("memory/commands.py", "memories"): "`memory export --all`",
    ("memory/rewrite.py", "*"): "forget removes every version",
    ("memory/importing.py", "__init__"): "import matches a record against every version",
    ("memory/chat_import.py", "__init__"): "an export's import matches a message against every version",
    ("memory/updates.py", "replaced_by"): "the newer version that supersedes a replaced memory",
    ("privacy.py", "not_for"): "a replaced private text is still private",
    ("privacy.py", "quoting"): "a digest quoting a replaced private text is still quoting it",
    ("tui/view.py", "load"): "the browser's h shows replaced versions, greyed",
    ("tui/view.py", "iter_view"): "exporting what the browser shows, history included when shown",
    ("tui/view.py", "versions"): "the detail pane's chain of versions",
    ("tui/forgetting.py", "*"): "undo of a forget brings back every version",
    ("lifelog/memories.py", "relabel"): "a new label reaches every version",
}


def _allowed(path: str, function: str) -> bool:
    for (where, name), _ in HISTORY_READERS.items():
        same_file = path == where or (where.endswith("/*") and path.startswith(where[:-1]))
        if same_file and name in ("*", function):
            return True
    return False


class _Calls(ast.NodeVisitor):
    """Each `.list(…)` or `.iter_all(…)` call, with the innermost function around it."""

    def __init__(self):
        self.functions: list[str] = ["<module>"]
        self.found: list[tuple[str, int]] = []

    def visit_FunctionDef(self, node):
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node):
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("list", "iter_all"):
            self.found.append((self.functions[-1], node.lineno))
        self.generic_visit(node)


def _calls_of_every_version():
    root = REPO / "macaron_cli"
    for path in sorted(root.rglob("*.py")):
        calls = _Calls()
        calls.visit(ast.parse(path.read_text(encoding="utf-8")))
        for function, line in calls.found:
            yield path.relative_to(root).as_posix(), function, line


def test_no_reader_reads_replaced_versions_unless_it_is_named_here():
    bypasses = sorted({call for call in _calls_of_every_version() if not _allowed(call[0], call[1])})
    assert bypasses == [], "read memories with store.live / store.iter_live, or name the reason here"


def test_live_pages_count_only_live_versions(macaron_home):
    store = MemoryStore.open()
    texts = [f"note number {i}" for i in range(6)]
    ids = [store.add(text, created_at=f"2026-01-0{i + 1}T00:00:00+00:00").id for i, text in enumerate(texts)]
    for i in (1, 3):  # replaced: their new versions are the newest two
        store.update(ids[i], text=texts[i] + " (edited)", created_at=f"2026-02-0{i}T00:00:00+00:00")
    live = [m.text for m in store.live(limit=None)]
    assert live == ["note number 3 (edited)", "note number 1 (edited)"] + [texts[i] for i in (5, 4, 2, 0)]
    assert [m.text for m in store.live(limit=3, offset=2)] == live[2:5]
    assert sorted(m.text for m in store.iter_live()) == sorted(live)
