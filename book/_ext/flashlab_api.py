"""The ``{flashlab-api}`` directive: API reference sections for a list of modules, one per line.

Each line names a module; it becomes a section titled with that name holding
``automodule :members:`` (with ``:imported-members:`` for a package, whose public API is what its
``__init__`` imports from its submodules). Adding a layer to the reference is adding its name to
the directive of its layer's page in ``book/api/``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


class FlashlabApi(SphinxDirective):
    has_content = True

    def run(self):
        sections = []
        for name in (line.strip() for line in self.content):
            if not name:
                continue
            module = importlib.import_module(name)
            is_package = Path(module.__file__).name == "__init__.py"
            section = nodes.section(ids=[nodes.make_id(f"api-{name}")], names=[nodes.fully_normalize_name(name)])
            section += nodes.title(text=name)
            # The page is MyST, so the nested content is too; autodoc writes reStructuredText.
            lines = ["```{eval-rst}", f".. automodule:: {name}", "   :members:"]
            lines += ["   :imported-members:"] if is_package else []
            lines += ["```"]
            nested_parse_with_titles(self.state, StringList(lines, source=f"{self.env.docname} ({name})"), section)
            self.state.document.note_implicit_target(section, section)
            sections.append(section)
        return sections


def setup(app):
    app.add_directive("flashlab-api", FlashlabApi)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
