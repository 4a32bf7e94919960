"""The one settings class: each variable lands in its section, empty means unset, bad values fail clearly,
secrets never print."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from storage.settings import PROJECT_ROOT, get_settings, secret_values


def test_defaults_work_on_a_fresh_machine(monkeypatch):
    for name in ("PDF_CHAT_HOME", "PDF_SOURCE_DIR", "PDF_DESTINATION_DIR", "PDF_MAX_PAGES", "CHROMA_HOST", "OCR_ENGINE"):
        monkeypatch.delenv(name, raising=False)
    s = get_settings()
    assert s.source_dir == PROJECT_ROOT / "pdf_files" / "source"
    assert s.chroma_dir == PROJECT_ROOT / "pdf_files" / "destination" / ".chroma"
    assert (s.limits.max_pages, s.max_file_bytes, s.chroma.host, s.ocr.engine) == (2000, 200 * 2**20, None, "auto")


def test_each_variable_lands_in_its_section(monkeypatch, tmp_path):
    monkeypatch.setenv("PDF_CHAT_HOME", str(tmp_path))
    monkeypatch.setenv("PDF_DESTINATION_DIR", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("PDF_MAX_FILE_MB", "3")
    monkeypatch.setenv("CHROMA_HOST", "127.0.0.1")
    monkeypatch.setenv("CHROMA_PORT", "8123")
    monkeypatch.setenv("GEMINI_API_KEY", "gem-secret-123")  # the second name of the Google key
    monkeypatch.setenv("PDF_CHAT_LOCAL_USER", "ana")
    s = get_settings()
    assert s.source_dir == tmp_path.resolve() / "source"
    assert s.destination_dir == (tmp_path / "elsewhere").resolve()
    assert s.max_file_bytes == 3 * 2**20
    assert (s.chroma.host, s.chroma.port) == ("127.0.0.1", 8123)
    assert s.models.google_api_key.get_secret_value() == "gem-secret-123"
    assert s.history.local_user == "ana"


def test_an_empty_variable_is_unset(monkeypatch):
    monkeypatch.setenv("PDF_MAX_PAGES", "")
    monkeypatch.setenv("CHROMA_HOST", "")
    s = get_settings()
    assert s.limits.max_pages == 2000 and s.chroma.host is None


@pytest.mark.parametrize(("name", "value"), [("PDF_MAX_PAGES", "lots"), ("PDF_MAX_PAGES", "0"), ("OCR_ENGINE", "magic")])
def test_a_bad_value_names_its_variable(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as err:
        get_settings()
    assert name in str(err.value)


def test_secrets_never_print(monkeypatch):
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-very-secret")
    monkeypatch.setenv("MONGODB_URI", "mongodb://u:pw-secret@db.example:27017/")
    s = get_settings()
    shown = repr(s) + str(s.model_dump())
    assert "tvly-very-secret" not in shown and "pw-secret" not in shown
    assert "tvly-very-secret" in secret_values()


def test_knowledge_base_path_is_a_path(monkeypatch, tmp_path):
    monkeypatch.setenv("PDF_CHAT_KNOWLEDGE_BASE", str(tmp_path / "kb.json"))
    assert get_settings().knowledge.path == Path(tmp_path / "kb.json")


def test_readme_lists_every_setting():
    from storage.settings import settings_table

    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    assert settings_table() in readme, "README's configuration table is stale: paste `python -m storage.settings`"
