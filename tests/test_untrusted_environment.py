"""The allow-listed environment of app code (untrusted/environment.py): none of the person's
variables, whatever they set; the coder's CLI also keeps what reaches the model (a proxy)."""

from __future__ import annotations

from macaron_cli.untrusted.environment import for_app_code

PLANTED = {
    "GITHUB_TOKEN": "ghp_GITHUBMARK",
    "AWS_SECRET_ACCESS_KEY": "AWSMARK",
    "OPENAI_API_KEY": "OPENAIMARK",
    "ANTHROPIC_API_KEY": "MODELKEYMARK",
}


def test_app_code_gets_the_allow_list_and_nothing_of_the_persons(monkeypatch):
    for name, value in {**PLANTED, "HTTPS_PROXY": "http://proxy.example:3128"}.items():
        monkeypatch.setenv(name, value)
    env = for_app_code("/walls/home", "/walls/tmp", {"PORT": "8000"})
    assert set(env) == {"PATH", "LANG", "HOME", "TMPDIR", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PORT"}
    assert (env["HOME"], env["TMPDIR"], env["PORT"]) == ("/walls/home", "/walls/tmp", "8000")


def test_a_process_that_reaches_the_model_keeps_the_proxy_never_a_token(monkeypatch):
    for name, value in {**PLANTED, "HTTPS_PROXY": "http://proxy.example:3128"}.items():
        monkeypatch.setenv(name, value)
    env = for_app_code("/walls/home", "/walls/tmp", reach_model=True)
    assert env["HTTPS_PROXY"] == "http://proxy.example:3128"
    assert not set(PLANTED) & set(env) and not set(PLANTED.values()) & set(env.values())
