"""The rings of the code (README « For developers »): each imports inward only, and a test says so.

rules (the pure core, standard library only) < xlsx (the workbook engine) < workbook (the table framework)
< federations (one adapter each) < app (the use cases) < excel (the only importer of xlwings) < cli, gui.
Imports a type checker alone reads (under ``if TYPE_CHECKING:``) are not run, so they do not count.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "xlcircuit"
RINGS = ["rules", "xlsx", "workbook", "federations", "app", "excel", "cli", "gui"]
#: The modules at the package's top: its version and the name handed-out workbooks import the functions by.
OUTSIDE = {"xlcircuit", "xlcircuit.__main__", "xlcircuit.udfs"}


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def ring(module: str) -> int | None:
    parts = module.split(".")
    if module in OUTSIDE or len(parts) < 2:
        return None
    return RINGS.index(parts[1])


def imports(module: str, path: Path) -> list[tuple[str, int]]:
    """(absolute module imported, line) of every import the module runs."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            node.body = []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, node.lineno))
            found += [(f"{target}.{alias.name}", node.lineno) for alias in node.names
                      if f"{target}.{alias.name}" in modules()]
    return found


def test_every_module_is_in_a_ring():
    assert {name.split(".")[1] for name in modules() if name not in OUTSIDE} == set(RINGS)


@pytest.mark.parametrize("module", sorted(modules()))
def test_imports_point_inward_only(module):
    own = ring(module)
    if own is None:
        return
    outward = [f"{target} (line {line})" for target, line in imports(module, modules()[module])
               if target.startswith("xlcircuit.") and (other := ring(target)) is not None and other > own]
    assert not outward, f"{module} (ring {RINGS[own]}) imports outward: {outward}"


@pytest.mark.parametrize("module", sorted(m for m in modules() if m.startswith("xlcircuit.rules")))
def test_the_rules_use_the_standard_library_only(module):
    foreign = [target for target, _ in imports(module, modules()[module])
               if not target.startswith("xlcircuit.") and target.split(".")[0] not in sys.stdlib_module_names]
    assert not foreign, f"{module} imports {foreign}"


@pytest.mark.parametrize("module", sorted(modules()))
def test_only_excel_imports_xlwings(module):
    uses = [target for target, _ in imports(module, modules()[module]) if target.split(".")[0] == "xlwings"]
    assert not uses or module.startswith("xlcircuit.excel."), f"{module} imports xlwings"
