"""Running source ids: `[^n]` for documents and pages, `{^n}` for web, `Q301` for knowledge items,
assigned by the `cite_sources` graph node right after the standard `ToolNode` ran the calls.

Who gives ids out: with a conversation in the history store, the store's source registry
(`HistoryStore.allocate_source_ids`: one document per source key, atomic counters), so tabs and
processes asking at once never give one id to two sources. Without one (no history, or the store
is down) running counters in graph state, never below the highest id in the registry; such ids are
provisional and renumbered against the store when the turn is saved (agent/turns.py).

The registry in state is `sources` (source_id -> `Source`; stored dumps are read back into Sources). A source already in it (same chunk =
doc_id + chunk_id, same normalised URL, same file + page, same Q-number) keeps its id.

Page roles: the page the user views is shown to the model as `[^Current Page]` (the one before as
`[^Previous Page]`), but it is registered under its own `[^n]` like any page; `page_roles` in state
maps each role to that id *for this turn only*, so a role always means the page of the turn it
was written in, and a role with no page in the turn cites nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Optional
from urllib.parse import urlsplit, urlunsplit

from langchain_core.messages import ToolMessage

from agent.markers import CURRENT_PAGE_ID, PREVIOUS_PAGE_ID, ROLE_IDS, id_number, is_q_number, rag_id, web_id
from agent.messages import last_tool_batch
from agent.tool_output import ToolOutput
from storage.schema import Source

log = logging.getLogger("agent.citations.answer")



SourceLike = Source | Mapping[str, Any]  # a Source, or its dump (a stored turn, an older caller)


def as_source(src: SourceLike) -> Source:
    """A Source; a dump (stored by any version) is read back into one."""
    return src if isinstance(src, Source) else Source.model_validate(dict(src))


def as_registry(sources: Mapping[str, SourceLike] | None) -> dict[str, Source]:
    """source_id -> Source, from a registry of Sources or of their dumps."""
    return {sid: as_source(s) for sid, s in (sources or {}).items()}


def merge_sources(left: Mapping[str, SourceLike] | None, right: Mapping[str, SourceLike] | None) -> dict[str, Source]:
    """Reducer for the `sources` state key: later entries win, nothing is forgotten (dumps become Sources)."""
    merged = as_registry(left)
    merged.update(as_registry(right))
    return merged


@dataclass
class RenumberResult:
    sources: list[Source]  # the input sources, in order, each with its source_id set
    registry: dict[str, Source]  # the new registry (input registry + new/updated entries)
    rag_counter: int
    web_counter: int
    new_ids: list[str] = field(default_factory=list)  # ids given out by this call
    page_roles: dict[str, str] = field(default_factory=dict)  # role id -> concrete id, this call's pages


# (key, family "rag"|"web", source dump: what the store keeps) per new source -> their ids; None = "store unavailable,
# number locally" (HistoryStore.allocate_source_ids behind a fallback, see agent/turns.py).
Allocate = Callable[[list[tuple[str, str, dict]]], Optional[list[str]]]


def _norm_url(url: str) -> str:
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/") or "/"
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def _text_key(src: Source) -> str:
    return hashlib.sha1((src.text or src.title or "").encode("utf-8")).hexdigest()[:16]


def _doc_key(src: Source) -> str:
    return str(src.doc_id or src.source_file or "")


def source_identity(src: SourceLike) -> tuple:
    """What makes two sources the same thing (the same chunk, URL, page or Q-number)."""
    src = as_source(src)
    kind = src.kind
    if kind == "document":
        if src.chunk_id is not None:
            return ("document", _doc_key(src), int(src.chunk_id))
        return ("document", _doc_key(src), src.page_number, _text_key(src))
    if kind == "web":
        return ("web", _norm_url(src.url)) if src.url else ("web", _text_key(src))
    if kind == "page":
        return ("page", _doc_key(src), src.page_number)
    if kind == "knowledge":
        return ("knowledge", knowledge_id(src))
    return (str(kind), _text_key(src))


def source_key(src: SourceLike) -> str:
    """`source_identity` as a string: the registry key of a source in the history store."""
    return json.dumps(source_identity(src), ensure_ascii=False, default=str)


def knowledge_id(src: SourceLike) -> str | None:
    """The Q-number of a knowledge source (its source_id, or extra.q_id)."""
    src = as_source(src)
    if is_q_number(src.source_id):
        return src.source_id
    q = src.extra.get("q_id")
    return q if q and is_q_number(q) else None


def counters_from_registry(registry: Mapping[str, Any]) -> tuple[int, int]:
    """The highest `[^n]` and `{^n}` ids in a registry."""
    numbers = [n for k in registry if (n := id_number(k))]
    rag = max((i for family, i in numbers if family == "rag"), default=0)
    web = max((i for family, i in numbers if family == "web"), default=0)
    return rag, web


def _same_page(src: Source, page: Mapping[str, Any] | None) -> bool:
    """The source is the viewer's page `page` (a `PageRef`)."""
    if not page or src.page_number is None or page.get("page_number") != src.page_number:
        return False
    if src.doc_id and page.get("doc_id"):
        return src.doc_id == page["doc_id"]
    return bool(src.source_file) and src.source_file == page.get("source_file")


def _claimable(kind: str, claimed: str) -> int | None:
    """The number of a well-formed id of the source's family (`[^n]` for documents and pages)."""
    number = id_number(claimed)
    family = "web" if kind == "web" else "rag" if kind in ("document", "page") else None
    return number[1] if number and number[0] == family else None


def renumber_sources(
    sources: Iterable[SourceLike],
    rag_counter: int = 0,
    web_counter: int = 0,
    registry: Mapping[str, SourceLike] | None = None,
    *,
    current_page: Mapping[str, Any] | None = None,
    previous_page: Mapping[str, Any] | None = None,
    allocate: Allocate | None = None,
) -> RenumberResult:
    """Give each source its id; pure apart from `allocate` (inputs are not modified).

    A source already in `registry` keeps its id. New sources get ids from `allocate` (the store)
    or, without it or when it returns None, the next `[^n]` / `{^n}` of the local counters; locally
    a source arriving with a well-formed free id (from `retrieve_previous_sources` after the
    registry was lost) keeps it and the counter moves past it. The current / previous page (viewer
    state of this turn) is shown with its role id; `page_roles` maps the role to the page's id.
    """
    reg = {k: v for k, v in as_registry(registry).items() if k not in ROLE_IDS}
    known_rag, known_web = counters_from_registry(reg)
    numbering = _Numbering(reg, max(rag_counter or 0, known_rag), max(web_counter or 0, known_web))
    out, claimed, pending = numbering.known_ids(sources, local=allocate is None)
    if pending:
        numbering.new_ids(out, pending, allocate)
    shown, new_ids, page_roles = numbering.register(out, claimed, current_page, previous_page)
    rag, web = numbering.rag, numbering.web
    log.debug(
        "sources renumbered: %s (new: %s; roles %s; counters rag=%d web=%d)",
        [s.source_id for s in shown], new_ids, page_roles, rag, web,
    )
    return RenumberResult(shown, reg, rag, web, new_ids, page_roles)


class _Numbering:
    """One `renumber_sources` call's working state: the registry it extends, each identity's id, the counters."""

    def __init__(self, reg: dict[str, Source], rag: int, web: int) -> None:
        self.reg, self.rag, self.web = reg, rag, web
        self.by_identity = {source_identity(v): k for k, v in reg.items()}

    def known_ids(self, sources: Iterable[SourceLike], local: bool) -> tuple[list[Source], list[str], dict[tuple, list[int]]]:
        """Each source with the id it already has (a Q-number, its registry id, or with `local`
        numbering a free id it arrives with), the id each arrived with, and the identities still
        waiting for an id (identity -> their indexes in the sources)."""
        out: list[Source] = []
        claims: list[str] = []
        pending: dict[tuple, list[int]] = {}
        for raw in sources:
            src = Source.model_validate(as_source(raw).model_dump())  # a copy: inputs are not modified
            kind, ident, claimed = src.kind, source_identity(src), src.source_id or ""
            src.source_id = ""
            if kind == "knowledge":
                src.source_id = knowledge_id(src) or ""
                if not src.source_id:
                    log.debug("knowledge source without a Q-number left unnumbered: %r", src.title)
            elif ident in self.by_identity:
                src.source_id = self.by_identity[ident]
            elif local and claimed and claimed not in self.reg and (n := _claimable(kind, claimed)):
                src.source_id = claimed
                if kind == "web":
                    self.web = max(self.web, n)
                else:
                    self.rag = max(self.rag, n)
                self.by_identity[ident] = claimed
            else:
                pending.setdefault(ident, []).append(len(out))
            claims.append(claimed)
            out.append(src)
        return out, claims, pending

    def new_ids(self, out: list[Source], pending: dict[tuple, list[int]], allocate: Allocate | None) -> None:
        """Ids for the waiting identities, from `allocate` (the store) or else the local counters."""
        firsts = [out[idxs[0]] for idxs in pending.values()]
        requests = [(source_key(s), "web" if s.kind == "web" else "rag", s.model_dump()) for s in firsts]
        ids = allocate(requests) if allocate is not None else None
        if ids is None:  # local (or provisional) numbering
            ids = []
            for _, family, _ in requests:
                if family == "web":
                    self.web += 1
                    ids.append(web_id(self.web))
                else:
                    self.rag += 1
                    ids.append(rag_id(self.rag))
        else:
            got_rag, got_web = counters_from_registry(dict.fromkeys(ids))
            self.rag, self.web = max(self.rag, got_rag), max(self.web, got_web)
        for (ident, idxs), sid in zip(pending.items(), ids):
            self.by_identity[ident] = sid
            for i in idxs:
                out[i].source_id = sid

    def register(self, out: list[Source], claims: list[str], current_page: Mapping[str, Any] | None,
                 previous_page: Mapping[str, Any] | None) -> tuple[list[Source], list[str], dict[str, str]]:
        """Record the numbered sources in the registry (the latest copy wins) -> (the sources as the
        model sees them, a fresh viewer page under its role id; the ids new to the registry; the roles)."""
        new_ids: list[str] = []
        page_roles: dict[str, str] = {}
        shown: list[Source] = []
        for src, claimed in zip(out, claims):
            sid = src.source_id
            if sid:
                if sid not in self.reg or source_identity(self.reg[sid]) != source_identity(src):
                    if sid not in new_ids:
                        new_ids.append(sid)
                self.reg[sid] = src  # the latest copy of a source wins (re-extracted text, new score)
            if src.kind == "page" and sid and not claimed:  # fresh from the viewer, not brought back
                for role, ref in ((CURRENT_PAGE_ID, current_page), (PREVIOUS_PAGE_ID, previous_page)):
                    if _same_page(src, ref) and role not in page_roles:
                        page_roles[role] = sid
                        src = src.model_copy(update={"source_id": role})  # what the model sees and cites
                        break
            shown.append(src)
        return shown, new_ids, page_roles


def number_output(output: ToolOutput, rag_counter: int = 0, web_counter: int = 0,
                  registry: Mapping[str, SourceLike] | None = None, **kw: Any) -> tuple[ToolOutput, RenumberResult]:
    """One tool output with its sources numbered (see `renumber_sources` for the keywords)."""
    result = renumber_sources(output.sources, rag_counter, web_counter, registry, **kw)
    return output.model_copy(update={"sources": list(result.sources)}), result


def cite_sources(state: Mapping[str, Any], runtime: Any = None) -> dict[str, Any]:
    """Graph node after the standard `ToolNode`: number the sources of the tool results it just
    added and replace those ToolMessages (same id: the `add_messages` reducer swaps them in place)
    with numbered content and a numbered `ToolOutput` artifact. Also returns the counters, the
    registry and this turn's `page_roles`. Ids come from `runtime.context.allocate_ids` when the
    run has one (the history store's registry), else from the counters in state."""
    context = getattr(runtime, "context", None)
    allocate = getattr(context, "allocate_ids", None)
    rag, web = state.get("rag_counter", 0) or 0, state.get("web_counter", 0) or 0
    registry = state.get("sources") or {}
    roles = dict(state.get("page_roles") or {})
    pages = {"current_page": state.get("current_page"), "previous_page": state.get("previous_page")}
    replaced: list[ToolMessage] = []
    for msg in last_tool_batch(list(state.get("messages") or [])):
        output = ToolOutput.of(msg)
        if output is None:
            continue
        numbered, res = number_output(output, rag, web, registry, allocate=allocate, **pages)
        rag, web, registry = res.rag_counter, res.web_counter, res.registry
        for role, sid in res.page_roles.items():
            roles.setdefault(role, sid)  # the first binding of a role in a turn stands
        replaced.append(msg.model_copy(update={"content": numbered.content(), "artifact": numbered}))
    if not replaced:
        return {}
    return {"messages": replaced, "rag_counter": rag, "web_counter": web, "sources": registry, "page_roles": roles}
