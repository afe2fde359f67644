"""The registry builds every model macaron calls: the coder make and change run through the
Agent SDK, the local model, and chat's by name, each from one reading of where they are."""

from __future__ import annotations

from types import MappingProxyType

from macaron_cli.config import Settings
from macaron_cli.maker.coder_home import CoderHome
from macaron_cli.maker.session import agent_options
from macaron_cli.models import registry


def test_the_coder_is_the_model_config_names_at_the_endpoint_the_environment_names(macaron_home, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
    settings = Settings(agent_model="claude-opus-4-5")
    coder = registry.coder(settings)
    assert (coder.model, coder.endpoint, coder.configured, coder.keyed) == (
        "claude-opus-4-5",
        "http://127.0.0.1:9",
        True,
        False,
    )
    # Claude through a loopback address is still the cloud: private memories stay home.
    assert not coder.destination.local
    # An endpoint of one's own needs no key; the SDK's CLI refuses to start without one. The
    # key is handed over apart from the CLI's environment, which its shell inherits.
    assert coder.environment() == {"ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}
    assert coder.key() == "local-endpoint"
    # A make's spec goes to the same Claude, the same model, over the Messages API.
    direct = coder.direct()
    assert (direct.url, direct.model, direct.api) == ("http://127.0.0.1:9", "claude-opus-4-5", "anthropic")
    assert registry.coder(Settings(trusted_endpoints=("http://127.0.0.1:9",))).destination.local


def test_the_session_is_built_from_the_coder(macaron_home, tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key-long-enough")
    monkeypatch.setenv("ANTHROPIC_MODEL", "claude-haiku-4-5")
    home = CoderHome.fresh(tmp_path)
    options = agent_options(
        tmp_path, None, None, home=home, settings=Settings(agent_model="claude-opus-4-5"), accept_unsandboxed=True
    )
    assert options.model == "claude-opus-4-5"
    assert "ANTHROPIC_API_KEY" not in options.env and home.key_file.read_text() == "sk-test-key-long-enough"
    assert options.env["ANTHROPIC_MODEL"] == "claude-haiku-4-5"
    # Without `model` in config.toml the SDK picks (ANTHROPIC_MODEL); a spec asks that one too.
    assert agent_options(tmp_path, None, None, home=home, settings=Settings(), accept_unsandboxed=True).model is None
    assert registry.coder(Settings()).direct().model == "claude-haiku-4-5"


def test_the_coders_usage_is_priced_by_the_persons_table_first(macaron_home):
    own = Settings(prices=MappingProxyType({"claude-opus-4-5": {"input": 1.0, "output": 2.0}}))
    usage = {"input_tokens": 1_000_000, "output_tokens": 1_000_000, "cache_read_input_tokens": 0}
    tokens = registry.Coder.tokens(usage)
    assert registry.coder(own).cost("claude-opus-4-5", tokens) == 3.0
    assert registry.coder(Settings()).cost("claude-opus-4-5", tokens) == 30.0
    assert registry.coder(Settings()).cost("somebody-elses-model", tokens) is None


def test_the_local_model_is_set_by_environment_else_settings(macaron_home, monkeypatch):
    assert registry.local_endpoint(Settings(), required=False) is None
    local = registry.local_endpoint(Settings(draft_url="127.0.0.1:8000/v1/", draft_model="m", draft_api="openai"))
    assert (local.url, local.model, local.api) == ("http://127.0.0.1:8000", "m", "openai")
    monkeypatch.setenv("MACARON_DRAFT_URL", "http://127.0.0.1:8111")
    assert registry.local_endpoint(Settings(draft_url="http://127.0.0.1:8000")).url == "http://127.0.0.1:8111"
    assert registry.open_model(None, Settings()).name == "local"
