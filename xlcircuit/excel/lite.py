"""xlwings Lite's two files (``xlcircuit excel lite``), made so that they work with nothing published.

Lite runs ``main.py`` in Pyodide and installs ``requirements.txt`` from PyPI with micropip, which knows
only published names. So ``main.py`` carries the source of every module the Excel functions import
(the rules core and the functions layer: standard library only, plus xlwings, which Lite provides),
serves it to ``import`` from memory, then imports the functions, which Lite offers under their own
names; ``requirements.txt`` names xlwings only. Once xlcircuit is on PyPI, ``published=True`` gives
the short form: one ``import`` line, and ``xlcircuit==VERSION`` in ``requirements.txt``.

Standard library only.
"""

from __future__ import annotations

import ast
from pathlib import Path

from .. import __version__
from .registry import FUNCTIONS, modules

PACKAGE = "xlcircuit"
_ROOT = Path(__file__).resolve().parent.parent  # the xlcircuit package folder


def _path(module: str) -> tuple[Path, bool]:
    """The source file of ``module`` (``xlcircuit.tdf``) and whether it is a package."""
    parts = module.split(".")[1:]
    folder = _ROOT.joinpath(*parts)
    if (folder / "__init__.py").is_file():
        return folder / "__init__.py", True
    return _ROOT.joinpath(*parts[:-1], parts[-1] + ".py") if parts else _ROOT / "__init__.py", False


def _imports(module: str, source: str, package: bool) -> set[str]:
    """The xlcircuit modules that ``module``'s source imports (relative or absolute), parents included."""
    found: set[str] = set()
    base = module.split(".") if package else module.split(".")[:-1]
    tree = ast.parse(source)
    for node in ast.walk(tree):  # imports for type checkers only are never run: their modules are not carried
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            node.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == PACKAGE}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = ".".join(base[: len(base) - node.level + 1])
                target = f"{anchor}.{node.module}" if node.module else anchor
            elif node.module and node.module.split(".")[0] == PACKAGE:
                target = node.module
            else:
                continue
            found.add(target)
            for alias in node.names:  # ``from .. import tdf``: tdf may be a module
                candidate = f"{target}.{alias.name}"
                if _path(candidate)[0].is_file():
                    found.add(candidate)
    parents = {".".join(name.split(".")[:i]) for name in found for i in range(1, name.count(".") + 1)}
    return found | parents


def embedded_modules() -> dict[str, tuple[bool, str]]:
    """Every module the functions need, from their modules (xlwings' "UDF Modules") through their imports:
    name -> (is a package, source), in import-name order."""
    wanted, seen = [PACKAGE, *modules()], {}
    while wanted:
        name = wanted.pop()
        if name in seen:
            continue
        path, package = _path(name)
        source = path.read_text(encoding="utf-8")
        seen[name] = (package, source)
        wanted += sorted(_imports(name, source, package) - set(seen))
    return dict(sorted(seen.items()))


def requirements(published: bool = False) -> str:
    """requirements.txt: xlwings only (Lite's own package); the short form adds this very xlcircuit."""
    return "xlwings\n" + (f"{PACKAGE}=={__version__}\n" if published else "")


def _imports_of_functions() -> list[str]:
    lines = []
    for module in modules():
        names = ", ".join(f.name for f in FUNCTIONS if f.module == module)
        lines.append(f"from {module} import {names}  # noqa: E402, F401")
    return lines


#: The loader main.py carries: a finder serving the embedded modules; a new main.py replaces an older one's.
_LOADER = '''\
import importlib.abc
import importlib.util
import sys


class _EmbeddedXlcircuit(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the modules of _SOURCES to import, from memory."""

    def find_spec(self, name, path=None, target=None):
        if name in _SOURCES:
            return importlib.util.spec_from_loader(name, self, is_package=_SOURCES[name][0])
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        package, source = _SOURCES[module.__name__]
        if package:
            module.__path__ = []
        filename = "<main.py>/" + module.__name__.replace(".", "/") + ("/__init__.py" if package else ".py")
        exec(compile(source, filename, "exec"), module.__dict__)


def _install():
    """Put this file's modules first, in place of any xlcircuit imported before (an older main.py's)."""
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_EmbeddedXlcircuit"]
    for name in [n for n in sys.modules if n == "xlcircuit" or n.startswith("xlcircuit.")]:
        del sys.modules[name]
    sys.meta_path.insert(0, _EmbeddedXlcircuit())


_install()
'''


def main(published: bool = False) -> str:
    """main.py: the functions, imported (from the embedded source, or from the published package)."""
    header = [
        f"# Fonctions Excel de xlcircuit {__version__} pour xlwings Lite (écrit par « xlcircuit excel lite »).",
    ]
    if published:
        header.append(f"# L'onglet requirements.txt doit contenir la ligne : {PACKAGE}=={__version__}")
        return "\n".join(header + _imports_of_functions()) + "\n"
    header += [
        "# Ce fichier contient tout le code des fonctions (les règles des fédérations et les fonctions",
        "# elles-mêmes, en Python standard) : rien d'autre à installer que xlwings (onglet requirements.txt).",
        "# Ne le modifiez pas ; pour changer de version, remplacez tout son contenu par celui d'une autre version.",
        "",
        f'XLCIRCUIT_VERSION = "{__version__}"',
        "",
        "#: module -> (is a package, its source), as in xlcircuit's source tree.",
        "_SOURCES = {",
    ]
    body = [f"    {name!r}: ({package!r}, {source!r})," for name, (package, source) in embedded_modules().items()]
    return "\n".join(header + body + ["}", "", _LOADER] + _imports_of_functions()) + "\n"
