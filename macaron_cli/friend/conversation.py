"""One chat session: the short-term window, recall before each answer, and the episode at the end.

The REPL drives it; nothing here prints. Requests carry only memories the privacy gate
cleared for the current model's destination (macaron_cli/privacy.py): the system prompt
takes them as `Cleared` values bound for that destination. What was recalled is kept in
`last` for /why.

Every turn carries a label (`"label"`, privacy.level_from): an answer is as private as
the memories and turns it was made from, a turn of the person's as private as what was
learned from it. The history goes to a model only through `privacy.transcript`, so after
`/model claude` the turns a local model wrote from private memories stay behind, and the
episode's summary is labelled from what it was written from.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime

from macaron_cli import privacy
from macaron_cli.friend import kept_turns
from macaron_cli.friend.extract import Extractor, worth_noting
from macaron_cli.friend.persona import Persona
from macaron_cli.friend.phrases import said
from macaron_cli.friend.recall import (
    RecallRecord,
    is_current,
    mark_used,
    needs_check,
    own_records,
    recall,
    reward,
    upcoming,
)
from macaron_cli.lifelog.memories import AppDigests
from macaron_cli.memory import Memory, derived
from macaron_cli.models.chat import ChatModel

WINDOW = 12  # messages of short-term memory sent with each request (6 exchanges)
MAX_ANSWER_TOKENS = 1024
GUIDE = (
    "You remember this person across conversations. Be concise and genuinely curious about them; "
    "never mother them and never push tools or apps on them unless they ask. Use what you remember "
    "only when it helps, without reciting it."
)
SUMMARY_SYSTEM = (
    "Summarise this conversation in one to three sentences, in the person's language, as a note for "
    "remembering it later: what they talked about, decided or felt. Plain text only."
)
FROM_APPS = (
    "Memories marked 'recorded in your app' are what the person logged in one of their apps: answer "
    "questions about it from them, with the numbers as written, and name the app."
)
# The person's own records their privacy keeps from this model were shown to them on this
# machine: the model hears only that, so it can follow on without guessing a figure.
SHOWN_HERE = (
    "The person was just shown, on their own screen, what {n} of their apps recorded; their privacy "
    "setting keeps those records from you. Do not guess or repeat any figure: follow on from what they "
    "asked (how it went, what's next)."
)
# Said once, when the chat starts without a model; the answers themselves do not repeat it.
NOTEBOOK_NOTICE = (
    "No model is connected (notebook mode): I keep what you tell me and show what I remember. "
    "To talk with a model: set ANTHROPIC_API_KEY for Claude, or serve one on this machine "
    "(`macaron draft serve`), then /model claude or /model local."
)


class Conversation:
    def __init__(self, store, model: ChatModel, persona: Persona, now: datetime | None = None):
        self.store = store
        self.model = model
        self.persona = persona
        self.messages: list[dict] = []
        self.last: RecallRecord | None = None
        self.extractor = Extractor(store, model)
        self.upcoming = upcoming(store, model.destination, now)
        self._checked: set[str] = set()
        # What the person records in their apps, kept as memories before each recall.
        self.apps = AppDigests(store)

    def switch(self, model: ChatModel) -> int:
        """Talk through another model from the next turn on (its own privacy levels apply).
        Returns how many earlier turns the new model will not see (their labels forbid it)."""
        self.model = model
        self.extractor.model = model
        self.upcoming = upcoming(self.store, model.destination)
        return privacy.transcript(self.labelled(), model.destination)[1] if model.connected else 0

    def opening(self, nudges: bool = True) -> list[str]:
        """How a later chat opens: from something the friend knows, and what is coming up soon,
        and (`nudges`, the person's `app_nudges`) one thing an app recorded worth a word."""
        lines = [_say(self.persona, "hello")]
        shown = privacy.person()  # the opening is printed for the person, never sent
        known = privacy.recent(self.store, 1, shown, where="kind = 'episode'") or privacy.recent(
            self.store, 1, shown, where="kind = 'preference'"
        )
        if known:
            key = "last_time" if known[0].kind == "episode" else "interest"
            lines.append(_say(self.persona, key, text=known[0].text))
        for memory in self.upcoming[:3]:
            lines.append(_say(self.persona, "soon", text=memory.text, when=_day(memory.event_at)))
        from macaron_cli.friend.apps import nudge

        said = nudge(self.apps.refresh(), on=nudges)
        if said:
            lines.append(said)
        return lines

    # ── before the answer ───────────────────────────────────────────────────────────────
    def recall_for(self, text: str) -> RecallRecord:
        destination = self.model.destination
        self.apps.refresh()
        context = " ".join(m["content"] for m in self.messages[-2:] if m["role"] == "user")
        query = f"{text} {context}".strip()
        # The person's own records are a search apart: it runs beside the recall (both mostly
        # wait on LanceDB's threads), not after it.
        shown = _beside(own_records, self.store, text, destination) if self.model.connected else None
        hits = recall(self.store, query, destination)
        self.last = RecallRecord(text, destination, hits, shown_here=(shown.result() if shown else None) or None)
        return self.last

    def stale_memory(self, record: RecallRecord, now: datetime | None = None) -> Memory | None:
        """The first recalled memory that is important, old and unconfirmed (asked once a session)."""
        now = now or datetime.now(UTC)
        for hit in record.hits[:3]:
            if hit.memory.id not in self._checked and needs_check(hit.memory, now):
                self._checked.add(hit.memory.id)
                return hit.memory
        return None

    def system_prompt(self, record: RecallRecord, now: datetime | None = None) -> str:
        now = now or datetime.now(UTC)
        destination = self.model.destination
        parts = [self.persona.voice(), GUIDE, f"Today is {now:%A %d %B %Y}."]
        hits = record.hits.bound_for(destination)
        if hits:
            parts.append("What you remember that may matter now (most relevant first):")
            parts.extend(f"- {h.memory.text} ({_noted(h.memory)})" for h in hits)
            if any(h.memory.kind == "app" for h in hits):
                parts.append(FROM_APPS)
        if record.shown_here:
            parts.append(SHOWN_HERE.format(n=len(record.shown_here)))
        soon = [m for m in self.upcoming.bound_for(destination) if is_current(m, now)]
        if soon:
            parts.append("Coming up in the next days:")
            parts.extend(f"- {m.text} ({m.event_at[:10]})" for m in soon)
        return "\n".join(parts)

    def window(self) -> list[dict]:
        """The last turns as they may go to the current model (labels re-gated each time).
        The turn being answered goes as typed: the person is saying it to this model now;
        its label (what it says, what is learned from it) keeps it from the next requests."""
        sent = privacy.transcript(self._recent(), self.model.destination)[0]
        if sent and self.messages and self.messages[-1]["role"] == "user":
            sent[-1] = {"role": "user", "content": self.messages[-1]["content"]}
        return sent

    def _recent(self) -> list[dict]:
        recent = self.labelled()[-WINDOW:]
        while recent and recent[0]["role"] != "user":  # the API wants a user turn first
            recent = recent[1:]
        return recent

    def labelled(self) -> list[dict]:
        """The turns with their labels as known now: a turn of the person's is as private as
        the memories learned from it (extraction runs behind the chat), an answer as private
        as the turn it answered."""
        levels = {m.id: m.privacy for m in list(self.extractor.saved)}
        turns, asked = [], privacy.FLOOR
        for message in self.messages:
            label = message.get("label", privacy.FLOOR)
            if message["role"] == "user":
                learned = self.extractor.learned_from.get(message["content"], [])
                label = asked = privacy.level_from([label, *(levels.get(i, "secret") for i in learned)])
            else:
                label = privacy.level_from([label, asked])
            message["label"] = label
            turns.append(message)
        return turns

    def _sources(self, record: RecallRecord, now: datetime | None = None) -> list:
        """What an answer is made from: the memories in its prompt and the turns sent with it."""
        destination = self.model.destination
        soon = [m for m in self.upcoming.bound_for(destination) if is_current(m, now or datetime.now(UTC))]
        turns = [t for t in self._recent() if privacy.may_carry(t, destination)]
        return [*record.hits.bound_for(destination), *soon, *turns]

    # ── the answer ──────────────────────────────────────────────────────────────────────
    def reply(self, text: str, record: RecallRecord) -> Iterator[str]:
        """Stream the answer. Stopping early (Ctrl-C) keeps what was said so far in the window."""
        # Said to be private, or sensitive: the turn is labelled so now, before anything is
        # learned from it (the window of the next request re-gates it).
        self.messages.append({"role": "user", "content": text, "label": privacy.level_said(text)})
        self.extractor.submit(text)
        said: list[str] = []
        made = privacy.LabelledText.made("", *self._sources(record))  # a notebook answer lists memories too
        try:
            if self.model.connected:
                chunks = self.model.stream(self.system_prompt(record), self.window(), MAX_ANSWER_TOKENS)
            else:
                chunks = iter([notebook_answer(text, record, self.persona.language)])
            for chunk in chunks:
                said.append(chunk)
                yield chunk
        finally:
            answer = "".join(said).strip()
            self.messages.append(
                {"role": "assistant", "content": answer or "…", "label": made.level, "sources": list(made.sources)}
            )
            if answer:
                self.extractor.later(lambda: self._account(record))

    def _account(self, record: RecallRecord) -> None:
        """After an answer (on the background thread): count uses, tell the ledger what went where."""
        mark_used(self.store, record.hits)
        if self.model.connected:
            from macaron_cli.ledger.signals import answer_given

            domain = record.hits[0].memory.domain if record.hits else "general"
            record.answer_id = answer_given(record.hits, record.destination, domain=domain)

    def feedback(self, liked: bool) -> int:
        """/good or /bad on the last answer: queued after its accounting, so it finds the answer."""
        record = self.last
        if record is None:
            return 0

        def apply():
            reward(self.store, record.hits, liked)
            if record.answer_id:
                from macaron_cli.ledger.signals import answer_feedback

                answer_feedback(record.answer_id, liked)

        self.extractor.later(apply)
        return len(record.hits)

    # ── the end ─────────────────────────────────────────────────────────────────────────
    def end(self) -> list[Memory]:
        """Finish learning, then keep the session as its episodes (none for an empty session)."""
        self.extractor.drain()
        if not any(m["role"] == "user" for m in self.messages):
            return []
        summary = None
        turns = self.labelled()
        learned = list(self.extractor.saved)
        if self.model.connected:
            destination = self.model.destination
            went = [t for t in turns[-40:] if privacy.may_carry(t, destination)]
            transcript = "\n".join(f"{m['role']}: {m['content']}" for m in went)
            try:
                text = self.model.complete(SUMMARY_SYSTEM, [{"role": "user", "content": transcript}], 300).strip()
                summary = privacy.LabelledText.made(text, *went, *learned) if text else None
            except Exception:
                summary = None  # the model is gone: fall back to the person's own words
        # The episode is as private as what it was written from (the turns it saw, what was
        # learned) and names its sources, so forgetting one removes it here too
        # (memory/derived.py): a summary in the person's words loses that turn, one the
        # model wrote goes whole.
        if summary:
            meta = {derived.DERIVED_FROM: list(summary.sources)} if summary.sources else {}
            episodes = [
                self.store.add(
                    summary.text, kind="episode", domain="general", source="chat", privacy=summary.level, meta=meta
                )
            ]
        else:
            episodes = _episodes_in_their_words(self.store, turns, self.extractor.learned_from, learned)
        kept_turns.clear()  # the episodes hold them now
        return episodes

    # ── what was said, kept while the chat lasts ────────────────────────────────────────
    def keep_turns(self) -> None:
        """Write what was said so far where the next chat finds it, if this one never ends
        as it should (a slash command reaches far: apps, files, the coder)."""
        if any(m["role"] == "user" for m in self.messages):
            kept_turns.save(self.labelled(), self.extractor.learned_from)

    def keep_left_behind(self) -> list[Memory]:
        """The turns a chat that stopped early left behind, kept as its episodes now."""
        turns = kept_turns.take()
        if not any(t.get("role") == "user" for t in turns):
            kept_turns.clear()
            return []
        learned_from = {t["content"]: t.get("learned") or [] for t in turns if t.get("role") == "user"}
        # each turn's label already holds what was learned from it (labelled() when saved)
        episodes = _episodes_in_their_words(self.store, turns, learned_from, [])
        kept_turns.clear()
        return episodes


# An episode in the person's words holds whole turns up to this many characters; a longer
# conversation is kept as several episodes, never cut (a turn longer than this is one alone).
EPISODE_CHARS = 600


def _episodes_in_their_words(store, turns: list[dict], learned_from: dict, learned: list) -> list[Memory]:
    """A session kept in the person's own words (no model summed it up): "Talked about: …"
    in the conversation's language, every turn whole. Turns are kept apart by how private
    they are (a private line never makes the rest private), and a long session is several
    episodes. Each part is linked to what was learned from it, so forgetting one cuts it out
    (memory/derived.py); each episode is as private as its turns and what was learned from them."""
    from macaron_cli.reading.text import detect_language

    asked = [t for t in turns if t["role"] == "user" and str(t["content"]).strip()]
    if not asked:
        return []
    language = detect_language(" ".join(t["content"] for t in asked))
    head = said(language, "talked_about")
    by_id = {m.id: m for m in learned}
    by_level: dict[str, list[dict]] = {}
    for turn in asked:
        level = privacy.level_from([turn, *(by_id[i] for i in learned_from.get(turn["content"], []) if i in by_id)])
        by_level.setdefault(level, []).append(turn)
    episodes = []
    for group in by_level.values():
        for chunk in _fitting(group, EPISODE_CHARS - len(head)):
            ids = [i for t in chunk for i in learned_from.get(t["content"], [])]
            parts = [(t["content"].strip(), learned_from.get(t["content"], [])) for t in chunk]
            text, meta = derived.with_parts(head, parts)
            summary = privacy.LabelledText.made(text, *chunk, *(by_id[i] for i in ids if i in by_id))
            episodes.append(
                store.add(
                    summary.text,
                    kind="episode",
                    domain="general",
                    source="chat",
                    privacy=summary.level,
                    meta=meta,
                    language=language,
                )
            )
    return episodes


def _fitting(turns: list[dict], room: int) -> list[list[dict]]:
    """`turns` in order, in runs whose words fit `room` characters (a longer turn runs alone)."""
    runs: list[list[dict]] = [[]]
    used = 0
    for turn in turns:
        size = len(turn["content"].strip()) + 2
        if runs[-1] and used + size > room:
            runs.append([])
            used = 0
        runs[-1].append(turn)
        used += size
    return runs


_helper: ThreadPoolExecutor | None = None


def _beside(fn, *args) -> Future:
    """`fn(*args)` begun on a helper thread, to run beside what this thread does next."""
    global _helper
    if _helper is None:
        _helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="macaron-recall")
    return _helper.submit(fn, *args)


def _noted(memory: Memory) -> str:
    if memory.kind == "app" and memory.meta.get("app"):
        return f"recorded in your app {memory.meta['app']}, {memory.domain}, up to {memory.meta.get('today')}"
    return f"{memory.domain}, noted {memory.created_at[:10]}"


def notebook_answer(text: str, record: RecallRecord, language: str = "en") -> str:
    """The answer with no model, in `language` (the chat's; the line's own where it is not English)."""
    from macaron_cli.memory.text import detect_language

    language = asked if (asked := detect_language(text)) != "en" else language
    lines = []
    if worth_noting(text) and privacy.private_as_said(text):
        lines.append(said(language, "notebook.private"))
    elif worth_noting(text):
        lines.append(said(language, "notebook.noted"))
    if record.hits:
        lines.append(said(language, "notebook.remember"))
        lines.extend(f"- {h.memory.text}" for h in record.hits[:5])
    else:
        lines.append(said(language, "notebook.nothing"))
    return "\n".join(lines)


def _say(persona: Persona, key: str, **values) -> str:
    """What the friend says on its own (friend/phrases.py), in the person's language and register."""
    name = said(persona.language, "called", name=persona.call_me) if persona.call_me else ""
    return said(persona.language, key, name=name, **values)


def _day(iso: str) -> str:
    return datetime.fromisoformat(iso).strftime("%a %d %b")
