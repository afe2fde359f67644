"""`macaron chat`: meet the friend (the first time), then talk."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from macaron_cli.asking import question
from macaron_cli.friend import onboarding
from macaron_cli.friend.persona import Persona, load_persona, save_persona
from macaron_cli.models.registry import open_model

if TYPE_CHECKING:
    from macaron_cli.config import Settings


def chat(model: str | None = None) -> int:
    from macaron_cli import config
    from macaron_cli.friend.conversation import Conversation
    from macaron_cli.friend.repl import Repl
    from macaron_cli.memory import MemoryStore
    from macaron_cli.output import console

    settings = config.load_settings()
    chat_model = open_model(model, settings)  # a bad --model fails here, before anything is written
    store = MemoryStore.open(settings=settings)
    out = console()
    persona = load_persona(settings)
    first_time = persona is None
    interests: list[str] = []
    person_here = sys.stdin.isatty()
    if persona is None and person_here:
        persona, interests, settings = meet(out, store)
    elif persona is None:
        # Piped lines are messages, not answers to the quiz (a first line is no name): the
        # friend is met properly the next time `macaron chat` runs in a terminal.
        persona = Persona(language=_system_language())
    repl = Repl(out, Conversation(store, chat_model, persona), settings)
    if not chat_model.connected:
        from macaron_cli.friend.conversation import NOTEBOOK_NOTICE

        repl.say(NOTEBOOK_NOTICE, style="dim")
    if first_time and person_here:
        offer_gifts(repl, interests)
    repl.run(greet=not first_time)
    return 0


def meet(out, store) -> tuple[Persona, list[str], Settings]:
    """The quiz, the person's macaron, and memories of their interests (before the chat
    starts); with the settings as they are once the persona is saved."""

    def say(text: str) -> None:  # as Repl.say: the quiz's words are plain text, never markup
        out.print(text, markup=False, highlight=False)

    result = onboarding.run_quiz(question(input), say, default_language=_system_language())
    settings = save_persona(result.persona)
    store.add_many(onboarding.seed_memories(result.interests, result.persona.language))
    p = result.persona
    from macaron_cli.output import markup

    out.print(
        markup(
            f"Meet [bold {p.color}]" + "{}[/]: {}. Its colour {} will be your apps' accent too.",
            p.title,
            p.temperament,
            p.color,
        )
    )
    return p, result.interests, settings


def offer_gifts(repl, interests: list[str]) -> None:
    """Three mini-apps chosen from the templates by interests; build one if asked."""
    gifts = onboarding.choose_gifts(interests, onboarding.load_manifests())
    if not gifts:
        return
    repl.say("Three little gifts I could make for you:")
    for n, gift in enumerate(gifts, 1):
        repl.say(f"  {n}) {gift.title or gift.name} — {gift.description}".rstrip(" —"))
    answer = repl.ask(f"Want one now? (1-{len(gifts)}, or Enter for later)", fits=str.isdigit)
    if answer.isdigit() and 1 <= int(answer) <= len(gifts):
        gift = gifts[int(answer) - 1]
        repl.make(gift.title or gift.name, template=gift.name)


def _system_language() -> str:
    """The person's language from the locale (ja_JP.UTF-8 → ja), English when unknown."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        code = value.split(".")[0].split("_")[0].lower()
        if code and code not in ("c", "posix"):
            return code
    return "en"
