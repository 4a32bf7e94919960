"""Copying and exporting answers: markers become [n], every citation a footnote with its file,
1-based page and quote (or URL / Q&A item); the source chips open the same preview as the
buttons; the chat offers the conversation as a Markdown download."""

from __future__ import annotations

import base64
import html
import re

import pymupdf

from storage.schema import Citation
from tests.fixtures_ui import FILE, new_app
from ui.citations import answer_with_footnotes, conversation_markdown
from ui.conversations import ChatTurn, file_stem
from tests.fixtures_mongo import write_message

DOC = Citation(number="1", marker="[^1]", kind="document", documentId="d1", documentTitle=FILE,
               snippet="…Net debt fell to 62.5 million euros…", preview="Net debt fell to 62.5 million euros.",
               metadata={"file": FILE, "page": 2, "chunk_id": 4, "doc_id": "d1"})
WEB = Citation(number="2", marker="{^2}", kind="web", documentId="https://example.org/x", documentTitle="Example",
               snippet="Lima is the capital.", preview="Lima is the capital.", metadata={"url": "https://example.org/x"})


def test_answer_with_footnotes_numbers_markers_and_lists_file_page_and_quote():
    text = "Net debt was 62.5m [^1], the capital is Lima {^2}; `[^1]` in code stays, [^9] is unknown."
    out = answer_with_footnotes(text, [DOC, WEB])
    body, notes = out.split("\n\n")
    assert body == "Net debt was 62.5m [1], the capital is Lima [web 2]; `[^1]` in code stays, [^9] is unknown."
    assert notes.splitlines() == [
        f"[1] {FILE}, page 2, chunk 4: “Net debt fell to 62.5 million euros”",
        "[web 2] Example <https://example.org/x>: “Lima is the capital.”",
    ]


def test_conversation_markdown_has_questions_answers_and_every_citation():
    md = conversation_markdown("Debt\nreview", [ChatTurn("user", "What was\nnet debt?"),
                                                ChatTurn("assistant", "62.5m [^1].", [DOC]),
                                                ChatTurn("user", "More?"), ChatTurn("assistant", "Part", stopped=True)])
    assert md.startswith("# Debt review\n\n## What was net debt?\n\n62.5m [1].\n\n[1] ")
    assert f"{FILE}, page 2" in md and "“Net debt fell to 62.5 million euros”" in md
    assert md.endswith("Part\n\n_(stopped: incomplete answer)_\n")
    assert file_stem("../etc/passwd <x>") == "etc_passwd_x"


def test_sources_entries_open_the_preview_and_copy_shows_footnotes(chat_service, sample_processed, ui_env):
    doc = DOC.model_copy(update={"documentId": sample_processed.doc_id,
                                 "metadata": DOC.metadata.model_copy(update={"doc_id": sample_processed.doc_id})})
    store = chat_service.history
    cid = store.create_conversation(ui_env["user_id"], "Debt")
    write_message(store, ui_env["user_id"], cid, "user", "What was net debt?")
    write_message(store, ui_env["user_id"], cid, "ai", "Net debt fell to 62.5m [^1].", citations=[doc.model_dump()], route="documents")
    at = new_app()
    at.query_params["c"] = cid
    at.run()
    assert not at.exception
    # One click copies: the button's text (citations as footnotes) sits beside it for the page script.
    copy = next(b for b in at.button if (b.key or "").startswith("copy-"))
    sources = [h.value for h in at.html if f'data-copy-source="{copy.key}"' in h.value]
    assert sources == [f'<textarea hidden data-copy-source="{copy.key}">'
                       f'{html.escape(answer_with_footnotes("Net debt fell to 62.5m [^1].", [doc]))}</textarea>']
    copy.click().run()
    assert [t.value for t in at.toast] == ["Copied: the answer, with its citations as footnotes."]
    assert at.get("download_button")  # the export
    source = next(b for b in at.button if (b.key or "").endswith("-cite-0"))
    source.click().run()
    assert not at.exception
    dialog = "\n".join(m.value for m in at.markdown)
    assert "page 2" in dialog and "62\\.5 million euros" in dialog
    # The cited words come first; the page image is in an expander below them, readable on a phone.
    assert [e.label for e in at.expander][-1].startswith("Page 2 image")
    [page_html] = [h.value for h in at.html if 'data-testid="pageImage"' in h.value]
    assert 'class="page-wide"' in page_html and "min-width:720px" in page_html
    # and, for a phone, the cited lines' own columns at the dialog's width (a stylesheet picks one per screen)
    narrow = re.search(r'class="page-narrow"[^>]*src="data:image/png;base64,([^"]+)"', page_html)
    assert narrow and "@media (max-width:640px)" in page_html and 'style="width:100%;height:auto"' in page_html
    wide = re.search(r'class="page-wide"[^>]*src="data:image/png;base64,([^"]+)"', page_html)
    narrow_px, wide_px = (pymupdf.Pixmap(base64.b64decode(m.group(1))) for m in (narrow, wide))
    assert narrow_px.width / 2.5 < wide_px.width / 1.5  # narrower than the page (in points)


def test_a_failed_claim_is_marked_after_its_sentence_in_the_copy_the_export_and_the_answer():
    from storage.schema import ClaimCheck
    from ui.citations import answer_markdown

    failed = ClaimCheck(sentence="Net debt was 72.5m.", marker_index=0, source_ids=["[^1]"],
                        problems=[{"kind": "figure", "text": "72.5m"}],
                        source_says={"[^1]": "Net debt fell to 62.5 million euros."})
    passed = ClaimCheck(sentence="The capital is Lima.", marker_index=1, source_ids=["{^2}"])
    text = "Net debt was 72.5m [^1]. The capital is Lima {^2}."
    out = answer_with_footnotes(text, [DOC, WEB], [failed, passed])
    body, notes = out.split("\n\n")
    assert body == "Net debt was 72.5m [1] (not found in [1]). The capital is Lima [web 2]."
    assert notes.splitlines()[1] == "    not found here: 72.5m; the source says: “Net debt fell to 62.5 million euros.”"
    shown = answer_markdown(text, [DOC, WEB], claims=[failed, passed])
    assert shown.count(":orange-badge[:material/warning: not found in 1]") == 1
    assert shown.index("orange-badge") < shown.index("Lima")
    md = conversation_markdown("Debt", [ChatTurn("user", "Net debt?"), ChatTurn("assistant", text, [DOC, WEB], claims=[failed])])
    assert "Net debt was 72.5m [1] (not found in [1])." in md


def _doc(n: int, page: int) -> Citation:
    return DOC.model_copy(update={"number": str(n), "marker": f"[^{n}]",
                                  "metadata": DOC.metadata.model_copy(update={"page": page, "chunk_id": n})})


def test_export_numbers_each_answer_from_one_in_order_of_first_use():
    first = ChatTurn("assistant", "Debt fell [^12][^10], cash rose [^9].", [_doc(9, 3), _doc(10, 4), _doc(12, 5)])
    second = ChatTurn("assistant", "Staff grew [^25]; see also [^12].", [_doc(12, 5), _doc(25, 7)])
    md = conversation_markdown("Debt", [ChatTurn("user", "Debt?"), first, ChatTurn("user", "Staff?"), second])
    assert "Debt fell [1][2], cash rose [3].\n\n[1] " in md and "Staff grew [1]; see also [2].\n\n[1] " in md
    one, two = md.split("## Staff?")
    assert [line.split(",")[1] for line in one.splitlines() if line.startswith("[")] == [" page 5", " page 4", " page 3"]
    assert [line.split(",")[1] for line in two.splitlines() if line.startswith("[")] == [" page 7", " page 5"]


def test_export_keeps_literal_brackets_apart_from_references_and_unwraps_linked_markers():
    text = "Item [8.1] and a literal [1] differ from [[^1]](https://example.org/y) and [^1]; `[2]` is code."
    md = conversation_markdown("T", [ChatTurn("assistant", text, [DOC])])
    body = md.split("\n\n")[1]
    assert body == ("Item \\[8.1\\] and a literal \\[1\\] differ from [1] (https://example.org/y) and [1]; "
                    "`[2]` is code.")
    assert "](" not in body  # no reference comes out as a link


def test_a_mark_names_the_source_by_its_number_in_the_answer_not_its_id():
    from storage.schema import ClaimCheck

    failed = ClaimCheck(sentence="Debt fell to 9.", marker_index=1, source_ids=["[^10]"],
                        problems=[{"kind": "figure", "text": "9"}], source_says={"[^10]": "Debt fell to 62.5."})
    turn = ChatTurn("assistant", "Cash rose [^12]. Debt fell to 9 [^10].", [_doc(10, 4), _doc(12, 5)], claims=[failed])
    md = conversation_markdown("Debt", [turn])
    assert "Cash rose [1]. Debt fell to 9 [2] (not found in [2])." in md
    assert "[2] " + FILE + ", page 4" in md and "    not found here: 9; the source says: “Debt fell to 62.5.”" in md


def test_model_text_never_makes_a_link_an_image_or_a_link_definition_in_the_export():
    from markdown_it import MarkdownIt

    text = ("Net debt fell [^1](https://evil.example/x). Chart: ![^1](https://evil.example/t.png) "
            "<img src=\"https://evil.example/p.png\">\n\n[^1]: https://evil.example/def\n\nSee [^1] and reference [1].")
    md = conversation_markdown("T", [ChatTurn("assistant", text, [DOC])])
    rendered = MarkdownIt("commonmark").render(md)
    assert "<a " not in rendered and "<img" not in rendered, rendered
    assert "[1]: https://evil.example/def" in rendered  # shown as text, not taken as a definition
    assert f"[1] {FILE}, page 2" in md  # the real citation keeps its footnote


def test_a_literal_bracketed_number_in_the_copy_text_is_not_a_reference():
    out = answer_with_footnotes("Net debt fell [^1], as reference [1] and [web 2] say; [^1](https://e.example/x).", [DOC])
    body, notes = out.split("\n\n")
    assert body == "Net debt fell [1], as reference (1) and (web 2) say; [1] (https://e.example/x)."
    assert notes.startswith(f"[1] {FILE}, page 2")
