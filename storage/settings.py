"""Every setting the product reads from the environment, in one pydantic-settings class of sections.

`get_settings()` reads the environment now (not at import), so tests and a restarted worker see changes.
Each field names its variable (`validation_alias`) and has a default that works on a fresh machine;
an empty variable counts as unset. A malformed value (`PDF_MAX_PAGES=lots`) fails with pydantic's
message naming the variable. Secrets are `SecretStr`: they never print, and `secret_values()` lets the
UI mask them in any error text it shows.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, BaseModel, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_KNOWLEDGE_BASE = PROJECT_ROOT / "data" / "knowledge_base.json"


class _Section(BaseSettings):
    # Fields are read only from their variable (validation_alias), never by field name: a field `home` must
    # not pick up $HOME.
    model_config = SettingsConfigDict(env_ignore_empty=True, extra="ignore", frozen=True)


def _env(name: str, *more: str):
    return AliasChoices(name, *more) if more else name


class PathSettings(_Section):
    home: Path = Field(PROJECT_ROOT / "pdf_files", validation_alias=_env("PDF_CHAT_HOME"),
                       description="root of source/ and destination/")
    source: Path | None = Field(None, validation_alias=_env("PDF_SOURCE_DIR"),
                                description="PDFs users drop in (default: <home>/source)")
    destination: Path | None = Field(None, validation_alias=_env("PDF_DESTINATION_DIR"),
                                     description="per-PDF artifacts and the embedded Chroma (default: <home>/destination)")

    @property
    def source_dir(self) -> Path:
        return (self.source or self.home / "source").expanduser().resolve()

    @property
    def destination_dir(self) -> Path:
        return (self.destination or self.home / "destination").expanduser().resolve()


class LimitSettings(_Section):
    max_pages: int = Field(2000, gt=0, validation_alias=_env("PDF_MAX_PAGES"),
                           description="PDFs with more pages are refused with a clear message")
    max_file_mb: int = Field(200, ge=0, validation_alias=_env("PDF_MAX_FILE_MB"), description="upload / file size limit")
    max_question_chars: int = Field(20_000, gt=0, validation_alias=_env("PDF_CHAT_MAX_QUESTION_CHARS"),
                                    description="longer questions are refused before any work")
    max_answers: int = Field(2, gt=0, validation_alias=_env("PDF_CHAT_MAX_ANSWERS"),
                             description="answers that search at once per app process; more wait in line, told their place")
    # CPython hands the GIL to a waiting thread only after the holder ran this long (default 5 ms). A greeting
    # takes and drops the GIL at every socket write, history call and event-loop hop; behind a searching answer
    # (pure-Python ranking) each hop waited the full interval, so a greeting of ~0.15 s CPU took seconds.
    switch_interval_s: float = Field(0.0005, gt=0, validation_alias=_env("PDF_CHAT_SWITCH_INTERVAL_S"),
                                     description="the app process's GIL switch interval (shortened, never lengthened)")


class ChromaSettings(_Section):
    host: str | None = Field(None, validation_alias=_env("CHROMA_HOST"),
                             description="a Chroma server (`chroma run`) instead of the embedded store")
    port: int = Field(8000, validation_alias=_env("CHROMA_PORT"), description="the Chroma server's port")


class HistorySettings(_Section):
    mongodb_uri: SecretStr | None = Field(None, validation_alias=_env("MONGODB_URI"),
                                          description="chat history in MongoDB/Atlas; unset = an embedded nx-27017 server")
    timeout_ms: int = Field(3000, gt=0, validation_alias=_env("HISTORY_TIMEOUT_MS"),
                            description="server selection / socket timeout of history calls")
    max_message_bytes: int = Field(4 * 1024 * 1024, gt=0, validation_alias=_env("HISTORY_MAX_MESSAGE_BYTES"),
                                   description="a stored message over this is refused (MongoDB's document limit is 16 MiB)")
    mongo_dir: Path | None = Field(None, validation_alias=_env("PDF_CHAT_MONGO_DIR"),
                                   description="the embedded server's data (default: $PDF_CHAT_HOME/.mongo or .data/mongo)")
    mongo_port: int | None = Field(None, validation_alias=_env("PDF_CHAT_MONGO_PORT"),
                                   description="the embedded server's port (default: a free one)")
    mongo_idle_s: float = Field(600.0, gt=0, validation_alias=_env("PDF_CHAT_MONGO_IDLE_S"),
                                description="the embedded server exits after this long without a client")
    outbox_dir: Path | None = Field(None, validation_alias=_env("PDF_CHAT_OUTBOX"),
                                    description="where turns wait while the store is down (default: the embedded server's folder)")
    local_user: str = Field("local", validation_alias=_env("PDF_CHAT_LOCAL_USER"),
                            description="the user id when no OIDC login ([auth] in .streamlit/secrets.toml) is configured")


class ModelSettings(_Section):
    model: str | None = Field(None, validation_alias=_env("PDF_CHAT_MODEL"),
                              description="force a model as provider/model (google_genai/..., openai/...)")
    google_api_key: SecretStr | None = Field(None, validation_alias=_env("GOOGLE_API_KEY", "GEMINI_API_KEY"),
                                             description="answer with Gemini")
    gemini_model: str = Field("gemini-2.5-flash", validation_alias=_env("GEMINI_MODEL"), description="the Gemini model")
    gemini_base_url: str | None = Field(None, validation_alias=_env("GEMINI_BASE_URL"),
                                        description="another Gemini endpoint (tests use a local stub)")
    openai_base_url: str | None = Field(None, validation_alias=_env("OPENAI_BASE_URL"),
                                        description="any OpenAI-compatible server (Ollama, vLLM, llama.cpp)")
    openai_model: str = Field("llama3.1", validation_alias=_env("OPENAI_MODEL"), description="the model on that server")
    openai_api_key: SecretStr | None = Field(None, validation_alias=_env("OPENAI_API_KEY"),
                                             description="its key (local servers accept any)")


class WebSettings(_Section):
    tavily_api_key: SecretStr | None = Field(None, validation_alias=_env("TAVILY_API_KEY"),
                                             description="web search (Tavily); without it, no web answers")
    tavily_base_url: str | None = Field(None, validation_alias=_env("TAVILY_API_BASE_URL"),
                                        description="another Tavily endpoint (tests use a local stub)")


class OcrSettings(_Section):
    engine: Literal["auto", "tesseract", "rapidocr", "easyocr", "none"] = Field(
        "auto", validation_alias=_env("OCR_ENGINE"), description="OCR for scanned pages and images with text: tesseract, rapidocr, easyocr (optional install: requirements-easyocr.txt) or none; auto = tesseract when installed, else rapidocr")


class KnowledgeSettings(_Section):
    path: Path = Field(DEFAULT_KNOWLEDGE_BASE, validation_alias=_env("PDF_CHAT_KNOWLEDGE_BASE"),
                       description="curated Q&A items (Q301-style ids) cited as [^8.1]")


class JobSettings(_Section):
    broker_url: SecretStr | None = Field(None, validation_alias=_env("CELERY_BROKER_URL"),
                                         description="Redis URL of the Celery broker: set, PDFs are processed by `celery -A storage.jobs.celery_app worker` processes; unset, on a thread of the app")
    result_backend: SecretStr | None = Field(None, validation_alias=_env("CELERY_RESULT_BACKEND"),
                                             description="Celery result backend (default: the broker URL); progress itself is read from MongoDB `ingest_jobs`")
    visibility_timeout_s: int = Field(6 * 3600, gt=0, validation_alias=_env("CELERY_VISIBILITY_TIMEOUT_S"),
                                      description="a job whose worker died (kill -9, lost machine) is redelivered after this long; Redis also redelivers a job still running after it, so keep it above the longest ingestion (a 2000-page OCR PDF)")
    restore_interval_s: int = Field(10, gt=0, validation_alias=_env("CELERY_RESTORE_INTERVAL_S"),
                                    description="how often workers look for jobs past the visibility timeout")
    progress_every_s: float = Field(0.5, ge=0, validation_alias=_env("JOBS_PROGRESS_EVERY_S"),
                                    description="a running job writes its progress (and reads a cancel) at most this often")
    heartbeat_s: float = Field(10.0, gt=0, validation_alias=_env("JOBS_HEARTBEAT_S"),
                               description="a worker running a job writes a heartbeat into its record this often, whatever the progress")
    orphan_after_s: float = Field(60.0, gt=0, validation_alias=_env("JOBS_ORPHAN_AFTER_S"),
                                  description="a running job without a heartbeat for this long lost its worker: it is queued again (keep it several heartbeats long)")
    worker_nice: int = Field(10, ge=0, le=19, validation_alias=_env("JOBS_WORKER_NICE"),
                             description="a Celery worker lowers its CPU priority by this much (nice), so ingestion yields the cores to the app's answers when both want them; 0 keeps it")
    max_restarts: int = Field(3, ge=0, validation_alias=_env("JOBS_MAX_RESTARTS"),
                              description="a job whose worker died this many times fails with that reason instead of being queued again")
    resend_after_s: float = Field(30.0, gt=0, validation_alias=_env("JOBS_RESEND_AFTER_S"),
                                  description="a job queued in its record this long whose message the broker does not hold (a Redis restart without persistence) is sent again")
    outage_retry_s: float = Field(30.0, gt=0, validation_alias=_env("JOBS_OUTAGE_RETRY_S"),
                                  description="first wait before a job stopped by an unreachable service (vector store, history) is retried; doubles up to 5 minutes")
    outage_retries: int = Field(12, ge=0, validation_alias=_env("JOBS_OUTAGE_RETRIES"),
                                description="retries of a job stopped by an unreachable service before it fails with that reason")


class Settings(BaseModel):
    model_config = {"frozen": True}

    paths: PathSettings = Field(default_factory=PathSettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    chroma: ChromaSettings = Field(default_factory=ChromaSettings)
    history: HistorySettings = Field(default_factory=HistorySettings)
    models: ModelSettings = Field(default_factory=ModelSettings)
    web: WebSettings = Field(default_factory=WebSettings)
    ocr: OcrSettings = Field(default_factory=OcrSettings)
    knowledge: KnowledgeSettings = Field(default_factory=KnowledgeSettings)
    jobs: JobSettings = Field(default_factory=JobSettings)

    # The paths every module asks for, spelled as before.
    @property
    def source_dir(self) -> Path:
        return self.paths.source_dir

    @property
    def destination_dir(self) -> Path:
        return self.paths.destination_dir

    @property
    def chroma_dir(self) -> Path:
        """Where the embedded (PersistentClient) Chroma keeps its data."""
        return self.destination_dir / ".chroma"

    @property
    def max_file_bytes(self) -> int:
        return self.limits.max_file_mb * 1024 * 1024


def _fields():
    """(section, field, its variable names) for every setting."""
    for section, info in Settings.model_fields.items():
        for field in info.default_factory.model_fields.values():
            alias = field.validation_alias
            yield section, field, list(alias.choices) if isinstance(alias, AliasChoices) else [alias]


_VARIABLES = tuple(name for _, _, names in _fields() for name in names)


def get_settings() -> Settings:
    """The settings as the environment says now (tests change it). Parsed once per distinct set of values:
    building the sections costs ~2 ms, and paths are asked for on every query."""
    return _settings_for(tuple(os.environ.get(name) for name in _VARIABLES))


@lru_cache(maxsize=8)
def _settings_for(values: tuple[str | None, ...]) -> Settings:
    return Settings()


_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)


def secret_values() -> list[str]:
    """Values to mask in any text shown to a person: every variable whose name says it is secret (ours and
    any other, e.g. a cloud key an exception might echo), at least 6 characters long."""
    return [value for name, value in os.environ.items() if len(value) >= 6 and _SECRET_NAME.search(name)]


def settings_table() -> str:
    """The README's configuration table, made from the fields (`python -m storage.settings`)."""
    rows = ["| section | variable | default | meaning |", "| --- | --- | --- | --- |"]
    for section, field, names in _fields():
        default = field.default
        if isinstance(default, Path) and default.is_relative_to(PROJECT_ROOT):
            default = default.relative_to(PROJECT_ROOT).as_posix()
        shown = "unset" if default is None else f"`{default}`"
        rows.append(f"| {section} | {' or '.join(f'`{n}`' for n in names)} | {shown} | {field.description} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(settings_table())
