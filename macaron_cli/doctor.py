"""`macaron doctor`: what macaron can use on this machine, and the fix for what is missing.

Each check is a small function of the person's settings (loaded once, by doctor())
returning a Check; areas add their own checks to CHECKS.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from macaron_cli.config import Settings


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def check_claude(settings: Settings) -> Check:
    from macaron_cli.models import registry

    coder = registry.coder(settings)
    if coder.keyed:
        return Check("claude", True, f"key set; endpoint {coder.endpoint}")
    return Check(
        "claude",
        False,
        "no ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN",
        "export ANTHROPIC_API_KEY=… (make still works offline from templates)",
    )


def check_local_model(settings: Settings) -> Check:
    from macaron_cli.errors import UserError
    from macaron_cli.models import registry

    try:
        local = registry.local_endpoint(settings, required=False)
    except UserError as exc:  # set, but wrongly (MACARON_DRAFT_API): the line names the fix
        return Check("draft model", False, str(exc))
    if local:
        return Check("draft model", True, f"endpoint {local.url}")
    return Check("draft model", False, "no local draft endpoint", "macaron draft serve --engine … --model …")


def check_embeddings(settings: Settings) -> Check:
    from macaron_cli.memory import embeddings

    embeddings.choose(settings.embedding_model)
    chosen = embeddings.configured()
    name = embeddings.name_in_use()
    if not embeddings.installed():
        if chosen:
            return Check(
                "embeddings",
                False,
                f"keyword search only ({name} needs sentence-transformers)",
                "pip install sentence-transformers, or remove embedding_model from config.toml",
            )
        return Check(
            "embeddings",
            False,
            f"keyword search only ({embeddings.PACKAGE} is missing)",
            "reinstall macaron (the model ships with it)",
        )
    if not embeddings.available():
        return Check("embeddings", False, "keyword search only (MACARON_EMBEDDINGS is off)", "unset MACARON_EMBEDDINGS")
    return Check("embeddings", True, f"{name} (hybrid search on)")


def check_memory(settings: Settings) -> Check:
    """Where the memory lives, and whether it answers (a remote one over the network)."""
    import time

    from macaron_cli import config
    from macaron_cli.errors import UserError
    from macaron_cli.memory import remote

    try:
        uri = config.memory_uri(settings)
        where = remote.where(uri, settings)
        if "://" not in uri and not os.path.exists(os.path.expanduser(uri)):
            return Check("memory", True, f"{where}: none yet (made on first use)")
        started = time.perf_counter()
        from macaron_cli.memory.store import MemoryStore

        count = MemoryStore.open(uri, settings).count()
    except UserError as exc:
        fix = "check AWS_ENDPOINT_URL, AWS_REGION, the credentials, or [memory.storage] in config.toml"
        return Check("memory", False, str(exc), fix if "://" in str(exc) else "")
    took = (time.perf_counter() - started) * 1000
    return Check("memory", True, f"{where}: {count} memories, answered in {took:.0f} ms")


def check_sandbox(settings: Settings) -> Check:
    """Which backend runs app code, and why each stronger one is not used."""
    from macaron_cli.sandbox import describe_backends

    statuses = describe_backends(settings)
    active = next((s for s in statuses if s.active), None)
    if active is None:  # MACARON_SANDBOX forces a backend that cannot run here
        forced = next(s for s in statuses if s.forced)
        return Check(
            "sandbox",
            False,
            f"MACARON_SANDBOX={forced.name}, but it is unavailable: {forced.reason}",
            "unset MACARON_SANDBOX to use the strongest available",
        )
    detail = f"{active.name} ({active.reason})" + (" — forced by MACARON_SANDBOX" if active.forced else "")
    for stronger in statuses[: statuses.index(active)]:
        why = "available, but MACARON_SANDBOX chose another" if stronger.available else stronger.reason
        detail += f"; {stronger.name} not used: {why}"
    fix = ""
    if active.name == "process":
        fix = "apt-get install bubblewrap (or start docker): the process sandbox cannot keep apps away from your files"
    return Check("sandbox", active.name != "process", detail, fix)


# fontconfig's names for the languages whose text needs fonts beyond the usual Latin ones.
_FONT_LANGS = {"ja": "ja", "ko": "ko", "zh": "zh-cn"}


def check_fonts(settings: Settings) -> Check:
    """Fonts for the person's language and for emoji: without them apps show empty boxes."""
    import subprocess

    from macaron_cli.sandbox.verify import FONTS_FIX

    if not shutil.which("fc-list"):
        return Check(
            "fonts", False, "fontconfig (fc-list) not found, fonts unknown", f"apt-get install fontconfig; {FONTS_FIX}"
        )
    used = _languages_in_use(settings.language or "en", settings)
    wanted = {"emoji": ":charset=1f600:color=true"}
    # Every app may be switched to any of macaron's languages; those in use come first.
    for lang in sorted(_FONT_LANGS, key=lambda code: code not in used):
        wanted[lang] = f":lang={_FONT_LANGS[lang]}"
    missing = []
    for what, pattern in wanted.items():
        found = subprocess.run(
            ["fc-list", pattern, "family"], capture_output=True, text=True, timeout=30, check=False
        ).stdout.strip()
        if not found:
            missing.append(what)
    if not missing:
        return Check("fonts", True, f"{', '.join(sorted(used))} text and emoji can be drawn")
    needed = [lang for lang in missing if lang in used]
    detail = f"no fonts for {', '.join(missing)}: apps show that text as empty boxes"
    if needed:
        detail += f" ({', '.join(needed)}: your language, apps or memories use it)"
    return Check("fonts", not needed and "emoji" not in missing, detail, FONTS_FIX)


def _languages_in_use(language: str, settings: Settings) -> set[str]:
    """The person's language, their apps' and their memories' (as macaron's font names: ja, ko, zh)."""
    import json
    from pathlib import Path

    from macaron_cli import config
    from macaron_cli.apps import load_registry
    from macaron_cli.errors import MacaronError

    found = {language}
    try:
        for entry in load_registry().values():
            app_config = Path(entry.get("path", "")) / "config" / "app.json"
            if app_config.is_file():
                found.add(str(json.loads(app_config.read_text(encoding="utf-8")).get("language") or ""))
    except (MacaronError, OSError, ValueError, AttributeError):
        pass  # a damaged registry or app config is another check's business
    try:
        from macaron_cli.memory import MemoryStore

        if (config.home() / "memory").exists() or os.environ.get("MACARON_MEMORY_URI"):
            found.update(MemoryStore.open(settings=settings).distinct("language"))
    except (MacaronError, OSError):
        pass
    return {code.split("-")[0].lower() for code in found if code}


def check_tool(name: str, binary: str, fix: str) -> Check:
    path = shutil.which(binary)
    return Check(name, bool(path), path or "not found", "" if path else fix)


def check_on_path(settings: Settings) -> Check:
    """Whether typing `macaron` finds this macaron: a venv's script is not on PATH by itself."""
    import sys
    from pathlib import Path

    found = shutil.which("macaron")
    if found:
        return Check("on PATH", True, found)
    script = Path(sys.argv[0]).resolve() if Path(sys.argv[0]).name == "macaron" else None
    local_bin = Path.home() / ".local" / "bin"
    if script is None:
        return Check("on PATH", False, "no `macaron` on PATH", "pip install . in a venv, or pipx install .")
    if (local_bin / "macaron").exists():
        # Debian's and Ubuntu's ~/.profile add ~/.local/bin only if it existed at login.
        return Check(
            "on PATH",
            False,
            f"{local_bin} is not on PATH yet",
            f'log in again, or: export PATH="{local_bin}:$PATH"',
        )
    return Check(
        "on PATH",
        False,
        f"{script} is not on PATH; link it into {local_bin}, then log in again",
        f"mkdir -p {local_bin} && ln -s {script} {local_bin}/",
    )


CHECKS = [
    check_claude,
    check_on_path,
    check_local_model,
    check_embeddings,
    check_memory,
    check_sandbox,
    check_fonts,
    lambda settings: check_tool("node", "node", "apt-get install nodejs"),
    lambda settings: check_tool(
        "chromium", "chromium", "apt-get install chromium (apps are opened in it to verify them)"
    ),
    lambda settings: check_tool("git", "git", "apt-get install git"),
]


def doctor(json_out: bool = False) -> None:
    from macaron_cli import config

    settings = config.load_settings()
    checks = [c(settings) for c in CHECKS]
    if json_out:
        from macaron_cli.output import print_json

        print_json([asdict(c) for c in checks])
        return
    from macaron_cli.output import Out

    out = Out()
    for c in checks:
        mark = "[green]✓[/]" if c.ok else "[yellow]·[/]"
        out.line(
            mark + " [bold]{}[/]: {}" + ("  [dim]→ {}[/]" if c.fix else ""),
            c.name,
            c.detail,
            *([c.fix] if c.fix else []),
        )
