"""Learning from each turn, in the background: facts and preferences the person shares.

After every user turn a worker thread asks the model (the same one the person chose, so
nothing goes anywhere new) to list what is worth remembering, with kind, domain,
language and privacy. The answer is never delayed by this. A new fact that replaces an
old one supersedes it: both are kept, the new one links to the old, the old expires.
Things the person stresses start with a higher reward, so they weigh more in recall.
With no model connected, the person's statements are kept as they said them.
"""

from __future__ import annotations

import json
import queue
import re
import threading
from datetime import UTC, datetime

from macaron_cli import lang, privacy
from macaron_cli.friend.recall import is_current
from macaron_cli.friend.topics import guess_domain
from macaron_cli.memory.records import KINDS, now_iso
from macaron_cli.models.chat import ChatModel
from macaron_cli.models.failures import ModelFailure
from macaron_cli.privacy import LEVELS
from macaron_cli.quotes import MIN_QUOTE, quoted_in

EXTRACT_SYSTEM = """You extract memories for a personal assistant. From the person's latest message,
list facts and preferences about the person and the people in their life worth remembering
for months (not small talk, not questions, never a request to make or change an app). Reply with JSON only:
{"memories": [{"text": "...", "kind": "fact|preference", \
"domain": "food|health|fitness|travel|finance|work|family|hobby|general",
"language": "en|ja|ko|zh|tl|...", "privacy": "public|personal|private|secret", "event_at": "ISO date or null",
"stressed": true|false, "supersedes": "id of a known memory this replaces, or null"}]}
Privacy: personal by default; private for health conditions, money, relationships, exact
addresses, and anything the person says is private or not to be told; secret for what must
never be shared with any model (a surprise, a password).
Write each memory in the person's language, in the third person ("Allergic to peanuts")."""

STRESS_WORDS = re.compile(lang.pattern("said.stressed"), re.IGNORECASE)  # really, 絶対, !
REWARD_STRESSED = 1.0
# A whole line of small talk ("thanks!", "lol", "ありがとう"): nothing about the person's life.
_SMALL_TALK = re.compile(rf"^\s*(?:{lang.pattern('said.small_talk')})[\s.!~,。！、]*$", re.IGNORECASE)
# Fewer letters than this say nothing to keep ("ok", "hmm"); a Han, Kana or Hangul letter
# carries a word's weight, so those lines may be shorter.
_LEAST_LETTERS = 6
_LEAST_WIDE_LETTERS = 3


def is_stressed(text: str) -> bool:
    return bool(STRESS_WORDS.search(text)) or any(w.isupper() and len(w) > 2 for w in text.split())


def worth_noting(text: str) -> bool:
    """Notebook mode keeps every statement about the person's life (theirs or the people in
    it: who likes what, lives where, marries when); not questions, small talk, nor a request
    to make or change an app (that is asked of the friend, not said of the person)."""
    stripped = text.strip()
    if stripped.endswith(("?", "？")) or _SMALL_TALK.match(stripped) or is_a_request(stripped):
        return False
    letters = [c for c in stripped if c.isalnum()]
    wide = sum(1 for c in letters if ord(c) > 0x2E80)
    return wide >= _LEAST_WIDE_LETTERS or len(letters) >= _LEAST_LETTERS


def is_a_request(text: str) -> bool:
    """Asking the friend to make an app or change one ("make my recipes app dark",
    "家計簿アプリ作って", "把我的喝水app目标改成两升"), never a fact about the person."""
    from macaron_cli.friend.router import asks_of_an_app

    return asks_of_an_app(text)


def parse_memories(reply: str) -> list[dict]:
    """The model's JSON, tolerating prose or code fences around it; [] when it has none."""
    start, end = reply.find("{"), reply.rfind("}")
    if start < 0 or end <= start:
        return []
    try:
        data = json.loads(reply[start : end + 1])
    except json.JSONDecodeError:
        return []
    items = data.get("memories") if isinstance(data, dict) else None
    return [item for item in items or [] if isinstance(item, dict) and str(item.get("text") or "").strip()]


class Extractor:
    """One worker thread that turns user turns into memories, in order, off the prompt's path."""

    def __init__(self, store, model: ChatModel):
        self.store = store
        self.model = model  # its `destination` decides which known memories the prompt may carry
        self.saved: list = []  # memories written this session (for the episode's privacy)
        self.learned_from: dict[str, list[str]] = {}  # a turn's text → ids of the memories learned from it
        self.errors: list[str] = []
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._work, name="macaron-extract", daemon=True)
        self._thread.start()

    def submit(self, user_text: str) -> None:
        self._queue.put(user_text)

    def later(self, job) -> None:
        """Run another memory write (counting uses, rewards) on this thread, in order."""
        self._queue.put(job)

    def drain(self, timeout: float = 30.0) -> None:
        """Wait (at most `timeout` s) until every submitted turn is processed."""
        done = threading.Event()
        self._queue.put(done)
        done.wait(timeout)

    def take_errors(self) -> list[str]:
        errors, self.errors = self.errors, []
        return errors

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if isinstance(item, threading.Event):
                item.set()
                continue
            try:
                if callable(item):
                    item()
                else:
                    learned = self.learn(item)
                    self.saved.extend(learned)
                    self.learned_from.setdefault(item, []).extend(m.id for m in learned)
            except ModelFailure as exc:
                self.errors.append(f"could not learn from your last message ({exc})")
            except Exception as exc:  # a background failure must never take the chat down
                self.errors.append(f"could not save a memory ({type(exc).__name__}: {str(exc)[:120]})")

    def learn(self, user_text: str) -> list:
        stressed = is_stressed(user_text)
        if not self.model.connected:
            return self._note(user_text, stressed)
        related = self._related(user_text).bound_for(self.model.destination)
        known = "\n".join(f"{m.id}: {m.text}" for m in related) or "(none)"
        reply = self.model.complete(
            EXTRACT_SYSTEM,
            [{"role": "user", "content": f"Known memories:\n{known}\n\nThe person's latest message:\n{user_text}"}],
            max_tokens=600,
        )
        saved = []
        for item in parse_memories(reply):
            saved.append(self._store(item, user_text, stressed, related.memories))
        if saved:
            # Open the new version's text index here, not before the next answer (words alone do).
            self.store.search("warm", k=1, vectors=False)
        return saved

    def _related(self, text: str):
        """Known facts the extraction prompt carries (to link updates), cleared by the gate."""
        now = datetime.now(UTC)
        destination = self.model.destination
        hits = privacy.search(self.store, text, destination, k=5, history=True)  # the old fact an update links to
        return privacy.release(
            [h.memory for h in hits if is_current(h.memory, now) and h.memory.kind in ("fact", "preference")],
            destination,
        )

    def _store(self, item: dict, said: str, stressed: bool, related: list):
        kind = item.get("kind") if item.get("kind") in KINDS else "fact"
        level = item.get("privacy") if item.get("privacy") in LEVELS else "personal"
        stressed = stressed or bool(item.get("stressed"))
        known = {m.id: m for m in related}
        supersedes = item.get("supersedes") if item.get("supersedes") in known else None
        # Labels travel: a new version of a known memory, or one that quotes it, is at
        # least as private as that memory, whatever level the model gave it.
        made_from = [known[supersedes]] if supersedes else []
        made_from += quoted_in(str(item["text"]), related, MIN_QUOTE)
        fields = {
            "kind": kind,
            "domain": str(item.get("domain") or guess_domain(item["text"])),
            # The model's label can only be stricter than what the person's words say.
            "privacy": privacy.level_from([level, privacy.level_said(said), *made_from], floor="public"),
            "source": "chat",
            "reward": REWARD_STRESSED if stressed else 0.0,
            "supersedes": supersedes,
            "meta": {"stressed": True} if stressed else {},
        }
        if item.get("language"):
            fields["language"] = str(item["language"])
        event_at = item.get("event_at")
        if isinstance(event_at, str) and event_at.strip() and event_at.lower() != "null":
            fields["event_at"] = event_at
        try:
            memory = self.store.add(str(item["text"]).strip(), **fields)
        except Exception:  # a date the model got wrong: keep the fact, drop the date
            fields.pop("event_at", None)
            memory = self.store.add(str(item["text"]).strip(), **fields)
        if supersedes:
            self.store.update(supersedes, valid_until=now_iso())
        return memory

    def _note(self, text: str, stressed: bool) -> list:
        """Notebook mode: keep the person's statements about their life, as said, as privately
        as their words ask (privacy.level_said: said to be private, or sensitive)."""
        if not worth_noting(text):
            return []
        memory = self.store.add(
            text.strip(),
            kind="fact",
            domain=guess_domain(text),
            privacy=privacy.level_said(text),
            source="chat",
            reward=REWARD_STRESSED if stressed else 0.0,
            meta={"stressed": True} if stressed else {},
        )
        return [memory]
