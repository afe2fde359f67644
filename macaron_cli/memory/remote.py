"""A memory on object storage (s3://, gs://, az://) that several machines share.

Where its options come from: the standard environment (AWS_ENDPOINT_URL, AWS_REGION,
AWS_ACCESS_KEY_ID …; Google and Azure read their own variables inside LanceDB), and the
`[memory.storage]` table of config.toml; the environment wins, as with every AWS tool.
Memories cross the network, so plain HTTP is allowed to this machine's loopback alone.

No file lock reaches across machines: writers to a remote memory rely on LanceDB's commit
protocol. Appends that race are rebased and retried by LanceDB itself; upkeep (compaction,
folding rows into indexes) that loses a race is simply left to the next write, and forget
retries until its rewrite and purge land.
"""

from __future__ import annotations

import ipaddress
import os
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import urlsplit

from macaron_cli.errors import UserError

if TYPE_CHECKING:
    from macaron_cli.config import Settings

# Schemes LanceDB opens through object_store; s3+ddb is S3 with a DynamoDB commit store.
OBJECT_STORES = {"s3": "s3", "s3a": "s3", "s3+ddb": "s3", "gs": "gs", "gcs": "gs", "az": "az", "abfs": "az"}
# The S3 options the environment gives, under the names LanceDB's object store reads.
_AWS_ENV = [
    ("aws_endpoint", ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")),
    ("aws_region", ("AWS_REGION", "AWS_DEFAULT_REGION")),
    ("aws_access_key_id", ("AWS_ACCESS_KEY_ID",)),
    ("aws_secret_access_key", ("AWS_SECRET_ACCESS_KEY",)),
    ("aws_session_token", ("AWS_SESSION_TOKEN",)),
]
# Short names a person may write in [memory.storage] for an S3 memory.
_AWS_SHORT = {
    "endpoint": "aws_endpoint",
    "endpoint_url": "aws_endpoint",
    "region": "aws_region",
    "access_key_id": "aws_access_key_id",
    "secret_access_key": "aws_secret_access_key",
    "session_token": "aws_session_token",
}

# How stale a shared memory's reads may be: each look for a newer version is a LIST request.
FRESH_WITHIN = timedelta(seconds=1)
# Older versions upkeep leaves for writers and readers still on them (forget drops them all).
KEEP_VERSIONS = timedelta(hours=1)

T = TypeVar("T")


def kind(uri: str) -> str | None:
    """ "s3", "gs" or "az" for an object-storage URI; None for a local path or anything else."""
    if "://" not in uri:
        return None
    return OBJECT_STORES.get(uri.split("://", 1)[0].lower())


def storage_options(uri: str, settings: Settings) -> dict[str, str]:
    """Options for `lancedb.connect(uri, storage_options=…)`; refuses plain HTTP off this machine."""
    from macaron_cli import config

    store = kind(uri)
    _, configured = config.memory_settings(settings)
    options = dict(configured)
    if store == "s3":
        options = {_AWS_SHORT.get(k, k): v for k, v in options.items()}
        for key, names in _AWS_ENV:
            value = next((os.environ[n] for n in names if os.environ.get(n)), None)
            if value:
                options[key] = value
    endpoints = {k: v for k, v in options.items() if k.endswith("endpoint") and v}
    plain = [v for v in endpoints.values() if v.lower().startswith("http://")]
    for endpoint in plain:
        if not _loopback(endpoint):
            raise UserError(
                f"the memory's endpoint {endpoint} is plain HTTP to another machine, so memories would "
                "cross the network unencrypted; use an https:// endpoint (plain HTTP is allowed to "
                "127.0.0.1 or localhost only)."
            )
    wants_http = options.get("allow_http", "false").lower() in ("true", "1", "yes")
    if wants_http and not plain:
        raise UserError(
            "memory.storage.allow_http is set, but plain HTTP is allowed only to an endpoint on this "
            "machine (http://127.0.0.1:…); remove allow_http or set that endpoint."
        )
    # Explicit, so an AWS_ALLOW_HTTP in the environment cannot switch it on behind our back.
    options["allow_http"] = "true" if plain else "false"
    return options


def where(uri: str, settings: Settings) -> str:
    """Where the memory lives, in words (no credentials): for `macaron doctor`."""
    store = kind(uri)
    if store is None:
        return uri
    try:
        endpoint = next((v for k, v in storage_options(uri, settings).items() if k.endswith("endpoint")), None)
    except UserError:
        endpoint = None
    return f"{uri} ({'at ' + endpoint if endpoint else 'on ' + store.upper()}; shared by every machine that uses it)"


def _loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# What LanceDB says of a commit that other writers' commits beat: "Retryable commit conflict",
# or "Too many concurrent writers" once its own retries ran out (a slow object store and a
# busy neighbour are enough).
_LOST_RACE = ("commit conflict", "preempted by concurrent transaction", "too many concurrent writers")


def is_conflict(exc: BaseException) -> bool:
    """A commit other writers' commits beat, so it did not land and may simply run again."""
    text = str(exc).lower()
    return any(sign in text for sign in _LOST_RACE)


def retrying(step: Callable[[], T], attempts: int = 8) -> T:
    """Run `step` again while another machine's commits keep beating it."""
    for attempt in range(attempts):
        try:
            return step()
        except Exception as exc:  # lance raises bare RuntimeError/OSError/ValueError
            if not is_conflict(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")
