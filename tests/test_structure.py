"""The package's modules import each other one way only: no import cycles under src/jamaica.

Every module under `src/jamaica` is parsed with `ast` (never imported) and every import statement
in it counts — at the top, inside functions, under `if TYPE_CHECKING:` — since a deferred or
type-only import is still a dependency running the wrong way, only hidden from Python's loader.
Relative imports are resolved against the importing module's package. Only imports of modules of
this package are kept (the standard library and third-party packages cannot close a cycle).

How an import names a module:

- `import a.b.c` is an edge to the longest prefix that is a module of the package (`a.b.c`).
- `from a.b import x` is an edge to `a.b.x` when that is a module (`from . import seating` inside
  `jamaica.web` is `jamaica.web.seating`), otherwise to `a.b` itself: the name is taken from the
  module `a.b`, or — for a package — from its `__init__` (`from ..rules import Config` is
  `jamaica.rules`; `from .. import rules` is the package `jamaica.rules` too, i.e. its
  `__init__`).

Package `__init__` modules are modules like any other, named by the package (`jamaica.rules`):
an `__init__` depends on what it imports (usually the submodules it re-exports), and a module
depends on a package's `__init__` only when it imports from the package itself, as above. Merely
sitting inside a package, or importing one of its submodules by its full name
(`from ..rules.state import State`), is not counted as depending on the package's `__init__`,
although Python runs that `__init__` first: counted, it would make every package that re-exports
its submodules (`rules/__init__.py` re-exports `rules.state`) one cycle with all of them, a
pattern Python loads without trouble as long as no submodule imports the `__init__` back —
which is exactly the edge counted here.

A cycle is a strongly connected component of more than one module; the test fails listing each,
with the import statements (file:line) that make it up.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "jamaica"

Edge = tuple[str, str, str]  # (importer, imported, "path:line")


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of `package` under `root` (a `src` directory) by its dotted name."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _base(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute module named by `from <level dots><name> import ...` inside `module`."""
    if level == 0:
        return name or ""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]  # a plain module's package
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join([*parts, *([name] if name else [])])


def _longest_known(name: str, modules: dict[str, Path]) -> str | None:
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        candidate = ".".join(parts[:n])
        if candidate in modules:
            return candidate
    return None


def import_edges(root: Path, package: str) -> list[Edge]:
    modules = module_names(root, package)
    edges: list[Edge] = []
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        where = path.relative_to(root.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [_longest_known(alias.name, modules) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _base(module, is_package, node.level, node.module)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.append(full if full in modules else _longest_known(base, modules))
            for target in targets:
                if target is not None and target != module:
                    edges.append((module, target, f"{where}:{node.lineno}"))
    return edges


def strongly_connected(nodes: Iterable[str], edges: Iterable[Edge]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted; only those of more
    than one module."""
    graph: dict[str, set[str]] = {n: set() for n in nodes}
    for a, b, _ in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
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
                    out.append(sorted(component))
    return sorted(out)


def cycles(root: Path, package: str) -> list[tuple[list[str], list[Edge]]]:
    """Each import cycle: its modules, and the import statements between them."""
    edges = import_edges(root, package)
    found = []
    for component in strongly_connected(module_names(root, package), edges):
        members = set(component)
        inside = sorted({e for e in edges if e[0] in members and e[1] in members})
        found.append((component, inside))
    return found


def describe(found: list[tuple[list[str], list[Edge]]]) -> str:
    lines = []
    for component, inside in found:
        lines.append("cycle: " + ", ".join(component))
        lines += [f"    {a} -> {b}  ({where})" for a, b, where in inside]
    return "\n".join(lines)


def test_no_import_cycles() -> None:
    found = cycles(SRC, PACKAGE)
    assert not found, "import cycles under src/jamaica:\n" + describe(found)


def test_the_check_finds_every_kind_of_import(tmp_path: Path) -> None:
    """The checker itself: a cycle through a deferred import, one through a TYPE_CHECKING import
    and a package's `__init__`, and modules that only import a package's submodules (no cycle)."""
    files = {
        "pkg/__init__.py": "from .core import thing\n",
        "pkg/core.py": "from . import helpers\n",
        "pkg/helpers.py": "def f():\n    from .core import thing\n",  # deferred: still counts
        "pkg/sub/__init__.py": "",
        "pkg/sub/a.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .. import core\n"
        ),
        "pkg/sub/b.py": "import pkg.sub.a\nfrom ..core import thing\n",
        "pkg/sub/c.py": "from .. import thing\n",  # the package's __init__
        "pkg/other.py": "from .sub.c import x\nfrom .sub import b\n",
        "pkg/sub/d.py": "from ..other import y\n",  # d -> other -> sub.c -> pkg -> core ...
    }
    for name, text in files.items():
        path = tmp_path / "src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    found = cycles(tmp_path / "src", "pkg")
    assert [c for c, _ in found] == [["pkg.core", "pkg.helpers"]]
    (tmp_path / "src/pkg/core.py").write_text("from . import helpers\nfrom .sub import d\n")
    found = cycles(tmp_path / "src", "pkg")
    assert [c for c, _ in found] == [
        # other -> sub.b -> sub.a -> core (through the TYPE_CHECKING import) closes it too
        ["pkg", "pkg.core", "pkg.helpers", "pkg.other", "pkg.sub.a", "pkg.sub.b", "pkg.sub.c",
         "pkg.sub.d"]
    ]  # fmt: skip
    assert ("pkg.sub.c", "pkg", "src/pkg/sub/c.py:1") in found[0][1]
    assert ("pkg.helpers", "pkg.core", "src/pkg/helpers.py:2") in found[0][1]
