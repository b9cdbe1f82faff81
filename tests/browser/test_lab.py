"""The run panel and the answer in a real JupyterLab: live phases, Stop, insert, save/reload."""

from __future__ import annotations

import base64
import re
import time

# Records, every 25 ms, the orb state, the tracker phase, the prompt of the running cell and
# how many streamed log lines are struck through as withdrawn.
WATCH = """index => {
  window.__zlens_seen = [];
  const read = () => {
    const cell = document.querySelectorAll('.jp-Notebook .jp-Cell')[index];
    const orb = cell && cell.querySelector('.zl-orb');
    const phase = cell && cell.querySelector('.zl-phase.zl-current');
    const prompt = cell ? cell.querySelector('.jp-InputPrompt').textContent.trim() : '';
    const withdrawn = cell ? cell.querySelectorAll('.zl-log-answer-delta.zl-withdrawn').length : 0;
    return [orb ? orb.dataset.state : null, phase ? phase.dataset.phase : null, prompt, withdrawn];
  };
  let last = '';
  window.__zlens_timer = setInterval(() => {
    const now = read();
    if (now.join('|') !== last) { last = now.join('|'); window.__zlens_seen.push(now); }
  }, 25);
}"""


def test_panel_shows_the_loop_live_while_the_cell_runs(lab_page):
    nb = lab_page
    name = nb.write("live.ipynb", ["import scripted", "panel, run = scripted.live_run(delay=0.4)"])
    nb.open(name)
    nb.run(0)
    nb.page.evaluate(WATCH, 1)
    nb.start(1)
    panel = nb.cell(1).locator(".zl-panel")
    panel.wait_for()
    nb.page.wait_for_selector(".zl-orb[data-state=working]")
    nb.shot("running")
    nb.wait_done(1)
    seen = nb.page.evaluate(
        "() => { clearInterval(window.__zlens_timer); return window.__zlens_seen; }"
    )
    while_running = [(orb, phase) for orb, phase, p, _ in seen if "*" in p and orb]
    assert max(withdrawn for *_, withdrawn in seen) == 3, seen  # the refused stream, struck
    orbs = {orb for orb, _ in while_running}
    phases = {phase for _, phase in while_running}
    assert {"planning", "working", "verifying"} <= orbs, seen
    assert {"plan", "work", "verify"} <= phases, seen
    # The finished run: three steps, the repair and both escalations, the trust chip.
    trust = panel.locator(".zl-trust")
    trust.wait_for()
    assert trust.get_attribute("data-trust") == "review_required"
    assert (
        "SQL written for a cell is at most review required until a person reviews it"
        in panel.locator(".zl-reason").inner_text()
    )
    assert panel.locator(".zl-orb").get_attribute("data-state") == "done"
    steps = panel.locator(".zl-step")
    assert steps.count() == 3
    assert "escalated to research" in steps.nth(0).inner_text()
    assert "1 repair" in steps.nth(1).inner_text()
    assert "Binder Error: column segmnt not found" in steps.nth(1).inner_text()
    assert panel.locator("[data-meter=steps] .zl-meter-value").inner_text() == "3 / 4"
    assert panel.locator(".zl-stop").is_disabled()
    panel.locator(".zl-log summary").click()
    assert panel.locator(".zl-log-lines li").count() >= 25
    nb.shot("finished")


def test_insert_buttons_put_the_cell_directly_below(lab_page):
    nb = lab_page
    name = nb.write("answer.ipynb", ["import scripted", "run = scripted.show_answer()", "# after"])
    nb.open(name)
    nb.run(0)
    nb.run(1)
    answer = nb.cell(1).locator(".zlens-answer")
    answer.wait_for()
    assert answer.locator(".zlens-trust").inner_text() == "grounded"
    nb.cell(1).locator(".vega-embed").wait_for()  # the chart, as its own output
    nb.shot("answer")

    sql_button = answer.locator("button.zlens-insert-sql")
    expected_sql = base64.b64decode(sql_button.get_attribute("data-zlens-insert")).decode()
    assert expected_sql.startswith("%%zlens_sql\n-- What is revenue by segment?\nSELECT segment")
    sql_button.click()
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 4"
    )
    assert nb.editor_text(2).strip() == expected_sql.strip()
    assert nb.editor_text(3) == "# after"

    dql_button = answer.locator("button.zlens-insert-dql")
    expected_dql = base64.b64decode(dql_button.get_attribute("data-zlens-insert")).decode()
    dql_button.click()
    nb.page.wait_for_function(
        "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length === 5"
    )
    assert nb.editor_text(2).strip() == expected_dql.strip()  # directly below the answer
    assert nb.editor_text(2).startswith("%%dql\n// Drafted by ZLens from run run_")
    assert 'status = "draft"' in nb.editor_text(2)
    assert nb.editor_text(3).strip() == expected_sql.strip()
    nb.shot("inserted")


def test_stop_interrupts_a_synchronous_run(lab_page):
    nb = lab_page
    name = nb.write("stop.ipynb", ["import scripted", "panel, run = scripted.long_run(120)"])
    nb.open(name)
    assert nb.page.evaluate("() => document.body.dataset.zlensExtension") == "active"
    nb.run(0)
    nb.start(1)
    panel = nb.cell(1).locator(".zl-panel")
    panel.locator(".zl-orb[data-state=working]").wait_for()
    nb.shot("working")
    assert "*" in nb.prompt(1)
    panel.locator(".zl-stop").click()
    nb.wait_done(1, timeout=30)
    panel.locator(".zl-orb[data-state=cancelled]").wait_for()
    # The extension handled the DOM event (preventDefault) and interrupted the kernel.
    assert panel.locator(".zl-note").inner_text() == "Stopped: the kernel was interrupted."
    assert panel.locator(".zl-trust").get_attribute("data-trust") == "cancelled"
    assert panel.locator(".zl-trust").inner_text() == "cancelled"
    # The tracker stays on the phase the run stopped in, greyed; Done is never reached.
    assert panel.locator(".zl-tracker.zl-stopped .zl-phase.zl-current").get_attribute(
        "data-phase"
    ) in ("plan", "work")
    assert "cancelled before an answer" in panel.locator(".zl-reason").inner_text()
    assert "run ended: cancelled" in nb.cell(1).locator(".jp-OutputArea").inner_text()
    # The Engine turned the KeyboardInterrupt into a cancelled run: no traceback.
    assert nb.cell(1).locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    nb.shot("cancelled")


def test_saved_notebook_reopens_showing_the_finished_panel(lab_page):
    nb = lab_page
    name = nb.write(
        "saved.ipynb", ["import scripted", "panel, run = scripted.live_run(delay=0.02)"]
    )
    nb.open(name)
    nb.run(0)
    nb.run(1)
    nb.cell(1).locator(".zl-trust").wait_for()
    saved = nb.save(name)
    states = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    panels = [s["state"] for s in states.values() if s["state"].get("final_run")]
    assert len(panels) == 1 and panels[0]["final_run"]["trust_state"] == "review_required"
    assert panels[0]["orb"] == "done"

    nb.server.shutdown_sessions()  # no kernel to restore from: only the saved widget state remains
    nb.page.goto(nb.server.page_url(f"/lab/tree/{name}"))
    panel = nb.cell(1).locator(".zl-panel")
    panel.wait_for()
    trust = panel.locator(".zl-trust")
    trust.wait_for()
    assert trust.inner_text() == "review required"
    assert panel.locator(".zl-orb").get_attribute("data-state") == "done"
    assert panel.locator(".zl-step").count() == 3
    assert panel.locator(".zl-question").inner_text() == "What is revenue by segment?"
    assert panel.locator(".zl-stop").is_disabled()
    time.sleep(0.3)
    nb.shot("reopened")


def test_a_reloaded_page_asks_the_live_kernel_to_replay_the_events(lab_page):
    nb = lab_page
    name = nb.write(
        "replay.ipynb", ["import scripted", "panel = scripted.unfinished_panel()", "panel"]
    )
    nb.open(name)
    for index in range(3):
        nb.run(index)
    nb.cell(2).locator(".zl-step").nth(2).wait_for()
    nb.save(name)
    nb.page.reload()  # same kernel; the new page's widget model starts with no events
    panel = nb.cell(2).locator(".zl-panel")
    panel.wait_for()
    panel.locator(".zl-step").nth(2).wait_for()
    assert panel.locator(".zl-step").count() == 3
    assert panel.locator(".zl-trust").get_attribute("data-trust") == "review_required"
    # 31 loop events, 3 streamed words and their withdrawal, which the replay strikes again.
    assert panel.locator(".zl-log summary").inner_text() == "Event log (35)"
    assert panel.locator(".zl-log-answer-delta.zl-withdrawn").count() == 3
    nb.shot("replayed")


LUMINANCE = """el => {
  const rgb = getComputedStyle(el).backgroundColor.match(/\\d+/g).map(Number);
  return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255;
}"""


def choose_theme(nb, theme: str, light: bool) -> None:
    nb.page.locator(".lm-MenuBar-itemLabel", has_text="Settings").click()
    nb.page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
    nb.page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{theme}$")).click()
    selector = f"body[data-jp-theme-light='{str(light).lower()}']"
    nb.page.wait_for_selector(selector, state="attached")


def test_panel_follows_the_dark_theme(lab_page):
    nb = lab_page
    name = nb.write("theme.ipynb", ["import scripted", "_ = scripted.live_run(delay=0)"])
    nb.open(name)
    nb.run(0)
    nb.run(1)
    panel = nb.cell(1).locator(".zl-panel")
    panel.locator(".zl-trust").wait_for()
    assert panel.evaluate(LUMINANCE) > 0.8
    choose_theme(nb, "JupyterLab Dark", light=False)
    try:
        nb.page.wait_for_function(f"() => ({LUMINANCE})(document.querySelector('.zl-panel')) < 0.3")
        nb.shot("dark")
    finally:
        choose_theme(nb, "JupyterLab Light", light=True)
