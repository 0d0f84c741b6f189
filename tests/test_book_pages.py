"""Every page of the built book, opened once per edition and mode, with every browser check that
applies to it run on that one visit (the checks are test_book_browser.py's and
test_book_a11y.py's ``check_*`` functions; their docstrings say what each verifies).

* Every page, instructor edition in light and dark mode, student edition (a student page the same
  as its instructor page is checked once): it loads cleanly and offline, and axe finds no serious
  or critical violation (dark mode: the rules that read colours).
* An explorable's page, instructor edition, light mode: every figure shows its tools beside its
  title; every explorable is described and every slider labelled; Tab reaches every control,
  which shows its focus; moving each slider changes its plotted data and its description, and
  the handle says the new setting; each figure's data downloads as CSV.
* An explorable's page in dark mode: the figures are dark, and light again after the switch.

Each page was opened by eleven tests before (about 140 page loads of the explorables' large
pages): now once per edition and mode. A failure names the page and the check; a check that
raises is reported as that check's failure and the others still run.

The pages are dealt round-robin into a few shards per edition and mode (one test each), so that
the two xdist workers share them.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from browser_support import nudge_static_slider, slider_handles
from test_book_a11y import (
    check_every_control_is_reached_by_tab_and_shows_its_focus,
    check_every_explorable_downloads_its_plotted_data_as_csv,
    check_every_explorable_is_described_and_every_slider_labelled,
    check_no_serious_or_critical_axe_violation,
)
from test_book_browser import (
    SLIDER_STATE_JS,
    _edition_pages,
    _explorable_pages,
    _open,
    check_every_figure_shows_its_tools_beside_its_title,
    check_figures_follow_dark_mode_and_back,
    check_loads_cleanly,
    settle,
    wait_for_dark_figures,
)

pytestmark = pytest.mark.book

# (edition, mode, shards): shards of a minute or two each, so that the two xdist workers end
# together (axe on the API reference's long pages takes 10-20 s; an explorable's page in light
# mode, with its sliders, Tab and downloads, 20-30 s).
VISITS = [("instructor", "light", 6), ("instructor", "dark", 4), ("student", "light", 3)]


def check_moving_each_slider_changes_its_data_and_description(page) -> tuple[list[str], list[str]]:
    """Each slider, moved one notch with the keyboard (see nudge_static_slider), changes the
    plotted data (test_book_browser's check) and its figure's description, and its handle then
    says the new setting (test_book_a11y's). Returns the two checks' failures."""
    data, described = [], []
    sliders = slider_handles(page)
    if not sliders:
        data.append("explorable has no slider handles")
    for i, h, label, said in sliders:
        data_changed, description_changed = nudge_static_slider(page, h, SLIDER_STATE_JS)
        if not data_changed:
            data.append(f"slider {i} ({label}) moved but the plotted data did not change")
        if not description_changed:
            described.append(f"slider {i} ({label}) moved, its figure's description did not change")
        elif h.get_attribute("aria-valuetext") == said and said is not None:
            described.append(f"slider {i} ({label}) moved, it still says {said!r}")
    return data, described


def _raised(exc: Exception) -> str:
    return f"raised {type(exc).__name__}: {(str(exc).splitlines() or [''])[0]}"


def _visit(browser, site: Path, path: Path, edition: str, mode: str, explorable: bool) -> tuple[list[str], str]:
    """Open one page and run its checks: (failures as "check: problem", axe's count line)."""
    failures: list[str] = []
    axe_count = "not run"
    page, errors, outside = _open(browser, site, path, mode)

    def run(name, check, *args):
        """Run one check; one that raises fails with what it raised, and the others still run."""
        try:
            found = check(*args)
        except Exception as exc:
            found = [_raised(exc)]
        failures.extend(f"{name}: {f}" for f in found)

    def axe():
        nonlocal axe_count
        problems, axe_count = check_no_serious_or_critical_axe_violation(page, mode)
        return problems

    try:
        run("settles (MathJax typeset; figures drawn and labelled)", settle, page)
        light_chapter = (edition, mode) == ("instructor", "light") and path.parent.name == "chapters"
        run("loads cleanly and offline", check_loads_cleanly, page, errors, outside, path, mode, light_chapter)
        if explorable and mode == "dark":
            wait_for_dark_figures(page)  # axe's colour rules read the figures' dark colours
        run("axe (WCAG 2.1 AA)", axe)
        if explorable and mode == "dark":
            run("figures follow dark mode and back", check_figures_follow_dark_mode_and_back, page)
        if explorable and (edition, mode) == ("instructor", "light"):
            # The checks that read the page as it opened, then those that press keys.
            run("every figure shows its tools beside its title",
                check_every_figure_shows_its_tools_beside_its_title, page)
            run("every explorable described, every slider labelled",
                check_every_explorable_is_described_and_every_slider_labelled, page)
            run("every control reached by Tab, showing its focus",
                check_every_control_is_reached_by_tab_and_shows_its_focus, page)
            try:  # one move of each slider, two checks
                data, described = check_moving_each_slider_changes_its_data_and_description(page)
            except Exception as exc:
                data = described = [_raised(exc)]
            failures.extend(f"moving each slider changes the plotted data: {f}" for f in data)
            failures.extend(f"moving each slider changes its figure's description: {f}" for f in described)
            run("every explorable downloads its plotted data as CSV",
                check_every_explorable_downloads_its_plotted_data_as_csv, page)
            run("no console error after moving sliders and downloading", lambda: [f"console error {e}" for e in errors])
    finally:
        page.close()
    return failures, axe_count


@pytest.mark.parametrize("edition, mode, shard, shards",
                         [(e, m, k, n) for e, m, n in VISITS for k in range(n)],
                         ids=[f"{e}-{m}-{k + 1}of{n}" for e, m, n in VISITS for k in range(n)])
def test_every_page_passes_every_browser_check(browser, book_html, student_html, edition, mode, shard, shards):
    site = book_html if edition == "instructor" else student_html
    pages = _edition_pages(site, book_html)[shard::shards]
    explorables = set(_explorable_pages(site))
    assert pages, f"shard {shard + 1} of {shards} has no page"
    problems, counts = [], []
    for path in pages:
        name = path.relative_to(site).as_posix()
        start = time.monotonic()
        found, axe_count = _visit(browser, site, path, edition, mode, path in explorables)
        counts.append(f"{name}: {axe_count}; checked in {time.monotonic() - start:.1f} s")
        problems += [f"{name}: {f}" for f in found]
    print(f"\naxe, {edition} edition, {mode} mode:\n  " + "\n  ".join(counts))
    assert not problems, "\n".join(problems)
