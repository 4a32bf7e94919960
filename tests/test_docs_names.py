"""docs/ARCHITECTURE.md and README.md name only what exists: every project path they name (agent/…, storage/…,
ui/…, bench/…) is a file or folder, a path followed by a name (`agent/service.ChatService`,
`storage/documents/page_tables.py: table_units`) names something that module defines, and every function called
in code spans (`load_manifest(doc_id)`) is defined somewhere in the project."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("docs/ARCHITECTURE.md", "README.md")
CODE_DIRS = ("agent", "storage", "ui", "app_pages", "bench", "tests")
_PATH = re.compile(r"(?<![\w./-])((?:agent|storage|ui|app_pages|bench|tests|scripts|deploy|data|docs)(?:/[\w-]+)+(?![\w*<-])/?)"
                   r"(\.(?:py|md|sh|json|jsonl|cfg|txt|toml|http|yaml|onnx)\b)?(?:\.([A-Za-z_]\w*)|(?<=\.py):\s*`?([A-Za-z_]\w*))?")
_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_BUILTINS = {"print", "len", "dict", "list", "str", "int", "float", "tuple", "set", "max", "min"}


def _defined_in(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif isinstance(n, ast.Assign):
            names.update(t.id for t in n.targets if isinstance(t, ast.Name))
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            names.add(n.target.id)
        elif isinstance(n, ast.ImportFrom):
            names.update(a.asname or a.name for a in n.names)
    return names


@cache
def _module_names(path: Path) -> frozenset[str]:
    return frozenset(_defined_in(ast.parse(path.read_text("utf-8"))))


@cache
def _project_names() -> frozenset[str]:
    files = [*ROOT.glob("*.py"), *[f for d in CODE_DIRS for f in (ROOT / d).rglob("*.py")]]
    return frozenset(name for f in files for name in _module_names(f))


def problems(text: str) -> list[str]:
    """What a doc names that does not exist."""
    found = []
    for m in _PATH.finditer(text):
        path, suffix, name = m.group(1).rstrip("/"), m.group(2) or "", m.group(3) or m.group(4)
        target = ROOT / (path + suffix)
        module = target if suffix == ".py" else ROOT / (path + ".py")
        if not target.exists() and not module.exists():
            found.append(f"no such path: {path + suffix}")
        elif name and module.exists() and name not in _module_names(module):
            found.append(f"{module.relative_to(ROOT)} defines no {name}")
    for span in _CODE_SPAN.findall(text):
        found += [f"no such function: {name}" for name in _CALL.findall(span)
                  if name not in _BUILTINS and name not in _project_names()]
    return found


@pytest.mark.parametrize("doc", DOCS)
def test_docs_name_only_what_exists(doc):
    assert problems((ROOT / doc).read_text("utf-8")) == []


def test_a_removed_name_or_path_is_reported():
    text = ("`load_pdf_for_retrieval(doc_id)` lives in `storage/retrieval/hybrid.py: load_pdf_for_retrieval`; "
            "see agent/line_items.py and `agent/service.ChatService`.")
    assert problems(text) == ["storage/retrieval/hybrid.py defines no load_pdf_for_retrieval",
                              "no such path: agent/line_items.py",
                              "no such function: load_pdf_for_retrieval"]
