"""`zlens eval`: measure how honest the answers and their labels are on a file of cases.

A cases file holds questions with gold SQL or an expected outcome; every case runs through a
real `Session` (run store on, blocks certified by the certify code, SQL through the guard),
and the report counts correct, wrong, clarified and refused answers, and above all the wrong
answers that were labelled certified or grounded (label precision: it must be zero).
"""

from zlens_jupyter.evals.cases import Case, CaseFile, load_cases
from zlens_jupyter.evals.compare import same_result
from zlens_jupyter.evals.runner import CaseOutcome, EvalReport, run_eval

__all__ = [
    "Case",
    "CaseFile",
    "CaseOutcome",
    "EvalReport",
    "load_cases",
    "run_eval",
    "same_result",
]
