"""The first meeting: a short, skippable quiz that makes the person's macaron, then three gifts.

Every choice made here (flavour, voice, gifts) comes only from the options the person
picked and the interests they named. Words about gender, age, ethnicity, religion and
other protected traits are removed before anything is matched, so two people who differ
only in those get the same macaron and the same gifts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from macaron_cli import lang
from macaron_cli.friend.persona import FLAVOURS, Persona
from macaron_cli.friend.topics import DOMAINS, domains_of, guess_domain, mentions, words
from macaron_cli.manifest import Manifest


class SkipQuiz(Exception):
    """The person asked to skip the rest of the quiz."""


@dataclass
class Question:
    key: str
    text: str
    options: dict[str, str] = field(default_factory=dict)  # answer key → label; empty: free text


QUESTIONS = [
    Question("call_me", "What should I call you? (a name or a nickname, Enter for none)"),
    Question("language", "Which language shall we speak? (en, ja, ko, zh, tl, … Enter for English)"),
    Question(
        "evening",
        "A free evening appears. You would most likely…",
        {
            "a": "go for a run or a long walk",
            "b": "cook something new",
            "c": "read or watch a film",
            "d": "tinker with a project",
            "e": "see friends or family",
        },
    ),
    Question("interests", "What do you care about these days? (a few words, commas between)"),
    Question(
        "style",
        "How should I talk with you?",
        {
            "a": "short and to the point",
            "b": "warm and chatty",
            "c": "playful, with a joke now and then",
        },
    ),
    Question(
        "change",
        "When plans change at the last minute, you…",
        {
            "a": "roll with it",
            "b": "want a new plan quickly",
            "c": "need a quiet moment first",
        },
    ),
    Question(
        "flavour",
        "Last one: pick a macaron.",
        {
            "a": "pistachio",
            "b": "raspberry",
            "c": "lemon",
            "d": "lavender",
            "e": "chocolate",
            "f": "matcha",
        },
    ),
]
EVENING_INTERESTS = {
    "a": "running",
    "b": "cooking",
    "c": "reading and films",
    "d": "making things",
    "e": "friends and family",
}
STYLE_OF = {"a": "brief", "b": "warm", "c": "playful"}
CHANGE_TRAIT = {
    "a": "flexible when plans change",
    "b": "likes a clear plan",
    "c": "likes a calm moment before deciding",
}
SKIP_WORDS = {"skip", "/skip", "s"}

# Removed from free text before matching: choices must never depend on these.
_PROTECTED = re.compile(lang.pattern("protected"), re.IGNORECASE)


def strip_protected(text: str) -> str:
    return re.sub(r"\s+", " ", _PROTECTED.sub(" ", text)).strip(" ,;.")


@dataclass
class QuizResult:
    persona: Persona
    interests: list[str]


def run_quiz(ask: Callable[[str], str], say: Callable[[str], None], default_language: str = "en") -> QuizResult:
    """Ask the questions through `ask`; 'skip' (or Ctrl-D) at any point keeps the defaults."""
    answers: dict[str, str] = {}
    say("Let's make your own macaron: a few quick questions (type 'skip' any time).")
    try:
        for question in QUESTIONS:
            answers[question.key] = _ask_one(question, ask, say)
    except (SkipQuiz, EOFError, KeyboardInterrupt):
        say("No problem, we can get to know each other as we go.")
    answers.setdefault("language", "")
    if not answers["language"]:
        answers["language"] = default_language
    return result_from_answers(answers)


def _ask_one(question: Question, ask, say) -> str:
    say(question.text)
    for key, label in question.options.items():
        say(f"  {key}) {label}")
    while True:
        answer = ask("› ").strip()
        if answer.lower() in SKIP_WORDS:
            raise SkipQuiz
        if answer.startswith("/"):
            say("Commands can wait until after the quiz: answer the question, Enter to pass, or 'skip'.")
            continue
        if question.key == "call_me" and not _a_name(answer):
            say("That sounds like something to ask me after the quiz: a name or a nickname, Enter for none.")
            continue
        if question.key == "language" and answer and language_code(answer) is None:
            say(
                "I don't know that language: give a code like en, ja, pt-BR "
                "or a name like Japanese (Enter for English)."
            )
            continue
        if not question.options:
            return answer
        picked = _pick(answer, question.options)
        if picked or not answer:
            return picked
        say(f"Pick one of {', '.join(question.options)} (or Enter to pass).")


def _a_name(answer: str) -> bool:
    """Whether an answer to "What should I call you?" can be a name: not a question ("where do
    I live?", typed by someone who thought the chat had begun), nor a sentence."""
    from macaron_cli.memory.turns import asks

    return not asks(answer) and len(answer.split()) <= 4


def _pick(answer: str, options: dict[str, str]) -> str:
    lowered = answer.lower().strip(" )")
    if lowered in options:
        return lowered
    for key, label in options.items():
        if lowered and lowered in label:
            return key
    return ""


def result_from_answers(answers: dict[str, str]) -> QuizResult:
    """The persona and interests that follow from the quiz answers alone."""
    flavour = options_label("flavour", answers.get("flavour")) or "pistachio"
    color, temperament = FLAVOURS[flavour]
    traits = [CHANGE_TRAIT[answers["change"]]] if answers.get("change") in CHANGE_TRAIT else []
    persona = Persona(
        flavour=flavour,
        color=color,
        temperament=temperament,
        style=STYLE_OF.get(answers.get("style") or "", "warm"),
        traits=traits,
        language=_language_code(answers.get("language") or "en"),
        call_me=strip_protected(answers.get("call_me") or "")[:40],
    )
    interests = []
    if answers.get("evening") in EVENING_INTERESTS:
        interests.append(EVENING_INTERESTS[answers["evening"]])
    for part in re.split(r"[,、，;/]|\band\b", strip_protected(answers.get("interests") or "")):
        part = strip_protected(part)
        if part and part.lower() not in (i.lower() for i in interests):
            interests.append(part)
    return QuizResult(persona, interests[:8])


def options_label(key: str, answer: str | None) -> str:
    question = next(q for q in QUESTIONS if q.key == key)
    return question.options.get(answer or "", "")


# A language's name as a person answers (lang's language_names: name=code, each language's own).
_LANGUAGE_NAMES = dict(pair.partition("=")[::2] for pair in lang.pattern("language_names").split("|"))


def language_code(text: str) -> str | None:
    """The language tag `text` names (a known name, or a BCP 47-shaped tag), or None."""
    text = text.strip()
    named = _LANGUAGE_NAMES.get(text.lower())
    if named:
        return named
    from macaron_cli.memory.records import is_language_tag  # BCP 47, the rule memories are held to

    if not is_language_tag(text):
        return None
    first, *rest = text.split("-")
    # Conventional case: language lower, script title, region upper (pt-BR, zh-Hant).
    return "-".join(
        [
            first.lower(),
            *(p.title() if len(p) == 4 and p.isalpha() else p.upper() if len(p) == 2 else p.lower() for p in rest),
        ]
    )


def _language_code(text: str) -> str:
    return language_code(text) or "en"


def seed_memories(interests: list[str], language: str) -> list[dict]:
    """One preference memory per interest, for the store."""
    return [
        {
            "text": f"Interested in {interest}",
            "kind": "preference",
            "domain": guess_domain(interest),
            "language": language,
            "privacy": "personal",
            "source": "chat",
            "meta": {"from": "onboarding"},
        }
        for interest in interests
    ]


# ── gifts ────────────────────────────────────────────────────────────────────────────────
def load_manifests() -> list[Manifest]:
    """Every template's macaron.json (name, title, description, keywords…); [] when none
    ship. A broken one is left out: it should not spoil the first meeting."""
    from macaron_cli.manifest import template_manifests

    try:
        found = template_manifests()
    except FileNotFoundError:
        return []
    return [m if m.name or m.folder is None else m.updated(name=m.folder.name) for m in found]


def choose_gifts(interests: list[str], manifests: list[Manifest], n: int = 3) -> list[Manifest]:
    """The `n` templates that fit the interests best (ties broken by name: deterministic)."""
    cleaned = [strip_protected(i) for i in interests]
    wanted = set().union(*(words(i) for i in cleaned)) if cleaned else set()
    wanted_domains = set().union(*(domains_of(i) for i in cleaned)) if cleaned else set()

    def score(manifest: Manifest) -> float:
        keywords = [k.lower() for k in manifest.keywords]
        text = " ".join([manifest.title, manifest.description, *keywords]).lower()
        direct = sum(
            1 for k in keywords if k in wanted or any(k in i.lower() for i in cleaned if len(k) > 2 or not k.isascii())
        )
        by_words = len(wanted & words(text)) * 0.5
        by_domain = sum(0.75 for d in wanted_domains if any(mentions(text, t) for t in DOMAINS[d]))
        return direct + by_words + by_domain

    ranked = sorted(manifests, key=lambda m: (-score(m), m.name))
    return ranked[:n]
