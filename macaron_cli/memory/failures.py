"""LanceDB's errors on a damaged, unreadable or full store, as one clear line (exit 2).

LanceDB raises bare OSError/RuntimeError (ValueError too, when opening); the person needs
to know which memory, what happened, and what to do, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from macaron_cli.errors import MacaronError, UserError, disk_full


def as_user_error(exc: BaseException, uri: str, *, opening: bool = False) -> UserError:
    """The line for `exc` met while opening (`opening`) or using the memory at `uri`."""
    first = (str(exc).splitlines() or [type(exc).__name__])[0][:300]
    if disk_full(exc):
        return UserError(
            f"the disk holding the memory at {uri} is full; free some space and run it "
            "again (the memory is as it was before this command)."
        )
    if opening:
        return UserError(f"cannot open the memory at {uri} ({first}); move it away or set MACARON_HOME.")
    return UserError(
        f"the memory at {uri} could not be used ({first}); "
        "restore it from a backup or `macaron memory export` of it, or move it away."
    )


def readable(method: Callable) -> Callable:
    """A store method whose I/O errors on a damaged store become one clear line."""

    @wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except MacaronError:
            raise
        except (OSError, RuntimeError) as exc:
            raise as_user_error(exc, self.uri) from None

    return wrapper
