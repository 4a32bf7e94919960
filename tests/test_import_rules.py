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
