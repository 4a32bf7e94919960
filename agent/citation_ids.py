"""Running source ids: `[^n]` for documents, `{^n}` for web, `[^Current Page]` / `[^Previous Page]`
for page images, `Q301` for knowledge items, assigned right after every tool call.

The registry is the graph state's `sources` dict (source_id -> Source dump). It is the only memory
needed: counters never go below the highest id already in it, so a conversation restored from
history continues where it stopped even if a counter was lost. A source already in the registry
(same chunk = doc_id + chunk_id, same normalised URL, same file + page, same Q-number) keeps its id.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any, Annotated, Iterable, Mapping, TypedDict
from urllib.parse import urlsplit, urlunsplit

from langchain_core.messages import ToolMessage
from langgraph.prebuilt import ToolNode
from pydantic import BaseModel

from storage.schema import Source

log = logging.getLogger("agent.citations")

CURRENT_PAGE_ID = "[^Current Page]"
PREVIOUS_PAGE_ID = "[^Previous Page]"
_DOC_ID_RE = re.compile(r"^\[\^([1-9]\d*)\]$")
_WEB_ID_RE = re.compile(r"^\{\^([1-9]\d*)\}$")
_Q_ID_RE = re.compile(r"^Q\d{3,4}$")


def merge_sources(left: Mapping[str, dict] | None, right: Mapping[str, dict] | None) -> dict[str, dict]:
    """Reducer for the `sources` state key: later entries win, nothing is forgotten."""
    merged = dict(left or {})
    merged.update(right or {})
    return merged


class CitationState(TypedDict, total=False):
    """The state keys the citation node reads and writes; include them in the graph's state."""

    rag_counter: int
    web_counter: int
    sources: Annotated[dict[str, dict], merge_sources]
    current_page: dict | None  # {"doc_id", "source_file", "page_number" (0-based)}
    previous_page: dict | None


@dataclass
class RenumberResult:
    sources: list[dict]  # the input sources, in order, each with its source_id set
    registry: dict[str, dict]  # the new registry (input registry + new/updated entries)
    rag_counter: int
    web_counter: int
    new_ids: list[str] = field(default_factory=list)  # ids given out by this call

    def state_update(self) -> dict[str, Any]:
        return {"rag_counter": self.rag_counter, "web_counter": self.web_counter, "sources": self.registry}


def _norm_url(url: str) -> str:
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/") or "/"
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def _text_key(src: Mapping[str, Any]) -> str:
    return hashlib.sha1((src.get("text") or src.get("title") or "").encode("utf-8")).hexdigest()[:16]


def _doc_key(src: Mapping[str, Any]) -> str:
    return str(src.get("doc_id") or src.get("source_file") or "")


def source_identity(src: Mapping[str, Any]) -> tuple:
    """What makes two sources the same thing (the same chunk, URL, page or Q-number)."""
    kind = src.get("kind")
    if kind == "document":
        if src.get("chunk_id") is not None:
            return ("document", _doc_key(src), int(src["chunk_id"]))
        return ("document", _doc_key(src), src.get("page_number"), _text_key(src))
    if kind == "web":
        return ("web", _norm_url(src["url"])) if src.get("url") else ("web", _text_key(src))
    if kind == "page":
        return ("page", _doc_key(src), src.get("page_number"))
    if kind == "knowledge":
        return ("knowledge", knowledge_id(src))
    return (str(kind), _text_key(src))


def knowledge_id(src: Mapping[str, Any]) -> str | None:
    """The Q-number of a knowledge source (its source_id, or extra.q_id)."""
    sid = src.get("source_id") or ""
    if _Q_ID_RE.match(sid):
        return sid
    q = (src.get("extra") or {}).get("q_id")
    return q if q and _Q_ID_RE.match(q) else None


def counters_from_registry(registry: Mapping[str, dict]) -> tuple[int, int]:
    """The highest `[^n]` and `{^n}` ids in a registry."""
    rag = max((int(m.group(1)) for k in registry if (m := _DOC_ID_RE.match(k))), default=0)
    web = max((int(m.group(1)) for k in registry if (m := _WEB_ID_RE.match(k))), default=0)
    return rag, web


def _same_page(src: Mapping[str, Any], page: Mapping[str, Any] | None) -> bool:
    if not page or src.get("page_number") is None or page.get("page_number") != src.get("page_number"):
        return False
    if src.get("doc_id") and page.get("doc_id"):
        return src["doc_id"] == page["doc_id"]
    return bool(src.get("source_file")) and src.get("source_file") == page.get("source_file")


def _page_role(src: Mapping[str, Any], current_page, previous_page) -> tuple[str | None, bool]:
    """(role id, whether the viewer state confirms it). The viewer state is authoritative; a tool's
    `extra.page_role` hint only counts when the viewer state does not place the page."""
    if _same_page(src, current_page):
        return CURRENT_PAGE_ID, True
    if _same_page(src, previous_page):
        return PREVIOUS_PAGE_ID, True
    role = (src.get("extra") or {}).get("page_role")
    if role in ("current", "previous"):
        return (CURRENT_PAGE_ID if role == "current" else PREVIOUS_PAGE_ID), False
    return None, False


def _dump(src: Source | Mapping[str, Any]) -> dict:
    data = src.model_dump() if isinstance(src, BaseModel) else dict(src)
    return Source.model_validate(data).model_dump()  # fills defaults, rejects unknown kinds


def renumber_sources(
    sources: Iterable[Source | Mapping[str, Any]],
    rag_counter: int = 0,
    web_counter: int = 0,
    registry: Mapping[str, dict] | None = None,
    *,
    current_page: Mapping[str, Any] | None = None,
    previous_page: Mapping[str, Any] | None = None,
) -> RenumberResult:
    """Give each source its id; pure (inputs are not modified).

    A source already in `registry` keeps its id. A source that arrives with a well-formed id that
    is free (e.g. from `retrieve_previous_sources` after the registry was lost) keeps it and the
    counter moves past it. Everything else gets the next `[^n]` / `{^n}`.
    """
    reg = {k: dict(v) for k, v in (registry or {}).items()}
    known_rag, known_web = counters_from_registry(reg)
    rag, web = max(rag_counter or 0, known_rag), max(web_counter or 0, known_web)
    by_identity = {source_identity(v): k for k, v in reg.items() if k not in (CURRENT_PAGE_ID, PREVIOUS_PAGE_ID)}
    out: list[dict] = []
    new_ids: list[str] = []

    for raw in sources:
        src = _dump(raw)
        kind = src["kind"]
        ident = source_identity(src)
        claimed = src.get("source_id") or ""
        sid: str | None = None

        if kind == "knowledge":
            sid = knowledge_id(src)
            if sid is None:
                log.debug("knowledge source without a Q-number left unnumbered: %r", src.get("title"))
                out.append(src)
                continue
        elif kind == "page" and (role := _page_role(src, current_page, previous_page))[0] and (
            role[1] or role[0] not in reg or source_identity(reg[role[0]]) == ident
        ):
            # Composite identity: the role id names whichever file+page the viewer shows now. It is
            # re-bound to another page only when the viewer state says so (a new turn), never by a
            # tool's hint, so a "[^Current Page]" the model has seen keeps meaning one page.
            sid = role[0]
        elif ident in by_identity:
            sid = by_identity[ident]
        elif claimed and claimed not in reg and (
            (kind in ("document", "page") and (m := _DOC_ID_RE.match(claimed)))
            or (kind == "web" and (m := _WEB_ID_RE.match(claimed)))
        ):
            sid = claimed
            if kind == "web":
                web = max(web, int(m.group(1)))
            else:
                rag = max(rag, int(m.group(1)))
        elif kind == "web":
            web += 1
            sid = f"{{^{web}}}"
        else:  # document, or a page image that is neither the current nor the previous page
            rag += 1
            sid = f"[^{rag}]"

        src["source_id"] = sid
        if reg.get(sid) != src:  # new, re-bound (a page role id) or refreshed
            if sid not in reg or source_identity(reg[sid]) != ident:
                new_ids.append(sid)
            reg[sid] = src
        if sid not in (CURRENT_PAGE_ID, PREVIOUS_PAGE_ID):
            by_identity[ident] = sid
        out.append(src)

    log.debug(
        "sources renumbered: %s (new: %s; counters rag=%d web=%d)",
        [s.get("source_id") for s in out], new_ids, rag, web,
    )
    return RenumberResult(out, reg, rag, web, new_ids)


def renumber_tool_output(
    content: Any,
    rag_counter: int = 0,
    web_counter: int = 0,
    registry: Mapping[str, dict] | None = None,
    **pages: Any,
) -> tuple[Any, RenumberResult]:
    """Renumber the sources inside one tool-output JSON string; other content is passed through."""
    data = None
    if isinstance(content, str):
        try:
            data = json.loads(content)
        except ValueError:
            data = None
    if not isinstance(data, dict) or not isinstance(data.get("sources"), list):
        return content, RenumberResult([], dict(registry or {}), rag_counter, web_counter)
    result = renumber_sources(data["sources"], rag_counter, web_counter, registry, **pages)
    data["sources"] = result.sources
    return json.dumps(data, ensure_ascii=False), result


def _get(state: Any, key: str, default: Any = None) -> Any:
    if isinstance(state, Mapping):
        return state.get(key, default)
    return getattr(state, key, default)


class CitingToolNode(ToolNode):
    """`langgraph.prebuilt.ToolNode` that numbers sources in every tool result.

    Use it exactly like ToolNode in a graph whose state includes `CitationState`'s keys. It returns
    the ToolMessages (content rewritten with ids) plus `rag_counter`, `web_counter`, `sources`.
    Parallel tool calls are numbered in the order the model issued them.
    """

    def _renumber(self, input: Any, output: Any) -> Any:
        if isinstance(input, list):  # message-list input has no state to keep counters in
            state: Any = {}
        else:
            state = input
        rag = _get(state, "rag_counter", 0) or 0
        web = _get(state, "web_counter", 0) or 0
        registry = _get(state, "sources", None) or {}
        pages = {"current_page": _get(state, "current_page"), "previous_page": _get(state, "previous_page")}
        last: RenumberResult | None = None

        def fix(msg: Any) -> Any:
            nonlocal rag, web, registry, last
            if not isinstance(msg, ToolMessage):
                return msg
            content, res = renumber_tool_output(msg.content, rag, web, registry, **pages)
            if content is msg.content:
                return msg
            rag, web, registry, last = res.rag_counter, res.web_counter, res.registry, res
            return msg.model_copy(update={"content": content})

        key = self._messages_key
        if isinstance(output, dict):
            output = {**output, key: [fix(m) for m in output.get(key, [])]}
        elif isinstance(output, list):  # mixed Commands / message lists
            fixed = []
            for item in output:
                if isinstance(item, dict) and key in item:
                    item = {**item, key: [fix(m) for m in item[key]]}
                elif isinstance(item, list):
                    item = [fix(m) for m in item]
                elif isinstance(item, ToolMessage):
                    item = fix(item)
                fixed.append(item)
            output = fixed
        if last is None or isinstance(input, list):
            return output
        update = last.state_update()
        if isinstance(output, dict):
            return {**output, **update}
        return [*output, update]

    def _func(self, input, config, runtime):  # noqa: D401 - same signature as ToolNode._func
        return self._renumber(input, super()._func(input, config, runtime))

    async def _afunc(self, input, config, runtime):
        return self._renumber(input, await super()._afunc(input, config, runtime))
