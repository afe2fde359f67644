"""The page, the settings API and the offline promise every macaron app keeps.

Generated from macaron's templates/_shared/.
"""

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "static"


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200
    assert 'id="app"' in page.text
    for path in re.findall(r'(?:href|src)="(static/[^"]+)"', page.text):
        assert client.get("/" + path).status_code == 200, path
    for module in ("preact.module.js", "hooks.module.js", "htm.module.js"):
        assert client.get(f"/static/vendor/{module}").status_code == 200


def test_settings_reach_the_front_end(client, settings):
    settings(language="ja", accent="#B5EAD7", currency="jpy", title="My app")
    config = client.get("/api/config").json()
    assert config["language"] == "ja"
    assert config["accent"] == "#B5EAD7"
    assert config["currency"] == "JPY"
    assert config["title"] == "My app"


def test_broken_settings_fall_back_instead_of_breaking_the_app(client, settings):
    settings(accent="pink; background: url(x)", units="furlongs", currency=12)
    config = client.get("/api/config").json()
    assert config["accent"].startswith("#")
    assert config["units"] in ("metric", "imperial")
    assert config["currency"] == "USD"


def test_the_front_end_loads_nothing_from_the_internet():
    for path in STATIC.rglob("*"):
        if path.suffix in (".html", ".js", ".css") and "vendor" not in path.parts:
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", text), path
            assert not re.search(r"""(?:import|fetch)\s*\(?\s*["'](?:https?:)?//""", text), path
            assert "@import url(http" not in text, path
