"""Driving the real `macaron chat` REPL through a pseudo-terminal, against the scripted model."""

from __future__ import annotations

import json
import os

import pexpect

from tests.conftest import REPO, macaron_command
from tests.support.model_server import Reply

EXTRACT_MARK = "You extract memories"
SUMMARY_MARK = "Summarise this conversation"
PROMPT = "you › "


def is_chat(req) -> bool:
    return EXTRACT_MARK not in req.system and SUMMARY_MARK not in req.system


def chat_requests(server) -> list:
    return [r for r in server.requests if is_chat(r)]


def responder(answer="Happy to help.", facts=None, chat=None):
    """Answer chat turns with `answer` (or `chat(req)`), extraction with `facts(user_text)`."""

    def respond(req):
        if EXTRACT_MARK in req.system:
            found = facts(req.last_user_text()) if facts else []
            return Reply.text(json.dumps({"memories": found}))
        if SUMMARY_MARK in req.system:
            return Reply.text("We chatted about snacks and plans.")
        return chat(req) if chat else Reply.text(answer)

    return respond


def chat_env(server=None, model_env: str = "claude", extra: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "MACARON_DRAFT"))}
    env.update({"TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "200", "LANG": "C.UTF-8"})
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    if server is not None and model_env == "claude":
        env.update({"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "test-key"})
    if server is not None and model_env == "local":
        env.update(
            {"MACARON_DRAFT_URL": server.url, "MACARON_DRAFT_API": "anthropic", "MACARON_DRAFT_MODEL": "scripted"}
        )
    env.update(extra or {})
    return env


def spawn_chat(env: dict, *args: str, timeout: float = 90, columns: int = 200) -> pexpect.spawn:
    cmd = macaron_command()
    child = pexpect.spawn(
        cmd[0],
        [*cmd[1:], "chat", *args],
        env=env,
        encoding="utf-8",
        codec_errors="replace",  # readline scrolls a long line sideways, cutting a character in two
        timeout=timeout,
        dimensions=(50, columns),
    )
    return child


def say(child, text: str, wait_prompt: bool = True) -> str:
    """Type a line, then wait for the next prompt; returns what was printed in between."""
    child.sendline(text)
    if wait_prompt:
        child.expect_exact(PROMPT)
        return child.before
    return ""


def leave(child) -> str:
    """Ctrl-D, then wait for the goodbye (the episode is saved on the way out)."""
    child.sendeof()
    child.expect_exact("See you soon")
    child.expect(pexpect.EOF)
    child.close()
    return child.before


def meet_friend_already() -> None:
    """Skip the first meeting: a saved persona (the test's MACARON_HOME is in the environment)."""
    from macaron_cli.friend.persona import Persona, save_persona

    save_persona(Persona())
