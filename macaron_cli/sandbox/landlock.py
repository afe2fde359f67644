"""Linux Landlock: let a process write only beneath a few folders, without any privilege.

The process backend has no namespaces; where the kernel offers Landlock (5.13+, enabled in
most distributions' kernels) it still confines writes to the app folder and a scratch
folder. Reading and executing stay allowed everywhere (the app needs Python and its
packages), and so does the network: Landlock's network rules are per port, not per
address, so they cannot say "loopback only".

`restrict_writes(paths)` is called in the child between fork and exec (preexec_fn): it
uses raw syscalls through ctypes and allocates nothing Python-heavy.
"""

from __future__ import annotations

import ctypes
import functools
import os
import platform

# Syscall numbers are the same on x86_64 and aarch64 (they were added after the tables met).
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1 << 0
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

# Every right that changes the filesystem, by the ABI version that introduced it.
_WRITE_RIGHTS_V1 = (
    (1 << 1)  # WRITE_FILE
    | (1 << 4)  # REMOVE_DIR
    | (1 << 5)  # REMOVE_FILE
    | (1 << 6)  # MAKE_CHAR
    | (1 << 7)  # MAKE_DIR
    | (1 << 8)  # MAKE_REG
    | (1 << 9)  # MAKE_SOCK
    | (1 << 10)  # MAKE_FIFO
    | (1 << 11)  # MAKE_BLOCK
    | (1 << 12)  # MAKE_SYM
)
_REFER, _TRUNCATE = 1 << 13, 1 << 14  # ABI 2 (rename/link across folders), ABI 3


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


@functools.lru_cache(maxsize=1)
def abi_version() -> int:
    """The kernel's Landlock ABI version; 0 when Landlock is missing or disabled."""
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "aarch64"):
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    version = libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(version, 0)


def _write_rights(abi: int) -> int:
    rights = _WRITE_RIGHTS_V1
    if abi >= 2:
        rights |= _REFER
    if abi >= 3:
        rights |= _TRUNCATE
    return rights


def prepare(writable: list[str]):
    """A function for preexec_fn that confines writes to `writable`; None without Landlock.

    The ABI probe and path list are settled here, in the parent, so the child only makes
    syscalls."""
    abi = abi_version()
    if not abi:
        return None
    rights = _write_rights(abi)
    # A rule on a file (not a folder) may carry only the rights that apply to files.
    file_rights = rights & ((1 << 1) | _TRUNCATE)
    paths = [(os.fsencode(p), rights if os.path.isdir(p) else file_rights) for p in writable if os.path.exists(p)]
    libc = ctypes.CDLL(None, use_errno=True)
    ruleset_attr = ctypes.c_uint64(rights)  # struct landlock_ruleset_attr, handled_access_fs only

    def restrict() -> None:
        ruleset = libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(ruleset_attr), ctypes.c_size_t(8), ctypes.c_uint32(0))
        if ruleset < 0:
            raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
        try:
            for path, allowed in paths:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                try:
                    rule = _PathBeneath(allowed, fd)
                    if (
                        libc.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), ctypes.c_uint32(0))
                        < 0
                    ):
                        raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path!r}")
                finally:
                    os.close(fd)
            if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0:
                raise OSError(ctypes.get_errno(), "prctl(NO_NEW_PRIVS) failed")
            if libc.syscall(_SYS_RESTRICT_SELF, ruleset, ctypes.c_uint32(0)) < 0:
                raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
        finally:
            os.close(ruleset)

    return restrict
