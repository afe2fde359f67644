"""Start an app, open it in headless Chromium, and write what happened as JSON.

Runs INSIDE the sandbox as a plain script (`python open_check.py CONFIG.json`): with
bubblewrap the sandbox's loopback is its own, so the browser must live next to the server.
It therefore imports only the standard library at the top (Playwright when it opens the
page) and verify.py copies it into the sandbox's work folder. The small helpers below
(free_port, wait_until_answers, expand_argv) are also what `macaron run` uses.

Config keys: run (argv with {python} and {port}), cwd, env, main_selector, screenshot
(path or null), report (path), chromium (executable), startup_timeout, server_memory_mb.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

# Flags FACTS.md found to work headless here; the resolver rule keeps the page on this
# machine (an app that needs a CDN will not work offline, and is reported for it).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-dev-shm-usage",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]
VIEWPORT = {"width": 1280, "height": 800}
# How long the page may take to fill its main element once loaded (generous: machines
# get busy), and how long after a script error it still may (the error usually means never).
RENDER_TIMEOUT = 10.0
RENDER_GRACE_AFTER_ERROR = 1.0
# The main element's state: missing, hidden, empty, or rendered (has text or children).
MAIN_STATE_JS = """(sel) => { const el = document.querySelector(sel);
    if (!el) return 'missing';
    if (el.getClientRects().length === 0) return 'hidden';
    return (el.innerText.trim().length > 0 || el.children.length > 0) ? 'rendered' : 'empty'; }"""
# Text the page shows outside its layout (on a page with macaron's look, macaron-tokens.css):
# every visible line belongs in the header or a card, or is a styled line of the page's own
# (a class mc-… or macaron-…) within the page's column; nothing runs past the card it is in.
# The text's own box is measured (a Range).
LAYOUT_JS = r"""(args) => {
  const [selector, limit] = args;
  const main = document.querySelector(selector);
  // Only a page with macaron's look has cards to keep text in.
  if (!main || !document.querySelector('link[href*="macaron-tokens"]')) return [];
  const column = main.getBoundingClientRect();
  const styled = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement)
      if ([...e.classList].some((c) => c.startsWith('mc-') || c.startsWith('macaron-'))) return true;
    return false;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && out.length < limit; node = walker.nextNode()) {
    const text = node.textContent.replace(/\s+/g, ' ').trim();
    const el = node.parentElement;
    if (!text || !el || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION'].includes(el.tagName)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    const card = el.closest('.mc-card, .mc-header, header');
    const shown = JSON.stringify(text.slice(0, 60));
    if (card) {
      const edge = card.getBoundingClientRect();
      if (box.right > edge.right + 1 || box.left < edge.left - 1) out.push(`${shown} runs past its card`);
    } else if (!styled(el)) {
      out.push(`${shown} is outside the cards and unstyled`);
    } else if (box.left < column.left - 1 || box.right > column.right + 1) {
      out.push(`${shown} is outside the page's column`);
    }
  }
  return out;
}"""
LAYOUT_LIMIT = 10
# Characters the page shows that no font could draw (they appear as empty boxes: "tofu").
# Chromium draws every such character with the same .notdef glyph, so each distinct
# character is drawn on a canvas in its element's font and compared with a codepoint no
# font has (plane 16's last private-use one): identical pixels mean no glyph. This asks
# the browser itself, so fonts the app brings (@font-face) count as much as installed ones.
MISSING_GLYPHS_JS = r"""(limit) => {
  const byFont = new Map();
  const add = (text, el) => {
    const font = getComputedStyle(el).fontFamily || 'sans-serif';
    if (!byFont.has(font)) byFont.set(font, new Set());
    const chars = byFont.get(font);
    for (const ch of text) if (!/[\s\p{M}\p{Cf}\p{Cc}]/u.test(ch) && chars.size < limit) chars.add(ch);
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
      add(walker.currentNode.textContent, el);
  }
  document.querySelectorAll('input[placeholder], textarea[placeholder]').forEach((el) => add(el.placeholder, el));
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 48;
  const g = canvas.getContext('2d', { willReadFrequently: true });
  const missing = new Set();
  for (const [font, chars] of byFont) {
    const draw = (ch) => {
      g.clearRect(0, 0, 48, 48);
      g.font = `28px ${font}`;
      g.textBaseline = 'top';
      g.fillText(ch, 4, 4);
      return g.measureText(ch).width + ':' + g.getImageData(0, 0, 48, 48).data.join(',');
    };
    const tofu = draw(String.fromCodePoint(0x10FFFD));
    for (const ch of chars) if (draw(ch) === tofu) missing.add(ch);
  }
  return [...missing];
}"""
MISSING_GLYPHS_LIMIT = 4000  # distinct characters checked per font (a page rarely has 500)
# What the page shows once drawn, as a person reads it (maker/page_judge.py judges it against
# the request): its visible text, and each form field's label, placeholder, value and options
# (what innerText leaves out). A field's label is its <label>, aria-label or title.
# How long the page may take to settle after it rendered, and how many reads in a row must
# agree (a read every 0.1 s) before what it shows is taken as what it shows.
PAGE_SETTLE_TIMEOUT = 8.0
PAGE_STEADY_READS = 4
PAGE_JS = r"""() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const labelOf = (el) => {
    const named = el.labels && el.labels.length ? [...el.labels].map((l) => l.innerText).join(' ') : '';
    return (named || el.getAttribute('aria-label') || el.title || '').trim();
  };
  const fields = [];
  document.querySelectorAll('input, select, textarea').forEach((el) => {
    if (!shown(el) || el.type === 'hidden') return;
    const field = { label: labelOf(el), placeholder: el.placeholder || '', value: '' };
    if (el.tagName === 'SELECT') {
      field.options = [...el.options].map((o) => o.text.trim()).filter(Boolean);
      field.value = el.selectedOptions.length ? el.selectedOptions[0].text.trim() : '';
    } else if (!['checkbox', 'radio'].includes(el.type)) {
      field.value = el.value || '';
    }
    fields.push(field);
  });
  return { text: document.body ? document.body.innerText : '', fields, lang: document.documentElement.lang || '' };
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def expand_argv(argv: Sequence[str], python: str, port: int | None = None) -> list[str]:
    """Fill a manifest command's placeholders: {python} (the app runtime) and {port}."""
    values = {"{python}": python, "{port}": str(port) if port is not None else "{port}"}
    out = []
    for arg in argv:
        for key, value in values.items():
            arg = arg.replace(key, value)
        out.append(arg)
    return out


def wait_until_answers(url: str, server: subprocess.Popen, timeout: float) -> int | None:
    """Poll `url` until it answers with any HTTP status; None if the server died or timed out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return None
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.status
        except urllib.error.HTTPError as exc:
            return exc.code
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            time.sleep(0.05)
    return None


def _memory_limit(memory_mb: int | None):
    def apply() -> None:
        if memory_mb:
            size = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_DATA, (size, size))

    return apply


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=3)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def _tail(path: Path, lines: int = 200) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def _first_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"


def _where(url: str, origin: str) -> str:
    """A same-origin URL as its path (what the agent sees in its code), others in full."""
    return url[len(origin) :] or "/" if url.startswith(origin) else url


def check(config: dict) -> dict:
    report: dict = {
        "started": False,
        "http_status": None,
        "console_errors": [],
        "failed_requests": [],
        "main_rendered": False,
        "main_state": None,
        "screenshot": None,
        "server_exit": None,
        "server_log": "",
        "error": None,
        "timings": {},
    }
    t0 = time.monotonic()
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    log_path = Path(config["report"]).with_suffix(".server.log")
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            expand_argv(config["run"], sys.executable, port),
            cwd=config["cwd"],
            env={**os.environ, **config.get("env", {})},
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_memory_limit(config.get("server_memory_mb")),
        )
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            # The browser starts while the server boots: the two take about as long.
            try:
                browser = pw.chromium.launch(executable_path=config["chromium"], args=CHROMIUM_ARGS, headless=True)
            except Exception as exc:
                # Not the app's fault: the machine cannot run the browser here.
                report["browser_error"] = _first_line(exc)
                return report
            report["timings"]["browser_launch"] = round(time.monotonic() - t0, 2)
            status = wait_until_answers(origin + "/", server, config.get("startup_timeout", 20))
            report["timings"]["server_ready"] = round(time.monotonic() - t0, 2)
            if status is None:
                report["server_exit"] = server.poll()
            else:
                report["started"] = True
                _open_page(browser, origin, config, report)
            browser.close()
    except Exception as exc:  # the report must always be written: this is the check's own failure
        report["error"] = _first_line(exc)
    finally:
        _stop(server)
        # Paths relative to the app, as the agent knows them, not to this temporary copy.
        report["server_log"] = _tail(log_path).replace(str(config["cwd"]).rstrip("/") + "/", "")
        report["timings"]["total"] = round(time.monotonic() - t0, 2)
    return report


def _open_page(browser, origin: str, config: dict, report: dict) -> None:
    page = browser.new_page(viewport=VIEWPORT)
    errors, failed = report["console_errors"], report["failed_requests"]

    def on_console(msg) -> None:
        if msg.type == "error":
            where = msg.location.get("url") if msg.location else ""
            line = msg.location.get("lineNumber") if msg.location else None
            suffix = f" ({_where(where, origin)}{f':{line + 1}' if line is not None else ''})" if where else ""
            errors.append(msg.text + suffix)

    def on_page_error(exc) -> None:
        # Where it was thrown: the first frame of the stack that has a URL and a line.
        frame = re.search(r"(https?://[^\s()]+):(\d+):\d+", exc.stack or "")
        where = f" ({_where(frame.group(1), origin)}:{frame.group(2)})" if frame else ""
        name = exc.name or "Error"
        errors.append(f"{'' if name.startswith('Uncaught') else 'Uncaught '}{name}: {exc.message}{where}")

    def on_response(response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.request.method} {_where(response.url, origin)}")

    def on_request_failed(request) -> None:
        failed.append(f"{request.failure or 'failed'} {request.method} {_where(request.url, origin)}")

    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    page.on("response", on_response)
    page.on("requestfailed", on_request_failed)
    t0 = time.monotonic()
    response = page.goto(origin + "/", wait_until="load", timeout=30000)
    report["http_status"] = response.status if response else None
    selector = config.get("main_selector") or "#app"
    report["main_state"] = _wait_for_render(page, selector, errors)
    report["main_rendered"] = report["main_state"] == "rendered"
    # Give late requests (the app's first fetch of its data) a moment to finish or fail.
    try:
        page.wait_for_load_state("networkidle", timeout=1500)
    except Exception:
        pass
    report["page"] = _page_shown(page)
    report["missing_glyphs"] = _missing_glyphs(page)
    report["layout"] = _layout(page, selector)
    report["timings"]["page"] = round(time.monotonic() - t0, 2)
    if config.get("screenshot"):
        page.screenshot(path=config["screenshot"], full_page=True)
        report["screenshot"] = config["screenshot"]
    page.close()


def _layout(page, selector: str) -> list[str]:
    """Text out of the page's layout (outside the cards and unstyled, past a card's edge)."""
    try:
        return page.evaluate(LAYOUT_JS, [selector, LAYOUT_LIMIT])
    except Exception:  # a page that navigated away or broke its own body: nothing to measure
        return []


def _page_shown(page) -> dict | None:
    """What the page shows once it has settled (PAGE_JS read the same PAGE_STEADY_READS times
    in a row: a page that draws "Loading…" first, then its data, is read after); None when it
    could not be read."""
    try:  # its data first: a page still fetching shows "Loading…", not what it keeps
        page.wait_for_load_state("networkidle", timeout=PAGE_SETTLE_TIMEOUT * 1000)
    except Exception:
        pass
    deadline, last, same = time.monotonic() + PAGE_SETTLE_TIMEOUT, None, 0
    while True:
        try:
            shown = page.evaluate(PAGE_JS)
        except Exception:  # a page that navigated away or broke its own body: nothing read
            return None
        same = same + 1 if shown == last else 0
        if same >= PAGE_STEADY_READS or time.monotonic() > deadline:
            return shown
        last = shown
        page.wait_for_timeout(100)


def _missing_glyphs(page) -> list[str]:
    """The page's characters that no font draws, as "U+XXXX c", at most 20."""
    try:
        chars = page.evaluate(MISSING_GLYPHS_JS, MISSING_GLYPHS_LIMIT)
    except Exception:  # a page that navigated away or broke its own body: nothing to measure
        return []
    return [f"U+{ord(ch):04X} {ch}" for ch in sorted(chars)[:20]]


def _wait_for_render(page, selector: str, errors: list[str]) -> str:
    """Poll the main element until it renders, the time is up, or a script error has had a
    moment to be followed by a render anyway."""
    deadline = time.monotonic() + RENDER_TIMEOUT
    first_error_at = None
    while True:
        state = page.evaluate(MAIN_STATE_JS, selector)
        now = time.monotonic()
        # A failed load (a missing stylesheet) need not stop the script: only script errors count.
        if first_error_at is None and any(not e.startswith("Failed to load resource") for e in errors):
            first_error_at = now
        if (
            state == "rendered"
            or now > deadline
            or (first_error_at and now - first_error_at > RENDER_GRACE_AFTER_ERROR)
        ):
            return state
        page.wait_for_timeout(100)


def main() -> int:
    config = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    report = check(config)
    Path(config["report"]).write_text(json.dumps(report, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
