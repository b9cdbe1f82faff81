"""`ZLens`: the traitlets Configurable behind `%config ZLens.max_steps = 3` and
`c.ZLens.max_steps = 3` in ipython_config.py."""

from __future__ import annotations

from typing import Any

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
    # A model is optional. The API key stays in OPENAI_API_KEY: config files get shared.
    model = Unicode("", help="model name; default $ZLENS_MODEL, else gpt-4o-mini").tag(config=True)
    base_url = Unicode(
        "",
        help="OpenAI-compatible endpoint; default $OPENAI_BASE_URL (a local server needs no key)",
    ).tag(config=True)
    model_planner = Bool(
        False, help="let the model split a question into steps (one more call per question)"
    ).tag(config=True)
    model_timeout = Float(30.0, help="seconds per model call").tag(config=True)

    def model_config(self) -> Any:
        """The ModelConfig these settings and the environment describe, or None (offline)."""
        from ..llm import ModelConfig

        return ModelConfig.from_env(
            model=self.model or None,
            base_url=self.base_url or None,
            timeout_s=self.model_timeout,
            plan_steps=self.model_planner or None,  # False leaves ZLENS_MODEL_PLANNER in charge
        )

    def budget(self) -> Budget:
        return Budget(
            max_steps=self.max_steps,
            max_repairs_per_step=self.max_repairs_per_step,
            max_escalations=self.max_escalations,
            max_tokens=self.max_tokens,
            max_cost_usd=self.budget_usd,
            deadline_s=self.deadline,
        )
