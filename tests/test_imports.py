"""The import graph of chat, ingest, retrieval and store: no cycles, and the layers point one way.

Every module is read as source (AST, nothing is imported), including imports inside functions and
``if TYPE_CHECKING:`` blocks — a deferred import is still a dependency. ``from pkg import name``
is an edge to ``pkg.name`` when that is a module, else to ``pkg`` itself. Importing a submodule is
not counted as importing its package's ``__init__`` (Python runs it, but it is not a design edge).

Layers, lowest first: store → retrieval → ingest → chat; inside chat: models → core → app / cli.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("chat", "ingest", "retrieval", "store")

#: (importer prefix, forbidden imported prefixes): a module under the first may import none of the second.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("store", ("chat", "ingest", "retrieval")),
    ("retrieval", ("chat", "ingest")),
    ("ingest", ("chat",)),
    ("chat.models", ("chat.core", "chat.app", "chat.cli")),
    ("chat.core", ("chat.app", "chat.cli")),
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if any(part.startswith(".") or part in ("node_modules", "__pycache__") for part in path.parts):
                continue
            out[_module_name(path)] = path
    return out


MODULES = _modules()


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _resolve(name: str) -> str | None:
    """The module of ours that ``name`` is, or the nearest enclosing one (``a.b.func`` → ``a.b``)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _imports(module: str, path: Path) -> Iterator[str]:
    """Every module of ours that ``module`` imports, anywhere in its source."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _resolve(alias.name)
                if target is not None:
                    yield target
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = module.split(".") if is_package else module.split(".")[:-1]
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join([*base_parts, node.module] if node.module else base_parts)
            else:
                base = node.module or ""
            for alias in node.names:
                full = f"{base}.{alias.name}"
                target = full if full in MODULES else _resolve(base)
                if target is not None:
                    yield target


def _graph() -> dict[str, set[str]]:
    return {m: {t for t in _imports(m, p) if t != m} for m, p in MODULES.items()}


GRAPH = _graph()


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative, so a deep graph cannot hit the recursion limit
        nonlocal counter
        work: list[tuple[str, Iterator[str]]] = []

        def enter(node: str) -> None:
            nonlocal counter
            index[node] = low[node] = counter
            counter += 1
            stack.append(node)
            on_stack.add(node)
            work.append((node, iter(sorted(graph[node]))))

        enter(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    enter(child)
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One concrete cycle for every strongly connected component."""
    return [_cycle_in(graph, set(c)) for c in _components(graph)]


def _cycle_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle through the component's first module (breadth-first, inside the component)."""
    start = min(component)
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [*reversed(path), start]
                if child not in parents:
                    parents[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle found in component {sorted(component)}")  # pragma: no cover


# --------------------------------------------------------------------------- the checker itself


def test_the_walk_sees_every_package_and_deferred_imports() -> None:
    for package in PACKAGES:
        assert any(_within(m, package) for m in MODULES), package
    # chat.models.factory imports its adapters inside the function body
    assert {"chat.models.bedrock", "chat.models.local"} <= GRAPH["chat.models.factory"]
    # ``from chat.core import events`` is an edge to the submodule
    assert "chat.core.events" in GRAPH["chat.core.agent"]


def test_cycle_finder_reports_a_concrete_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert _cycles({k: v - {k} for k, v in graph.items()}) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


# --------------------------------------------------------------------------- the rules


def test_import_graph_is_acyclic() -> None:
    lines = []
    for component in _components(GRAPH):
        cycle = _cycle_in(GRAPH, set(component))
        lines.append("  " + " -> ".join(cycle))
        if len(component) > len(cycle) - 1:
            lines.append("    (all modules of this circle: " + ", ".join(component) + ")")
    assert not lines, "import cycles:\n" + "\n".join(lines)


@pytest.mark.parametrize(("importer", "forbidden"), LAYERS, ids=[layer[0] for layer in LAYERS])
def test_layering(importer: str, forbidden: tuple[str, ...]) -> None:
    bad = sorted(
        (module, target)
        for module, targets in GRAPH.items()
        if _within(module, importer)
        for target in targets
        if any(_within(target, f) for f in forbidden)
    )
    assert not bad, f"{importer} may not import {', '.join(forbidden)}:\n" + "\n".join(f"  {m} -> {t}" for m, t in bad)
