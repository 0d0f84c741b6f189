"""The book's palette under simulated colour-vision deficiencies.

Deuteranopia and protanopia (about 6% and 2% of men see so, or nearly) fold red and green
together. Each colour is simulated at full severity with Machado et al.'s (2009) model (as
``colorspacious`` implements it) and compared in CAM02-UCS, where a distance of about 1 is just
noticeable: any two palette colours, so the series of any one figure, must stay
``MIN_CVD_DISTANCE`` apart in every vision.
"""

import itertools

import numpy as np
import pytest

colorspacious = pytest.importorskip("colorspacious")

from flashlab.viz.style import MIN_CVD_DISTANCE, PALETTE  # noqa: E402

VISIONS = {
    "normal": "sRGB1",
    "deuteranopia": {"name": "sRGB1+CVD", "cvd_type": "deuteranomaly", "severity": 100},
    "protanopia": {"name": "sRGB1+CVD", "cvd_type": "protanomaly", "severity": 100},
}


def _rgb(hex_colour: str) -> np.ndarray:
    h = hex_colour.lstrip("#")
    return np.array([int(h[i:i + 2], 16) for i in (0, 2, 4)]) / 255.0


def too_close(palette, minimum: float) -> list[str]:
    """Every pair of ``palette`` closer than ``minimum`` (CAM02-UCS) in some vision."""
    out = []
    for vision, space in VISIONS.items():
        seen = [colorspacious.cspace_convert(_rgb(c), space, "CAM02-UCS") for c in palette]
        for (i, a), (j, b) in itertools.combinations(enumerate(seen), 2):
            d = float(np.linalg.norm(a - b))
            if d < minimum:
                out.append(f"{vision}: {palette[i]} (#{i}) and {palette[j]} (#{j}) only {d:.1f} apart")
    return out


def test_palette_stays_apart_under_deuteranopia_and_protanopia():
    assert len(set(PALETTE)) == len(PALETTE) == 10
    problems = too_close(PALETTE, MIN_CVD_DISTANCE)
    assert not problems, "\n".join(problems)


def test_check_catches_category10():
    """The check is not vacuous: bokeh's Category10, the book's former palette, fails it with
    green against red under deuteranopia and blue against purple under protanopia."""
    from bokeh.palettes import Category10_10

    problems = too_close(Category10_10, MIN_CVD_DISTANCE)
    assert any("deuteranopia" in p and "#2ca02c (#2)" in p and "#d62728 (#3)" in p for p in problems), problems
    assert any("protanopia" in p and "#1f77b4 (#0)" in p and "#9467bd (#4)" in p for p in problems), problems


def test_words_coloured_by_series_are_readable_on_both_pages():
    """Summaries colour a page type's name as its series: on white, the palette's orange, sky
    blue and green fall to 2.3-3.4:1 (axe flagged them); text_colour's values reach 4.5:1 on the
    light page and on the dark one, and the book's style sheet defines every variable it uses."""
    from flashlab.viz.style import (DARK_PAGE, LIGHT_PAGE, PALETTE, TEXT_CONTRAST, contrast, readable,
                                    series_text_css, text_colour)

    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast(PALETTE[1], LIGHT_PAGE) < TEXT_CONTRAST  # the orange as drawn: too light for text
    css = series_text_css()
    for colour in PALETTE:
        for page in (LIGHT_PAGE, DARK_PAGE):
            assert contrast(readable(colour, page), page) >= TEXT_CONTRAST, (colour, page)
        var = text_colour(colour)[len("var("):].split(",")[0]
        assert css.count(f"{var}:") == 2, var  # light and dark
        assert text_colour(colour).endswith(f", {readable(colour, LIGHT_PAGE)})")
