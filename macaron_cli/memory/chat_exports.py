"""The conversations of a ChatGPT or a Claude export, as the products' export pages give them
(`conversations.json`, alone or in the export's .zip), read one at a time.

ChatGPT: a list of conversations {id, title, create_time, update_time, current_node, mapping};
the mapping is a tree of nodes {id, message, parent, children}, a message {id, author{role},
content{content_type, parts}, create_time}. An edited question or a regenerated reply
branches the tree; the conversation as the person left it is the branch from current_node
back to the root. Times are seconds since 1970.
Claude: a list of conversations {uuid, name, created_at, updated_at, chat_messages}, each
message {uuid, sender: human | assistant, text, content: [{type, text}], created_at}.

Nothing here decides what is kept: a conversation comes with its turns and, for each part of
it that could not be read, the reason (chat_import.py keeps what it can and says the rest).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from macaron_cli.errors import UserError
from macaron_cli.memory.importing import unreadable_said
from macaron_cli.memory.json_stream import ArrayReader

CHATGPT = "chatgpt"
CLAUDE = "claude"
EXPORT_FILE = "conversations.json"
PERSON, ASSISTANT = "person", "assistant"
_ROLES = {"user": PERSON, "human": PERSON, "assistant": ASSISTANT}


@dataclass(frozen=True)
class Turn:
    id: str  # the message's own id in the export: the same on every import
    role: str  # PERSON | ASSISTANT
    text: str
    at: str | None  # when it was said (ISO 8601), where the export says


@dataclass
class Conversation:
    number: int  # its place in the file, from 1
    id: str
    title: str
    created: str | None
    updated: str | None
    turns: list[Turn] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # why a part of it could not be read


@contextmanager
def opened(path: Path) -> Iterator[IO[str]]:
    """The export's conversations.json as text: the file itself, or inside the export's .zip."""
    with unreadable_said(path, f"the export's {EXPORT_FILE} or its .zip"):
        try:
            if not zipfile.is_zipfile(path):
                with open(path, encoding="utf-8-sig") as fh:
                    yield fh
                return
            with zipfile.ZipFile(path) as archive:
                names = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == EXPORT_FILE]
                if not names:
                    raise UserError(f"{path} is a zip without {EXPORT_FILE}; give the export's zip or that file.")
                with archive.open(min(names, key=len)) as raw:
                    yield io.TextIOWrapper(raw, encoding="utf-8-sig")
        except zipfile.BadZipFile as error:
            raise UserError(f"{path} could not be read: {error}.") from None


def is_zip(path: Path) -> bool:
    try:
        return zipfile.is_zipfile(path)
    except OSError:
        return False


def format_of(item: Any) -> str | None:
    """Which product's export a conversation is from, by its shape."""
    if isinstance(item, dict) and isinstance(item.get("mapping"), dict):
        return CHATGPT
    if isinstance(item, dict) and isinstance(item.get("chat_messages"), list):
        return CLAUDE
    return None


def conversations(reader: ArrayReader, fmt: str) -> Iterator[Conversation | tuple[int, str]]:
    """Each conversation read, or (its number, why it could not be) for one that is not a
    conversation of this export. A file broken as JSON raises BrokenJson, saying where."""
    for number, item in enumerate(reader, 1):
        if format_of(item) != fmt:
            yield number, f"not a {_PRODUCT[fmt]} conversation (no {_TURNS[fmt]})"
            continue
        yield (_chatgpt if fmt == CHATGPT else _claude)(number, item)


def text_size(path: Path) -> int:
    """About how many characters conversations.json holds (its bytes; in a zip, unpacked)."""
    if is_zip(path):
        with zipfile.ZipFile(path) as archive:
            return sum(i.file_size for i in archive.infolist() if i.filename.rsplit("/", 1)[-1] == EXPORT_FILE)
    return path.stat().st_size


_PRODUCT = {CHATGPT: "ChatGPT", CLAUDE: "Claude"}
_TURNS = {CHATGPT: "mapping", CLAUDE: "chat_messages"}


def product(fmt: str) -> str:
    return _PRODUCT[fmt]


def _chatgpt(number: int, item: dict) -> Conversation:
    mapping: dict = item["mapping"]
    conversation = Conversation(
        number,
        str(item.get("id") or item.get("conversation_id") or f"conversation-{number}"),
        _title(item.get("title")),
        _when(item.get("create_time")),
        _when(item.get("update_time")),
    )
    for node_id in _kept_branch(mapping, item.get("current_node")):
        node = mapping.get(node_id)
        message = node.get("message") if isinstance(node, dict) else None
        if not isinstance(message, dict):
            continue  # the root and the system's hidden nodes carry no message
        author = message.get("author")
        role = _ROLES.get(str(author.get("role"))) if isinstance(author, dict) else None
        meta = message.get("metadata")
        if role is None or (isinstance(meta, dict) and meta.get("is_visually_hidden_from_conversation")):
            continue  # system prompts and tool calls: not said by the person or to them
        text, why = _chatgpt_text(message.get("content"))
        turn_id = str(message.get("id") or node_id)
        if why:
            conversation.unread.append(f"message {turn_id}: {why}")
        if text.strip():
            conversation.turns.append(Turn(turn_id, role, text, _when(message.get("create_time"))))
    return conversation


def _kept_branch(mapping: dict, current: Any) -> list[str]:
    """The node ids from the root to current_node (the branch the person left); without a
    current node, the first child at each step."""
    if isinstance(current, str) and current in mapping:
        branch, seen = [], set()
        while isinstance(current, str) and current in mapping and current not in seen:
            seen.add(current)
            branch.append(current)
            node = mapping[current]
            current = node.get("parent") if isinstance(node, dict) else None
        return branch[::-1]
    roots = [k for k, n in mapping.items() if not (isinstance(n, dict) and n.get("parent") in mapping)]
    branch, seen = [], set()
    node_id = roots[0] if roots else None
    while node_id is not None and node_id in mapping and node_id not in seen:
        seen.add(node_id)
        branch.append(node_id)
        children = mapping[node_id].get("children") if isinstance(mapping[node_id], dict) else None
        node_id = children[0] if isinstance(children, list) and children else None
    return branch


def _chatgpt_text(content: Any) -> tuple[str, str]:
    """The words of a message's content, and why part of it was not kept ("" when all was)."""
    if not isinstance(content, dict):
        return "", "no content"
    parts = content.get("parts")
    if isinstance(content.get("text"), str) and not parts:  # code, tool output
        return content["text"], ""
    if not isinstance(parts, list):
        return "", f"a {content.get('content_type', 'message')} without text"
    texts = [p for p in parts if isinstance(p, str)]
    others = len(parts) - len(texts)
    why = f"{others} part{'s' if others > 1 else ''} not text (an image or a file), left out" if others else ""
    return "\n".join(texts), why


def _claude(number: int, item: dict) -> Conversation:
    conversation = Conversation(
        number,
        str(item.get("uuid") or f"conversation-{number}"),
        _title(item.get("name")),
        _when(item.get("created_at")),
        _when(item.get("updated_at")),
    )
    for index, message in enumerate(item["chat_messages"], 1):
        if not isinstance(message, dict):
            conversation.unread.append(f"message {index}: not a message")
            continue
        role = _ROLES.get(str(message.get("sender")))
        turn_id = str(message.get("uuid") or f"{conversation.id}-{index}")
        if role is None:
            conversation.unread.append(f"message {turn_id}: sent by {message.get('sender')!r}, not a person or Claude")
            continue
        text = _claude_text(message)
        if text.strip():
            conversation.turns.append(Turn(turn_id, role, text, _when(message.get("created_at"))))
        elif message.get("attachments") or message.get("files"):
            conversation.unread.append(f"message {turn_id}: only files, left out")
    return conversation


def _claude_text(message: dict) -> str:
    """The message's text blocks (`content`), else its `text`: both carry the same words."""
    blocks = message.get("content")
    if isinstance(blocks, list):
        texts = [
            b["text"]
            for b in blocks
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        ]
        if any(t.strip() for t in texts):
            return "\n\n".join(texts)
    text = message.get("text")
    return text if isinstance(text, str) else ""


def _title(value: Any) -> str:
    return value.strip()[:200] if isinstance(value, str) and value.strip() else ""


def _when(value: Any) -> str | None:
    """ISO 8601 (UTC) from seconds since 1970 (ChatGPT) or an ISO string (Claude)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        try:
            return datetime.fromtimestamp(value, UTC).isoformat(timespec="seconds")
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC).isoformat(timespec="seconds")
    return None
