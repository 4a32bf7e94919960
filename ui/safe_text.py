"""Make untrusted text (PDF text, web results, model output) safe to pass to `st.markdown`.

Streamlit never renders raw HTML unless `unsafe_allow_html=True` (we never set it for such
text), but markdown itself can still create links (`[x](javascript:...)`), images, LaTeX
(`$...$`) and colour directives (`:red[...]`). These helpers neutralise that.
"""

from __future__ import annotations

import re

from storage.redaction import redact  # noqa: F401 - re-exported: pages redact what they show

# Every ASCII punctuation character that markdown (CommonMark + GFM + Streamlit's extensions:
# `$` LaTeX, `:` directives/emoji) can give meaning to. Backslash-escaping ASCII punctuation
# always yields the literal character in CommonMark.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:=&\"'^])")


def escape_markdown(text: str) -> str:
    """Every markdown-significant character escaped: renders exactly as the literal text.

    Newlines are kept as hard line breaks so paragraphs of PDF text stay readable.
    """
    escaped = _MD_SPECIAL.sub(r"\\\1", text or "")
    return escaped.replace("\n", "  \n")


# Model answers keep their formatting (bold, lists, headings, code) but lose everything that
# could link, embed or inject: brackets (links, images), angle brackets (HTML, autolinks), `$`
# (LaTeX), `:` (Streamlit's `:red[...]` / `:material/x:` directives) and backslashes (so
# nothing can be un-escaped).
_MODEL_SPECIAL = re.compile(r"([\\\[\]<>$:])")


def safe_model_markdown(text: str) -> str:
    """Markdown from a model, made safe: formatting kept, links/images/HTML/LaTeX shown literally."""
    return _MODEL_SPECIAL.sub(r"\\\1", text or "")


def emphasise(text: str, words: str | None) -> str:
    """`text` escaped for markdown, with the first occurrence of `words` (case-insensitive,
    whitespace-tolerant) in bold. Falls back to plain escaped text when not found."""
    text = text or ""
    needle = " ".join((words or "").split())
    if not needle:
        return escape_markdown(text)
    pattern = r"\s+".join(re.escape(w) for w in needle.split(" "))
    m = re.search(pattern, text, flags=re.IGNORECASE)
    if not m:
        return escape_markdown(text)
    # Bold markers must hug non-space characters, so strip whitespace into the outside parts.
    inner = m.group(0)
    return (
        escape_markdown(text[: m.start()])
        + "**"
        + escape_markdown(inner).replace("  \n", " ")
        + "**"
        + escape_markdown(text[m.end():])
    )
