"""The sandbox backends present on this machine keep their promises."""

from __future__ import annotations

import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from macaron_cli.errors import UserError
from macaron_cli.sandbox import BACKENDS, SandboxUnavailable, describe_backends, get_sandbox, landlock
from macaron_cli.sandbox.bubblewrap import BubblewrapSandbox
from macaron_cli.sandbox.container import DockerSandbox, _probe
from macaron_cli.sandbox.process import ProcessSandbox
from tests.support.fixture_apps import copy_app

PY = sys.executable


def _present(name: str) -> bool:
    try:
        BACKENDS[name].check_available()
    except SandboxUnavailable:
        return False
    return True


LOCAL_BACKENDS = [
    pytest.param(name, marks=pytest.mark.skipif(not _present(name), reason=f"{name} unavailable"))
    for name in ("bubblewrap", "process")
]
needs_bwrap = pytest.mark.skipif(not _present("bubblewrap"), reason="bubblewrap unavailable")


@pytest.fixture
def workdir(tmp_path):
    app = tmp_path / "app"
    app.mkdir()
    return app


@pytest.mark.parametrize("backend", LOCAL_BACKENDS)
def test_output_and_exit_code_come_back_intact(backend, workdir):
    script = "import sys; print('héllo out'); print('line 2'); print('oops', file=sys.stderr); sys.exit(7)"
    result = BACKENDS[backend]().run([PY, "-c", script], workdir, timeout=30)
    assert result.exit_code == 7
    assert result.stdout == "héllo out\nline 2\n"
    assert result.stderr == "oops\n"
    assert result.killed_reason is None and not result.ok


@pytest.mark.parametrize("backend", LOCAL_BACKENDS)
def test_the_app_dir_is_writable(backend, workdir):
    result = BACKENDS[backend]().run(["sh", "-c", "echo kept > note.txt"], workdir, timeout=30)
    assert result.ok, result.stderr
    assert (workdir / "note.txt").read_text() == "kept\n"


WRITE_CONFINED = [
    pytest.param("bubblewrap", marks=pytest.mark.skipif(not _present("bubblewrap"), reason="bubblewrap unavailable")),
    pytest.param("process", marks=pytest.mark.skipif(not landlock.abi_version(), reason="no Landlock in this kernel")),
]


@pytest.mark.parametrize("backend", WRITE_CONFINED)
def test_a_write_outside_the_app_dir_fails(backend, workdir, tmp_path, macaron_home):
    macaron_home.mkdir(parents=True)
    keep = tmp_path / "keep.txt"
    keep.write_text("mine")
    outside = [tmp_path / "outside.txt", macaron_home / "stolen.txt", Path(pytest.__file__).parent / "macaron-test"]
    script = "; ".join(f"echo x > {path}" for path in outside) + f"; rm -f {keep}; echo x > inside.txt"
    result = BACKENDS[backend]().run(["sh", "-c", script], workdir, timeout=30)
    assert result.ok, result.stderr
    assert not any(path.exists() for path in outside)
    assert keep.read_text() == "mine"
    assert (workdir / "inside.txt").exists()


@needs_bwrap
def test_bubblewrap_hides_the_persons_memory(workdir, macaron_home):
    macaron_home.mkdir(parents=True)
    (macaron_home / "memory.txt").write_text("my secret")
    result = BubblewrapSandbox().run(["cat", str(macaron_home / "memory.txt")], workdir, timeout=30)
    assert result.exit_code != 0 and "my secret" not in result.stdout


@pytest.mark.parametrize("backend", LOCAL_BACKENDS)
def test_the_persons_environment_does_not_leak_in(backend, workdir, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret")
    result = BACKENDS[backend]().run(["sh", "-c", "env"], workdir, timeout=30, env={"GIVEN": "yes"})
    assert "sk-secret" not in result.stdout
    assert "GIVEN=yes" in result.stdout


@pytest.fixture
def host_server():
    """A TCP server on this machine's loopback: (port, list of accepted connections)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        accepted = []
        threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
        yield server.getsockname()[1], accepted


def _connect_to(port: int) -> list[str]:
    return [PY, "-c", f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3); print('connected')"]


@needs_bwrap
def test_bubblewrap_blocks_a_server_outside_but_loopback_inside_works(workdir, host_server):
    port, accepted = host_server
    result = BubblewrapSandbox().run(_connect_to(port), workdir, timeout=30)
    assert result.exit_code != 0 and "connected" not in result.stdout
    assert "ConnectionRefused" in result.stderr
    time.sleep(0.2)
    assert not accepted
    inside = (
        "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); "
        "c = socket.create_connection(s.getsockname(), timeout=3); print('loopback ok')"
    )
    assert BubblewrapSandbox().run([PY, "-c", inside], workdir, timeout=30).stdout == "loopback ok\n"


@needs_bwrap
def test_bubblewrap_with_network_reaches_this_machine(workdir, host_server):
    port, _ = host_server
    result = BubblewrapSandbox().run(_connect_to(port), workdir, timeout=30, network=True)
    assert result.stdout == "connected\n", result.stderr


@pytest.mark.parametrize("backend", LOCAL_BACKENDS)
def test_a_timeout_kills_the_whole_process_tree(backend, workdir):
    # A background grandchild keeps writing a tick; once the timeout hits, the ticks stop.
    script = (
        "(while true; do date +%s%N > tick; sleep 0.05; done) & "
        "(setsid sh -c 'while true; do date +%s%N > tock; sleep 0.05; done') & wait"
    )
    result = BACKENDS[backend]().run(["sh", "-c", script], workdir, timeout=1.5)
    assert result.killed_reason == "timeout"
    assert not result.ok
    time.sleep(0.3)
    last = {name: (workdir / name).read_text() for name in ("tick", "tock")}
    time.sleep(0.5)
    assert {name: (workdir / name).read_text() for name in ("tick", "tock")} == last


@pytest.mark.parametrize("backend", LOCAL_BACKENDS)
def test_a_memory_limit_is_enforced(backend, workdir):
    grab = "b = bytearray({mb} * 1024 * 1024); print('got it')"
    sandbox = BACKENDS[backend]()
    small = sandbox.run([PY, "-c", grab.format(mb=20)], workdir, timeout=30, memory_mb=400)
    assert small.stdout == "got it\n"
    big = sandbox.run([PY, "-c", grab.format(mb=800)], workdir, timeout=30, memory_mb=400)
    assert big.killed_reason == "memory"
    assert "got it" not in big.stdout and "MemoryError" in big.stderr


# ── choosing a backend ───────────────────────────────────────────────────────────────────
@needs_bwrap
def test_the_strongest_available_backend_is_chosen(macaron_home, monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    _probe.cache_clear()
    assert get_sandbox().name == "bubblewrap"
    statuses = {s.name: s for s in describe_backends()}
    assert statuses["bubblewrap"].active and not statuses["docker"].available
    assert "/nonexistent/docker.sock" in statuses["docker"].reason


def test_macaron_sandbox_forces_a_backend(macaron_home, monkeypatch):
    monkeypatch.setenv("MACARON_SANDBOX", "process")
    assert isinstance(get_sandbox(), ProcessSandbox)
    monkeypatch.setenv("MACARON_SANDBOX", "chroot")
    with pytest.raises(UserError, match="not a sandbox"):
        get_sandbox()


# ── docker: absent here; its container is checked by what would be asked of the engine ──
def test_docker_absence_is_a_clear_message(macaron_home, monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    _probe.cache_clear()
    with pytest.raises(SandboxUnavailable, match=r"no docker engine answers at unix:///nonexistent/docker\.sock"):
        DockerSandbox.check_available()
    monkeypatch.setenv("MACARON_SANDBOX", "docker")
    with pytest.raises(UserError, match="MACARON_SANDBOX=docker but docker is unavailable"):
        get_sandbox()


def test_forcing_an_unavailable_docker_exits_2_with_one_line(macaron, tmp_path):
    app = copy_app("good", tmp_path / "app", git=True)
    result = macaron("run", app, env={"MACARON_SANDBOX": "docker", "DOCKER_HOST": "unix:///nonexistent/docker.sock"})
    assert result.returncode == 2
    assert result.stderr.startswith("macaron: MACARON_SANDBOX=docker but docker is unavailable")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_the_docker_container_is_confined(tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret")
    spec = DockerSandbox(image="macaron-runtime:test").container_spec(
        ["python3", "-m", "pytest"], tmp_path, memory_mb=512, network=False, env={"MACARON_APP_DATA": "/x"}
    )
    app = str(tmp_path.resolve())
    assert spec["image"] == "macaron-runtime:test"
    assert spec["volumes"] == {app: {"bind": app, "mode": "rw"}}  # the app dir, and nothing else
    assert spec["working_dir"] == app
    assert spec["network_mode"] == "none"
    assert spec["mem_limit"] == spec["memswap_limit"] == "512m"
    assert spec["nano_cpus"] > 0 and spec["pids_limit"] > 0
    assert spec["read_only"] is True and spec["cap_drop"] == ["ALL"]
    assert spec["environment"]["MACARON_APP_DATA"] == "/x"
    assert "sk-secret" not in str(spec)
    assert DockerSandbox().container_spec(["true"], tmp_path, network=True)["network_mode"] == "bridge"


def test_docker_image_is_configurable(monkeypatch, macaron_home):
    monkeypatch.setenv("MACARON_DOCKER_IMAGE", "registry.local/app-runtime:1")
    assert DockerSandbox().image == "registry.local/app-runtime:1"


def test_doctor_names_the_active_backend_and_why_not_stronger(macaron):
    result = macaron("doctor", "--json", env={"DOCKER_HOST": "unix:///nonexistent/docker.sock"})
    import json

    check = next(c for c in json.loads(result.stdout) if c["name"] == "sandbox")
    active = get_sandbox().name
    assert check["detail"].startswith(active)
    assert "docker not used: no docker engine answers" in check["detail"]
    forced = macaron("doctor", "--json", env={"MACARON_SANDBOX": "process"})
    check = next(c for c in json.loads(forced.stdout) if c["name"] == "sandbox")
    assert check["detail"].startswith("process") and "forced by MACARON_SANDBOX" in check["detail"]
    assert not check["ok"] and "bubblewrap" in check["fix"]


@needs_bwrap
def test_a_python_installed_under_tmp_runs_inside_bubblewrap(tmp_path, workdir):
    """CI and containers often put a venv under /tmp, which the sandbox replaces with an
    empty tmpfs: the running Python's installation is shown again, read-only, and nothing
    else of the real /tmp is."""
    import subprocess
    import venv

    if not tmp_path.resolve().is_relative_to("/tmp"):
        pytest.skip("tmp_path is not under /tmp here")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, symlinks=True, with_pip=False).create(env_dir)
    (tmp_path / "secret.txt").write_text("not for apps")
    probe = (
        "import sys, pathlib; print(sys.prefix, flush=True); "
        f"pathlib.Path({str(env_dir / 'escape.txt')!r}).write_text('x')"
    )
    runner = (
        "import sys, json, pathlib\n"
        "from macaron_cli.sandbox.bubblewrap import BubblewrapSandbox\n"
        "r = BubblewrapSandbox().run([sys.executable, '-c', sys.argv[1]], pathlib.Path(sys.argv[2]), timeout=60)\n"
        "s = BubblewrapSandbox().run(['cat', sys.argv[3]], pathlib.Path(sys.argv[2]), timeout=60)\n"
        "print(json.dumps([r.to_dict(), s.to_dict()]))\n"
    )
    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [str(env_dir / "bin" / "python"), "-c", runner, probe, str(workdir), str(tmp_path / "secret.txt")],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(repo)},
    )
    assert done.returncode == 0, done.stderr
    import json

    ran, peeked = json.loads(done.stdout)
    assert ran["exit_code"] != 0 and "Read-only file system" in ran["stderr"], ran  # it ran, and cannot write there
    assert ran["stdout"].splitlines()[0] == str(env_dir)
    assert not (env_dir / "escape.txt").exists()
    assert peeked["exit_code"] != 0 and "not for apps" not in peeked["stdout"]
