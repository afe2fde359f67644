"""The draft phase on its own: prompt, parse whole files, apply them inside the app only."""

import json
import subprocess

import pytest

from macaron_cli import privacy
from macaron_cli.maker.brief import Brief
from macaron_cli.maker.draft import DraftFile, apply_files, draft, parse_files
from macaron_cli.models.client import Endpoint
from tests.support.model_server import ModelServer, Reply


def _brief(idea: str, url: str) -> Brief:
    """A brief with no memories, cleared for the draft model at `url`."""
    return Brief(
        idea=idea,
        language="en",
        accent="#B5EAD7",
        settings={"units": "metric", "currency": "EUR"},
        memories=privacy.nothing(privacy.draft(url)),
    )


INDEX = '<!doctype html>\n<html><body><main id="app"><h1>Water</h1></main></body></html>\n'


@pytest.fixture
def app(tmp_path):
    """A tiny app repo shaped like a template: manifest, UI, server, data."""
    root = tmp_path / "water"
    (root / "static").mkdir(parents=True)
    (root / "server").mkdir()
    (root / "data").mkdir()
    (root / ".macaron").mkdir()
    (root / "macaron.json").write_text(json.dumps({"name": "water", "data_files": ["data/app.db"]}))
    (root / "static" / "index.html").write_text("<main id=app>starter</main>\n")
    (root / "server" / "main.py").write_text("print('starter server')\n")
    (root / "data" / "app.db").write_text("the person's data")
    (root / ".gitignore").write_text(".macaron/\ndata/\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    return root


SCRIPTED = f"""Sure! Here is the water tracker.

### FILE: static/index.html
```html
{INDEX.rstrip()}
```

**server/main.py**
```python
print('water server')
```

### FILE: ../outside.txt
```
escape
```

### FILE: macaron.json
```json
{{"run": ["rm", "-rf", "/"]}}
```

```text data/app.db
overwritten
```

### FILE: static/app.js
```js
const half = "this file is cut off
"""


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_a_draft_writes_whole_files_inside_the_app_only(app, api):
    with ModelServer([Reply.text(SCRIPTED, input_tokens=900, output_tokens=300)]) as server:
        outcome = draft(
            app,
            _brief("The person wants a water tracker; goal 2 litres.", server.url),
            Endpoint(server.url, "deepseek", api),
        )
    assert (app / "static" / "index.html").read_text() == INDEX
    assert (app / "server" / "main.py").read_text() == "print('water server')\n"
    assert outcome.written == ["static/index.html", "server/main.py"]
    assert not (app.parent / "outside.txt").exists()
    assert json.loads((app / "macaron.json").read_text())["name"] == "water"
    assert (app / "data" / "app.db").read_text() == "the person's data"
    assert not (app / "static" / "app.js").exists(), "a file cut short is never written"
    assert sorted(r.split(":")[0] for r in outcome.rejected) == ["../outside.txt", "data/app.db", "macaron.json"]
    # Usage and cost: tokens from the server; a model on this machine costs its GPU time only.
    assert (outcome.usage.input_tokens, outcome.usage.output_tokens) == (900, 300)
    assert outcome.cost_usd == 0.0 and outcome.model == "deepseek"
    # The model saw the brief and the app's code, never the person's data file.
    [request] = server.requests
    assert request.api == api
    prompt = request.last_user_text()
    assert "goal 2 litres" in prompt and "starter server" in prompt and "the person's data" not in prompt
    assert "### FILE:" in (request.system if api == "anthropic" else request.messages[0]["content"])


def test_a_fix_round_carries_the_verification_report(app):
    with ModelServer([Reply.text("### FILE: static/index.html\n```html\n" + INDEX + "```\n")]) as server:
        outcome = draft(
            app,
            _brief("water tracker", server.url),
            Endpoint(server.url, "m", "openai"),
            feedback="tests failed: test_home expects <main id=app>",
        )
    assert outcome.written == ["static/index.html"]
    assert "test_home expects" in server.requests[0].last_user_text()


def test_an_answer_without_files_changes_nothing_and_says_so(app):
    with ModelServer([Reply.text("I cannot help with that.")]) as server:
        outcome = draft(app, _brief("water tracker", server.url), Endpoint(server.url, "m", "anthropic"))
    assert outcome.written == [] and "no whole files" in outcome.rejected[0]
    assert (app / "static" / "index.html").read_text() == "<main id=app>starter</main>\n"


def test_parse_accepts_the_header_styles_weak_models_write():
    text = (
        "<think>maybe ```js\nnot this```</think>\n"
        "`static/style.css`:\n```css\nbody{}\n```\n"
        "```js static/app.js\nlet a = 1;\n```\n"
        "File: server/main.py\n\n```python\nx = 1\n```\n"
        "```python\nno name: ignored\n```\n"
        "### FILE: static/style.css\n````css\n/* ```not a fence end``` */\nbody{color:red}\n````\n"
    )
    files = {f.path: f.content for f in parse_files(text)}
    assert files == {
        "static/style.css": "/* ```not a fence end``` */\nbody{color:red}\n",  # the later copy wins
        "static/app.js": "let a = 1;\n",
        "server/main.py": "x = 1\n",
    }


def test_apply_refuses_a_symlink_that_leads_out_of_the_app(app, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (app / "static" / "link").symlink_to(outside)
    written, rejected = apply_files(app, [DraftFile("static/link/x.js", "bad")])
    assert written == [] and rejected == ["static/link/x.js: outside the app"]
    assert not (outside / "x.js").exists()
