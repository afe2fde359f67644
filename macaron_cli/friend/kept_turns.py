"""What was said in a chat, kept on disk while the chat lasts, so no end loses it.

The turns are written (secrets redacted, readable by the person alone) before each slash
command runs, since a command reaches further than a turn (apps, files, the coder) and is
where a chat can stop without saying goodbye. A chat that ends as it should keeps its
episode and removes the file; one that did not leaves it, and the next chat keeps those
turns as the episode they should have been. The file lives in $MACARON_HOME, so `memory
forget` scrubs a forgotten text from it like from every other file there."""

from __future__ import annotations

import json

from macaron_cli import config

FILE = "chat_turns.json"


def path():
    return config.home() / FILE


def save(turns: list[dict], learned_from: dict[str, list[str]]) -> None:
    """Keep these turns (role, content, label) and which memories each was learned into."""
    from macaron_cli.files import write_atomic
    from macaron_cli.memory.redact import redact

    kept = []
    for turn in turns:
        text, _ = redact(turn["content"])
        kept.append(
            {
                "role": turn["role"],
                "content": text,
                "label": turn.get("label"),
                "learned": list(learned_from.get(turn["content"], [])),
            }
        )
    config.ensure_private_dir(config.home())
    write_atomic(path(), json.dumps({"turns": kept}, ensure_ascii=False))


def take() -> list[dict]:
    """The turns a chat left behind (it stopped before its goodbye), and forget the file.
    A file that cannot be read is left where it is for the person, and nothing is taken."""
    try:
        data = json.loads(path().read_text(encoding="utf-8"))
        turns = [t for t in data["turns"] if isinstance(t, dict) and isinstance(t.get("content"), str)]
    except FileNotFoundError:
        return []
    except (OSError, ValueError, KeyError, TypeError):
        return []
    return turns


def clear() -> None:
    path().unlink(missing_ok=True)
