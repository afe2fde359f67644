"""`macaron share`: an app's code and lineage as a bundle, never the person's data.

A bundle is a tar.gz with `code/` (the tracked files at HEAD: git-ignored data, the
private `.macaron/` folder and the brief are never tracked, so never included) and
`lineage.json`. `macaron make --from BUNDLE` turns it into the other person's own app.

A bundle leaves this machine, so it asks the privacy gate: no memory that may not go out
(private ones a local model saw, or a line the person pasted in by hand) may be in its
code, in any spelling (quotes.py: escaped, another case, rewrapped); `share` refuses,
naming the file, rather than bundle their text. A file a model wrote from private
memories is refused by its label (app_labels.py), even when it quotes none of them.
Archives among the files are opened and the same asked of what they hold, and no part
of the memory store may be anywhere in it (outgoing.py).
"""

from __future__ import annotations

import io
import json
import tarfile
import tempfile
from pathlib import Path

from macaron_cli import __version__, privacy
from macaron_cli.errors import UserError
from macaron_cli.ledger.outgoing import refuse_carried
from macaron_cli.manifest import MANIFEST
from macaron_cli.untrusted import git as untrusted_git

BUNDLE_SUFFIX = ".macaron.tar.gz"


def make_bundle(app_dir: Path, out_dir: Path, lineage: dict, withheld: list | None = None) -> Path:
    """Bundle the app's tracked code; `withheld` are memories (the gate's `not_for` an
    export) whose text must not be in it."""
    from macaron_cli.apps import pinned

    data_files = set(pinned(app_dir).data_files)
    archive = untrusted_git.run(app_dir, "archive", "--format=tar", "HEAD", capture_output=True, check=False)
    if archive.returncode != 0:
        raise UserError(f"{app_dir} has no commits to share yet; `macaron checkpoint` it first.")

    def kept(name: str) -> bool:  # belt and braces: data someone committed by hand stays home
        return not (any(name == d or name.startswith(d + "/") for d in data_files) or name.startswith(".macaron"))

    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as src:  # before writing anything
        files = (
            (member.name, content.read())
            for member in src.getmembers()
            if kept(member.name.rstrip("/")) and (content := src.extractfile(member) if member.isfile() else None)
        )
        refuse_carried(app_dir, files, withheld or [], privacy.export("a share bundle"), then="share again")
    bundle = out_dir / f"{app_dir.name}{BUNDLE_SUFFIX}"
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as src, tarfile.open(bundle, "w:gz") as dst:
        for member in src.getmembers():
            name = member.name.rstrip("/")
            if not kept(name):
                continue
            member.name = f"code/{member.name}"
            dst.addfile(member, src.extractfile(member) if member.isfile() else None)
        payload = json.dumps({**lineage, "macaron": __version__}, ensure_ascii=False, indent=2).encode()
        info = tarfile.TarInfo("lineage.json")
        info.size = len(payload)
        dst.addfile(info, io.BytesIO(payload))
    return bundle


def is_bundle(path: str | Path) -> bool:
    return str(path).endswith(BUNDLE_SUFFIX) and Path(path).is_file()


def unpack_bundle(path: str | Path) -> tuple[Path, dict]:
    """Extract a bundle to a temporary folder: (the app's code, its lineage)."""
    target = Path(tempfile.mkdtemp(prefix="macaron-bundle-"))
    try:
        with tarfile.open(path, "r:gz") as tar:
            tar.extractall(target, filter="data")  # "data" refuses absolute paths and links out
    except (tarfile.TarError, OSError) as exc:
        raise UserError(f"{path} is not a macaron bundle ({exc}).") from None
    lineage_file = target / "lineage.json"
    if not (target / "code" / MANIFEST).is_file() or not lineage_file.is_file():
        raise UserError(f"{path} is not a macaron bundle (no code/{MANIFEST} or lineage.json).")
    return target / "code", json.loads(lineage_file.read_text(encoding="utf-8"))
