"""Where the files shipped with macaron live: templates and the coder's subagents, and how
a template becomes a complete app's files.

In an installed wheel they sit inside the package (macaron_cli/_bundled/…, see
pyproject.toml); in a source checkout, at the repository root.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections.abc import Callable
from pathlib import Path, PurePath
from types import ModuleType

_PACKAGE = Path(__file__).resolve().parent
_REPO = _PACKAGE.parent


def _find(bundled: str, in_repo: str) -> Path:
    for candidate in (_PACKAGE / "_bundled" / bundled, _REPO / in_repo):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"macaron's {bundled} are missing from this installation; reinstall macaron.")


def templates_dir() -> Path:
    return _find("templates", "templates")


def agents_dir() -> Path:
    return _find("agents", ".claude/agents")


SHARED = "_shared"  # the app runtime every template is built on, one copy beside them


def compose_template(template: Path, dest: Path, skip: Callable[[PurePath], bool] = lambda rel: False) -> None:
    """Write a complete, self-contained app from a template folder into `dest`: the shared
    runtime (templates/_shared), then the template's own files over it, so a file the
    template has itself wins. `skip(relative path)` leaves a file or folder out."""
    sources = [folder for folder in (template.parent / SHARED, template) if folder.is_dir()]
    for n, source in enumerate(sources):

        def ignore(folder: str, names: list[str], source: Path = source) -> list[str]:
            rel = Path(folder).relative_to(source)
            return [name for name in names if skip(rel / name)]

        # Only the template may write over what came before it: never an existing folder.
        shutil.copytree(source, dest, ignore=ignore, symlinks=True, dirs_exist_ok=n > 0)


def shared_module(name: str) -> ModuleType:
    """One of the declarations every app carries in templates/_shared/server (`app_spec`,
    `app_manifest`), loaded from the templates so macaron and every app read the same file.
    Each is standard library only and imports no sibling, so it loads on its own."""
    qualified = f"macaron_cli._{name}"  # the name it is loaded under
    loaded = sys.modules.get(qualified)
    if loaded is not None:
        return loaded
    path = templates_dir() / SHARED / "server" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(qualified, path)
    if spec is None or spec.loader is None or not path.is_file():
        raise FileNotFoundError(f"{path} is missing from this installation; reinstall macaron.")
    module = importlib.util.module_from_spec(spec)
    sys.modules[qualified] = module  # dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


def app_spec_module() -> ModuleType:
    """The app spec's one declaration (templates/_shared/server/app_spec.py)."""
    return shared_module("app_spec")
