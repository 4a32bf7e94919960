"""The documents a turn chats with, read from the catalog once per turn (`read_selection`, called by
agent/run.py `initial_state`) and carried in graph state as `selected_documents`: each with its file
name, its routing summary and its `DocumentInfo` (issuer, form, period), so no node or tool reads
the catalog again for the same selection."""

from __future__ import annotations

import logging
from typing import Any, Mapping

from pydantic import BaseModel

from storage.documents import catalog
from storage.schema import DocumentInfo

log = logging.getLogger(__name__)


class SelectedDocument(BaseModel):
    """One selected PDF as the catalog describes it."""

    doc_id: str
    source_file: str | None = None  # None when its manifest could not be read
    summary: str = ""  # the manifest's paragraph for routing ("" when unreadable)
    info: DocumentInfo | None = None  # None when the library does not list it


def read_selection(doc_ids: list[str]) -> list[SelectedDocument]:
    """The selected PDFs, in selection order (one catalog read: the library's infos, each manifest)."""
    if not doc_ids:
        return []
    infos = catalog.library_infos()
    selected = []
    for doc_id in doc_ids:
        try:
            manifest = catalog.load_manifest(doc_id)
            source_file, summary = manifest.source_file, manifest.summary
        except (OSError, ValueError) as exc:
            log.warning("no manifest for %s: %s", doc_id, exc)
            source_file, summary = None, ""
        selected.append(SelectedDocument(doc_id=doc_id, source_file=source_file, summary=summary, info=infos.get(doc_id)))
    return selected


def selected_documents(state: Mapping[str, Any]) -> list[SelectedDocument]:
    """The turn's selection from state; read now only when the state was built without one (a node
    or tool called on its own)."""
    docs = state.get("selected_documents")
    return list(docs) if docs is not None else read_selection(list(state.get("selected_doc_ids") or []))


def selected_infos(state: Mapping[str, Any]) -> list[DocumentInfo]:
    """The `DocumentInfo`s of the selected documents the library lists, in selection order."""
    return [d.info for d in selected_documents(state) if d.info is not None]


def document_summary(selection: list[SelectedDocument]) -> str:
    """The `indexed_document_summary` of the selection (one paragraph each)."""
    return "\n".join(d.summary for d in selection if d.source_file is not None)
