"""The import rules of docs/ARCHITECTURE.md, read from the source (every import, module- or function-level):
storage/ never imports agent/, ui/, app_pages/ or app; agent/ never imports ui/, app_pages/ or app; and no
cycle between packages (each sub-package is one node, each top-level module of agent/, storage/, ui/ its own)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("agent", "storage", "ui", "app_pages", "app")


def _node(module: str) -> str | None:
    """The package node a module belongs to: `agent.citations` for agent/markers.py,
    `agent.graph` for agent/graph.py, `app` for app.py; None outside the project's packages."""
    parts = module.split(".")
    if parts[0] not in PACKAGES:
        return None
    return ".".join(parts[:2])


def _resolves(module: str) -> bool:
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py").exists() or path.is_dir()


def _imports(path: Path) -> set[str]:
    """Project modules imported anywhere in the file (`from a.b import c` counts a.b.c when it is a module)."""
    found: set[str] = set()
    for n in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(n, ast.Import):
            names = [a.name for a in n.names]
        elif isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
            names = [n.module] + [f"{n.module}.{a.name}" for a in n.names]
        else:
            continue
        found.update(name for name in names if _node(name) and _resolves(name))
    return found


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _edges() -> dict[str, dict[str, set[str]]]:
    """node -> imported node -> the modules that import it (for the failure message)."""
    files = [ROOT / "app.py", *[f for pkg in PACKAGES[:-1] for f in (ROOT / pkg).rglob("*.py")]]
    edges: dict[str, dict[str, set[str]]] = {}
    for path in files:
        module = _module_of(path)
        source = _node(module)
        for target in _imports(path):
            if (node := _node(target)) and node != source:
                edges.setdefault(source, {}).setdefault(node, set()).add(module)
    return edges


def _cycles(edges: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in list(edges):
        if v not in index:
            visit(v)
    return components


@pytest.mark.parametrize("layer, forbidden", [("storage", ("agent", "ui", "app_pages", "app")),
                                              ("agent", ("ui", "app_pages", "app"))])
def test_layer_never_imports_the_layers_above_it(layer, forbidden):
    wrong = sorted(f"{module} imports {target}" for source, targets in _edges().items()
                   if source.split(".")[0] == layer
                   for target, modules in targets.items() if target.split(".")[0] in forbidden
                   for module in modules)
    assert not wrong, "\n".join(wrong)


def test_no_cycle_between_packages():
    edges = _edges()
    cycles = _cycles(edges)
    detail = [f"{a} -> {b} (in {', '.join(sorted(edges[a][b]))})" for cycle in cycles for a in cycle
              for b in cycle if b in edges.get(a, {})]
    assert not cycles, "\n".join(detail)


def test_the_checks_see_a_planted_cycle_and_a_planted_upward_import():
    """The rule checks themselves can fail: a cycle and an upward import built by hand are found."""
    planted = {"agent.a": {"agent.b": {"agent.a.x"}}, "agent.b": {"agent.a": {"agent.b.y"}},
               "storage.c": {"agent.a": {"storage.c.z"}}}
    assert _cycles(planted) == [["agent.a", "agent.b"]]
    assert _node("ui.citations") == "ui.citations" and _node("pymupdf") is None
    assert "storage.documents" in _edges().get("agent.tools", {})  # a real edge is read


# ---------------------------------------------------------------- imports inside functions

IMPORT_HERE = "# import here:"
# Function-level project imports that predate the rule and sit in modules others were rewriting when it came in
# ("path: module"). Each should move to module level, or get an `# import here: <reason>` comment; then leave
# this list. Nothing may be added to it.
UNMARKED_BEFORE_THE_RULE: frozenset[str] = frozenset()  # emptied: every function-level import says why


def _function_imports(source: str, path: str) -> list[tuple[str, bool]]:
    """("path: module", marked) for each project import inside a function of `source`; marked: the
    statement, or the line above it, carries an `# import here: <reason>` comment."""
    lines = source.splitlines()
    found: dict[int, tuple[str, bool]] = {}
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for n in ast.walk(fn):
            if isinstance(n, ast.Import):
                modules = [a.name for a in n.names]
            elif isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
                modules = [n.module]
            else:
                continue
            text = "\n".join(lines[max(n.lineno - 2, 0):n.end_lineno])
            for module in modules:
                if module.split(".")[0] in PACKAGES:
                    found[(n.lineno, module)] = (f"{path}: {module}", IMPORT_HERE in text)
    return list(found.values())


def test_function_level_project_imports_say_why():
    """An import inside a function hides a dependency: it is for breaking a cycle or deferring an optional
    or heavy dependency, and says which (`# import here: <reason>`, on it or the line above)."""
    unmarked = set()
    for pkg in PACKAGES[:-1]:
        for path in (ROOT / pkg).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            unmarked.update(key for key, marked in _function_imports(path.read_text("utf-8"), rel) if not marked)
    new = sorted(unmarked - UNMARKED_BEFORE_THE_RULE)
    assert not new, "function-level imports without `# import here: <reason>` (move them to module level):\n" + "\n".join(new)


def test_the_function_import_check_sees_a_planted_import():
    source = ("import agent.graph\n\n\ndef f():\n    from storage.settings import get_settings\n    import json\n\n\n"
              "def g():\n    # import here: a cycle (agent.tools imports this module)\n    from agent.tools import TOOLS\n"
              "    from ui.resources import get_ingest_jobs  # import here: Streamlit, only in the app\n")
    assert _function_imports(source, "x.py") == [("x.py: storage.settings", False), ("x.py: agent.tools", True),
                                                 ("x.py: ui.resources", True)]
