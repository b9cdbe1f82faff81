"""ModelConfig (offline default, env, prices) and secret redaction."""

from __future__ import annotations

import socket

import pytest
from llm_testkit import TEST_KEY, NetworkBlocked, NetworkGuard

from zlens_jupyter.llm import (
    DEFAULT_PRICES,
    ModelConfig,
    price_for,
    redact_secrets,
    redact_text,
    register_secret,
)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ZLENS_MODEL", "ZLENS_MODEL_PLANNER"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_no_key_and_no_base_url_means_offline(clean_env: pytest.MonkeyPatch) -> None:
    assert ModelConfig.from_env() is None
    assert ModelConfig.from_env(model="gpt-4o") is None


def test_from_env_reads_key_base_url_and_model(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("OPENAI_API_KEY", TEST_KEY)
    clean_env.setenv("ZLENS_MODEL", "gpt-4.1-mini")
    config = ModelConfig.from_env(timeout_s=7)
    assert config is not None
    assert (config.model, config.api_key, config.base_url, config.timeout_s) == (
        "gpt-4.1-mini",
        TEST_KEY,
        None,
        7,
    )


@pytest.mark.parametrize(
    ("value", "plans"), [(None, False), ("1", True), ("true", True), ("0", False), ("", False)]
)
def test_the_model_planner_is_opt_in(clean_env: pytest.MonkeyPatch, value, plans) -> None:
    clean_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1")
    if value is not None:
        clean_env.setenv("ZLENS_MODEL_PLANNER", value)
    config = ModelConfig.from_env()
    assert config is not None and config.plan_steps is plans


def test_base_url_alone_is_enough_for_local_servers(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1")
    config = ModelConfig.from_env(model="llama3.2")
    assert config is not None and config.api_key is None
    assert config.model == "llama3.2"
    assert config.cost_usd(1000, 1000) == 0.0  # not in the price table: local, free


def test_repr_never_shows_the_key() -> None:
    config = ModelConfig(model="gpt-4o", api_key=TEST_KEY)
    assert TEST_KEY not in repr(config)
    assert TEST_KEY not in str(config)
    assert "api_key=<set>" in repr(config)


def test_prices_use_the_longest_prefix_and_can_be_overridden() -> None:
    assert price_for("gpt-4o-mini-2024-07-18") == DEFAULT_PRICES["gpt-4o-mini"]
    assert price_for("gpt-4o-2024-08-06") == DEFAULT_PRICES["gpt-4o"]
    custom = ModelConfig(model="my-model", prices={"my-": (1.0, 2.0)})
    assert custom.cost_usd(500, 250) == pytest.approx(0.5 + 0.5)
    fixed = ModelConfig(model="gpt-4o", price_per_1k_input_usd=0.01, price_per_1k_output_usd=0.0)
    assert fixed.cost_usd(2000, 1000) == pytest.approx(0.02)


def test_redact_scrubs_registered_keys_patterns_and_headers() -> None:
    register_secret("my-very-private-token")
    data = {
        "headers": {"Authorization": "Bearer abcdefghijk", "Accept": "json"},
        "note": "used sk-proj-AAAAAAAAAAAAAAAAAAAA and my-very-private-token",
        "url": "https://user:hunter22@example.invalid/v1",
        "nested": [("Authorization: Bearer zzzzzzzzzzzz",)],
        "count": 3,
    }
    clean = redact_secrets(data)
    text = str(clean)
    for secret in ("abcdefghijk", "AAAAAAAAAAAA", "my-very-private-token", "hunter22", "zzzzzzzz"):
        assert secret not in text
    assert clean["headers"]["Accept"] == "json"
    assert clean["count"] == 3
    assert data["note"].startswith("used sk-proj-AAAA")  # the input is not mutated


def test_redact_text_with_an_explicit_secret() -> None:
    assert redact_text("token=abcdef123", secrets=["abcdef123"]) == "token=***redacted***"


def test_network_guard_blocks_non_loopback(no_network: NetworkGuard) -> None:
    with pytest.raises(NetworkBlocked):
        socket.create_connection(("203.0.113.7", 443), timeout=0.1)
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("api.openai.com", 443)
    assert len(no_network.violations) == 2
    no_network.violations.clear()  # this test wanted them; do not fail it at teardown
