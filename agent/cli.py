"""Ask one question from the shell, end to end, and print the answer with its citations.

    python -m agent.cli --pdf report.pdf "What was revenue in 2023?"
    python -m agent.cli --pdf a.pdf --pdf b.pdf --page 12 --json "Compare the outlooks"

PDFs are names (or paths) inside the source folder (pdf_files/source, or $PDF_CHAT_HOME/source);
they are processed first if needed. The model and web search come from the environment (see
agent/llm.py); with none configured the answer is extractive. Nothing is saved to history.
"""

from __future__ import annotations

import argparse
import sys

from storage.schema import AnswerResult, Citation, page_index


def format_citation(c: Citation) -> str:
    m = c.metadata
    if c.kind == "web":
        where = f"{c.documentTitle} — {m.url}"
    elif c.kind == "knowledge":
        where = f"knowledge item {m.q_id}: {c.documentTitle}"
    else:
        where = f"{m.file or c.documentTitle}, page {m.page}" + (f", chunk {m.chunk_id}" if m.chunk_id is not None else "")
    snippet = " ".join(c.snippet.split())
    return f"{c.marker} {where}\n      “{snippet[:200]}{'…' if len(snippet) > 200 else ''}”"


def format_answer(result: AnswerResult) -> str:
    label = "extractive: no model configured" if result.mode == "extractive" else "model"
    lines = [f"[{result.route} · {label}]", "", result.message]
    if result.citations:
        lines += ["", "Citations:"] + [f"  {format_citation(c)}" for c in result.citations]
    if result.error:
        lines += ["", f"Note: {result.error}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent.cli", description="Ask one question about PDFs.")
    parser.add_argument("question")
    parser.add_argument("--pdf", action="append", default=[], help="PDF in the source folder (repeatable)")
    parser.add_argument("--page", type=int, help="1-based page of the first PDF the user is looking at")
    parser.add_argument("--json", action="store_true", help="print the AnswerResult as JSON")
    args = parser.parse_args(argv)

    from agent.llm import ModelConfigError
    from agent.service import ChatService
    from storage.pdf_processing import PdfProcessingError, process_and_index_pdf

    doc_ids, current_page = [], None
    try:
        for name in args.pdf:
            pdf = process_and_index_pdf(name, progress=lambda stage, done, total: print(f"  {stage} {done}/{total}", file=sys.stderr))
            doc_ids.append(pdf.doc_id)
            if args.page is not None and current_page is None:
                if not 1 <= args.page <= pdf.page_count:
                    parser.error(f"--page must be between 1 and {pdf.page_count} for {pdf.source_file}")
                current_page = {"doc_id": pdf.doc_id, "source_file": pdf.source_file, "page_number": page_index(args.page)}
        service = ChatService(history=None)
    except (PdfProcessingError, ModelConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result = service.ask("cli", None, args.question, doc_ids, current_page=current_page)
    print(result.model_dump_json(indent=2) if args.json else format_answer(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
