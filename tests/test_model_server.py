"""The stand-in model speaks the wire protocols the real clients expect."""

import anthropic

from tests.support.model_server import ModelServer, Reply


def test_anthropic_sdk_streams_text_from_the_scripted_server():
    with ModelServer([Reply.text("Hi there, friend.")]) as server:
        client = anthropic.Anthropic(base_url=server.url, api_key="test", max_retries=0)
        with client.messages.stream(model="m", max_tokens=50, messages=[{"role": "user", "content": "hello"}]) as s:
            text = "".join(s.text_stream)
    assert text == "Hi there, friend."
    assert server.requests[0].last_user_text() == "hello"


def test_errors_reach_the_client_as_http_errors():
    with ModelServer([Reply.error(529)]) as server:
        client = anthropic.Anthropic(base_url=server.url, api_key="test", max_retries=0)
        try:
            client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "x"}])
        except anthropic.APIStatusError as exc:
            assert exc.status_code == 529
        else:
            raise AssertionError("expected an error")
