"""The quickstart's first answers in JupyterLab, light and dark: what README shows.

Run with ZLENS_UPDATE_DOCS=1 to refresh docs/screenshots/quickstart-{light,dark}.png; without
it the screenshots go to tests/artifacts/browser/ only.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
CELLS = [
    "%zlens What is revenue by segment?",
    "%zlens What is revenue by category?",
]
LUMINANCE = """el => {
  const rgb = getComputedStyle(el).backgroundColor.match(/\\d+/g).map(Number);
  return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255;
}"""


def choose_theme(nb, theme: str, light: bool) -> None:
    nb.page.locator(".lm-MenuBar-itemLabel", has_text="Settings").click()
    nb.page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
    nb.page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{theme}$")).click()
    nb.page.wait_for_selector(f"body[data-jp-theme-light='{str(light).lower()}']", state="attached")
    nb.page.wait_for_selector("#jupyterlab-splash", state="detached")  # the switch's splash


def test_quickstart_in_light_and_dark(lab_page, tmp_path):
    nb = lab_page
    nb.page.set_viewport_size({"width": 1280, "height": 1150})
    setup = (
        "import os\n"
        f"os.environ['ZLENS_CACHE_DIR'] = {str(tmp_path)!r}\n"
        "%load_ext zlens_jupyter\n"
        "%zlens connect sample"
    )
    nb.write("quickstart_shots.ipynb", [setup, *CELLS])
    nb.open("quickstart_shots.ipynb")
    for index in range(len(CELLS) + 1):
        nb.run(index, timeout=120)
    for index in (1, 2):
        nb.cell(index).locator(".zlens-answer img.zlens-chart").wait_for()
    nb.page.keyboard.press("Escape")
    nb.page.keyboard.press("Control+b")  # hide the file browser: room for the answers
    nb.page.locator("#jp-left-stack").wait_for(state="hidden")
    # Start at the first question (the setup cell only points the cache at a temp folder).
    nb.cell(1).evaluate("el => el.scrollIntoView({block: 'start'})")
    nb.page.mouse.move(1275, 5)  # no hover highlight in the picture
    shots = {"light": nb.shot("light")}
    choose_theme(nb, "JupyterLab Dark", light=False)
    try:
        panel = ".jp-Notebook"
        nb.page.wait_for_function(f"() => ({LUMINANCE})(document.querySelector('{panel}')) < 0.3")
        chip = nb.cell(1).locator(".zlens-answer .zlens-trust")
        assert chip.inner_text() == "certified"
        nb.cell(1).evaluate("el => el.scrollIntoView({block: 'start'})")
        nb.page.wait_for_timeout(300)
        shots["dark"] = nb.shot("dark")
    finally:
        choose_theme(nb, "JupyterLab Light", light=True)
    if os.environ.get("ZLENS_UPDATE_DOCS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        for theme, path in shots.items():
            shutil.copy(path, DOCS / f"quickstart-{theme}.png")
