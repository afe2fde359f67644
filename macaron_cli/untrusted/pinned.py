"""What decides an app's privacy and data, as macaron's template said it at make time.

An app's macaron.json is the coder's to write: a `data_files` of "../../.macaron" would make
every checkpoint copy the memory store into the app, a `records.domain` turned from "health"
to "hobby" would send a mood diary to a cloud model. So these keys are taken from the
template (the bundled one, which ships with macaron) when the app is made and kept in the
registry (apps.py `pinned`), and every reader asks for them there: the app's macaron.json
may describe the app (its title, its spec) but never widens what macaron trusts.

PINNED_KEYS are those keys; tests/test_pinned.py fails when a module reads one of them
from an app's manifest instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from macaron_cli.manifest import Manifest, Records, manifest_or_none
from macaron_cli.untrusted.data_paths import DATA_DIR

PINNED_KEYS = ("data_files", "records", "run", "test", "digest")
PRIVATE = "private"  # privacy.PRIVATE: this layer sits below the gate


@dataclass(frozen=True)
class Pinned:
    """An app's data files, the meaning of its records and its commands, macaron's own."""

    template: str
    data_files: tuple[str, ...]
    records: Records
    run: tuple[str, ...] | None
    test: tuple[str, ...] | None
    digest: tuple[str, ...] | None
    # The level its records have unless the person chose one; None: by its domain and idea.
    privacy: str | None = None

    def to_json(self) -> dict[str, Any]:
        records = self.records
        return {
            "template": self.template,
            "data_files": list(self.data_files),
            "records": {
                "domain": records.domain,
                "period": records.period,
                "kind": records.kind,
                "meaning": records.meaning,
            },
            "run": list(self.run) if self.run else None,
            "test": list(self.test) if self.test else None,
            "digest": list(self.digest) if self.digest else None,
            "privacy": self.privacy,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pinned:
        """The pinned values a registry entry holds (written by macaron, read back checked)."""
        checked = Manifest.from_json({key: data.get(key) for key in PINNED_KEYS})
        privacy = data.get("privacy")
        return cls(
            template=str(data.get("template") or ""),
            data_files=checked.data_files,
            records=checked.records,
            run=checked.run,
            test=checked.test,
            digest=checked.digest,
            privacy=privacy if isinstance(privacy, str) else None,
        )

    def applied_to(self, manifest: Manifest) -> Manifest:
        """The app's manifest with these values in place of whatever it says for them."""
        return manifest.updated(**{key: value for key, value in self.to_json().items() if key in PINNED_KEYS})


def for_template(name: str) -> Pinned | None:
    """The values bundled template `name` declares; None when macaron has no such template."""
    from macaron_cli.resources import templates_dir

    if not name or name.startswith(("_", ".")) or "/" in name:
        return None
    manifest = manifest_or_none(templates_dir() / name)
    if manifest is None:
        return None
    return Pinned(name, manifest.data_files, manifest.records, manifest.run, manifest.test, manifest.digest)


def safest() -> Pinned:
    """For an app whose template macaron does not know: its whole data folder kept as its
    data, its records private, and the commands every bundled template shares (none when
    they differ)."""
    from macaron_cli.manifest import template_manifests

    templates = template_manifests()

    def shared(key: str) -> tuple[str, ...] | None:
        values = {getattr(m, key) for m in templates}
        return next(iter(values)) if len(values) == 1 else None

    return Pinned("", (DATA_DIR,), Records(), shared("run"), shared("test"), shared("digest"), privacy=PRIVATE)
