"""The two ways a command fails, mapped to exit codes by cli.py.

UserError: bad input or environment (exit 2). Its message is one line that says what
is wrong and how to fix it; nothing has been written when it is raised.
WorkFailed: the input was fine but the work did not succeed (exit 1): tests red,
budget hit, a model error.
"""


class MacaronError(Exception):
    exit_code = 1


class UserError(MacaronError):
    exit_code = 2


class WorkFailed(MacaronError):
    exit_code = 1


def exit_for(exc: BaseException, verbose: bool = False) -> tuple[int, str]:
    """The exit code and the one line a person sees for what a command raised (cli.py's handler).

    macaron's own errors say what they mean. An OSError is the machine's state (a full disk,
    a home that is a file, a folder without permission): exit 2 with what to do about it.
    Anything else is a bug: one line with a log that holds the traceback, exit 1.
    """
    if isinstance(exc, MacaronError):
        return exc.exit_code, str(exc)
    if isinstance(exc, OSError):
        return 2, _os_error_line(exc)
    if disk_full(exc):
        return 2, "the disk is full; free some space and run it again (what was saved before is untouched)."
    log = _log_traceback(exc)
    if verbose:
        import traceback

        traceback.print_exception(exc)
    where = f"details are in {log}" if log else "run again with -v for the details"
    first = (str(exc).splitlines() or [""])[0][:200]
    return 1, f"unexpected error: {type(exc).__name__}{': ' + first if first else ''} ({where}); please report it."


def disk_full(exc: BaseException) -> bool:
    """ENOSPC as Python raises it, or as LanceDB (Rust) and SQLite put it in their messages."""
    import errno

    text = str(exc)
    return getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT) or any(
        sign in text for sign in ("No space left", "os error 28", "database or disk is full")
    )


_HOMES = (("MACARON_HOME", "~/.macaron"), ("MACARON_APPS_DIR", "~/macaron-apps"))


def check_homes() -> None:
    """Before a command runs: each of macaron's two folders is a folder, or can become one."""
    for name, default in _HOMES:
        path = _not_a_folder(name, default)
        if path:
            raise UserError(
                f"{name} is {path}, which is a file, not a folder; point {name} at a folder (or move that file away)."
            )


def _os_error_line(exc: OSError) -> str:
    import errno

    try:
        check_homes()
    except UserError as problem:
        return str(problem)
    name = str(exc.filename) if exc.filename else ""
    where = f" ({name if len(name) <= 200 else name[:100] + '…' + name[-40:]})" if name else ""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk is full{where}; free some space and run it again (what was saved before is untouched)."
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied{where}; check who owns it, or point macaron somewhere you may write."
    if exc.errno == errno.EROFS:
        return f"the file system is read-only{where}; point macaron at a writable place."
    return f"{exc.strerror or type(exc).__name__}{where}; check that path and run it again."


def _not_a_folder(env: str, default: str) -> str | None:
    """`env`'s folder (or one above it) when it exists as something other than a folder."""
    import os
    from pathlib import Path

    path = Path(os.environ.get(env) or default).expanduser()
    for candidate in (path, *path.parents):
        if candidate.exists():
            return None if candidate.is_dir() else str(candidate)
    return None


def _log_traceback(exc: BaseException) -> str | None:
    """Write the traceback to a log the person can attach to a report; None if nowhere can take it."""
    import os
    import tempfile
    import time
    import traceback
    from pathlib import Path

    text = "".join(traceback.format_exception(exc))
    name = f"error-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
    home = Path(os.environ.get("MACARON_HOME") or Path.home() / ".macaron").expanduser()
    for folder in (home / "logs", Path(tempfile.gettempdir()) / "macaron-logs"):
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            path = folder / name
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as fh:
                fh.write(text)
            return str(path)
        except OSError:
            continue
    return None
