"""The live dashboards in a real JupyterLab (loopback only), driven by Debian's chromium.

Each chapter is converted to a notebook with jupytext holding the cells its live dashboards need
(:func:`live_cells`), run top to bottom in JupyterLab, and every ipywidgets slider of its live
dashboards is moved with the keyboard: the bokeh figure (through jupyter_bokeh) must show new data
each time, computed by the engine in the kernel. Every slider handle is named and says its
setting, and each dashboard's description (its live region) follows. The chapter's other cells
(its tables, its static explorables, its exercises) are left out: the book build and nbval run
them; here they would only cost time.
"""

from __future__ import annotations

import ast
import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import jupytext
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser_support import DATA_FINGERPRINT_JS, nudge_slider

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TOKEN = "flashlab-test"
LIVE_CHAPTERS = sorted(p for p in (ROOT / "chapters").glob("*.md") if ".live()" in p.read_text())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _binds_and_reads(node: ast.AST) -> tuple[set[str], set[str]]:
    bound, read = set(), set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            (bound if isinstance(n.ctx, (ast.Store, ast.Del)) else read).add(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in n.names}
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(n.name)
    return bound, read


def _names(source: str) -> tuple[set[str], set[str]] | None:
    """The names a cell binds (assignments, imports, definitions) and the names it reads before
    binding them itself, statement by statement, or None when it is not plain Python (a magic or
    shell line). An assignment reads its value before binding (``cfg = replace(cfg)`` needs an
    earlier ``cfg``); any other statement binds first (a loop's variable, a comprehension's)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    bound, free = set(), set()
    for stmt in tree.body:
        binds, reads = _binds_and_reads(stmt)
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
            value_binds, value_reads = _binds_and_reads(stmt.value)  # a comprehension binds its variable
            reads = (value_reads - value_binds) | (reads if isinstance(stmt, ast.AugAssign) else set())
        else:
            reads = reads - binds
        free |= reads - bound
        bound |= binds
    return bound, free


def live_cells(cells: list) -> list:
    """The code cells the live dashboards need, in order: each live cell (one calling
    ``.live()``), every earlier cell binding a name a kept cell reads (transitively), the
    build's setup cells (tagged ``remove-cell``) and any cell that is not plain Python. The
    chapter's other computations (its printed tables, its static explorables, its exercises)
    are left out: the book build and nbval run them, and here they cost most of a chapter's
    time (chapter 91's validation tables, a minute and a half) without reaching a dashboard."""
    code = [c for c in cells if c.cell_type == "code" and ".static()" not in c.source]
    keep, needed = [], set()
    for c in reversed(code):
        names = _names(c.source)
        if ".live()" in c.source or names is None or "remove-cell" in c.metadata.get("tags", ()) \
                or names[0] & needed:
            keep.append(c)
            needed |= names[1] if names else set()
    return keep[::-1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 serving the chapters as .ipynb notebooks."""
    root = tmp_path_factory.mktemp("lab")
    for chapter in LIVE_CHAPTERS:
        nb = jupytext.read(chapter)
        nb.cells = live_cells(nb.cells)
        jupytext.write(nb, root / f"{chapter.stem}.ipynb")
    # Render every cell (JupyterLab 4 otherwise renders only those near the viewport).
    settings = root / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    port = _free_port()
    log = open(root / "lab.log", "w")
    proc = subprocess.Popen(
        [str(BIN / "jupyter"), "lab", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={root}",
         "--LabApp.extension_manager=readonly", f"--LabApp.user_settings_dir={root / 'settings'}",
         f"--LabApp.workspaces_dir={root / 'workspaces'}", "--LabApp.expose_app_in_browser=True"],
        stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy(),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={TOKEN}", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not start: {(root / 'lab.log').read_text()[-2000:]}")
                time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def _run_all(page) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    # Wait until no cell is queued or running ("[*]") and a widget slider exists, or a cell failed.
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-OutputArea-output')].some(e => e.innerText.includes('Traceback'))
                 || (document.querySelectorAll('.widget-slider').length > 0 &&
                     ![...document.querySelectorAll('.jp-InputPrompt')].some(e => e.textContent.includes('*')))""",
        timeout=180_000, polling=200,
    )


def _wait_for_kernel(page) -> None:
    """The kernel starts, possibly after a "Select Kernel" dialog (accept the notebook's python3)."""
    for _ in range(600):
        if page.locator(".jp-Dialog").count():
            page.locator(".jp-Dialog button.jp-mod-accept").click()
        elif any("Idle" in t for t in page.locator(".jp-StatusBar-Widget").all_inner_texts()):
            return
        page.wait_for_timeout(200)
    pytest.fail("the notebook's kernel did not become idle")


# Watches the kernel's requests from this page (JupyterLab exposes its application as
# window.jupyterapp, --LabApp.expose_app_in_browser): a request is answered when the kernel
# reports idle with it as parent, i.e. when it has run whatever the request started (a widget's
# new value: the dashboard's recompute, whose figure update the kernel sent before). Each key
# pressed (seen first, in the capture phase) marks how many requests had been sent before it.
KERNEL_WATCH_JS = """
() => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  window.__pending = new Set();
  window.__sent = 0;
  window.__sentBeforeKey = 0;
  window.addEventListener('keydown', () => { window.__sentBeforeKey = window.__sent; }, true);
  kernel.anyMessage.connect((_, args) => {
    const msg = args.msg;
    if (args.direction === 'send' && msg.channel === 'shell') { window.__pending.add(msg.header.msg_id); window.__sent++; }
    else if (args.direction === 'recv' && msg.header.msg_type === 'status' && msg.content.execution_state === 'idle')
      window.__pending.delete(msg.parent_header.msg_id);
  });
}
"""
# The plotted data differ from `before`, or the last key's requests are all answered.
SETTLED_JS = f"""
(before) => ({DATA_FINGERPRINT_JS})() !== before
            || (window.__sent > window.__sentBeforeKey && window.__pending.size === 0)
"""


def _changes_data(page, before: str) -> bool:
    """Whether the notch just pressed changes the plotted data: True as soon as the data differ;
    False once the kernel has answered every request since the last key (its recompute is done)
    and the figure still shows the same data 2 s later (the update reaches BokehJS through
    ipywidgets' message queue, in a few ms), or after 60 s without an answer. A notch that
    rightly changes nothing cost the whole 20 s limit before."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(SETTLED_JS, arg=before, timeout=60_000, polling=100)
        page.wait_for_function(f"(before) => ({DATA_FINGERPRINT_JS})() !== before", arg=before,
                               timeout=2_000, polling=100)
    except PlaywrightTimeout:
        return False
    return True


def _move_every_slider(page) -> list[int]:
    """Move each widget slider (see nudge_slider); return the indices whose moves changed no
    plotted data."""
    page.evaluate(KERNEL_WATCH_JS)
    handles = page.locator(".widget-slider .noUi-handle")
    return [i for i in range(handles.count()) if not nudge_slider(page, handles.nth(i), _changes_data)]


@pytest.mark.parametrize("chapter", [c.stem for c in LIVE_CHAPTERS])
def test_live_dashboards_recompute_on_every_slider(chapter, lab, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        # A workspace of its own, reset: no tabs left over from another chapter.
        page.goto(f"{lab}/lab/workspaces/{chapter}/tree/{chapter}.ipynb?token={TOKEN}&reset")
        page.wait_for_selector(".jp-Notebook", timeout=60_000)
        _wait_for_kernel(page)
        _run_all(page)
        outputs = page.locator(".jp-OutputArea").all_inner_texts()
        failed = [t for t in outputs if "Traceback" in t]
        assert not failed, f"{chapter}: a cell raised in JupyterLab:\n{failed[0][-3000:]}"
        assert page.locator("text=Click to show javascript error").count() == 0, f"{chapter}: a widget failed"
        handles = page.locator(".widget-slider .noUi-handle")
        assert handles.count() > 0
        # The dashboards' script names the handles once the figure is ready (a 1 s sleep before).
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function("() => [...document.querySelectorAll('.widget-slider .noUi-handle')].every("
                                   "h => h.getAttribute('aria-label') && h.getAttribute('aria-valuetext'))",
                                   timeout=10_000, polling=100)
        unnamed = [i for i in range(handles.count()) if not handles.nth(i).get_attribute("aria-label")
                   or not handles.nth(i).get_attribute("aria-valuetext")]
        assert not unnamed, f"{chapter}: live sliders {unnamed} have no accessible name or value text"
        described = page.locator(".widget-vbox [role=status][aria-live=polite]").all_inner_texts()
        assert described and all(described), f"{chapter}: a live dashboard has no description"
        unchanged = _move_every_slider(page)
        assert page.locator(".widget-vbox [role=status][aria-live=polite]").all_inner_texts() != described, \
            f"{chapter}: moving the sliders did not change the dashboards' descriptions"
        assert not unchanged, f"{chapter}: sliders {unchanged} moved but the figure's data did not change"
    finally:
        page.close()
