"""The house rules, read from the sources: imports point one way, and the numba cache key covers
every module numba compiles.

One top-level package per layer, lowest first (docs/internals.md): the core (`engine`); the
evaluation (`eval`) and perft (`perft`) beside it, each on the core only; the search (`search`) on
core and evaluation; the checkers core (`checkers`) on nothing of the chess ones; the front ends
(`jitfish`) on top. tools/ and tests/ may use everything.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.cachedir import ROOT, _imports, compiled_sources, project_modules

ALLOWED = {                         # package -> the packages its modules may import
    "engine": {"engine"},
    "eval": {"engine", "eval"},
    "perft": {"engine", "perft"},
    "search": {"engine", "eval", "search"},
    "checkers": {"checkers"},
    "jitfish": {"engine", "eval", "perft", "search", "checkers", "jitfish"},
}
KERNEL_DECORATORS = {"kernel", "threaded_kernel", "inlined_kernel", "njit", "jit", "intrinsic"}


def layer_of(module: str) -> str | None:
    """The layer of a project module: its top-level package (None for anything else)."""
    top = module.split(".")[0]
    return top if top in ALLOWED else None


def imports_of(path: Path) -> list[tuple[int, str, bool]]:
    """(line, imported module, at module level) for every absolute import in a source file.
    `from a import b` yields a.b when that is a module, else a."""
    modules = project_modules()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, id(node) in top_level) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                found.append((node.lineno, name if name in modules else node.module, id(node) in top_level))
    return found


SOURCES = sorted(project_modules().items())


@pytest.mark.parametrize("module, path", SOURCES, ids=[name for name, _ in SOURCES])
def test_imports_point_down_the_layers(module, path):
    layer = layer_of(module)
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {target} ({layer_of(target)})"
             for line, target, _ in imports_of(path)
             if layer_of(target) is not None and layer_of(target) not in ALLOWED[layer]]
    assert not wrong, f"a {layer} module imports from a higher layer:\n" + "\n".join(wrong)


@pytest.mark.parametrize("module, path", [(m, p) for m, p in SOURCES if layer_of(m) == "engine"],
                         ids=[m for m, _ in SOURCES if layer_of(m) == "engine"])
def test_the_core_starts_without_python_chess(module, path):
    """python-chess is for the edges; the core may convert to it only inside a function."""
    eager = [line for line, target, top in imports_of(path) if top and target.split(".")[0] == "chess"]
    assert not eager, f"{module} imports python-chess at module level (lines {eager})"


def test_layer_rule_catches_an_upward_import(tmp_path):
    """The checker itself: a core module importing the search is reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("from search.driver import Searcher\nimport jitfish.uci\n")
    targets = [target for _, target, _ in imports_of(bad)]
    assert [layer_of(t) for t in targets] == ["search", "jitfish"]
    assert not {layer_of(t) for t in targets} <= ALLOWED["engine"]


def _is_kernel_module(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                if name in KERNEL_DECORATORS:
                    return True
        if isinstance(node, ast.With):
            for item in node.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "objmode":
                    return True
    return False


def test_numba_cache_key_covers_every_kernel_module_and_its_imports():
    """Found independently of engine/cachedir.py (with ast, not its regular expressions): every
    module that defines a kernel, and every project module such a module imports, is hashed."""
    modules = dict(SOURCES)
    kernels = {name for name, path in SOURCES if _is_kernel_module(ast.parse(path.read_text(encoding="utf-8")))}
    assert {"engine.position", "engine.movegen", "eval.evaluate", "search.search", "perft.perft",
            "checkers.position", "checkers.movegen", "checkers.perft"} <= kernels
    needed, pending = set(), list(kernels)
    while pending:
        name = pending.pop()
        if name in needed:
            continue
        needed.add(name)
        pending += [t for _, t, _ in imports_of(modules[name]) if t in modules and t not in needed]
    keyed = set(compiled_sources())
    missing = sorted(str(modules[name].relative_to(ROOT)) for name in needed if modules[name] not in keyed)
    assert not missing, f"the numba cache key misses {missing}"


def test_numba_cache_key_reads_each_import_line():
    """An import without parentheses ends with its line: it must not swallow the next import."""
    text = ("from engine.bits import ONE\nfrom engine.magics import ROOK_MAGICS\n"
            "from engine.move import (\n    encode,\n)\n")
    assert _imports(text, project_modules()) == {"engine.bits", "engine.magics", "engine.move"}


def test_numba_cache_key_leaves_out_the_front_ends_and_the_tuned_weights():
    """Editing the protocol, the command line or the tuned weights must not recompile anything."""
    keyed = {path.relative_to(ROOT).as_posix() for path in compiled_sources()}
    assert not [path for path in keyed if path.startswith("jitfish/")]
    assert "search/driver.py" not in keyed
    assert all(path.endswith(".py") for path in keyed)          # eval/weights.json is data


def test_the_core_carries_the_polyglot_numbers_of_python_chess():
    """engine/polyglot_random.py is a copy of the Polyglot table: the same 781 numbers."""
    import chess.polyglot

    from engine.polyglot_random import POLYGLOT_RANDOM

    assert list(POLYGLOT_RANDOM) == list(chess.polyglot.POLYGLOT_RANDOM_ARRAY)


def test_cache_pruning_keeps_other_folders_and_recent_versions(tmp_path, monkeypatch):
    """A new cache version prunes only old key-named folders (beyond KEEP_OTHER_VERSIONS, the
    oldest first); other folders under ~/.cache/jitfish (data, nets) are never touched."""
    import os

    from engine import cachedir
    base = tmp_path / "jitfish"
    keys = [f"{i:016x}" for i in range(cachedir.KEEP_OTHER_VERSIONS + 3)]
    for age, name in enumerate(["nnue-data"] + keys):     # the data folder is the oldest
        (base / name).mkdir(parents=True)
        os.utime(base / name, (1000 + age, 1000 + age))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    cachedir.configure()
    left = {d.name for d in base.iterdir()}
    assert os.environ["NUMBA_CACHE_DIR"] == str(base / cachedir.cache_key())
    assert "nnue-data" in left and cachedir.cache_key() in left
    assert left - {"nnue-data", cachedir.cache_key()} == set(keys[-cachedir.KEEP_OTHER_VERSIONS:])
