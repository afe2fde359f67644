"""A make's brief again, from the memory ids its record holds, through the gate again:
for `--resume`, and for `forget` (a memory made private or forgotten since stays out)."""

from __future__ import annotations

from pathlib import Path

from macaron_cli import config, privacy
from macaron_cli.errors import UserError
from macaron_cli.maker import state as make_state
from macaron_cli.maker.brief import Brief
from macaron_cli.maker.modes import mode_named
from macaron_cli.maker.state import MakeState


def recorded_local_endpoint(state: MakeState):
    """The local model's endpoint a make recorded (its URL decides where a --draft brief went)."""
    from macaron_cli.models.client import Endpoint

    saved = state.local_endpoint or {}
    return Endpoint(url=saved["url"], model=saved.get("model"), api=saved.get("api")) if saved.get("url") else None


def brief_from_state(state: MakeState, store, to: tuple[privacy.Destination, ...]) -> Brief:
    """The brief again, cleared for `to`, from the memories the make recorded that are
    still there."""
    memories = []
    for memory_id in state.memory_ids if store is not None else []:
        try:
            memories.append(store.get(memory_id))
        except UserError:
            continue  # forgotten since: it stays forgotten
    return Brief(
        idea=state.idea,
        language=state.language,
        accent=state.accent,
        app_settings=state.app_settings,
        memories=privacy.release(memories, *to),
        advice=state.advice,
    )


def write_brief_again(app: Path, store, settings: config.Settings) -> bool:
    """Write an app's brief again from its records, through the gate again, for the models
    each was sent to (after a forget: what is gone stays out): the make's record and a
    change's (`.macaron/change.json`) each lose what is gone, and brief.md is written from
    the latest of them (a change by a model writes its own brief over the make's). False
    when the app has no record."""
    from macaron_cli.maker.scaffold import write_brief

    written = None
    for file in (make_state.FILE, make_state.CHANGE_FILE):  # oldest first: the last one is brief.md
        state = make_state.load(app, file)
        if state is not None:
            written = _brief_again(app, state, store, settings)
    if written is None:
        return False
    write_brief(app, written)
    return True


def _brief_again(app: Path, state: MakeState, store, settings: config.Settings) -> Brief:
    """One record's brief again, its memory ids kept to what is still there and cleared."""
    local = recorded_local_endpoint(state)
    mode = mode_named(state.mode)
    if local is None and mode.uses_local_model:  # its record lost the endpoint: only the app folder is sure
        to: tuple[privacy.Destination, ...] = (privacy.app_folder(),)
    else:
        to = mode.destinations(settings, local.url if local else None)
    brief = brief_from_state(state, store, to)
    state.memory_ids = brief.memory_ids
    make_state.save(app, state)
    return brief
