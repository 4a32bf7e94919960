"""Untrusted text (PDF, web, model) is made inert before it reaches st.markdown."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from storage.schema import Citation
from ui.citations import answer_markdown, citation_label, citation_location, safe_url
from ui.safe_text import emphasise, escape_markdown, redact, safe_model_markdown


def _unescape(md: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", md.replace("  \n", "\n"))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200))
def test_escape_markdown_round_trips_and_leaves_no_active_character(text):
    md = escape_markdown(text)
    assert _unescape(md) == text
    # every markdown-significant character is preceded by a backslash
    unescaped_special = re.search(r"(?<!\\)(?:\\\\)*[`*_\[\]()<>#!|~$:]", md.replace("\\\\", ""))
    assert unescaped_special is None, md


def test_model_markdown_keeps_formatting_but_not_links_html_or_latex():
    md = safe_model_markdown("**Revenue** grew. <script>x()</script> [a](javascript:alert(1)) ![i](http://x/i.png) $x^2$ :red[x]")
    assert "**Revenue**" in md
    assert "\\<script\\>" in md
    assert "\\[a\\](javascript" in md
    assert "!\\[i\\]" in md
    assert "\\$x^2\\$" in md
    assert "\\:red\\[x\\]" in md  # no Streamlit colour directive


def _cite(n: int, file: str = "report.pdf", page: int = 2, kind: str = "document") -> Citation:
    marker = {"document": f"[^{n}]", "web": f"{{^{n}}}"}[kind]
    return Citation(
        number=str(n), marker=marker, kind=kind, documentId="report-abc" if kind == "document" else "https://example.org/a",
        documentTitle=file if kind == "document" else "Example article", snippet="412.6 million", preview="Revenue was 412.6 million.",
        metadata={"file": file, "page": page, "chunk_id": n, "doc_id": "report-abc"} if kind == "document" else {"url": "https://example.org/a"},
    )


def test_answer_markers_become_badges_only_when_cited_and_outside_code():
    text = "Revenue was 412.6 [^1] per the web {^1}; `[^1]` is code; [^2] has no citation."
    md = answer_markdown(text, [_cite(1), _cite(1, kind="web")])
    assert md.count(":blue-badge[1]") == 1
    assert ":blue-badge[web 2]" in md  # one answer numbers its sources 1…n, whatever their kind
    assert "`[^1]`" in md  # code span untouched
    assert "\\[^2\\]" in md  # uncited marker shown literally


def test_labels_and_locations_use_one_based_pages_and_kinds():
    doc, web = _cite(3, page=7), _cite(2, kind="web")
    assert citation_label(doc) == "3" and citation_location(doc) == "report.pdf, page 7"
    assert citation_label(web) == "web 2" and citation_location(web) == "Example article"
    weird = doc.model_copy(update={"number": "3](javascript:x)"})
    assert citation_label(weird) == "3javascriptx"  # badge text can't break out of the directive


def test_only_http_urls_become_links():
    assert safe_url("https://example.org/x?y=1") == "https://example.org/x?y=1"
    assert safe_url("javascript:alert(1)") is None
    assert safe_url("data:text/html,<b>x</b>") is None
    assert safe_url("http://a b") is None


def test_emphasise_bolds_the_cited_words_across_line_breaks():
    md = emphasise("Net debt fell to\n62.5 million euros [x](y)", "fell to 62.5 million")
    assert "**fell to 62\\.5 million**" in md
    assert "\\[x\\]\\(y\\)" in md
    assert emphasise("abc", "zzz") == "abc"


def test_redact_masks_keys_and_url_passwords(monkeypatch):
    monkeypatch.setenv("GOOGLE_API_KEY", "AIzaSECRETVALUE123")
    out = redact("failed with key AIzaSECRETVALUE123 at mongodb://bob:hunter22@db.example:27017/x")
    assert "AIzaSECRETVALUE123" not in out and "hunter22" not in out
    assert "mongodb://***@db.example:27017/x" in out


def test_a_url_with_a_trailing_line_break_is_not_a_link():
    assert safe_url("https://example.org/x\n") is None
    assert safe_url("https://example.org/x\njavascript:alert(1)") is None


def test_a_marker_inside_a_url_is_no_badge_and_one_right_after_it_is():
    text = "See https://example.org/a[^1]b and example.org/wiki/[^1]_x, or https://example.org/c[^1]."
    md = answer_markdown(text, [_cite(1)])
    assert md.count(":blue-badge[1]") == 1 and md.rstrip(".").endswith(":blue-badge[1]")
