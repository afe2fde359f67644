"""Who may see which memories. Decided by where a request goes, never by a name.

public, personal: any model.  private: only an endpoint on this machine, or one the
person marked trusted in config.  secret: never any model; shown to the person only.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlparse

LOOPBACK_NAMES = {"localhost", "ip6-localhost"}


def is_local_endpoint(url: str | None) -> bool:
    """True when `url` points at this machine (loopback); anything else counts as cloud."""
    if not url:
        return False
    host = (urlparse(url if "//" in url else f"http://{url}").hostname or "").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _same_endpoint(a: str, b: str) -> bool:
    pa, pb = urlparse(a), urlparse(b)
    return (pa.hostname, pa.port) == (pb.hostname, pb.port) and pa.hostname is not None


def is_trusted_endpoint(endpoint_url: str | None, trusted: list[str] | None = None) -> bool:
    """True when the person listed `endpoint_url` (same host and port) as trusted in config."""
    return bool(endpoint_url) and any(_same_endpoint(endpoint_url, t) for t in (trusted or []))


def allowed_levels(endpoint_url: str | None, trusted: list[str] | None = None) -> frozenset[str]:
    """The privacy levels a request to `endpoint_url` may carry. None means the cloud default."""
    if is_local_endpoint(endpoint_url) or is_trusted_endpoint(endpoint_url, trusted):
        return frozenset({"public", "personal", "private"})
    return frozenset({"public", "personal"})


def filter_for_endpoint(memories, endpoint_url: str | None, trusted: list[str] | None = None):
    """Keep the memories (or hits) that may go to `endpoint_url`."""
    allowed = allowed_levels(endpoint_url, trusted)
    return [m for m in memories if getattr(m, "memory", m).privacy in allowed]
