"""`ZLens`: the traitlets Configurable behind `%config ZLens.max_steps = 3` and
`c.ZLens.max_steps = 3` in ipython_config.py."""

from __future__ import annotations

from traitlets import Bool, Float, Int, Unicode
from traitlets.config import Configurable

from ..engine import Budget


class ZLens(Configurable):
    """Defaults for `%zlens`. Per-question options (--max-steps ...) override them."""

    database = Unicode(
        "sample", help="what `%zlens` connects to first: sample, a path, :memory:"
    ).tag(config=True)
    project = Unicode(
        "", help="project folder (blocks/, semantic/); default: the sample's or cwd"
    ).tag(config=True)
    mode = Unicode("auto", help="auto | ask | research | sql | block | app").tag(config=True)
    audience = Unicode("analyst", help="analyst | stakeholder (no code routes)").tag(config=True)
    max_steps = Int(4, help="steps per run").tag(config=True)
    max_repairs_per_step = Int(2, help="repairs per step").tag(config=True)
    max_escalations = Int(2, help="escalations per run").tag(config=True)
    max_tokens = Int(200_000, help="model tokens per run").tag(config=True)
    budget_usd = Float(2.0, help="model cost per run, USD").tag(config=True)
    deadline = Float(120.0, help="wall-clock seconds per run").tag(config=True)
    preview_limit = Int(1000, help="rows fetched per query preview").tag(config=True)
    panel = Bool(True, help="show the live run panel").tag(config=True)

    def budget(self) -> Budget:
        return Budget(
            max_steps=self.max_steps,
            max_repairs_per_step=self.max_repairs_per_step,
            max_escalations=self.max_escalations,
            max_tokens=self.max_tokens,
            max_cost_usd=self.budget_usd,
            deadline_s=self.deadline,
        )
