"""macaron's model client against the scripted server, in both wire formats."""

import socket

import pytest

from macaron_cli.errors import UserError
from macaron_cli.models import prices
from macaron_cli.models.client import ModelClient
from macaron_cli.models.failures import ModelError, ModelUnreachable
from macaron_cli.models.registry import local_endpoint
from tests.support.model_server import ModelServer, Reply

MESSAGES = [{"role": "user", "content": "Write a haiku about water."}]
ANSWER = "Cool water at dawn,\none glass, then another one;\nthe day fills like rain."


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_streams_text_and_counts_usage_in_each_wire(api):
    with ModelServer([Reply.text(ANSWER, input_tokens=42, output_tokens=17)]) as server:
        client = ModelClient(server.url, "deepseek-coder", api=api, api_key="k")
        chunks = list(client.stream("Be brief.", MESSAGES, max_tokens=64))
    assert len(chunks) > 1, "text arrives in pieces as it is generated"
    assert "".join(chunks) == ANSWER
    assert (client.last_usage.input_tokens, client.last_usage.output_tokens) == (42, 17)
    [request] = server.requests
    assert request.api == api
    assert request.body["stream"] is True and request.body["model"] == "deepseek-coder"
    if api == "anthropic":
        assert request.system == "Be brief." and request.headers.get("x-api-key") == "k"
    else:
        assert request.messages[0] == {"role": "system", "content": "Be brief."}
        assert request.headers.get("authorization") == "Bearer k"


def test_auto_detect_falls_back_to_openai_when_messages_route_is_missing():
    def responder(req):
        if req.api == "anthropic":
            return Reply.error(404, "not_found_error", "no route /v1/messages")
        return Reply.text("hello over openai")

    with ModelServer(responder) as server:
        client = ModelClient(server.url + "/v1", "m")
        assert client.complete(None, MESSAGES)[0] == "hello over openai"
        assert client.api == "openai"
        # A second client for the same server remembers the wire: no second probe.
        assert ModelClient(server.url, "m").complete(None, MESSAGES)[0] == "hello over openai"
    assert [r.api for r in server.requests] == ["anthropic", "openai", "openai"]


def test_auto_detect_keeps_anthropic_when_it_answers():
    with ModelServer([Reply.text("hi")]) as server:
        client = ModelClient(server.url, "m")
        client.complete(None, MESSAGES)
    assert client.api == "anthropic"
    assert [r.api for r in server.requests] == ["anthropic"]


def test_model_name_is_asked_of_the_server_when_not_given():
    with ModelServer([Reply.text("ok")], model="served-deepseek") as server:
        ModelClient(server.url, None, api="openai").complete(None, MESSAGES)
    assert server.requests[0].body["model"] == "served-deepseek"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_nothing_listening_says_how_to_start_a_draft_server():
    url = f"http://127.0.0.1:{_free_port()}"
    with pytest.raises(ModelUnreachable) as caught:
        ModelClient(url, "m").complete(None, MESSAGES)
    message = str(caught.value)
    assert message.startswith(f"no draft server at {url};") and "macaron draft serve" in message
    assert caught.value.exit_code == 2


def test_server_error_names_status_and_message():
    with (
        ModelServer([Reply.error(529, "overloaded_error", "Overloaded")]) as server,
        pytest.raises(ModelError) as caught,
    ):
        ModelClient(server.url, "m", api="anthropic").complete(None, MESSAGES)
    assert "HTTP 529" in str(caught.value) and "Overloaded" in str(caught.value)
    assert caught.value.exit_code == 1


def test_rejected_key_is_an_environment_error():
    with (
        ModelServer([Reply.error(401, "authentication_error", "invalid x-api-key")]) as server,
        pytest.raises(ModelUnreachable, match="check its API key"),
    ):
        ModelClient(server.url, "m", api="anthropic").complete(None, MESSAGES)


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_a_stream_cut_short_is_an_error_not_a_truncated_answer(api):
    with (
        ModelServer([Reply.text(ANSWER * 5, cut_after_events=4)]) as server,
        pytest.raises(ModelError, match="cut short"),
    ):
        ModelClient(server.url, "m", api=api).complete(None, MESSAGES)


def test_a_silent_model_times_out_with_a_clear_error():
    with ModelServer([Reply.text(ANSWER, chunk_delay=1.5)]) as server:
        client = ModelClient(server.url, "m", api="openai", read_timeout=0.3)
        with pytest.raises(ModelError, match="went silent"):
            client.complete(None, MESSAGES)


def test_local_endpoint_comes_from_env_then_config(macaron_home, monkeypatch):
    from macaron_cli import config

    assert local_endpoint(config.load_settings(), required=False) is None
    with pytest.raises(UserError, match="macaron draft serve"):
        local_endpoint(config.load_settings())
    settings = config.save_settings(
        {"draft_url": "http://127.0.0.1:9000/v1", "draft_model": "deepseek-r1", "draft_api": "openai"}
    )
    ep = local_endpoint(settings)
    assert (ep.url, ep.model, ep.api) == ("http://127.0.0.1:9000", "deepseek-r1", "openai")
    monkeypatch.setenv("MACARON_DRAFT_URL", "http://localhost:8001")
    monkeypatch.setenv("MACARON_DRAFT_API", "anthropic")
    ep = local_endpoint(settings)
    assert (ep.url, ep.model, ep.api) == ("http://localhost:8001", "deepseek-r1", "anthropic")
    monkeypatch.setenv("MACARON_DRAFT_API", "grpc")
    with pytest.raises(UserError, match="MACARON_DRAFT_API=anthropic or openai"):
        local_endpoint(settings)


def test_prices_claude_by_tokens_and_local_models_by_gpu_time():
    from macaron_cli.config import Settings

    # A dated id finds its family's price: Sonnet at $3 / $15 per million tokens.
    defaults = Settings()
    assert prices.token_cost("claude-sonnet-4-5-20250929", 1_000_000, 1_000_000, settings=defaults) == pytest.approx(
        18.0
    )
    assert prices.token_cost("claude-haiku-4-5", 2_000_000, 0, settings=defaults) == pytest.approx(2.0)
    assert prices.token_cost("my-finetune", 1000, 1000, settings=defaults) is None

    class U:
        input_tokens, output_tokens, seconds = 5_000_000, 5_000_000, 1800.0

    # On this machine tokens are free; the GPU half-hour costs what the person says it does.
    local = "http://127.0.0.1:8000"
    assert prices.call_cost(local, "deepseek-chat", U, Settings(gpu_usd_per_hour=2.0)) == pytest.approx(1.0)
    assert prices.call_cost(local, "deepseek-chat", U, Settings(gpu_usd_per_hour=0.0)) == 0.0
    # The same model name on a remote endpoint is cloud and costs tokens.
    cost = prices.call_cost("https://api.deepseek.com", "deepseek-chat", U, defaults)
    assert cost == pytest.approx(5 * 0.28 + 5 * 0.42)


# ── the server's own limits ─────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    "said, context, source",
    [
        ({"model_card": {"max_model_len": 32768}}, 32768, "max_model_len in /v1/models"),  # vLLM, SGLang
        (
            {"routes": {"/props": {"default_generation_settings": {"n_ctx": 8192}}}},
            8192,
            "n_ctx in /props",
        ),  # llama.cpp
        (
            {"routes": {"/api/show": {"parameters": "stop <|end|>\nnum_ctx 4096"}}},
            4096,
            "num_ctx in /api/show",
        ),  # Ollama
    ],
)
def test_the_context_is_read_where_each_engine_says_it(said, context, source):
    from macaron_cli.models.limits import read_limits

    with ModelServer(**said) as server, ModelClient(server.url, "m", api="openai") as client:
        limits = read_limits(client)
    assert (limits.context, limits.source, limits.said) == (context, source, True)


def test_a_server_that_does_not_say_its_context_gets_the_assumed_one_marked(monkeypatch):
    from macaron_cli.models.limits import read_limits

    monkeypatch.setenv("MACARON_DRAFT_CONTEXT", "6000")
    with ModelServer() as server, ModelClient(server.url, "m", api="openai") as client:
        limits = read_limits(client)
    assert (limits.context, limits.said) == (6000, False) and "MACARON_DRAFT_CONTEXT" in limits.source


def test_a_context_refusal_as_an_http_error_names_the_size_not_try_again():
    from macaron_cli.models.failures import ContextExceeded

    refusal = Reply.error(
        400,
        "invalid_request_error",
        "This model's maximum context length is 8192 tokens. "
        "However, you requested 9000 tokens (8000 in the messages, 1000 in the completion).",
    )
    with ModelServer([refusal]) as server, pytest.raises(ContextExceeded) as caught:
        ModelClient(server.url, "m", api="openai").complete(None, MESSAGES)
    assert caught.value.context == 8192 and caught.value.prompt_tokens == 8000
    assert "8,192 tokens" in str(caught.value) and "try again" not in str(caught.value)


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_a_length_finish_is_reported_as_cut(api):
    with ModelServer([Reply.text(ANSWER, stop_reason="max_tokens")]) as server:
        client = ModelClient(server.url, "m", api=api)
        client.complete(None, MESSAGES, max_tokens=5)
    assert client.last_usage.cut and client.last_usage.stop in ("length", "max_tokens")


def test_a_server_without_usage_gives_estimates_marked_as_such():
    with ModelServer([Reply.text(ANSWER, usage=False)]) as server:
        client = ModelClient(server.url, "m", api="openai")
        client.complete(None, MESSAGES)
    usage = client.last_usage
    assert usage.estimated and usage.output_tokens > 0 and usage.input_tokens > 0


def test_a_server_macaron_started_has_the_context_it_was_started_with():
    from macaron_cli.config import Settings
    from macaron_cli.models.limits import read_limits

    with ModelServer() as server, ModelClient(server.url, "m", api="openai") as client:
        started = Settings(draft_served_url=server.url, draft_served_context=4096)
        elsewhere = Settings(draft_served_url="http://127.0.0.1:1", draft_served_context=4096)
        assert (read_limits(client, started).context, read_limits(client, started).said) == (4096, True)
        assert read_limits(client, elsewhere).said is False


def test_chat_and_the_draft_client_fail_the_same_way():
    # One hierarchy: the chat's Claude backend (the anthropic SDK) and macaron's own client
    # (httpx) both say a refused key and an empty port are the environment's to fix (exit 2),
    # and an overloaded model a failed piece of work (exit 1).
    from macaron_cli import privacy
    from macaron_cli.config import Settings
    from macaron_cli.models.chat import AnthropicWireModel

    def chat(url):
        return AnthropicWireModel("claude", url, "m", "k", None, privacy.claude(Settings(), url))

    refused = Reply.error(401, "authentication_error", "invalid x-api-key")
    overloaded = Reply.error(529, "overloaded_error", "Overloaded")
    for reply, failure, code in [(refused, ModelUnreachable, 2), (overloaded, ModelError, 1)]:
        for ask in (
            lambda url: chat(url).complete("", MESSAGES),
            lambda url: ModelClient(url, "m").complete(None, MESSAGES),
        ):
            with ModelServer([reply] * 3) as server, pytest.raises(failure) as caught:
                ask(server.url)
            assert caught.value.exit_code == code
    with pytest.raises(ModelUnreachable, match="cannot reach"):
        chat(f"http://127.0.0.1:{_free_port()}").complete("", MESSAGES)


def test_every_model_in_the_registry_streams_and_keeps_its_usage(macaron_home, monkeypatch):
    # The registry builds each model from where endpoints.py says it is; each has the Model
    # shape, and after an answer says what it cost in tokens, whichever wire it spoke.
    from macaron_cli.config import Settings
    from macaron_cli.models.registry import MODELS, Model, open_model

    assert set(MODELS) == {"claude", "local", "none"}
    assert isinstance(open_model("none", Settings()), Model)
    with ModelServer([Reply.text(ANSWER, input_tokens=12, output_tokens=7)] * 2) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("MACARON_DRAFT_URL", server.url)
        for name in ("claude", "local"):
            model = open_model(name, Settings())
            assert isinstance(model, Model) and model.endpoint == server.url
            assert "".join(model.stream("", MESSAGES)) == ANSWER
            assert model.usage is not None
            assert (model.usage.input_tokens, model.usage.output_tokens) == (12, 7)
    with pytest.raises(UserError, match="unknown model 'gpt'; use --model claude, local or none"):
        open_model("gpt", Settings())
