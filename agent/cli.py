"""Ask one question from the shell, end to end, and print the answer with its citations.

    python -m agent.cli --pdf report.pdf "What was revenue in 2023?"
    python -m agent.cli --pdf a.pdf --pdf b.pdf --page 12 --json "Compare the outlooks"

PDFs are names (or paths) inside the source folder (pdf_files/source, or $PDF_CHAT_HOME/source);
they are processed first if needed. The model and web search come from the environment (see
agent/llm.py); with none configured the answer is extractive. Nothing is saved to history.
Every failure ends in one `error: ...` sentence on stderr and exit code 2 (`--verbose` shows logs).
"""

from __future__ import annotations

import argparse
import logging
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


def format_answer(result: AnswerResult, model_configured: bool = False) -> str:
    if result.mode != "extractive":
        label = "model"
    else:  # a configured model that failed answers extractively too: say which it was
        label = "extractive: the model failed" if model_configured else "extractive: no model configured"
    lines = [f"[{result.route} · {label}]", "", result.message]
    if result.citations:
        lines += ["", "Citations:"] + [f"  {format_citation(c)}" for c in result.citations]
    if failed := [c for c in result.claims if c.problems]:  # the claim check (agent/claims/check.py)
        lines += ["", "Not printed in the sources they cite:"] + [
            f"  {c.sentence} — not found in {', '.join(c.source_ids)}: {'; '.join(p.text for p in c.problems)}" for c in failed]
    if result.error:
        lines += ["", f"Note: {result.error}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent.cli", description="Ask one question about PDFs.")
    parser.add_argument("question")
    parser.add_argument("--pdf", action="append", default=[], help="PDF in the source folder (repeatable)")
    parser.add_argument("--page", type=int, help="1-based page of the first PDF the user is looking at")
    parser.add_argument("--json", action="store_true", help="print the AnswerResult as JSON")
    parser.add_argument("--verbose", action="store_true", help="show log messages (tracebacks of failures)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.CRITICAL, format="%(levelname)s %(name)s: %(message)s")

    # the agent, models and stores take seconds to import: `--help` and argument errors answer before them
    from agent.llm import ModelConfigError  # import here: slow (see above)
    from agent.service import ChatService  # import here: slow
    from storage.documents.catalog import PdfProcessingError  # import here: slow
    from storage.documents.ingest import process_and_index_pdf  # import here: slow

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
        result = service.ask("cli", None, args.question, doc_ids, current_page=current_page)
    except (PdfProcessingError, ModelConfigError, ValueError) as exc:  # ValueError: an empty or too long question
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - the command's boundary: any failure ends in one sentence (traceback with --verbose)
        logging.getLogger(__name__).exception("the question failed")
        print(f"error: the question could not be answered ({type(exc).__name__}); run with --verbose for details", file=sys.stderr)
        return 2
    model_configured = getattr(service, "llm", None) is not None
    print(result.model_dump_json(indent=2) if args.json else format_answer(result, model_configured))
    return 0


if __name__ == "__main__":
    sys.exit(main())
