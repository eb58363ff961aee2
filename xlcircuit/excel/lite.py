"""xlwings Lite's two files (``xlcircuit excel lite``), made so that they work with nothing published.

Lite runs ``main.py`` in Pyodide and installs ``requirements.txt`` with micropip, which knows only what PyPI
publishes (or a wheel's address). So ``main.py`` carries the source of every module the Excel functions and
the two scripts, « Vérifier » and « Remplir » (:mod:`.scripts`), import: the rules, the functions, and the
batch mode's workbook code down to the federations' adapters. Each module's source is written verbatim,
in a raw string (no line longer than the source's own), served to ``import`` from memory; then the
functions and the scripts are imported, and Lite offers them under their own names. ``requirements.txt``
names xlwings and what the scripts need from PyPI, openpyxl and defusedxml (the functions alone need
xlwings only).

Once xlcircuit is on PyPI, ``published=True`` gives the short form: a ``main.py`` of three lines, and
``xlcircuit==VERSION`` in ``requirements.txt``; a federation hosting the wheel writes the wheel's address
there instead.

Standard library only.
"""

from __future__ import annotations

import ast
from pathlib import Path

from .. import __version__
from ..federations import CODES
from .registry import FUNCTIONS, modules

PACKAGE = "xlcircuit"
#: The module of the two scripts, and their functions (Lite's Run menu shows their French names).
SCRIPTS, SCRIPT_NAMES = "xlcircuit.excel.scripts", ("remplir", "verifier")
#: What the scripts need from PyPI besides xlwings (the bounds of the package's own dependencies).
SCRIPT_REQUIREMENTS = ("openpyxl>=3.1", "defusedxml>=0.7")
#: The quotes each module's source is written between: no source of the package holds them.
QUOTES = "'" * 3
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
    """Every module the functions and the scripts need, from their modules (xlwings' "UDF Modules", the scripts,
    the adapters) through their imports: name -> (is a package, source), in import-name order."""
    # The adapters are imported by name when first asked for (``federations.ADAPTERS``): no import names them.
    adapters = [f"{PACKAGE}.federations.{code}" for code in CODES]
    wanted, seen = [PACKAGE, *modules(), SCRIPTS, *adapters], {}
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
    """requirements.txt: xlwings (Lite's own package) and what the scripts need; the short form names this
    very xlcircuit instead, which brings them."""
    if published:
        return f"xlwings\n{PACKAGE}=={__version__}\n"
    return "xlwings\n" + "".join(f"{line}\n" for line in SCRIPT_REQUIREMENTS)


def _imports_of_functions() -> list[str]:
    """The imports of the functions (wrapped under 100 characters), then of the scripts."""
    lines = []
    for module in modules():
        lines.append(f"from {module} import (  # noqa: E402, F401")
        line = "   "
        for name in (f.name for f in FUNCTIONS if f.module == module):
            if len(line) + len(name) + 2 > 100:
                lines.append(line)
                line = "   "
            line += f" {name},"
        lines += [line, ")"]
    lines.append(f"from {SCRIPTS} import {', '.join(SCRIPT_NAMES)}  # noqa: E402, F401")
    return lines


def _source(name: str, package: bool, source: str) -> list[str]:
    """One module's entry: its source verbatim between raw triple quotes, on the lines after its name."""
    if QUOTES in source or "\r" in source or not source.endswith("\n"):
        raise ValueError(f"{name}: its source cannot be written between {QUOTES} (or has no final newline)")
    path = name.replace(".", "/") + ("/__init__.py" if package else ".py")
    return ["", f"# --- {path} " + "-" * max(3, 96 - len(path)),
            f"_SOURCES[{name!r}] = {package!r}, r{QUOTES}", *source.splitlines(), QUOTES]


#: The loader main.py carries: a finder serving the embedded modules; a new main.py replaces an older one's.
_LOADER = """\
import importlib.abc
import importlib.util
import sys


class _EmbeddedXlcircuit(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    \"\"\"Serves the modules of _SOURCES to import, from memory.\"\"\"

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
        exec(compile(source[1:], filename, "exec"), module.__dict__)  # [1:]: the newline after the quotes


def _install():
    \"\"\"Put this file's modules first, in place of any xlcircuit imported before (an older main.py's).\"\"\"
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_EmbeddedXlcircuit"]
    for name in [n for n in sys.modules if n == "xlcircuit" or n.startswith("xlcircuit.")]:
        del sys.modules[name]
    sys.meta_path.insert(0, _EmbeddedXlcircuit())


_install()
"""


def main(published: bool = False) -> str:
    """main.py: the functions and the scripts, imported (from the embedded source, or from the installed
    package: the short form, three lines)."""
    if published:
        return "\n".join([
            f"# xlcircuit {__version__} pour xlwings Lite : les fonctions Excel et les scripts Vérifier et Remplir, "
            "du paquet nommé dans requirements.txt.",
            "from xlcircuit.udfs import *  # noqa: F403",
            f"from {SCRIPTS} import {', '.join(SCRIPT_NAMES)}  # noqa: F401",
        ]) + "\n"
    lines = [
        f"# xlcircuit {__version__} pour xlwings Lite (écrit par « xlcircuit excel lite ») : les fonctions Excel, et",
        "# les scripts « Vérifier » et « Remplir » du menu Exécuter (Run) de xlwings Lite.",
        "# Ce fichier contient tout le code de xlcircuit qu'ils utilisent ; l'onglet requirements.txt nomme le reste",
        f"# (xlwings, {', '.join(r.split('>')[0] for r in SCRIPT_REQUIREMENTS)}). Ne le modifiez pas ; pour changer "
        "de version,",
        "# remplacez tout son contenu par celui d'une autre version.",
        "",
        f'XLCIRCUIT_VERSION = "{__version__}"',
        "",
        "#: module -> (is a package, its source), as in xlcircuit's source tree (each source after a newline).",
        "_SOURCES = {}",
    ]
    for name, (package, source) in embedded_modules().items():
        lines += _source(name, package, source)
    return "\n".join(lines + ["", "", _LOADER] + _imports_of_functions()) + "\n"
