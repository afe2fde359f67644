"""This machine's addresses, for tests that need an endpoint that is not loopback."""

from __future__ import annotations

import socket


def non_loopback_address() -> str | None:
    """One of this machine's own addresses that is not loopback (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address
