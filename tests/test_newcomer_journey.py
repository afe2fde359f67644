"""A newcomer's first hour, end to end, with the `macaron` a fresh venv installs: make an
app, run it, two more in Japanese and Korean that keep their languages, chat piped and on a
terminal, browse the memory in tmux at 80×24 and 160×48 (rows on screen, search, forget,
quit), and roll the app back and undo it from elsewhere.

The venv reuses the test machine's packages (--system-site-packages): the README's own
two-command quick start, which installs everything, is what `.ci/run` runs."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pexpect
import pytest

from tests.conftest import REPO

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by .ci/run"),
]

CONVERSATION = """\
Mina: My sister Jiyoon moved to Busan last spring.
Mina: I drink two litres of water a day, or try to.
Jiyoon: Mina always forgets her water bottle at the gym.
Mina: 저는 주말마다 한강에서 자전거를 타요.
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """`macaron` as a fresh venv installs it from this checkout."""
    venv = tmp_path_factory.mktemp("newcomer") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "--no-deps", str(REPO)], check=True, capture_output=True
    )
    return venv / "bin" / "macaron"


@pytest.fixture
def newcomer(installed, macaron_home, tmp_path):
    """Run the installed macaron as the newcomer does: (args, cwd, input) → CompletedProcess."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # nothing from this checkout
    env.update({"TERM": "xterm-256color", "LANG": "C.UTF-8"})

    def run(*args, cwd=None, input=None, timeout=600):
        return subprocess.run(
            [str(installed), *map(str, args)],
            cwd=cwd or tmp_path,
            env=env,
            input=input,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    run.env = env
    run.exe = installed
    return run


def test_a_newcomers_first_hour(newcomer, macaron_home, tmp_path):
    assert newcomer("-V").stdout.startswith("macaron ")

    # make, then run it
    made = newcomer("make", "a water tracker for my day", "--offline", "--yes", "--json")
    assert made.returncode == 0, made.stderr
    app = json.loads(made.stdout)
    assert app["tests"] and app["opened"]
    served = subprocess.Popen(
        [str(newcomer.exe), "run", app["app"]], env=newcomer.env, stdout=subprocess.PIPE, text=True, cwd=tmp_path
    )
    line = ""
    while served.poll() is None and "is running at" not in line:  # the app's own log comes first
        line = served.stdout.readline()
    url = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert url and f"({app['app']})" in line, line
    with urllib.request.urlopen(url.group(0), timeout=10) as page:
        assert page.status == 200
    served.send_signal(signal.SIGINT)
    assert served.wait(timeout=30) == 0

    # two more apps, in Japanese and Korean, while the friend speaks English: each keeps its
    # own language through `macaron run` and `apps refresh`
    (macaron_home / "config.toml").write_text('language = "en"\n', encoding="utf-8")
    languages = {app["app"]: "en"}
    for idea, language in (("毎朝の体重を記録したい", "ja"), ("오늘 기분을 적는 일기장", "ko")):
        other = newcomer("make", idea, "--offline", "--yes", "--json")
        assert other.returncode == 0, other.stderr
        languages[json.loads(other.stdout)["app"]] = language
    for slug, language in languages.items():
        assert newcomer("apps", "refresh", slug).returncode == 0
        run = subprocess.Popen([str(newcomer.exe), "run", slug], env=newcomer.env, stdout=subprocess.PIPE, text=True)
        while run.poll() is None and "is running at" not in (said := run.stdout.readline()):
            assert "language" not in said, said  # no "language ja → en"
        run.send_signal(signal.SIGINT)
        assert run.wait(timeout=30) == 0
        config = json.loads(newcomer("apps", "--json").stdout)
        path = Path(next(a["path"] for a in config if a["app"] == slug))
        assert json.loads((path / "config" / "app.json").read_text(encoding="utf-8"))["language"] == language

    # chat, piped: the line is a message, not a name; notebook mode is said once, with how
    piped = newcomer("chat", input="hi, what do you remember about my sister?\n")
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.count("notebook mode") == 1 and "/model" in piped.stdout
    assert "What should I call you" not in piped.stdout

    # chat on a terminal: the first meeting (skipped), then /name
    child = pexpect.spawn(
        str(newcomer.exe), ["chat"], env=newcomer.env, encoding="utf-8", timeout=120, dimensions=(24, 80)
    )
    child.expect_exact("What should I call you?")
    child.sendline("skip")
    child.expect_exact("Want one now?")
    child.sendline("")
    child.expect_exact("you › ")
    child.sendline("/name Mina")
    child.expect_exact("I'll call you Mina.")
    child.expect_exact("you › ")  # the next line is read before it ends: an EOF typed sooner can race the prompt
    child.sendeof()
    child.expect(pexpect.EOF)

    # the memory browser in tmux, small and wide
    conversation = tmp_path / "mina.txt"
    conversation.write_text(CONVERSATION, encoding="utf-8")
    imported = newcomer("memory", "import", conversation)
    assert "4 added" in imported.stderr, imported.stderr
    before = len(json.loads(newcomer("memory", "list", "--json").stdout))
    for (width, height), query in (((80, 24), "sister"), ((160, 48), "bottle")):
        _browse_search_forget_quit(newcomer, width, height, query)
    after = json.loads(newcomer("memory", "list", "--json").stdout)
    assert len(after) == before - 2  # one forgotten at each size

    # rollback and undo from outside the app's folder, as the hint says
    note = Path(app["path"]) / "my-note.txt"
    note.write_text("My own note.\n", encoding="utf-8")
    assert newcomer("checkpoint", app["app"], "-m", "my note").returncode == 0
    listed = newcomer("checkpoints", app["app"]).stdout
    assert listed.startswith(f"Checkpoints of {app['app']}")
    back = newcomer("rollback", app["app"], "--to", "1", "--yes")
    assert back.returncode == 0, back.stderr
    assert not note.exists()
    hint = re.search(r"Undo with `macaron (rollback [^`]+)`", back.stdout)
    assert hint and app["app"] in hint.group(1)
    undone = newcomer(*hint.group(1).split(), "--yes")
    assert undone.returncode == 0, undone.stderr
    assert note.read_text(encoding="utf-8") == "My own note.\n"


def _browse_search_forget_quit(newcomer, width: int, height: int, query: str) -> None:
    socket = f"macaron-newcomer-{os.getpid()}-{width}x{height}"  # a server of its own each time
    env = " ".join(f"{k}={_quoted(v)}" for k, v in newcomer.env.items() if k.startswith(("MACARON_", "LANG")))

    def tmux(*args):
        return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, timeout=30)

    def screen() -> str:
        return tmux("capture-pane", "-p", "-t", "browser").stdout

    def wait_for(what, timeout=60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = screen()
            if what(shown):
                return shown
            time.sleep(0.3)
        raise AssertionError(f"not on screen:\n{screen()}")

    tmux("new-session", "-d", "-s", "browser", "-x", str(width), "-y", str(height), f"env {env} {newcomer.exe} memory")
    try:
        size = tmux("display", "-p", "-t", "browser", "#{window_width}x#{window_height}").stdout.strip()
        assert size == f"{width}x{height}", size
        shown = wait_for(lambda s: " of " in s and "newest first" in s)
        assert "q Quit" in shown.rstrip().splitlines()[-1], shown  # the key bar, its last line, keeps Quit
        rows = [line for line in shown.splitlines() if re.search(r"│ +\S", line) and "Mina" in line]
        assert len(rows) >= 3, shown  # the memories are on screen, not just a header
        tmux("send-keys", "-t", "browser", "/", query)
        wait_for(lambda s: f"for “{query}”" in s)
        tmux("send-keys", "-t", "browser", "Enter")
        time.sleep(1)  # the focus moves back to the list before `d` is a command, not a letter
        tmux("send-keys", "-t", "browser", "d")
        wait_for(lambda s: "Forgot" in s)
        tmux("send-keys", "-t", "browser", "Escape")
        wait_for(lambda s: "newest first" in s)  # Escape cleared the search
        tmux("send-keys", "-t", "browser", "q")
        deadline = time.monotonic() + 60
        while tmux("has-session", "-t", "browser").returncode == 0 and time.monotonic() < deadline:
            time.sleep(0.3)
        assert tmux("has-session", "-t", "browser").returncode != 0, "q did not quit"
    finally:
        tmux("kill-server")


def _quoted(value: str) -> str:
    import shlex

    return shlex.quote(value)
