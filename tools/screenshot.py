"""Screenshot a page of the built book in headless chromium, to look at what readers see.

    python tools/screenshot.py chapters/01-floating-gate-cells.html out.png [--full] [--explorable N]

``--explorable N`` scrolls to the N-th explorable (0-based) and captures the viewport there.
"""

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("page", help="path under _build/html")
    ap.add_argument("out", type=Path)
    ap.add_argument("--full", action="store_true", help="capture the whole page")
    ap.add_argument("--explorable", type=int, default=None)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args()
    url = (ROOT / "_build" / "html" / a.page).resolve().as_uri()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=a.chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        page.wait_for_timeout(1500)
        if a.explorable is not None:
            page.locator(".flashlab-explorable").nth(a.explorable).evaluate("e => e.scrollIntoView()")
            page.wait_for_timeout(500)
        page.screenshot(path=str(a.out), full_page=a.full)
        browser.close()


if __name__ == "__main__":
    main()
