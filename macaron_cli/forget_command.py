"""`macaron memory forget ID`: forget it everywhere (macaron_cli/forgetting.py), and say where
it may still be (code an agent or a model wrote from it, an app's own records)."""

from __future__ import annotations

from pathlib import Path

from macaron_cli.forgetting import app_of, forget, records_stay


def forget_command(memory_id: str, json_out: bool = False) -> None:
    """`macaron memory forget ID`."""
    from macaron_cli import config
    from macaron_cli.memory import MemoryStore
    from macaron_cli.output import out, print_json

    store = MemoryStore.open(settings=config.load_settings())
    recorded_in = app_of(memory_id, store)
    done = forget(memory_id, store)
    if json_out:
        paths = [str(path) for path in done.mentioned_in]
        written = [str(path) for path in done.written_from]
        print_json(
            {"forgotten": done.ids, "briefs_rewritten": done.apps, "still_mentioned_in": paths, "written_from": written}
        )
        return
    say = out()
    older = len(done.ids) - 1
    extra = f" (and {older} older version{'s' if older > 1 else ''} or summar{'ies' if older > 1 else 'y'})"
    say.text(f"Forgot {memory_id}{extra if older else ''}. It is gone from disk too.")
    if done.apps:
        say.text(f"Rewrote the brief of {', '.join(done.apps)}.")
    from macaron_cli.apps import is_app, ref_for

    def back(path: Path) -> str:
        app = next((folder for folder in path.parents if is_app(folder)), None)
        return f"`macaron rollback {ref_for(app)} --to ID`" if app else "`macaron rollback`"

    for path in done.mentioned_in:
        say.text(f"Note: {path} still mentions it (code an agent wrote); edit it, or {back(path)} to before it.")
    for path in done.written_from:
        say.text(f"Note: a model wrote {path} from it; edit it, or {back(path)} to before it.")
    if recorded_in:
        say.text(records_stay(recorded_in))
