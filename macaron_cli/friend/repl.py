"""The chat loop in the terminal: read, recall, stream the answer, handle slash commands.

Plain `input()` with readline (history in $MACARON_HOME/chat_history), so it works in any
terminal and in a pseudo-terminal. Ctrl-C stops the answer being written (or clears the
line) and keeps the chat going; Ctrl-D or /exit leaves. A line ending in a backslash
continues on the next line; a line of three quotes starts and ends a block.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from macaron_cli import config, lang
from macaron_cli.asking import question
from macaron_cli.errors import MacaronError
from macaron_cli.friend import router
from macaron_cli.friend.conversation import Conversation
from macaron_cli.friend.phrases import said as line
from macaron_cli.friend.recall import confirm, retire
from macaron_cli.memory import Hit
from macaron_cli.models.failures import ModelFailure

PROMPT = "you › "
MORE = "... "
BLOCK = '"""'
HISTORY_LINES = 1000
# A whole answer that means yes or no, in every language (lang's answer.yes, answer.no).
YES = frozenset(lang.listed("answer.yes"))
NO = frozenset(lang.listed("answer.no"))

# Under /help's list of commands (COMMANDS, at the end of this module).
TYPING_HELP = 'End a line with \\ to continue it; put """ on a line to start and end a block.'


class Repl:
    def __init__(self, console, conversation: Conversation, settings: config.Settings):
        self.out = console
        self.conv = conversation
        # The person's settings, loaded once by `macaron chat`; a slash command that saves
        # one (/nudges, /name) holds the saved settings from then on.
        self.settings = settings
        self.served: dict = {}  # slug → the app this chat started (stopped when it ends)
        # Slash commands typed at a question: they run as commands once the question's work
        # is over, never taken for its answer (a command run inside a make would nest in it).
        self.waiting: list[str] = []

    # ── the loop ────────────────────────────────────────────────────────────────────────
    def run(self, greet: bool = True) -> None:
        history = _start_history()
        left_behind = self.conv.keep_left_behind()
        if left_behind:
            kept = ", ".join(episode.id for episode in left_behind)
            self.say(f"(the last chat stopped before its goodbye; what was said is kept as {kept})", style="dim")
        try:
            for line in self.conv.opening(nudges=self.settings.app_nudges) if greet else []:
                self.say(line)
            while True:
                self._report_background_errors()
                if self._run_waiting() == "exit":
                    break
                try:
                    text = self.read()
                except EOFError:
                    self.out.print()
                    break
                except KeyboardInterrupt:
                    self.out.print()
                    continue
                text = text.strip()
                if not text:
                    continue
                if text.startswith("/"):
                    if self.command(text) == "exit":
                        break
                    continue
                self.turn(text)
        finally:
            _save_history(history)
            self.finish()  # even when something unforeseen ends the chat: what was said is kept

    @question
    def read(self) -> str:
        first = input(PROMPT)
        if first.strip() == BLOCK:
            lines = []
            while (line := input(MORE)).strip() != BLOCK:
                lines.append(line)
            return "\n".join(lines)
        lines = [first]
        while lines[-1].endswith("\\"):
            lines[-1] = lines[-1][:-1]
            lines.append(input(MORE))
        return "\n".join(lines)

    @question
    def ask(self, question: str, fits: Callable[[str], bool] | None = None) -> str:
        """A yes/no (or free) answer; Ctrl-C or Ctrl-D count as no. A command typed instead is
        no answer: it runs next; so is anything said that no answer `fits` (the chat hears it)."""
        self.say(question)
        try:
            answer = input("  › ").strip()
        except (EOFError, KeyboardInterrupt):
            self.out.print()
            return ""
        if answer.startswith("/") or (answer and fits is not None and not fits(answer)):
            self.waiting.append(answer)
            what = f"{answer.split()[0]} runs" if answer.startswith("/") else "I take what you said"
            self.say(f"(left that unanswered: {what} next)", style="dim")
            return ""
        return answer

    def _run_waiting(self) -> str | None:
        """What was typed at questions instead of an answer, in order; "exit" when a command
        in it ends the chat."""
        while self.waiting:
            line = self.waiting.pop(0)
            if not line.startswith("/"):
                self.turn(line)
            elif self.command(line) == "exit":
                return "exit"
        return None

    def say(self, text: str, style: str | None = None) -> None:
        from macaron_cli.output import safe_text

        self.out.print(safe_text(text), style=style, markup=False, highlight=False)

    # ── a turn ──────────────────────────────────────────────────────────────────────────
    def turn(self, text: str) -> None:
        from macaron_cli.apps import load_registry
        from macaron_cli.friend.apps import app_to_open
        from macaron_cli.friend.changes import change_asked

        apps = load_registry()
        asked = change_asked(text, apps)
        if asked is not None and self.offer_change(asked, said=text):
            return
        asked_for = app_to_open(text, apps) if not router.wants_a_tool(text) else None
        if asked_for:
            self.open_app(asked_for)
            return
        if router.wants_a_tool(text):
            idea = router.idea_from(text)
            if self.ask(line(self.reply_language(text), "make.offer", idea=idea)).lower() in YES:
                self.make(idea, said=text)
                return
        record = self.conv.recall_for(text)
        stale = self.conv.stale_memory(record)
        if stale is not None:
            self.check_stale(stale, record)
        self.show_own_records(record)
        self.stream(self.conv.reply(text, record))

    def show_own_records(self, record) -> None:
        """What the person's apps recorded that bears on the question, when the model may not
        hear it: shown here, from the app, so nobody is kept from their own records."""
        from macaron_cli.friend.apps import first_time

        for memory in record.shown_here.memories if record.shown_here else []:
            slug = str(memory.meta.get("app") or "")
            self.say(f"▸ from your app {slug} (shown here only): {memory.text}", style="cyan")
            if slug and first_time(f"privacy-hint:{slug}"):
                self.say(
                    f"  {self.conv.model.name} does not see {slug}'s records; "
                    f"`macaron apps privacy {slug} personal` lets it.",
                    style="dim",
                )

    def stream(self, chunks) -> None:
        persona = self.conv.persona
        from macaron_cli.output import markup, safe_text

        if not self.conv.model.connected:  # the notebook's answer is whole: wrapped between words, with its name
            from rich.text import Text

            answer = Text(f"{persona.flavour} › ", style=persona.color) + Text(safe_text("".join(chunks)))
            self.out.print(answer, highlight=False)
            return
        self.out.print(markup(f"[{persona.color}]" + "{} ›[/] ", persona.flavour), end="", highlight=False)
        try:
            for chunk in chunks:
                self.out.print(safe_text(chunk), end="", markup=False, highlight=False, soft_wrap=True)
            self.out.print()
        except KeyboardInterrupt:
            chunks.close()
            self.out.print()
            self.say("(stopped)", style="dim")
        except ModelFailure as exc:
            self.out.print()
            self.say(f"model error: {exc}. Try again, or /model none to keep notes without a model.", style="red")

    def check_stale(self, memory, record) -> None:
        """Before leaning on an old, important fact: still true? Record the answer."""
        answer = self.ask(
            f"Before I rely on this — “{memory.text}” (noted {memory.created_at[:10]}) — "
            "is it still true? (y / n / what changed)"
        )
        if not answer:
            return
        from macaron_cli.ledger.signals import memory_checked

        still_true = answer.lower() in YES
        memory_checked(memory.id, still_true)
        if still_true:
            confirm(self.conv.store, memory)
            return
        newer = retire(self.conv.store, memory, None if answer.lower() in NO else _correction(answer))
        from macaron_cli import privacy

        hits = []  # the retired memory's place goes to its correction, if any
        for h in record.hits:
            if h.memory.id != memory.id:
                hits.append(h)
            elif newer is not None:
                hits.append(Hit(newer, h.score, {**h.parts, "corrected": 1.0}))
        record.hits = privacy.release(hits, record.destination)
        self.say("Thanks, updated." if newer else "Thanks, I'll stop relying on that.", style="dim")

    def make(self, idea: str, said: str | None = None, template: str | None = None) -> None:
        language = self.reply_language(said or idea)
        self.say(line(language, "make.handing", idea=idea), style="dim")
        try:
            result = router.hand_off(
                idea,
                say=lambda line: self.say(f"  … {line}", style="dim"),
                ask=lambda question: self.ask(f"{question} (y/n)").lower() in YES,
                settings=self.settings,
                template=template,
            )
        except KeyboardInterrupt:
            self.say(line(language, "make.interrupted"), style="dim")
            return
        except MacaronError as exc:
            self.say(line(language, "make.failed", error=exc), style="red")
            return
        summary = router.describe_result(result, language)
        self.say(summary)
        if said:
            self.conv.messages += [{"role": "user", "content": said}, {"role": "assistant", "content": summary}]

    def offer_change(self, asked, said: str | None = None) -> bool:
        """A change to one of the person's apps, planned, asked, then made; one the person
        has no app for, offered as a new app. False when it was no change after all (the
        plan read nothing in it) or the new app was declined: the chat answers it instead."""
        from macaron_cli.friend.changes import read_change

        if asked.slug is None:
            idea = router.idea_from(asked.request)
            if self.ask(line(self.reply_language(asked.request), "make.offer_new", idea=idea)).lower() in YES:
                self.make(idea, said=said)
                return True
            return False
        try:
            plan = read_change(asked)
        except MacaronError as exc:
            self.say(str(exc), style="red")
            return True
        if plan is None:
            return False
        self.change(plan, said)
        return True

    def reply_language(self, said: str) -> str:
        """The language the person asked in, where their words say it (a Japanese request in
        an English chat is answered in Japanese); else the chat's own."""
        from macaron_cli.reading.text import detect_language

        asked = detect_language(said)
        return asked if asked != "en" else (self.conv.persona.language if self.conv is not None else "en")

    def change(self, plan, said: str | None = None) -> None:
        """The change in words, yes or no, then `macaron change`'s own run with progress lines,
        each line the friend says in the language it was asked in (friend/phrases.py)."""
        from macaron_cli.friend.changes import ChangeProgress, described, not_done
        from macaron_cli.maker.change import change_app, check_model, in_words
        from macaron_cli.maker.change_plan import ChangeResult, by_model, change_of
        from macaron_cli.maker.refusal import partly

        result = ChangeResult.planned(plan)
        lang = self.reply_language(said or result.request)
        if not change_of(plan).done and not by_model(plan):
            self.say(not_done(plan, lang), style="yellow")
            return
        if result.missing:
            self.say(partly(result), style="dim")
        try:
            plan = check_model(plan, self.settings)  # a model's refusals, before asking
        except MacaronError as exc:
            self.say(str(exc), style="red")
            return
        question = line(lang, "change.ask", title=result.title, app=result.app, what=in_words(plan))
        if self.ask(question).lower() not in YES:
            self.say(line(lang, "change.declined"))
            return
        self.say(line(lang, "change.changing", app=result.app), style="dim")
        try:
            lines = router.chat_progress(lambda text: self.say(f"  … {text}", style="dim"))
            result = change_app(plan, self.settings, ChangeProgress(lines, lang))
        except KeyboardInterrupt:
            self.say(line(lang, "change.interrupted", app=result.app))
            return
        except MacaronError as exc:
            self.say(line(lang, "change.failed", error=str(exc)), style="red")
            return
        summary = described(result, lang)
        self.say(summary)
        if said:
            self.conv.messages += [{"role": "user", "content": said}, {"role": "assistant", "content": summary}]

    # ── slash commands ──────────────────────────────────────────────────────────────────
    def command(self, line: str) -> str | None:
        name, _, arg = line[1:].partition(" ")
        arg = arg.strip()
        command = BY_NAME.get(name.lower())
        if command is None:
            self.say(f"Unknown command /{name}; /help lists them.", style="yellow")
            return None
        if self.conv is not None:  # a command reaches far (apps, files, the coder): what was said is safe first
            self.conv.keep_turns()
        try:
            return command.handler(self, arg)
        except MacaronError as exc:
            self.say(str(exc), style="red")
        except Exception as exc:  # a command's bad argument never ends the chat
            from macaron_cli.errors import exit_for

            self.say(f"/{command.name} did not work: {exit_for(exc)[1]}", style="red")
        return None

    def cmd_help(self, arg):
        self.say(help_text())

    def cmd_exit(self, arg):
        return "exit"

    def cmd_memory(self, arg):
        store = self.conv.store
        if arg:
            rows = [(h.memory, f"{h.score:.2f}") for h in store.search(arg, k=10)]
        else:
            rows = [(m, "") for m in store.live(limit=10)]
        if not rows:
            self.say("Nothing yet." if not arg else "Nothing matches.")
        for memory, score in rows:
            self.say(f"{memory.id}  {score:>4}  [{memory.privacy}] {memory.text}".replace("   ", " "))

    def cmd_forget(self, arg):
        if not arg:
            self.say("Which one? /forget ID (the ids are in /memory).", style="yellow")
            return
        from macaron_cli.forgetting import app_of, forget, records_stay

        recorded_in = app_of(arg, store=self.conv.store)
        forget(arg, store=self.conv.store)  # and from every brief, summary and history line
        if self.conv.last:
            from macaron_cli import privacy

            last = self.conv.last
            last.hits = privacy.release([h for h in last.hits if h.memory.id != arg], last.destination)
        self.say(f"Forgotten: {arg}.")
        if recorded_in:
            self.say(records_stay(recorded_in), style="dim")

    def cmd_share(self, arg):
        if not arg:
            self.say("Which one? /share ID (the ids are in /memory).", style="yellow")
            return
        from macaron_cli import privacy

        memory = self.conv.store.get(arg)  # an unknown id is one line (UserError)
        self.conv.store.update(memory.id, privacy=privacy.opened())
        self.say(f"Shared: any model may hear {memory.id} now ({privacy.MEANING[privacy.opened()]}).")

    def cmd_why(self, arg):
        record = self.conv.last
        if record is None:
            self.say("I haven't answered anything yet.")
            return
        from macaron_cli.friend.recall import why_sentences

        lead, details = why_sentences(record)
        self.say(lead)
        for detail in details if arg.strip() == "--detail" else []:
            self.say(detail, style="dim")

    def cmd_make(self, arg):
        if not arg:
            self.say("What should I make? /make IDEA", style="yellow")
            return
        self.make(arg)

    def cmd_change(self, arg):
        from macaron_cli.apps import load_registry
        from macaron_cli.friend.changes import for_command
        from macaron_cli.maker.change import plan_change

        if not arg:
            self.say("Which app, and what change? e.g. /change water goal 3 liters", style="yellow")
            return
        asked = for_command(arg, load_registry())
        if asked.slug is None:
            self.offer_change(asked)
            return
        self.change(plan_change(asked.slug, asked.request, offline=False))

    def cmd_apps(self, arg):
        from macaron_cli.apps import load_registry
        from macaron_cli.friend.apps import one_line

        apps = load_registry()
        if not apps:
            self.say("No apps yet. Ask me for one, or /make IDEA.")
        self.conv.apps.refresh()
        for slug, info in sorted(apps.items(), key=lambda kv: kv[1].get("created_at", "")):
            self.say(f"{slug}  {info.get('idea', '')}  {info.get('path', '')}")
            digest = self.conv.apps.latest.get(slug)
            if digest is not None:
                self.say(f"    {one_line(digest)}", style="dim")
            elif slug in self.conv.apps.problems:
                self.say(f"    ({self.conv.apps.problems[slug]})", style="dim")

    def cmd_run(self, arg):
        from macaron_cli.apps import load_registry, resolve_app
        from macaron_cli.friend.apps import app_to_open

        if not arg:
            self.say("Which one? /run APP (/apps lists them).", style="yellow")
            return
        apps = load_registry()
        slug = arg if arg in apps else app_to_open(f"open {arg}", apps) or resolve_app(arg).name
        self.open_app(slug)

    def open_app(self, slug: str) -> None:
        """Serve one of the person's apps while the chat lasts, and say where."""
        import subprocess

        from macaron_cli.apps import resolve_app
        from macaron_cli.run_command import keep_up, serve_app

        served = self.served.get(slug)
        if served is None or served.process.poll() is not None:
            self.say(f"Opening {slug}…", style="dim")
            try:
                app_dir = resolve_app(slug)
                for line in keep_up(app_dir, self.settings, store=self.conv.store):
                    self.say(line, style="dim")
                served = serve_app(app_dir, self.settings, output=subprocess.DEVNULL)
            except MacaronError as exc:
                self.say(f"{slug} did not open: {exc}", style="red")
                return
            self.served[slug] = served
        self.say(f"{served.title} is open at {served.url} (until you leave the chat; `macaron run {slug}` keeps it).")

    def cmd_nudges(self, arg):
        from macaron_cli.friend.apps import set_nudges

        if arg.lower() not in ("on", "off"):
            self.say("/nudges on or /nudges off.", style="yellow")
            return
        self.settings = set_nudges(arg.lower() == "on")
        self.say(
            "I'll mention what your apps recorded when we meet."
            if arg.lower() == "on"
            else "I won't bring up your apps' records unless you ask."
        )

    def cmd_model(self, arg):
        if arg:
            from macaron_cli.models.registry import open_model

            held = self.conv.switch(open_model(arg, self.settings, switch="/model"))
            if held:
                self.say(
                    f"{held} earlier turn{'s' if held > 1 else ''} stay{'' if held > 1 else 's'} behind: "
                    f"{'they' if held > 1 else 'it'} drew on memories this model may not see.",
                    style="dim",
                )
        self.say(f"Model: {self.conv.model.describe()}")

    def cmd_name(self, arg):
        persona = self.conv.persona
        if not arg:
            said = f"I call you {persona.call_me}." if persona.call_me else "I don't call you by a name yet."
            self.say(f"{said} /name NAME changes it.")
            return
        from macaron_cli.friend.onboarding import strip_protected
        from macaron_cli.friend.persona import save_persona

        name = strip_protected(arg)[:40]
        if not name:
            self.say("That is not a name I can use; /name NAME, e.g. /name Sam.", style="yellow")
            return
        persona.call_me = name
        self.settings = save_persona(persona)
        self.say(f"I'll call you {name}.")

    def cmd_good(self, arg):
        self._feedback(True)

    def cmd_bad(self, arg):
        self._feedback(False)

    def _feedback(self, liked: bool) -> None:
        changed = self.conv.feedback(liked)
        verdict = "Glad it helped" if liked else "Sorry about that"
        self.say(f"{verdict}; {changed} memor{'y' if changed == 1 else 'ies'} {'gained' if liked else 'lost'} weight.")

    # ── the end ─────────────────────────────────────────────────────────────────────────
    def finish(self) -> None:
        for served in self.served.values():
            served.stop()
        self.say("Saving what we talked about…", style="dim")
        episodes = self.conv.end()
        self._report_background_errors()
        kept = ", ".join(episode.id for episode in episodes)
        self.say(f"See you soon. (kept as {kept})" if kept else "See you soon.")

    def _report_background_errors(self) -> None:
        for error in self.conv.extractor.take_errors():
            self.say(f"({error})", style="dim")


@dataclass(frozen=True)
class SlashCommand:
    """One chat command: what /help shows for it, and the Repl method that runs it."""

    usage: str  # "/memory [query]": the name, then its argument
    help: str
    handler: Callable[[Repl, str], str | None]
    aliases: tuple[str, ...] = ()  # other names that run it, not listed

    @property
    def name(self) -> str:
        return self.usage.split()[0].removeprefix("/")


COMMANDS = (
    SlashCommand("/help", "this list", Repl.cmd_help),
    SlashCommand("/memory [query]", "what I remember (all of it, or what matches)", Repl.cmd_memory),
    SlashCommand("/forget ID", "forget one memory for good", Repl.cmd_forget),
    SlashCommand("/share ID", "let any model hear a memory I kept private", Repl.cmd_share),
    SlashCommand("/why [--detail]", "why I remembered what shaped my last answer (--detail: scores)", Repl.cmd_why),
    SlashCommand("/make IDEA", "build a mini-app for you", Repl.cmd_make),
    SlashCommand("/change APP REQUEST", 'change one of your apps (or just say "add my pulse to …")', Repl.cmd_change),
    SlashCommand("/apps", "the apps I made for you, each with what it recorded", Repl.cmd_apps),
    SlashCommand("/run APP", 'open one of your apps (or just say "open my water tracker")', Repl.cmd_run),
    SlashCommand("/nudges on|off", "whether I mention what your apps recorded when we meet", Repl.cmd_nudges),
    SlashCommand("/model [NAME]", "the model I talk through (claude, local, none); switch with a name", Repl.cmd_model),
    SlashCommand("/name [NAME]", "what I call you; change it with a name", Repl.cmd_name),
    SlashCommand("/good", "tell me my last answer helped", Repl.cmd_good),
    SlashCommand("/bad", "tell me my last answer did not help", Repl.cmd_bad),
    SlashCommand("/exit", "leave (Ctrl-D works too); Ctrl-C stops an answer", Repl.cmd_exit, aliases=("quit",)),
)
BY_NAME = {name: command for command in COMMANDS for name in (command.name, *command.aliases)}


def help_text() -> str:
    """/help: every command with what it does, then how to type long lines."""
    width = max(len(c.usage) for c in COMMANDS) + 2
    return "\n".join([*(f"{c.usage:<{width}}{c.help}" for c in COMMANDS), TYPING_HELP])


def _correction(answer: str) -> str:
    """ "No, it's Nobu now" → "it's Nobu now": the new fact, without the no."""
    import re

    return re.sub(r"^(no|nope|not any ?more|actually)\b[\s,.!:;-]*", "", answer, flags=re.IGNORECASE) or answer


def _start_history():
    try:
        import readline
    except ImportError:  # no readline (some Windows Pythons): input() still works, without history
        return None
    path = config.ensure_private_dir(config.home()) / "chat_history"
    readline.set_history_length(HISTORY_LINES)
    if path.exists():
        try:
            readline.read_history_file(path)
        except OSError:
            pass
    return path


def _save_history(path) -> None:
    if path is None:
        return
    import os
    import readline

    _redact_history(readline)
    try:
        readline.write_history_file(path)
        os.chmod(path, 0o600)
    except OSError:
        pass


def _redact_history(readline) -> None:
    """A line typed with a password or a card number in it is kept, as every stored text
    is, with the secret replaced by «redacted:kind» (memory/redact.py)."""
    from macaron_cli.memory.redact import redact

    for index in range(readline.get_current_history_length()):
        line = readline.get_history_item(index + 1)  # 1-based, unlike replace_history_item
        if line:
            clean, found = redact(line)
            if found:
                readline.replace_history_item(index, clean)
