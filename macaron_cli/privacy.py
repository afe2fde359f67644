"""The one privacy gate: may this memory go to this destination?

Every path that puts the person's memories into something that leaves macaron asks here:
chat (the answer's system prompt, extraction's "known memories", what is coming up),
the MCP server's tools and profile (`macaron memory serve`),
make's brief (agent build, refine and fix rounds, the draft, variants and local fix
rounds all read it), the agents' `memory_search` tool, chat's hand-off to make (the same
pipeline), `feedback export` and `share`.

Levels (`LEVELS`, defined here only): `public` and `personal` may go anywhere; `private` only to a
destination on this machine or one the person lists in `trusted_endpoints`; `secret`
never goes to any model (it is shown to the person only).

Where a destination is (decided here, from config and the environment, never by a flag's
name):
- Claude is the cloud whatever its URL: a loopback ANTHROPIC_BASE_URL is usually a proxy
  or gateway on the way to Claude. Only a URL the person lists in `trusted_endpoints`
  makes it trusted.
- The local model is this machine's when macaron started it (`macaron draft serve`
  records its URL as `draft_served_url`) or when it is a loopback URL configured as the
  local model (MACARON_DRAFT_URL or `draft_url`); a trusted URL counts too. Anything
  else is the cloud, whatever model it serves.
- An export (`feedback export`, a `share` bundle) is a file meant to leave: the cloud.
- An MCP client (`macaron memory serve`: Claude Code, Cursor, …) is the cloud, since its
  model is unknown, unless the person declares it under `[mcp.clients.NAME]` in
  config.toml as `model = "local"` (a model on this machine) or `"trusted"`.
- The app folder with no model (an offline make) is on this machine, but a later cloud
  session in the app reads the brief there, so it gets only what any model may see.
- The person (notebook mode, /why, the TUI) sees everything but `secret` in chat.

How it is enforced: memory text reaches a request only as a `Cleared` value, and only this
module makes one (`release`, `search`). The builders of requests (the brief, chat's
system prompt and extraction prompt, memory_search answers, the draft's messages) take a
`Cleared` and call `cleared.bound_for(destination)` for the destination they are about to
send to, which raises `PrivacyViolation` when the memories were cleared for somewhere
else. `--json`, the ledger and `macaron why` read `Destination.cloud` from the same
decision. A query that filters rows by level (the store's search, the ledger's audit)
takes its filter from here (`level_filter`), so no other module spells one out.

Text made from memories carries a label (`level_from`: the highest level of what it was
made from) and is released by it like a memory row (`may_carry`): chat turns and the
episode summary (`transcript`, `LabelledText`; friend/conversation.py), memories extracted
from known ones (friend/extract.py), files a model wrote (app_labels.py, read by
`make --from`, `share` and `feedback export`). "Does this text hold that memory" is
asked of normalised text, in quotes.py, against `not_for` (every memory that may not go).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, get_args
from urllib.parse import urlparse

from macaron_cli import endpoints, lang

if TYPE_CHECKING:
    from macaron_cli.config import Settings

LOOPBACK_NAMES = {"localhost", "ip6-localhost"}
ANTHROPIC_CLOUD = endpoints.ANTHROPIC_CLOUD
# The privacy levels a memory may have (its record's `privacy`), from most to least
# shareable. Only this module defines them; the rest of macaron imports them from here.
# `Level` is the type (an MCP tool's argument, a checked signature), LEVELS its values in order.
Level = Literal["public", "personal", "private", "secret"]
LEVELS: tuple[str, ...] = get_args(Level)
PUBLIC, PERSONAL, PRIVATE, SECRET = LEVELS
CLOUD_LEVELS = frozenset({PUBLIC, PERSONAL})
LOCAL_LEVELS = frozenset({PUBLIC, PERSONAL, PRIVATE})
# What each level means, in the words the person reads (the TUI's privacy dialog).
MEANING = {
    PUBLIC: "may go to any model",
    PERSONAL: "may go to any model; about you",
    PRIVATE: "only models on this machine or ones you trust",
    SECRET: "never sent to any model; shown only to you",
}


class PrivacyViolation(RuntimeError):
    """A request builder was handed memories cleared for another destination (a bug, never input)."""


# ── addresses ───────────────────────────────────────────────────────────────────────────
def _parse(url: str):
    return urlparse(url if "//" in url else f"http://{url}")


def is_loopback(url: str | None) -> bool:
    """True when `url` points at this machine. Says where a server listens, not who runs the
    model behind it: only the gate turns that into local or cloud."""
    if not url:
        return False
    host = (_parse(url).hostname or "").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def same_endpoint(a: str | None, b: str | None) -> bool:
    """Same scheme-less host and port (an explicit default port equals none)."""
    if not a or not b:
        return False
    pa, pb = _parse(a), _parse(b)

    def port(p):
        return p.port or {"https": 443, "http": 80}.get(p.scheme)

    return pa.hostname is not None and (pa.hostname.lower(), port(pa)) == ((pb.hostname or "").lower(), port(pb))


def is_trusted(url: str | None, trusted: Iterable[str] | None) -> bool:
    """True when the person listed `url` (same host and port) in `trusted_endpoints`."""
    return any(same_endpoint(url, t) for t in (trusted or []))


# ── destinations ────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True)
class Destination:
    """Where a request (or a file) goes, and whether that is this machine."""

    kind: str  # claude | draft (the local model) | export | app | person | mcp
    url: str | None
    local: bool
    reason: str
    client: str | None = None  # an MCP client's name, as it introduced itself

    @property
    def cloud(self) -> bool:
        return not self.local

    @property
    def where(self) -> str:
        """What --json, the ledger and `why` say: "local" or "cloud"."""
        return "local" if self.local else "cloud"

    @property
    def levels(self) -> frozenset[str]:
        """The privacy levels that may go there (never `secret`). The app folder is on this
        machine, but a later cloud session reads what is left there: what any model may see."""
        return LOCAL_LEVELS if self.local and self.kind != "app" else CLOUD_LEVELS

    @property
    def label(self) -> str:
        """The endpoint as the ledger records it."""
        if self.client:
            return f"mcp:{self.client}"
        return self.url or ("localhost" if self.local else self.kind)


def _normal(url: str) -> str:
    return url.rstrip("/")


def claude(settings: Settings, url: str | None = None) -> Destination:
    """Claude (chat, the Agent SDK) at ANTHROPIC_BASE_URL: the cloud unless the person trusts that URL."""
    url = _normal(url or endpoints.claude().base)
    if is_trusted(url, settings.trusted_endpoints):
        return Destination("claude", url, True, f"{url} is listed in trusted_endpoints")
    if is_loopback(url):
        return Destination(
            "claude",
            url,
            False,
            f"Claude is the cloud even through a loopback address ({url}); "
            "list it in trusted_endpoints if it is a model of your own",
        )
    return Destination("claude", url, False, "Claude is a cloud model")


def local_model(url: str | None, settings: Settings) -> Destination:
    """The local model (MACARON_DRAFT_URL or config's draft_url unless `url` is given); its
    kind stays "draft": the ledger may record it (Destination.label)."""
    url = _normal(url or endpoints.local_model(settings).url or "")
    served = endpoints.served(settings).url
    if not url:
        return Destination("draft", None, False, "no draft model is configured")
    if is_trusted(url, settings.trusted_endpoints):
        return Destination("draft", url, True, f"{url} is listed in trusted_endpoints")
    if isinstance(served, str) and same_endpoint(url, served) and is_loopback(url):
        return Destination("draft", url, True, "macaron started this draft model on this machine (draft serve)")
    if is_loopback(url):
        return Destination("draft", url, True, "the draft model is configured at a loopback address on this machine")
    return Destination("draft", url, False, f"the draft model at {url} is on another machine: it counts as cloud")


def export(what: str) -> Destination:
    """A file meant to leave this machine (`feedback export`, a `share` bundle)."""
    return Destination("export", None, False, f"{what} is meant to leave this machine")


def app_folder() -> Destination:
    """A brief written into an app with no model now (offline): it stays on this machine, but
    a later cloud session in the app reads it, so it carries what any model may see."""
    return Destination(
        "app", None, True, "no model now; the brief stays in the app, where a later cloud session may read it"
    )


def mcp_client(name: str, settings: Settings) -> Destination:
    """An MCP client of `macaron memory serve`, by the name it gave when it connected: the
    cloud (its model is unknown) unless the person declared it local or trusted."""
    from macaron_cli import config

    model = config.mcp_settings(settings).model_of(name)
    if model == "local":
        return Destination("mcp", None, True, f"you declared {name} local ([mcp.clients] in config.toml)", name)
    if model == "trusted":
        return Destination("mcp", None, True, f"you declared {name} trusted ([mcp.clients] in config.toml)", name)
    return Destination(
        "mcp",
        None,
        False,
        f"an MCP client's model is unknown, so {name} counts as cloud; declare it under "
        "[mcp.clients] in config.toml if its model runs on this machine",
        name,
    )


def person() -> Destination:
    """Shown to the person only (notebook mode): nothing is sent anywhere."""
    return Destination("person", None, True, "shown to you only; nothing is sent")


# ── what an app records ─────────────────────────────────────────────────────────────────
# Health and money apps record what a person least wants overheard: their records are
# private unless the person says otherwise (`macaron apps privacy`, or asked at make time).
SENSITIVE_DOMAINS = {"health": "health", "fitness": "health", "finance": "money"}
_ADVICE_DOMAINS = {"medical": "health", "financial": "money"}


def sensitive_kind(domain: str, advice: str | None = None) -> str | None:
    """ "health" or "money" for an app whose records are private by default (by its declared
    domain, or the medical or financial advice it would give), else None."""
    return SENSITIVE_DOMAINS.get(domain) or _ADVICE_DOMAINS.get(advice or "")


def app_records_level(domain: str, advice: str | None = None) -> str:
    """The level of what an app records, by default: private for health and money apps."""
    return PRIVATE if sensitive_kind(domain, advice) else PERSONAL


def who_hears(level: str) -> str:
    """Who hears an app's digests at `level`, in the person's words: where the level may go."""
    if level in CLOUD_LEVELS:
        return "any model may hear its digests"
    if level in LOCAL_LEVELS:
        return "its digests go only to models on this machine (or ones you trust)"
    return "its digests are shown to you only, never to a model"


def other_app_level(level: str) -> str:
    """The level `macaron apps privacy` offers instead of an app's `level`: private for one
    any model hears, personal (shared again) for one kept closer."""
    return PRIVATE if level in CLOUD_LEVELS else PERSONAL


# ── what the person says ────────────────────────────────────────────────────────────────
# What is said in chat is kept as privately as an app of its kind would keep it: health,
# money and a relationship in crisis are private by default, and so is anything the person
# says is private, in words (ここだけの話, 비밀인데, "this stays between us"). A model that
# extracts memories may label them stricter, never looser (level_said is their floor).
SAID_SENSITIVE = {"health": "said.health", "money": "said.money", "relationship": "said.relationship"}


@cache
def _said(concept: str) -> re.Pattern:
    return re.compile(lang.pattern(concept), re.IGNORECASE | re.MULTILINE)


def said_private(text: str) -> bool:
    """Does `text` say, in words, that it is private (secret, between us, not to be told)?"""
    return bool(_said("said.private").search(text))


def sensitive_said(text: str) -> str | None:
    """ "health", "money" or "relationship" when `text` speaks of one (a dose, a salary, a
    divorce), else None."""
    return next((kind for kind, concept in SAID_SENSITIVE.items() if _said(concept).search(text)), None)


def private_as_said(text: str) -> bool:
    """Is what the person said private: said so in words, or sensitive?"""
    return said_private(text) or sensitive_said(text) is not None


def level_said(text: str) -> str:
    """The level of what the person said: private when they said so or it is sensitive,
    else the floor (theirs, shareable)."""
    return PRIVATE if private_as_said(text) else FLOOR


def opened() -> str:
    """The level of a memory the person opens to any model (`/share` in chat)."""
    return FLOOR


# ── the decision ────────────────────────────────────────────────────────────────────────
def may_go(memory, destination: Destination) -> bool:
    """May `memory` (a Memory or a search hit) go to `destination`?"""
    return getattr(memory, "memory", memory).privacy in destination.levels


def levels_for(*destinations: Destination) -> frozenset[str]:
    """The levels that may go to every one of `destinations` (a brief read by two models)."""
    levels = frozenset(LOCAL_LEVELS)
    for d in destinations:
        levels &= d.levels
    return levels


def level_filter(levels: Iterable[str], column: str = "privacy") -> str:
    """The SQL filter keeping the rows whose `column` is one of `levels` (LanceDB and SQLite
    read it alike); "false" when no level may. Every filter by level is written here."""
    chosen = sorted(set(levels))
    if not chosen:
        return "false"
    return f"{column} IN (" + ", ".join(f"'{level}'" for level in chosen) + ")"


def kept_from_cloud(column: str = "privacy") -> str:
    """The SQL filter keeping the rows at a level that may never go to the cloud (the
    ledger's audit of what went there)."""
    return level_filter(set(LEVELS) - CLOUD_LEVELS, column)


_TOKEN = object()


class Cleared:
    """Memories (or search hits) the gate released for one or more destinations.

    Only `release` and `search` below make one: the constructor refuses anyone else. It
    reads like the list it holds; the request builders call `bound_for(destination)`
    before putting its text into a request, so memories cleared for the draft model on
    this machine can never be put into a request to Claude.
    """

    __slots__ = ("_items", "destinations", "left_out")

    def __init__(self, items, destinations: tuple[Destination, ...], token=None, left_out: int = 0):
        if token is not _TOKEN:
            raise PrivacyViolation("only macaron_cli.privacy may clear memories (use privacy.release)")
        self._items = tuple(items)
        self.destinations = tuple(destinations)
        self.left_out = left_out  # found, and left out as history a newer memory replaced (`search`)

    def bound_for(self, destination: Destination) -> Cleared:
        """Self, when it was cleared for `destination`; else PrivacyViolation."""
        if destination not in self.destinations:
            raise PrivacyViolation(
                f"memories cleared for {[d.label for d in self.destinations]} cannot go to {destination.label}"
            )
        return self

    @property
    def memories(self) -> list:
        return [getattr(m, "memory", m) for m in self._items]

    @property
    def ids(self) -> list[str]:
        return [m.id for m in self.memories]

    def __iter__(self) -> Iterator:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Cleared(self._items[index], self.destinations, _TOKEN)
        return self._items[index]

    def __bool__(self) -> bool:
        return bool(self._items)

    def __repr__(self) -> str:
        return f"Cleared({len(self._items)} for {[d.label for d in self.destinations]})"


def release(items: Iterable, *destinations: Destination) -> Cleared:
    """Keep the memories (or hits) that may go to every one of `destinations`, in order."""
    if not destinations:
        raise ValueError("release needs at least one destination")
    levels = levels_for(*destinations)
    kept = [m for m in items if getattr(m, "memory", m).privacy in levels]
    return Cleared(kept, destinations, _TOKEN)


def nothing(*destinations: Destination) -> Cleared:
    return Cleared((), destinations, _TOKEN)


def recent(store, n: int, *destinations: Destination, where: str | None = None) -> Cleared:
    """The `n` newest live memories (matching the LanceDB filter `where`) that may go to every
    one of `destinations`: the store filters by level so `n` counts only those, and `release`
    checks again."""
    allowed = level_filter(levels_for(*destinations))
    return release(store.live(limit=n, where=f"({where}) AND {allowed}" if where else allowed), *destinations)


def search(store, query: str, *destinations: Destination, k: int = 5, history: bool = False, **kwargs) -> Cleared:
    """The store's hits for `query` that may go to every one of `destinations`: the store
    prefilters by level, and `release` checks again so a store that ignored the filter
    could never leak. What is answered from memory is what is true now: a hit a newer memory
    replaced ("I live in Osaka" after "we moved to Kyoto") is history, left out and counted
    (`left_out`) unless `history` (what links a new fact to the old one it updates)."""
    if store is None or not query.strip():
        return nothing(*destinations)
    hits = store.search(query, k=k, privacy=sorted(levels_for(*destinations)), **kwargs)
    now = hits if history else [hit for hit in hits if not hit.replaced]
    cleared = release(now, *destinations)
    cleared.left_out = len(hits) - len(now)
    return cleared


def held_back(store, query: str, destination: Destination, kind: str, k: int = 3, **kwargs) -> Cleared:
    """The memories of `kind` bearing on `query` that `destination` may not hear, released to
    the person alone: what they asked about their own records is shown on this machine, never
    withheld from them (an app's private digest when the friend talks through the cloud)."""
    kept_back = set(LEVELS) - set(destination.levels)
    if store is None or not kept_back or not query.strip() or not kind.isalpha():
        return nothing(person())
    # Among memories of `kind` alone: one search (none found costs no more than a count), and
    # other memories that share a word never crowd them out.
    hits = store.search(query, k=k, privacy=sorted(kept_back), kind=kind, **kwargs)
    return release([h for h in hits if h.memory.kind == kind], person())


# ── labelled text: what was made from memories ─────────────────────────────────────────
# Labels travel: every text macaron stores or sends (a chat turn, a summary, a draft, an
# app file a model wrote) carries the highest level of what it was made from, and this
# gate releases the labelled text by that level, as it releases memory rows.
FLOOR = PERSONAL  # what the person says or a model writes from nothing: theirs, shareable


def level_of(source) -> str:
    """The level of one source: a level's name, a LabelledText, a chat turn ({"label"}), a
    memory or a search hit."""
    if isinstance(source, str):
        return source if source in LEVELS else SECRET  # an unknown label is the strictest
    if isinstance(source, LabelledText):
        return source.level
    if isinstance(source, dict):
        return level_of(source.get("label", FLOOR))
    return level_of(getattr(getattr(source, "memory", source), "privacy", SECRET))


def level_from(sources: Iterable = (), floor: str = FLOOR) -> str:
    """The highest level among `sources` (never below `floor`): what a text made from them is."""
    return max([floor, *(level_of(s) for s in sources)], key=LEVELS.index)


def quoting(text: str, level: str, store, apart_from: str | None = None) -> str:
    """The label of `text`, written at `level` from something other than memories (an app's
    digest of its own records), when it may quote the person's memories word for word: as
    private as the most private memory it quotes. A quote is judged as chat extraction,
    share and forget judge one (quotes.py, at least MIN_QUOTE characters, any spelling).
    Memories from the source `apart_from` are the text's own earlier versions (a digest's
    last one, labelled by the app's level then): never a quote, or a label once private
    would stay so after the person relabels the app."""
    from macaron_cli.quotes import MIN_QUOTE, quoted_in

    stricter = LEVELS[LEVELS.index(level_of(level)) + 1 :]
    if store is None or not stricter or len(text) < MIN_QUOTE:
        return level_of(level)
    others = [m for m in store.list(limit=None, where=level_filter(stricter)) if m.source != apart_from]
    return level_from([level, *quoted_in(text, others, MIN_QUOTE)])


def may_carry(label, destination: Destination) -> bool:
    """May text with this label (a level, or anything `level_of` reads) go to `destination`?"""
    return level_of(label) in destination.levels


@dataclass(frozen=True)
class LabelledText:
    """Text made from memories (a summary, an answer): the text, its label and the ids of the
    memories it came from. (A memory stored from others is memory/derived.py's.)"""

    text: str
    level: str = FLOOR
    sources: tuple[str, ...] = ()

    @classmethod
    def made(cls, text: str, *inputs) -> LabelledText:
        """`text` labelled from `inputs` (memories, hits, LabelledTexts, turns, levels)."""
        ids: list[str] = []
        for item in inputs:
            if isinstance(item, LabelledText):
                ids += item.sources
            elif isinstance(item, dict):  # a chat turn names the memories it was made from
                ids += [i for i in item.get("sources", []) if isinstance(i, str)]
            elif not isinstance(item, str):
                ids.append(getattr(item, "memory", item).id)
        return cls(text, level_from(inputs), tuple(dict.fromkeys(ids)))


# How far back a chain of derived memories is followed for its label (a summary of a
# summary of a digest is three links); past that the stored label stands.
CHAIN_DEPTH = 6
Links = dict[str, tuple[str, set[str]]]  # memory id -> (its stored level, the ids it was made from)


def labelled_from_sources(
    memories: list, sources: Callable[[Any], set[str]], lookup: Callable[[set[str]], Links]
) -> list:
    """`memories` (Memory records), each derived one at least as private as its sources are
    now: its label is the strictest of its own and theirs, followed along the chain
    `sources(memory)` names (memory/derived.py keeps it). `lookup` gives the stored
    (level, sources) of memories by id. Read, never stored: relabelling a source (an app made
    private, a memory marked secret) changes what was made from it with no rewrite to
    forget, and relabelling it back undoes it."""
    chains = {m.id: sources(m) for m in memories if sources(m)}
    if not chains:
        return memories
    known: Links = {m.id: (m.privacy, sources(m)) for m in memories}
    wanted = set().union(*chains.values()) - set(known)
    for _ in range(CHAIN_DEPTH):
        if not wanted:
            break
        found = lookup(wanted)
        known.update(found)
        wanted = set().union(set(), *(links for _level, links in found.values())) - set(known)

    def strictest(memory_id: str, seen: frozenset) -> str:
        level, links = known.get(memory_id, (None, set()))
        inherited = [strictest(link, seen | {link}) for link in links if link not in seen and link in known]
        return level_from([level, *inherited] if level else inherited)

    return [replace(m, privacy=strictest(m.id, frozenset({m.id}))) if m.id in chains else m for m in memories]


WITHHELD_TURN = "(withheld here: this turn drew on memories that may not go to this model)"


def transcript(messages: Iterable[dict], destination: Destination) -> tuple[list[dict], int]:
    """Chat turns ({"role", "content", "label"}) as they may go to `destination`: a turn its
    label keeps from there is replaced by a note (the turns keep their order and roles).
    Returns the messages for the request and how many were withheld."""
    sent, held = [], 0
    for message in messages:
        content = message["content"]
        if not may_carry(message, destination):
            content, held = WITHHELD_TURN, held + 1
        sent.append({"role": message["role"], "content": content})
    return sent, held


def not_for(store, destination: Destination) -> list:
    """Every memory in `store` that may not go to `destination` (to check that nothing made or
    pasted from one, like an app's code, carries its text there)."""
    if store is None or not set(LEVELS) - destination.levels:
        return []
    # Every memory is looked at, not only those stored at a kept level: a memory made from
    # others is as private as they are now (the store labels it when read).
    return [m for m in store.iter_all() if not may_go(m, destination)]
