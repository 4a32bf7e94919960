"""Citations that are never ambiguous: running source ids, then markers -> `Citation` objects.

Public API (everything else is internal):

    cite_sources(state, runtime)     graph node placed after the standard ToolNode: numbers the
                                     sources of the tool results just added (agent/citations/ids.py).
    merge_sources                    the reducer of the graph state's `sources` key (agent/state.py).
    renumber_sources(sources, rag_counter, web_counter, registry, current_page=, previous_page=, allocate=)
    number_output(tool_output, rag_counter, web_counter, registry, ...)
                                     the functions behind the node.
    build_answer(text, sources, page_roles=None, knowledge=None, embedder=None, route=..., mode=...)
    iter_markers(text), MARKER_RE    what a marker is (shared with the UI).

Ids: documents and pages `[^1]..[^n]`, web `{^1}..{^n}` (one registry per conversation; the same
chunk, page or URL keeps its id), the viewed page `[^Current Page]` / `[^Previous Page]` (roles,
bound per turn by `page_roles`), knowledge items their Q-number (shown as `[^8.1]`).

`build_answer(text, sources, *, page_roles=None, knowledge=None, embedder=None, route="documents", mode="llm")`
    text       the model's answer.
    sources    the registry (state["sources"]: source_id -> Source, or its dump), or a list of
               Sources with ids set.
    page_roles this turn's role -> page id (state["page_roles"]). When given, a role cites the page
               of this turn only (a role with no page this turn is removed); when None, role ids
               present in `sources` are used as they are.
    knowledge  a `KnowledgeBase` for Q-numbers (default: the shipped one; `False`: none beyond
               the knowledge sources in the registry).
    embedder   for legacy-marker disambiguation (default `storage.documents.embeddings.get_embedder()`,
               loaded only when a legacy marker is ambiguous).
Returns `AnswerResult(message, citations, citation_map, route, mode)`:
    - `[^3, ^5]` is split into `[^3][^5]`;
    - `Q301` / "According to Q301," / `(Q301)` become `[^8.1]` when Q301 is in the knowledge base
      (unknown Q-numbers stay plain text; an unknown wrapped `(Q999)` is removed). Q-numbers inside
      addresses (URLs with or without a scheme, links, HTML tags, e-mails), words, issue keys
      (`JIRA-Q301`) or code are text, and so are markers inside addresses. Bracketed numbers
      already in the text ("Note [2.1]") are text, never citations: the injected form `[^8.1]`
      cannot be confused with them;
    - `[chunk_id: 44]` is kept as is when one retrieved file has chunk 44, expanded to
      `[chunk_id: 44, file: b.pdf]` when several do and the citing sentence clearly picks one, and
      kept with an "ambiguous" citation listing the candidates otherwise. `citation_map["44"]` =
      `{"files", "chosen", "disambiguated", "resolutions": [{"marker", "chosen", "sentence", "scores"}]}`;
    - markers pointing at nothing (`[^99]`, `[^Current Page]` with no page source) and malformed
      ones (`[^0]`, `[^ 3]`, `{^}`) are removed and logged;
    - nothing inside ``` fences or `inline code` is touched;
    - `citations` are in order of first appearance, one per source: a source cited in several forms
      (`[^1]` and `[chunk_id: 30, file: a.pdf]`, or `[^Current Page]` and its `[^7]`) is shown with
      the marker of its first citation everywhere.
"""

from __future__ import annotations

import logging
import re
from functools import partial
from typing import Any, Iterable, Mapping

from agent.citations.ids import (
    RenumberResult,
    as_source,
    cite_sources,
    counters_from_registry,
    merge_sources,
    renumber_sources,
    number_output,
    source_identity,
)
from agent.citations.legacy import citing_sentence, match_file, resolve, short_name
from agent.markers import (
    CURRENT_PAGE_ID,
    PREVIOUS_PAGE_ID,
    ROLE_IDS,
    GROUPED_RE,
    LEGACY_GROUP_RE,
    MARKER_LIKE_RE,
    MARKER_RE,
    Q_ID_RE,
    Q_NUMBER_RE,
    WRAPPED_Q_RE,
    Marker,
    rag_id,
    id_label,
    address_spans,
    inside,
    iter_markers,
    map_outside_addresses,
    map_prose,
    replace_markers,
    web_id,
)
from agent.citations.previews import clip, knowledge_citation, source_citation
from agent.citations.quotes import attach_quotes
from storage.schema import AnswerResult, Citation, CitationMetadata, Source, display_page
from agent.knowledge_base import get_knowledge_base

__all__ = [
    "CURRENT_PAGE_ID",
    "PREVIOUS_PAGE_ID",
    "MARKER_RE",
    "cite_sources",
    "Marker",
    "RenumberResult",
    "build_answer",
    "counters_from_registry",
    "iter_markers",
    "merge_sources",
    "renumber_sources",
    "number_output",
    "source_identity",
]

log = logging.getLogger("agent.citations.answer")

_DEAD_CANDIDATE_RE = re.compile(r"[ \t]*(?P<marker>" + MARKER_LIKE_RE.pattern + ")")


def _registry(sources: Mapping[str, Any] | Iterable[Any] | None) -> dict[str, Source]:
    if sources is None:
        return {}
    pairs = sources.items() if isinstance(sources, Mapping) else ((None, s) for s in sources)
    reg = {}
    for sid, s in pairs:
        src = as_source(s)
        if sid := (sid if sid is not None else src.source_id):
            reg[sid] = src
    return reg


def _knowledge_lookup(registry: Mapping[str, Source], knowledge: Any) -> dict[str, dict]:
    """Q-number -> {label, title, answer, category, source, url} from the KB and registry."""
    lookup: dict[str, dict] = {}
    for sid, s in registry.items():
        extra = s.extra
        if s.kind == "knowledge" and extra.get("label"):
            lookup[extra.get("q_id") or sid] = {
                "label": extra["label"], "title": s.title, "answer": extra.get("answer") or s.text,
                "category": extra.get("category"), "source": extra.get("source"), "url": s.url,
            }
    if knowledge is None:
        try:
            knowledge = get_knowledge_base()
        except (OSError, ValueError) as e:  # a missing, unreadable or invalid file (KnowledgeBaseError is a
            # ValueError) must not break answers: Q-numbers stay text
            log.warning("knowledge base unavailable, Q-numbers resolve from the registry only: %s", e)
            knowledge = False
    if knowledge:
        for item in knowledge.items:  # the KB is authoritative over older registry copies
            lookup[item.id] = {
                "label": item.label, "title": item.question, "answer": item.answer, "category": item.category,
                "source": item.metadata.get("source"), "url": item.metadata.get("url"),
            }
    return lookup


def _map_plain(text: str, fn) -> str:
    """`fn` applied to the text outside code and addresses (what can hold citations)."""
    return map_prose(text, lambda prose: map_outside_addresses(prose, fn))


class _AnswerBuilder:
    def __init__(self, text: str, registry: dict[str, Source], q_lookup: dict[str, dict], embedder: Any) -> None:
        self.text = text
        self.registry = registry
        self.q_lookup = q_lookup
        self.label_to_q = {v["label"]: q for q, v in q_lookup.items()}
        self.embedder = embedder
        # A file is named by its file name, or by its doc_id when two different PDFs share that name,
        # so an expanded legacy marker always names exactly one PDF.
        docs_per_name: dict[str, set] = {}
        for src in registry.values():
            docs_per_name.setdefault(short_name(src), set()).add(src.doc_id)
        self._ambiguous_names = {n for n, ids in docs_per_name.items() if len(ids) > 1}
        self.dropped: list[tuple[str, str]] = []
        self.citation_map: dict[str, Any] = {}
        self.legacy: dict[str, dict] = {}  # final legacy marker text -> citation info

    def name(self, src: Source) -> str:
        name = short_name(src)
        return str(src.doc_id or name) if name in self._ambiguous_names else name

    # -- passes over prose (code is never touched) ---------------------------------------------

    def split_groups(self, prose: str) -> str:
        def split(m: re.Match) -> str:
            form = rag_id if m.group(0).startswith("[") else web_id
            return "".join(form(n) for n in re.findall(r"\d+", m.group(0)))

        prose = GROUPED_RE.sub(split, prose)
        return LEGACY_GROUP_RE.sub(lambda m: "".join(f"[chunk_id: {n}]" for n in re.findall(r"\d+", m.group(0))), prose)

    def inject_q(self, prose: str) -> str:
        def wrapped(m: re.Match) -> str:
            ids = Q_NUMBER_RE.findall(m.group(1))
            known = [q for q in ids if q in self.q_lookup]
            for q in ids:
                if q not in self.q_lookup:
                    self.dropped.append((q, "unknown Q-number"))
            if not known:
                return ""
            lead = m.group(0)[: len(m.group(0)) - len(m.group(0).lstrip(" \t"))]
            return lead + "".join(rag_id(self.q_lookup[q]["label"]) for q in known)

        def bare(m: re.Match) -> str:
            q = m.group(0)
            if q in self.q_lookup:
                return rag_id(self.q_lookup[q]["label"])
            log.debug("unknown Q-number %s left as text", q)
            return q

        return Q_ID_RE.sub(bare, WRAPPED_Q_RE.sub(wrapped, prose))

    def resolve_legacy(self, prose: str, *, new_only: bool = False) -> str:
        """Resolve each legacy marker (with `new_only`, only those not already resolved)."""
        out, pos = [], 0
        addresses = address_spans(prose)  # the whole prose: the citing sentence may run across a URL
        for m in MARKER_RE.finditer(prose):
            if m.group("legacy") is None or (new_only and m.group(0) in self.legacy):
                continue
            if inside(addresses, m.start()):
                continue
            out.append(prose[pos : m.start()])
            replacement = self._legacy(m, prose[: m.start()])
            if not replacement:  # dropped: take the blank before it along
                out[-1] = out[-1].rstrip(" \t")
            out.append(replacement)
            pos = m.end()
        out.append(prose[pos:])
        return "".join(out)

    def _legacy(self, m: re.Match, before: str) -> str:
        chunk_id = int(m.group("legacy"))
        candidates = [
            (sid, s) for sid, s in self.registry.items() if s.kind == "document" and s.chunk_id == chunk_id
        ]
        files = sorted({self.name(s) for _, s in candidates})
        if m.group("legacy_file"):
            matched = match_file(m.group("legacy_file"), candidates)
            if not matched:
                self.dropped.append((m.group(0), f"no retrieved chunk {chunk_id} in file {m.group('legacy_file').strip()!r}"))
                return ""
            candidates = matched
        if not candidates:
            self.dropped.append((m.group(0), f"no retrieved source has chunk_id {chunk_id}"))
            return ""
        sentence = citing_sentence(before)
        entry = self.citation_map.setdefault(str(chunk_id), {"files": files, "chosen": None, "disambiguated": False, "resolutions": []})
        if len(candidates) == 1:  # the only file with this chunk, or the one the `file:` suffix names
            sid, src = candidates[0]
            marker = m.group(0)
            entry["resolutions"].append({"marker": marker, "chosen": self.name(src), "sentence": sentence, "scores": {}})
            entry["chosen"] = entry["chosen"] or self.name(src)
            self.legacy.setdefault(marker, {"source_id": sid, "chunk_id": chunk_id, "files": files, "disambiguated": False})
            return marker
        res = resolve(sentence, candidates, self.embedder)
        scores = {self.name(self.registry[sid]): s for sid, s in res.scores.items()}
        if res.chosen is None:
            log.debug("legacy %s ambiguous between %s for %r (scores %s)", m.group(0), files, sentence, scores)
            marker = f"[chunk_id: {chunk_id}]"
            entry["resolutions"].append({"marker": marker, "chosen": None, "sentence": sentence, "scores": scores})
            self.legacy.setdefault(marker, {"source_id": None, "chunk_id": chunk_id, "files": files,
                                            "candidates": [sid for sid, _ in candidates]})
            return marker
        chosen = self.name(self.registry[res.chosen])
        marker = f"[chunk_id: {chunk_id}, file: {chosen}]"
        log.debug("legacy %s -> %s for %r (scores %s)", m.group(0), chosen, sentence, scores)
        entry["resolutions"].append({"marker": marker, "chosen": chosen, "sentence": sentence, "scores": scores})
        entry["chosen"] = entry["chosen"] or chosen
        entry["disambiguated"] = True
        self.legacy.setdefault(marker, {"source_id": res.chosen, "chunk_id": chunk_id, "files": files, "disambiguated": True})
        return marker

    def drop_dead(self, prose: str) -> str:
        def check(m: re.Match) -> str:
            marker = m.group("marker")
            if MARKER_RE.fullmatch(marker) is None:
                self.dropped.append((marker, "malformed marker"))
            elif marker not in self.registry:
                self.dropped.append((marker, "no source with this id"))
            else:
                return m.group(0)
            return ""  # leading blanks go with the marker: "grew [^99]." -> "grew."

        return _DEAD_CANDIDATE_RE.sub(check, prose)

    # -- citations ---------------------------------------------------------------------------

    def build(self) -> tuple[str, list[Citation]]:
        text = _map_plain(self.text, self.split_groups)
        text = map_prose(text, self.resolve_legacy)
        # Removing a marker can join its neighbours into a new one ("[[^0]^5]" -> "[^5]",
        # "[chunk_id: 4[^0]4]" -> "[chunk_id: 44]"): repeat until no new marker appears.
        while (cleaned := map_prose(_map_plain(text, self.drop_dead), partial(self.resolve_legacy, new_only=True))) != text:
            text = cleaned
        text = _map_plain(text, self.inject_q)  # last: an injected `[^8.1]` is ours, never "dead"
        text = self.one_marker_per_source(text)
        citations: dict[str, Citation] = {}
        found = list(iter_markers(text))
        log.debug("markers found: %s", [mk.text for mk in found])
        for mk in found:
            if mk.text in citations:
                continue
            citation = self._citation(mk, text)
            if citation is not None:
                citations[mk.text] = citation
        for marker, reason in self.dropped:
            log.debug("marker dropped: %s (%s)", marker, reason)
        log.debug("citations built: %s", [(c.marker, c.kind, c.documentId) for c in citations.values()])
        return text, list(citations.values())

    def _source_of(self, mk: Marker) -> tuple | None:
        """What a marker cites, as a comparable key (None: nothing, or not decidable)."""
        if mk.kind in ("document", "web", "page"):
            return ("source", source_identity(self.registry[mk.text])) if mk.text in self.registry else None
        if mk.kind == "knowledge":
            q_id = self.label_to_q.get(mk.label) if mk.text.startswith("[^") else None
            return ("knowledge", q_id) if q_id else None
        info = self.legacy.get(mk.text) or {}
        sid = info.get("source_id")
        return ("source", source_identity(self.registry[sid])) if sid else None

    def one_marker_per_source(self, text: str) -> str:
        """Every marker citing a source already cited becomes that first marker's text, so the
        answer lists each source once and one badge always opens one thing."""
        first: dict[tuple, str] = {}

        def canonical(mk: Marker) -> str | None:
            key = self._source_of(mk)
            if key is None:
                return None
            text_of_first = first.setdefault(key, mk.text)
            return text_of_first if text_of_first != mk.text else None

        return replace_markers(text, canonical)

    def _citation(self, mk: Marker, text: str) -> Citation | None:
        sentence = citing_sentence(text[: mk.start])
        if mk.kind in ("document", "web", "page"):
            src = self.registry[mk.text]  # drop_dead guarantees presence
            return source_citation(mk.text, id_label(mk.text), src, sentence)
        if mk.kind == "knowledge":
            q_id = self.label_to_q.get(mk.label) if mk.text.startswith("[^") else None
            if q_id is None:  # "Note [2.5]" from the text itself, not one of ours: plain text
                log.debug("%s is not a knowledge item label; left as text", mk.text)
                return None
            return knowledge_citation(mk.text, q_id, self.q_lookup[q_id])
        info = self.legacy[mk.text]
        if info["source_id"] is None:
            return self._ambiguous_citation(mk, info)
        src = self.registry[info["source_id"]]
        return source_citation(
            mk.text, id_label(info["source_id"]), src, sentence,
            disambiguated=info.get("disambiguated", False), candidates=info["files"] if len(info["files"]) > 1 else [],
        )

    def _ambiguous_citation(self, mk: Marker, info: dict) -> Citation:
        cands = [self.registry[sid] for sid in info["candidates"]]
        names = [self.name(s) for s in cands]
        listing = "; ".join(f"{self.name(s)} p. {display_page(s.page_number)}" for s in cands)
        return Citation(
            number=f"chunk {info['chunk_id']}?",
            marker=mk.text,
            kind="document",
            documentId="",
            documentTitle=f"Ambiguous: chunk {info['chunk_id']} exists in {', '.join(names)}",
            snippet=f"The answer cites chunk {info['chunk_id']}, which exists in several files ({listing}); "
            "the sentence does not clearly match one of them.",
            preview="\n\n".join(f"{self.name(s)}, page {display_page(s.page_number)}: {clip(s.text, 400)}" for s in cands),
            metadata=CitationMetadata(chunk_id=info["chunk_id"], candidates=names, disambiguated=False),
        )


def build_answer(
    text: str,
    sources: Mapping[str, Any] | Iterable[Any] | None,
    *,
    page_roles: Mapping[str, str] | None = None,
    knowledge: Any = None,
    embedder: Any = None,
    route: str = "documents",
    mode: str = "llm",
) -> AnswerResult:
    """Turn the model's text into an `AnswerResult` whose every marker opens exactly one source."""
    registry = _registry(sources)
    if page_roles is not None:  # roles mean this turn's pages, never an older binding
        registry = {k: v for k, v in registry.items() if k not in ROLE_IDS}
        registry.update({role: registry[sid] for role, sid in page_roles.items() if role in ROLE_IDS and sid in registry})
    builder = _AnswerBuilder(text or "", registry, _knowledge_lookup(registry, knowledge), embedder)
    message, citations = builder.build()
    cited = {c.marker: registry.get(c.marker) or registry.get((builder.legacy.get(c.marker) or {}).get("source_id") or "")
             for c in citations}
    attach_quotes(message, citations, {m: s for m, s in cited.items() if s})  # quotes as the sources print them
    return AnswerResult(message=message, citations=citations, citation_map=builder.citation_map, route=route, mode=mode)
