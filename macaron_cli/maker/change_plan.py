"""What one change to a made app is, for both ways of making it (by rules in change.py,
by a model in change_model.py): the plan read before anything is written, the result with
each spec field before → after, the next `change-N` checkpoint, the spec rendered onto the
app's config as make fits a new one."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from macaron_cli.errors import UserError
from macaron_cli.maker.change_rules import Edit
from macaron_cli.maker.request import MakeRequest
from macaron_cli.maker.result import MakeResult
from macaron_cli.maker.scaffold import APP_CONFIG
from macaron_cli.maker.spec import AppSpec

PHASE = "change"
OF_A_CHANGE = re.compile(rf"({PHASE}-\d+)(?:-|$)")  # change-1, change-1-stopped, change-1-fix-2


@dataclass
class ChangeResult(MakeResult):
    request: str = ""
    changed: dict = field(default_factory=dict)  # each spec field or setting: {"before": …, "after": …}
    done: list = field(default_factory=list)  # what changed, in words
    tests_reused: bool = False  # nothing the tests read changed: their last pass stands

    def to_json(self) -> dict:
        """make's --json object, and the request with what it changed."""
        return {**super().to_json(), "request": self.request, "changed": self.changed}


@dataclass
class Planned:
    """A change read and not yet written: what `change_app` writes once the person agrees."""

    app: Path
    manifest: dict
    config: dict
    spec: AppSpec
    edit: Edit
    result: ChangeResult
    which: str | None  # how the app was found when none was named ("your newest app")
    options: MakeRequest = field(default_factory=MakeRequest)  # with a model: draft, budget, rounds…
    checked: tuple | None = None  # with a model: (draft endpoint, budget) once change_model.check passed


BY = {"change": "Claude", "change-draft": "the local model, then Claude", "change-local": "the local model"}


def changed_by(mode: str) -> str:
    """Who makes a change of this mode, in words."""
    return BY.get(mode, "rules" if mode == "offline" else "a model")


def by_model(planned: Planned) -> bool:
    return planned.result.mode != "offline"


def next_change(repo) -> str:
    """The next change's checkpoint: `change-N`, N one more than any change's so far (a change
    that stopped before its own checkpoint, `change-1-stopped`, counts)."""
    numbers = [int(m.group(1).rsplit("-", 1)[1]) for c in repo.checkpoints() if (m := OF_A_CHANGE.match(c.phase))]
    return f"{PHASE}-{1 + max(numbers, default=0)}"


def read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{path} cannot be read ({exc}); restore it with `macaron rollback`.") from None
    return data if isinstance(data, dict) else {}


def rendered(manifest: dict, config: dict, edit: Edit) -> tuple[dict, dict]:
    """macaron.json and config/app.json after the edit: the spec fitted onto the template's
    defaults exactly as make fits a new app's, the person's other settings kept."""
    from macaron_cli.maker.fit import fit_config
    from macaron_cli.resources import templates_dir

    defaults_path = templates_dir() / str(manifest.get("template", "")) / APP_CONFIG
    defaults = json.loads(defaults_path.read_text(encoding="utf-8")) if defaults_path.exists() else {}
    fitted = fit_config(manifest, edit.spec, defaults)
    cfg = {**config, **{key: fitted[key] for key in manifest.get("fit") or {} if key in fitted}, **edit.settings}
    new_manifest = {**manifest, "spec": edit.spec.to_json()}
    if "title" in edit.settings:
        new_manifest["title"] = edit.settings["title"]
    return new_manifest, cfg


# ── what changed ─────────────────────────────────────────────────────────────────────────
def _flat(spec: AppSpec) -> dict[str, Any]:
    """A spec as field paths: measures by their key ("measures.water.goal"), the rest by shape."""
    out: dict[str, Any] = {}
    for shape, value in spec.to_json().items():
        if shape == "measures":
            out |= {f"measures.{m['key']}": m for m in value}
        elif isinstance(value, dict):
            out |= {f"{shape}.{name}": v for name, v in value.items()}
        elif shape != "version":
            out[shape] = value
    return out


def changed(before: AppSpec, after: AppSpec, config: dict, new_config: dict) -> dict[str, dict]:
    """Each spec field and setting the change moved, before → after (a measure added or
    removed whole, a kept measure field by field)."""
    old, new = _flat(before), _flat(after)
    out: dict[str, dict] = {}
    for path in dict.fromkeys([*old, *new]):
        a, b = old.get(path), new.get(path)
        if a == b:
            continue
        if path.startswith("measures.") and a and b:
            out |= {f"{path}.{k}": {"before": a.get(k), "after": b.get(k)} for k in {*a, *b} if a.get(k) != b.get(k)}
        else:
            out[path] = {"before": a, "after": b}
    for key in ("title", "language", "units", "currency"):
        if config.get(key) != new_config.get(key):
            out[key] = {"before": config.get(key), "after": new_config.get(key)}
    return out
