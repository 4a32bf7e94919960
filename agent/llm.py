"""The one place that turns configuration into a chat model.

    load_chat_model("google_genai/gemini-2.5-flash")   Gemini API (needs GOOGLE_API_KEY)
    load_chat_model("openai/llama3.1")                  any OpenAI-compatible server (OPENAI_BASE_URL)
    model_spec_from_env()                               which of the above the settings ask for, or None
    except model_errors():                              what a failing model (or the network to it) raises

`None` means no-model mode: the agent answers extractively (agent/no_model/extractive.py).

Environment:
- `PDF_CHAT_MODEL`      "provider/model" to force one (providers: google_genai, openai)
- `GOOGLE_API_KEY` (or `GEMINI_API_KEY`) + `GEMINI_MODEL` (default gemini-2.5-flash); `GEMINI_BASE_URL`
  points the client at another endpoint (a proxy, or the test stub)
- `OPENAI_BASE_URL` + `OPENAI_MODEL` (default llama3.1) + optional `OPENAI_API_KEY` (Ollama, vLLM,
  llama.cpp's server all speak this API)

Gemma models (the design's gemma-3n-e4b-it) are served by the Gemini API but without function
calling or JSON-schema output, which the router and the tool loop need, so the default is a current
Gemini flash model; set GEMINI_MODEL to pick another.
Keys are read here and handed to the client; they are never logged or shown (`describe_model`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from storage.settings import get_settings


PROVIDERS = ("google_genai", "openai")


class ModelConfigError(ValueError):
    """The model configuration cannot be used (unknown provider, missing key)."""


@dataclass(frozen=True)
class ModelSpec:
    provider: str
    model: str
    base_url: str | None = None

    @property
    def name(self) -> str:
        return f"{self.provider}/{self.model}"


def _google_key() -> str | None:
    key = get_settings().models.google_api_key
    return key.get_secret_value() if key else None


def parse_model_spec(spec: str) -> ModelSpec:
    provider, sep, model = spec.strip().partition("/")
    if not sep or not model or provider not in PROVIDERS:
        raise ModelConfigError(f"model must be 'provider/model' with provider one of {', '.join(PROVIDERS)}; got {spec!r}")
    models = get_settings().models
    base_url = models.gemini_base_url if provider == "google_genai" else models.openai_base_url
    return ModelSpec(provider, model, base_url or None)


def model_spec_from_env() -> ModelSpec | None:
    """Which model the environment asks for, or None for no-model mode."""
    models = get_settings().models
    if models.model:
        return parse_model_spec(models.model)
    if _google_key():
        return parse_model_spec("google_genai/" + models.gemini_model)
    if models.openai_base_url:
        return parse_model_spec("openai/" + models.openai_model)
    return None


def load_chat_model(spec: str | ModelSpec, *, temperature: float = 0.0, timeout: float = 120.0) -> BaseChatModel:
    """A chat model from a "provider/model" string (or a parsed spec)."""
    ms = parse_model_spec(spec) if isinstance(spec, str) else spec
    if ms.provider == "google_genai":
        from langchain_google_genai import ChatGoogleGenerativeAI

        key = _google_key()
        if not key:
            raise ModelConfigError("Gemini needs GOOGLE_API_KEY (or GEMINI_API_KEY) to be set")
        kwargs = {"base_url": ms.base_url} if ms.base_url else {}
        return ChatGoogleGenerativeAI(
            model=ms.model, google_api_key=key, temperature=temperature, timeout=timeout, max_retries=2, **kwargs
        )
    from langchain_openai import ChatOpenAI

    if not ms.base_url:
        raise ModelConfigError("an OpenAI-compatible model needs OPENAI_BASE_URL (e.g. http://localhost:11434/v1)")
    # Local servers accept any key; the client insists on one.
    configured = get_settings().models.openai_api_key
    key = configured.get_secret_value() if configured else "not-needed"
    return ChatOpenAI(model=ms.model, base_url=ms.base_url, api_key=key, temperature=temperature, timeout=timeout, max_retries=2)


def describe_model(spec: ModelSpec | None) -> dict:
    """What the UI may show about the model: never keys, never URLs with credentials."""
    if spec is None:
        return {"mode": "extractive", "provider": None, "model": None, "label": "No model (extractive answers)"}
    host = None
    if spec.base_url:
        from urllib.parse import urlsplit

        parts = urlsplit(spec.base_url)
        host = parts.hostname + (f":{parts.port}" if parts.port else "") if parts.hostname else None
    return {"mode": "llm", "provider": spec.provider, "model": spec.model, "endpoint": host, "label": spec.name}


@functools.cache
def model_errors() -> tuple[type[Exception], ...]:
    """The exceptions a failing chat model raises: LangChain's classified model errors and its providers'
    own (a bad key, a quota, a server error, output that is not the tool call it claims), and the network
    errors under them (a server down, a timeout). Anything else is a bug of ours, not the model's.
    Imported on first use, which is when a turn has failed."""
    import httpx
    import openai
    import requests
    from google.genai import errors as genai_errors
    from langchain_core.exceptions import ModelError, OutputParserException
    from langchain_google_genai.chat_models import ChatGoogleGenerativeAIError

    return (ModelError, OutputParserException, ChatGoogleGenerativeAIError, genai_errors.APIError, openai.OpenAIError,
            httpx.HTTPError, requests.RequestException, ConnectionError, TimeoutError)
