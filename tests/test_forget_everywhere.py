"""Forget means gone: after `macaron memory forget ID` the text is in no file under
MACARON_HOME or MACARON_APPS_DIR (an app's git objects aside, see README), even when the
forget was killed half-way and run again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from macaron_cli.memory import MemoryStore, derived
from tests.conftest import REPO

FACT = "My kidney condition means I drink 3 litres of water a day"
WORD = "kidney condition"


def files_saying(*roots, needle: str = WORD) -> list[str]:
    """Every file under `roots` whose bytes contain `needle` (git's own objects aside)."""
    data = needle.encode("utf-8")
    found = []
    for root in roots:
        for path in root.rglob("*"):
            if ".git" in path.relative_to(root).parts or not path.is_file():
                continue
            if data in path.read_bytes():
                found.append(str(path.relative_to(root.parent)))
    return found


# ── derived memories (the store alone) ──────────────────────────────────────────────────
def test_a_summary_in_the_persons_words_loses_only_the_forgotten_turn(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    fact = store.add(FACT, domain="health")
    text, meta = derived.with_parts("Talked about: ", [(FACT, [fact.id]), ("what should I cook tonight?", [])])
    episode = store.add(text, kind="episode", meta=meta)
    store.add_many({"text": f"note {i}"} for i in range(20))

    removed = store.forget(fact.id)

    assert removed == [fact.id]
    kept = store.get(episode.id)
    assert kept.text == "Talked about: what should I cook tonight?"
    assert files_saying(tmp_path / "memory") == []
    assert store.search("cook tonight")[0].memory.id == episode.id
    assert store.search("kidney") == []
    again = store.add("and then some", kind="episode")  # the rewritten row is an ordinary row
    assert store.forget(again.id) == [again.id] and store.get(episode.id).text == kept.text


def test_a_summary_a_model_wrote_goes_with_what_it_was_made_from(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    fact = store.add(FACT, domain="health")
    other = store.add("Likes hiking on Sundays")
    summary = store.add(
        "We talked about a kidney condition and water", kind="episode", meta={derived.DERIVED_FROM: [fact.id, other.id]}
    )
    assert sorted(store.forget(fact.id)) == sorted([fact.id, summary.id])
    assert store.get(other.id).text == "Likes hiking on Sundays"
    assert files_saying(tmp_path / "memory") == []


# ── the whole path, as a person meets it ────────────────────────────────────────────────
@pytest.mark.slow
def test_forget_removes_a_chat_fact_from_the_store_summaries_history_and_app_briefs(macaron, macaron_home, tmp_path):
    from tests.friend_support import chat_env, leave, meet_friend_already, say, spawn_chat

    meet_friend_already()
    child = spawn_chat(chat_env(), "--model", "none")  # notebook mode: the person's own words are kept
    child.expect_exact("you › ")
    say(child, FACT)
    say(child, "what should I cook tonight?")
    leave(child)
    store = MemoryStore.open()
    [fact] = [m for m in store.list(limit=None) if m.text == FACT]
    [episode] = [m for m in store.list(limit=None) if m.kind == "episode"]
    assert WORD in episode.text

    made = macaron("make", "a water intake tracker", "--offline", "--yes", "--json", timeout=600)
    assert made.returncode == 0, made.stderr
    app = tmp_path / "apps" / json.loads(made.stdout)["app"]
    assert WORD in (app / ".macaron" / "brief.md").read_text(encoding="utf-8")
    assert files_saying(macaron_home, tmp_path / "apps")  # the check can see the text at all

    result = macaron("memory", "forget", fact.id)

    assert result.returncode == 0, result.stderr
    assert files_saying(macaron_home, tmp_path / "apps") == []
    brief = (app / ".macaron" / "brief.md").read_text(encoding="utf-8")
    assert "a water intake tracker" in brief
    assert MemoryStore.open().get(episode.id).text == "Talked about: what should I cook tonight?"
    assert "what should I cook tonight?" in (macaron_home / "chat_history").read_text(encoding="utf-8")
    again = macaron("memory", "forget", fact.id)
    assert again.returncode == 2 and "no memory with id" in again.stderr


# ── killed at each step, then run again ─────────────────────────────────────────────────
KILLER = textwrap.dedent("""
    import os, signal, sys
    from macaron_cli import forgetting
    from macaron_cli.memory import MemoryStore

    memory_id, point = sys.argv[1], sys.argv[2]

    def die_at(step):
        if step == point:
            os.kill(os.getpid(), signal.SIGKILL)

    forgetting.forget(memory_id, MemoryStore.open(), on_step=die_at)
""")


def _made_app(store, fact, apps_dir):
    """An app made with `fact` in its brief, as `macaron make` leaves it (its record and brief)."""
    from macaron_cli.apps import register
    from macaron_cli.maker import state as make_state
    from macaron_cli.maker.rebrief import write_brief_again

    app = apps_dir / "water-tracker"
    (app / ".macaron" / "claude" / "projects").mkdir(parents=True)
    state = make_state.MakeState(
        idea="a water intake tracker",
        slug=app.name,
        template="habit-tracker",
        mode="agent",
        accent="#FF9AA2",
        app_settings={"units": "metric", "currency": "USD"},
        memory_ids=[fact.id],
    )
    make_state.save(app, state)
    assert write_brief_again(app, store, store.settings)
    # what an agent's transcript keeps of the brief and of a memory_search answer
    (app / ".macaron" / "claude" / "projects" / "session.jsonl").write_text(
        json.dumps({"type": "tool_result", "content": f"- {fact.text}"}) + "\n", encoding="utf-8"
    )
    register(app.name, path=str(app), idea=state.idea, template="habit-tracker")
    return app


def test_a_memory_in_a_changes_brief_is_gone_from_every_brief_of_the_app(macaron_home, tmp_path):
    """A change by a model writes its own brief (its record .macaron/change.json) over the
    make's: a memory only that change used, too short to be scrubbed as text anywhere
    (腎臓病です: five characters), is gone from the brief and from the change's record."""
    from macaron_cli import forgetting, privacy
    from macaron_cli.maker import state as make_state
    from macaron_cli.maker.rebrief import brief_from_state
    from macaron_cli.maker.scaffold import write_brief
    from macaron_cli.reading.change import Change

    store = MemoryStore.open()
    fact = store.add(FACT, domain="health")
    short = store.add("腎臓病です", domain="health", language="ja")
    app = _made_app(store, fact, tmp_path / "apps")
    change = make_state.MakeState(
        idea="a change to their app Water: use cups, not ml",
        slug=app.name,
        template="habit-tracker",
        mode="change",
        app_settings={"units": "metric", "currency": "USD"},
        memory_ids=[short.id, fact.id],
        change=Change("use cups, not ml", checkpoint="change-1"),
    )
    make_state.save(app, change)
    write_brief(app, brief_from_state(change, store, (privacy.app_folder(),)))  # as the change's agent leaves it
    assert "腎臓病です" in (app / ".macaron" / "brief.md").read_text(encoding="utf-8")

    forgotten = forgetting.forget(short.id, store)

    assert forgotten.apps == [app.name]
    assert files_saying(tmp_path / "apps", needle="腎臓病です") == []
    brief = (app / ".macaron" / "brief.md").read_text(encoding="utf-8")
    assert "use cups, not ml" in brief and WORD in brief  # the change's brief, less what was forgotten
    assert make_state.load(app, make_state.CHANGE_FILE).memory_ids == [fact.id]


@pytest.mark.slow
@pytest.mark.parametrize("point", ["journal", "rewritten", "store", "apps", "home"])
def test_a_forget_killed_at_any_step_is_finished_by_running_it_again(macaron, macaron_home, tmp_path, point):
    store = MemoryStore.open()
    store.add_many({"text": f"ordinary note {i} about errands"} for i in range(200))
    fact = store.add(FACT, domain="health")
    text, meta = derived.with_parts("Talked about: ", [(FACT, [fact.id]), ("what should I cook tonight?", [])])
    episode = store.add(text, kind="episode", meta=meta)
    store.add("a later note")
    (macaron_home / "chat_history").write_text(f"{FACT}\nwhat should I cook tonight?\n", encoding="utf-8")
    app = _made_app(store, fact, tmp_path / "apps")
    assert WORD in (app / ".macaron" / "brief.md").read_text(encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}

    killed = subprocess.run(
        [sys.executable, "-c", KILLER, fact.id, point], env=env, capture_output=True, text=True, timeout=120
    )
    assert killed.returncode == -9, killed.stderr
    assert files_saying(macaron_home, tmp_path / "apps")  # something was left to finish

    rerun = macaron("memory", "forget", fact.id)

    assert rerun.returncode == 0, rerun.stderr
    assert files_saying(macaron_home, tmp_path / "apps") == []
    store = MemoryStore.open()
    assert store.get(episode.id).text == "Talked about: what should I cook tonight?"
    assert store.count() == 202
    assert "a water intake tracker" in (app / ".macaron" / "brief.md").read_text(encoding="utf-8")
    assert not list((macaron_home / "forgetting").glob("*"))


def test_an_unknown_id_is_still_one_line(macaron):
    result = macaron("memory", "forget", "m_nothere")
    assert result.returncode == 2 and "no memory with id" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def _forget_killed_after_its_journal() -> None:
    """FACT and one other memory, and a forget of FACT killed once its journal was written."""
    store = MemoryStore.open()
    fact = store.add(FACT, domain="health")
    store.add("Likes hiking on Sundays")
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    killed = subprocess.run(
        [sys.executable, "-c", KILLER, fact.id, "journal"], env=env, capture_output=True, text=True, timeout=120
    )
    assert killed.returncode == -9, killed.stderr
    assert MemoryStore.open().count() == 2  # killed before the store was touched


@pytest.mark.slow
def test_a_forget_cut_short_is_finished_when_the_chat_opens(macaron, macaron_home, tmp_path):
    from tests.friend_support import chat_env, leave, meet_friend_already, spawn_chat

    meet_friend_already()
    _forget_killed_after_its_journal()

    child = spawn_chat(chat_env(), "--model", "none")
    child.expect_exact("you › ")
    leave(child)

    assert [m.text for m in MemoryStore.open().list(limit=None)] == ["Likes hiking on Sundays"]
    assert files_saying(macaron_home) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "command", [("memory", "search", "kidney"), ("memory", "list"), ("memory", "export")], ids=" ".join
)
def test_a_forget_cut_short_is_finished_before_any_command_reads_memory(macaron, macaron_home, command):
    _forget_killed_after_its_journal()

    result = macaron(*command)

    assert result.returncode == 0, result.stderr
    assert WORD not in result.stdout
    assert [m.text for m in MemoryStore.open().list(limit=None)] == ["Likes hiking on Sundays"]
    assert not list((macaron_home / "forgetting").glob("*"))
