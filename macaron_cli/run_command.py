"""`macaron run APP`: serve an app for the person on 127.0.0.1 until Ctrl-C.

The app runs on its real data, in the strongest sandbox that can serve: bubblewrap, with no
network of its own (it listens on a unix socket that 127.0.0.1:PORT is forwarded to), else
a plain process, only for an app whose code is macaron's own or with --accept-unsandboxed
(a docker sandbox runs commands to completion and is not used for serving).
"""

from __future__ import annotations

import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

from macaron_cli.apps import ref_for, resolve_app
from macaron_cli.config import Settings
from macaron_cli.errors import WorkFailed
from macaron_cli.output import safe_text
from macaron_cli.ports import check_free
from macaron_cli.sandbox import Sandbox, sandbox_for_untrusted
from macaron_cli.sandbox.base import Serving
from macaron_cli.sandbox.manifest import DATA_DIR, runnable_manifest
from macaron_cli.sandbox.open_check import expand_argv, free_port, wait_until_answers

STARTUP_TIMEOUT = 30
# The app server's own lines a person does not need beside macaron's: a line per request and
# uvicorn's start-up notes. Its warnings and errors still show; `--verbose` shows everything.
# (uvicorn reads its options from UVICORN_* variables.)
QUIET_SERVER = {"UVICORN_ACCESS_LOG": "false", "UVICORN_LOG_LEVEL": "warning"}


def run_app(
    app_ref: str | None = None,
    port: int | None = None,
    open_browser: bool = False,
    verbose: bool = False,
    accept_unsandboxed: bool = False,
) -> int:
    from macaron_cli import config

    app_dir = resolve_app(app_ref)
    settings = config.load_settings()
    sandbox = sandbox_for_untrusted("its code", accept_unsandboxed, app_dir, serving=True, settings=settings)
    # SIGTERM (a service manager, `kill`) stops the app as cleanly as Ctrl-C does.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    served = None
    try:
        for line in keep_up(app_dir, settings):
            print(line, flush=True)
        served = serve_app(app_dir, settings, port, verbose=verbose, sandbox=sandbox)
        url, title = served.url, safe_text(served.title)
        app = safe_text(ref_for(app_dir))
        print(f"{title} ({app}) is running at {url}  (Ctrl-C stops it; sandbox: {served.sandbox})", flush=True)
        if open_browser and not _open_in_browser(url):
            print(f"No web browser found to open it (set BROWSER, or open {url} yourself).", flush=True)
        code = served.process.wait()
        raise WorkFailed(f"{served.title} stopped by itself (exit code {code}); its output is above.")
    except KeyboardInterrupt:
        if served is not None:
            served.stop()
            print(f"\nStopped {title}.", flush=True)
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        if served is not None:
            served.stop()


def keep_up(app_dir: Path, settings: Settings, store=None) -> list[str]:
    """Refresh the app's settings from the person's memories before serving it; what changed.
    A memory that cannot be read never keeps the app from opening."""
    from macaron_cli.errors import MacaronError
    from macaron_cli.lifelog.refresh import describe, refresh_app

    try:
        done = refresh_app(app_dir, settings, store=store)
    except MacaronError as exc:
        return [f"(settings not refreshed: {exc})"]
    return [
        *(f"Settings now follow what you told me: {describe(k, old, new)}." for k, (old, new) in done.changes.items()),
        *(f"({unread}.)" for unread in done.unread),
        *(f"({kept}.)" for kept in done.kept),
    ]


@dataclass
class Served:
    serving: Serving
    url: str
    title: str
    sandbox: str

    @property
    def process(self) -> subprocess.Popen:
        return self.serving.process

    def stop(self) -> None:
        self.serving.stop()


def serve_app(
    app_dir: Path,
    settings: Settings,
    port: int | None = None,
    output=None,
    verbose: bool = False,
    sandbox: Sandbox | None = None,
) -> Served:
    """Start the app on 127.0.0.1 in `sandbox` (else the one for untrusted code, which
    refuses where none has walls) and return once it answers (`macaron run`, the friend's
    /run)."""
    sandbox = sandbox or sandbox_for_untrusted("its code", False, app_dir, serving=True, settings=settings)
    manifest = runnable_manifest(app_dir)
    _private_data(app_dir)
    if port is None:
        port = free_port()
    else:
        check_free(port, otherwise="pick another --port, or omit it for a free one")
    url = f"http://127.0.0.1:{port}/"
    serving = sandbox.serve(
        expand_argv(manifest.run or (), sandbox.python, port),  # runnable: it has one
        app_dir,
        port,
        env=None if verbose else QUIET_SERVER,
        stdin=subprocess.DEVNULL,
        **({"stdout": output, "stderr": output} if output is not None else {}),
    )
    try:
        if wait_until_answers(url, serving.process, STARTUP_TIMEOUT) is None:
            code = serving.process.poll()
            serving.stop()
            if code is None:
                raise WorkFailed(
                    f"{manifest.label} did not answer on {url} within {STARTUP_TIMEOUT} s; its output is above."
                )
            raise WorkFailed(f"{manifest.label} stopped with exit code {code} before it answered; its output is above.")
        # Everything but the wait happens before the URL is shown: a Ctrl-C that comes as soon
        # as the person sees it must not land in an import (Python then half-imports a module,
        # or reports the interrupt as a RuntimeError from inside a class definition).
        from macaron_cli.ledger import signals

        signals.app_served(app_dir, manifest.data_files)
    except BaseException:
        serving.stop()
        raise
    return Served(serving, url, manifest.label, sandbox.name)


def _private_data(app_dir: Path) -> None:
    """The app's data folder (every data file lies in it) readable by the person alone, also
    when an older macaron or the app itself made it looser; new files follow from the
    sandbox's umask. A `data` that is a link is not the app's to chmod: it is left alone."""
    from macaron_cli.files import make_private
    from macaron_cli.untrusted.data_paths import inside

    if inside(app_dir, DATA_DIR):
        make_private(app_dir / DATA_DIR)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _open_in_browser(url: str) -> bool:
    """Whether a browser took the URL: webbrowser.open is False when it found none."""
    import webbrowser

    try:
        return webbrowser.open(url)
    except webbrowser.Error:
        return False
