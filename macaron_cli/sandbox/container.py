"""The docker backend: each command in a fresh container, the strongest isolation macaron offers.

The app folder is mounted at the same path, the container's root is read-only, the
network is "none", memory, CPU and process count are capped and every capability is
dropped. The engine is found the way the docker CLI finds it (`DOCKER_HOST`, else the
local socket), so a remote engine works as long as it sees the same paths (the app
folder must exist on the engine's machine). The image is `MACARON_DOCKER_IMAGE`, else
`docker_image` in config.toml; it must already hold the app runtime (Python with FastAPI,
uvicorn, pytest, Playwright and Chromium for verification): nothing is pulled or
downloaded when a command runs, because the container has no network.
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from macaron_cli.sandbox.base import Result, Sandbox, SandboxUnavailable, _text

if TYPE_CHECKING:
    from macaron_cli.config import Settings

DEFAULT_IMAGE = "python:3.11-slim"


def image_name(settings: Settings | None = None) -> str:
    """MACARON_DOCKER_IMAGE, else the person's `docker_image` setting, else the default."""
    configured = settings.docker_image if settings is not None else None
    return os.environ.get("MACARON_DOCKER_IMAGE") or configured or DEFAULT_IMAGE


class DockerSandbox(Sandbox):
    name = "docker"
    walled = True
    strength = "a container: own filesystem, no network, memory/CPU/process limits"
    python = "python3"
    cpus = 1.0
    pids_limit = 512

    def __init__(self, image: str | None = None):
        self.image = image or image_name()

    @classmethod
    def check_available(cls, settings: Settings | None = None) -> None:
        problem = _probe(image_name(settings))
        if problem:
            raise SandboxUnavailable(problem)

    def home(self) -> str:
        return "/tmp"

    def container_spec(
        self, cmd, cwd, memory_mb: int | None = 1024, network: bool = False, env: dict | None = None
    ) -> dict:
        """The keyword arguments for `client.containers.run`: everything the container will be."""
        cwd = str(Path(cwd).resolve())
        spec = {
            "image": self.image,
            "command": [str(c) for c in cmd],
            "working_dir": cwd,
            "volumes": {cwd: {"bind": cwd, "mode": "rw"}},
            "network_mode": "bridge" if network else "none",
            "read_only": True,
            "tmpfs": {"/tmp": "rw,size=512m", "/dev/shm": "rw,size=256m"},
            "cap_drop": ["ALL"],
            "security_opt": ["no-new-privileges"],
            "pids_limit": self.pids_limit,
            "nano_cpus": int(self.cpus * 1e9),
            "user": f"{os.getuid()}:{os.getgid()}",
            "environment": {**self.environment(env), "PATH": "/usr/local/bin:/usr/bin:/bin"},
            "init": True,
            "detach": True,
        }
        if memory_mb:
            spec["mem_limit"] = f"{memory_mb}m"
            spec["memswap_limit"] = f"{memory_mb}m"
        return spec

    def spawn(self, *args, **kwargs):
        raise SandboxUnavailable(
            "the docker backend runs commands to completion only; serve apps with bubblewrap or a process"
        )

    def run(
        self,
        cmd,
        cwd,
        timeout: float = 60,
        memory_mb: int | None = 1024,
        network: bool = False,
        env: dict | None = None,
    ) -> Result:
        import docker
        import requests

        started = time.monotonic()
        client = docker.from_env(timeout=int(timeout) + 10)
        container = client.containers.run(**self.container_spec(cmd, cwd, memory_mb, network, env))
        killed = None
        try:
            try:
                code = container.wait(timeout=timeout)["StatusCode"]
            except (requests.exceptions.ReadTimeout, requests.exceptions.ConnectionError):
                # Killing the container ends every process in it: the tree dies with it.
                container.kill()
                code, killed = None, "timeout"
            container.reload()
            if container.attrs.get("State", {}).get("OOMKilled"):
                killed = "memory"
            stdout = _text(container.logs(stdout=True, stderr=False))
            stderr = _text(container.logs(stdout=False, stderr=True))
        finally:
            container.remove(force=True)
        return Result(code, stdout, stderr, time.monotonic() - started, killed)


@functools.lru_cache(maxsize=4)
def _probe(image: str) -> str | None:
    try:
        import docker
        from docker.errors import DockerException, ImageNotFound
    except ImportError:
        return "the docker Python package is not installed (pip install docker)"
    where = os.environ.get("DOCKER_HOST") or "the local socket"
    try:
        client = docker.from_env(timeout=5)
        client.ping()
    except Exception as exc:  # DockerException, or requests' own errors when the engine hangs
        cause = (
            "nothing listens there" if "FileNotFoundError" in str(exc) or "refused" in str(exc) else _first_line(exc)
        )
        return f"no docker engine answers at {where} ({cause}; start docker or set DOCKER_HOST)"
    try:
        client.images.get(image)
    except ImageNotFound:
        return f"image {image} is not on the engine (docker pull {image}, or set MACARON_DOCKER_IMAGE)"
    except DockerException as exc:
        return f"the engine at {where} failed to list images ({_first_line(exc)})"
    return None


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:160] if text else type(exc).__name__
