"""Real PDFs written by PyMuPDF for tests: text, tables, scanned pages, images, bad files."""

from __future__ import annotations

from pathlib import Path

import pymupdf


def make_text_pdf(path: Path, pages: list[str], *, title: str | None = None, fontsize: float = 11) -> Path:
    """One page per string; long strings wrap inside the page box."""
    doc = pymupdf.open()
    for text in pages:
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(56, 56, 540, 790), text, fontsize=fontsize)
    if title:
        doc.set_metadata({"title": title})
    doc.save(path)
    doc.close()
    return path


def render_text_png(text: str, *, width: int = 595, height: int = 300, fontsize: float = 16, dpi: int = 150) -> bytes:
    """A PNG picture of some text (what a scanner or a screenshot would produce)."""
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_textbox(pymupdf.Rect(20, 20, width - 20, height - 20), text, fontsize=fontsize)
    png = page.get_pixmap(dpi=dpi).tobytes("png")
    doc.close()
    return png


def make_scanned_pdf(path: Path, page_texts: list[str]) -> Path:
    """Pages that are only images of text: no text layer at all."""
    doc = pymupdf.open()
    for text in page_texts:
        png = render_text_png(text, height=842, fontsize=14)
        page = doc.new_page()
        page.insert_image(page.rect, stream=png)
    doc.save(path)
    doc.close()
    return path


def make_pdf_with_text_image(path: Path, body: str, image_text: str) -> Path:
    """A normal text page that also embeds a picture carrying text (a chart label, a scanned note)."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(56, 56, 540, 300), body, fontsize=11)
    page.insert_image(pymupdf.Rect(56, 320, 540, 560), stream=render_text_png(image_text, fontsize=18))
    doc.save(path)
    doc.close()
    return path


def make_encrypted_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret quarterly numbers")
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user-pw", owner_pw="owner-pw")
    doc.close()
    return path


def make_zero_page_pdf(path: Path) -> Path:
    """A syntactically valid PDF whose page tree is empty (PyMuPDF refuses to save one)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def make_corrupt_pdf(path: Path) -> Path:
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 8 + b"\n%%EOF")
    return path


def make_fake_pdf(path: Path) -> Path:
    """A text file renamed to .pdf."""
    path.write_text("name,amount\nwidget,3\n", encoding="utf-8")
    return path
