"""No import circle among Parlour's modules: every import that runs counts, at the top of a
module or inside a function, so the packages stay layered and each loads without the ones
above it. Imports under `if TYPE_CHECKING:` never run, and are left out: they are how a
type names a module that imports this one."""

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGES = ("parlour", "rules", "protocol", "bots", "server", "client")
"""The folders whose modules are checked (their sub-packages with them)."""

Graph = dict[str, set[str]]


def project_modules() -> dict[str, tuple[Path, bool]]:
    """Each module's dotted name, with its file and whether it is a package's `__init__`,
    as pyproject's package-dir lays them out (`parlour.server` is `server/`, ...)."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders: dict[str, str] = setuptools["package-dir"]
    modules: dict[str, tuple[Path, bool]] = {}
    for package in setuptools["packages"]:
        folder = ROOT / folders[package]
        if folder.relative_to(ROOT).parts[0] not in PACKAGES:
            continue
        for path in sorted(folder.glob("*.py")):
            if path.stem == "__init__":
                modules[package] = (path, True)
            else:
                modules[f"{package}.{path.stem}"] = (path, False)
    return modules


def imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> Iterator[str]:
    """The dotted names an import statement in `module` loads: each `import a.b`, and for
    `from pkg import name` the module `pkg.name` where there is one, else `pkg` itself."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        parts = module.split(".")
        keep = len(parts) - node.level + (1 if is_package else 0)
        base = ".".join(parts[:keep] + ([base] if base else []))
    for alias in node.names:
        yield f"{base}.{alias.name}"


def resolve(name: str, known: dict[str, tuple[Path, bool]]) -> str | None:
    """The project module `name` loads: itself, else its longest prefix that is one."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


def imports_run(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement in `node`, in functions too, but those only a type checker
    reads (`if TYPE_CHECKING:`; its `else:` runs)."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
        return
    if isinstance(node, ast.If) and _type_checking(node.test):
        children: list[ast.AST] = list(node.orelse)
    else:
        children = list(ast.iter_child_nodes(node))
    for child in children:
        yield from imports_run(child)


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_graph() -> Graph:
    """Each project module's imports of other project modules, wherever in it they are."""
    known = project_modules()
    graph: Graph = {}
    for module, (path, is_package) in known.items():
        edges = graph.setdefault(module, set())
        for node in imports_run(ast.parse(path.read_text(), str(path))):
            for name in imported(node, module, is_package):
                target = resolve(name, known)
                if target is not None and target != module:
                    edges.add(target)
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """One circle through each group of modules that import one another (Tarjan's
    strongly connected components), as the modules in import order, the first again last."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return [circle_in(graph, group) for group in groups]


def circle_in(graph: Graph, group: set[str]) -> list[str]:
    """A shortest way from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & group):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"no circle in {sorted(group)}")


def test_a_function_level_relative_import_is_an_edge_to_the_module_it_names() -> None:
    tree = ast.parse("def later() -> None:\n    from .b import thing, b2\n    from . import c\n")
    known = {name: (ROOT, name == "p") for name in ("p", "p.a", "p.b", "p.c")}
    loaded = [
        resolve(name, known)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for name in imported(node, "p.a", is_package=False)
    ]
    assert loaded == ["p.b", "p.b", "p.c"]


def test_an_import_only_a_type_checker_reads_is_left_out() -> None:
    tree = ast.parse(
        "import a\nif TYPE_CHECKING:\n    import b\nelse:\n    import c\n"
        "if typing.TYPE_CHECKING:\n    import d\ndef f() -> None:\n    import e\n"
    )
    assert [node.names[0].name for node in imports_run(tree)] == ["a", "c", "e"]


def test_a_circle_is_found_and_named_in_import_order() -> None:
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert cycles(graph) == [["p.a", "p.b", "p.c", "p.a"]]
    assert cycles({"p.a": {"p.b"}, "p.b": set()}) == []


def test_the_graph_maps_the_package_folders_to_their_import_names() -> None:
    graph = import_graph()
    assert "parlour.server.app" in graph["parlour.server.serve"]
    assert "parlour.server.cluster.records" in graph["parlour.server.cluster.node"]
    assert "parlour.server" in graph["parlour.terminal"], "a function-level import counts"


def test_no_module_imports_itself_through_others() -> None:
    found = cycles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)
