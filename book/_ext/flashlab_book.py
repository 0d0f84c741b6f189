"""Sphinx extension for the flashlab book: BokehJS served once, from the book itself.

* Marks the build (``FLASHLAB_BOOK_BUILD=1`` in the environment the notebook kernels inherit)
  so that explorables render as static HTML that relies on the page-level BokehJS.
* Copies BokehJS (core and widgets) out of the installed ``bokeh`` package into
  ``_static/bokeh/`` and adds it to every page: no CDN, works from ``file://``.
* Drops sphinx-thebe's scripts, which Jupyter Book loads even with thebe off (twice, which is a
  console error, and pointing at a CDN); the book has no thebe cells.
* Starts pages in light mode (the theme otherwise logs an error when no mode is stored, as
  happens on ``file://``); ``_static/flashlab-theme.js`` recolours the bokeh figures when the
  reader switches to dark mode, and back.
* Offers each executed chapter as an ``.ipynb`` download beside its MyST source.
* Adds the JupyterHub launch button when ``FLASHLAB_JUPYTERHUB_URL`` names the hub (a course's own
  hub; the Binder button needs nothing: the repository URL is set once, in ``_config.yml``), and a
  Colab button beside Binder's on each chapter: Colab opens ``notebooks/<chapter>.ipynb`` from the
  repository (``tools/notebooks.py`` writes them; their first cell installs flashlab). The
  downloadable notebook starts with the same install cell.
* Loads :mod:`flashlab_student`, the student edition (``FLASHLAB_EDITION=student``).
* Lists in the bibliography only the works the book cites: chapters cite with ``footcite``,
  which sphinxcontrib-bibtex does not count as cited, so the bibliography page's
  ``:filter: cited_in_book`` becomes ``key in {...}`` over every key cited in ``chapters/`` and
  ``book/``, and the page is re-read on every build so the list follows the chapters.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import bokeh

ROOT = Path(__file__).resolve().parents[2]
BOKEH_FILES = ("bokeh", "bokeh-widgets")
JUPYTERHUB_ENV = "FLASHLAB_JUPYTERHUB_URL"

# {cite:p}`a,b`, {footcite}`a`, {footcite:t}`a`: the keys between the backticks.
CITE_ROLE = re.compile(r"\{(?:foot)?cite(?::[a-z]+)*\}`([^`]+)`")
BIBLIOGRAPHY_DOC = "book/bibliography"
CITED_FILTER = ":filter: cited_in_book"


def cited_keys(srcdir) -> set[str]:
    """BibTeX keys (lower case, as the bibliography filter sees them) cited in the book's pages."""
    root = Path(srcdir)
    keys = set()
    for path in sorted(root.glob("chapters/*.md")) + sorted(root.glob("book/*.md")):
        for m in CITE_ROLE.finditer(path.read_text(encoding="utf-8")):
            keys.update(k.strip().lower() for k in m.group(1).split(",") if k.strip())
    return keys


def _cited_only(app, docname, source):
    if docname == BIBLIOGRAPHY_DOC and CITED_FILTER in source[0]:
        listed = ", ".join(repr(k) for k in sorted(cited_keys(app.srcdir)))
        source[0] = source[0].replace(CITED_FILTER, f":filter: key in {{{listed}}}")


def _always_reread_bibliography(app, env, added, changed, removed):
    return [BIBLIOGRAPHY_DOC] if BIBLIOGRAPHY_DOC in env.found_docs else []


def _bokeh_js_dir() -> Path:
    return Path(bokeh.__file__).parent / "server" / "static" / "js"


def _copy_bokeh(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    dest = Path(app.outdir) / "_static" / "bokeh"
    dest.mkdir(parents=True, exist_ok=True)
    for name in BOKEH_FILES:
        shutil.copy2(_bokeh_js_dir() / f"{name}.min.js", dest / f"{name}-{bokeh.__version__}.min.js")


def _executed(app, docname: str) -> Path:
    return Path(app.outdir).parent / "jupyter_execute" / f"{docname}.ipynb"


def _copy_notebooks(app, exception):
    """The executed notebooks, as ``_sources/<chapter>.ipynb``, for the download button.

    MyST-NB writes a chapter served from the execution cache to ``jupyter_execute`` without its
    outputs (it renders them straight from the cache); the outputs are merged in from that cache,
    there too, so ``jupyter_execute`` (which nbval and the pins read) always holds them.
    """
    if exception is not None or app.builder.format != "html":
        return
    import nbformat
    from jupyter_cache import get_cache

    cache = get_cache(app.env.mystnb_config.execution_cache_path or Path(app.outdir).parent / ".jupyter_cache")
    for docname in app.env.found_docs:
        if not _executed(app, docname).exists():
            continue
        nb = nbformat.read(_executed(app, docname), as_version=4)
        _, executed = cache.merge_match_into_notebook(nb)  # KeyError (build fails) if never executed
        nbformat.write(executed, _executed(app, docname))
        dest = Path(app.outdir) / "_sources" / f"{docname}.ipynb"
        dest.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(_notebooks_tool().with_install_cell(executed), dest)


def _notebooks_tool():
    """``tools/notebooks.py`` (the chapters as notebooks for Colab, and their install cell)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("flashlab_notebooks", ROOT / "tools" / "notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COLAB_URL = "https://colab.research.google.com"


def colab_url(repo_url: str, branch: str, docname: str) -> str | None:
    """Colab's address for a chapter's notebook (``notebooks/<stem>.ipynb``) on GitHub, or None
    for a page that is no chapter or a repository Colab cannot open."""
    m = re.fullmatch(r"https://github\.com/([^/]+)/([^/]+?)(?:\.git)?/?", repo_url)
    if m is None or not docname.startswith("chapters/"):
        return None
    return f"{COLAB_URL}/github/{m[1]}/{m[2]}/blob/{branch}/notebooks/{docname.split('/', 1)[1]}.ipynb"


def _colab_button(app, pagename, context):
    repo = app.config.html_theme_options.get("repository_url", "")
    url = colab_url(repo, app.config.html_theme_options.get("repository_branch", "main"), pagename)
    for group in context.get("header_buttons", []):
        if url and group.get("label") == "launch-buttons":
            group["buttons"].append({"type": "link", "text": "Colab", "tooltip": "Launch on Colab",
                                     "icon": "_static/images/logo_colab.png", "url": url})


def _jupyterhub(app, config):
    hub = os.environ.get(JUPYTERHUB_ENV, "")
    if hub:
        config.html_theme_options.setdefault("launch_buttons", {})["jupyterhub_url"] = hub


def _ipynb_download(app, pagename, templatename, context, doctree):
    if _executed(app, pagename).exists():
        context["ipynb_source"] = f"{pagename}.ipynb"


def _page_context(app, pagename, templatename, context, doctree):
    from flashlab.viz.style import series_text_css

    context["default_mode"] = "light"
    # the colours of words that name a series (flashlab.viz.style.text_colour), light and dark
    context["metatags"] = context.get("metatags", "") + f"\n<style>{series_text_css()}</style>"
    # docutils marks a bibliography's entries doc-biblioentry (a DPUB role ARIA 1.2 deprecates)
    # inside role="list", which needs listitem children: screen readers then skip the entries
    if "body" in context:
        context["body"] = context["body"].replace('role="doc-biblioentry"', 'role="listitem"')

    def is_thebe(js) -> bool:
        return "thebe" in f"{getattr(js, 'filename', '')} {getattr(js, 'attributes', {}).get('body', '')}"

    if "script_files" in context:  # drop thebe
        context["script_files"] = [js for js in context["script_files"] if not is_thebe(js)]
    _colab_button(app, pagename, context)


def setup(app):
    # Must precede notebook execution: kernels inherit this process's environment.
    from flashlab.viz.explorable import BOOK_BUILD_ENV

    os.environ[BOOK_BUILD_ENV] = "1"
    for name in BOKEH_FILES:
        app.add_js_file(f"bokeh/{name}-{bokeh.__version__}.min.js")
    app.add_js_file("flashlab-theme.js")
    app.add_js_file("flashlab-a11y.js")
    app.connect("config-inited", _jupyterhub)
    app.connect("html-page-context", _ipynb_download, priority=400)  # before the theme's buttons (501)
    app.connect("html-page-context", _page_context, priority=900)  # after the theme's own
    app.connect("build-finished", _copy_bokeh)
    app.connect("source-read", _cited_only)
    app.connect("env-get-outdated", _always_reread_bibliography)
    app.connect("build-finished", _copy_notebooks, priority=500)
    app.setup_extension("flashlab_student")
    app.setup_extension("flashlab_api")
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
