"""Intent and routing: deterministic, no model.

`decide_action` classifies what the user wants; `select_route` turns that (plus any forced
mode and the audience) into the first route the plan will run.
"""

from __future__ import annotations

import re

from .enums import Action, Audience, Mode, Route
from .records import IntentSignals

CERTIFIED_THRESHOLD = 0.5

_GREETING = re.compile(
    r"^\s*(hi|hello|hey|thanks|thank you|thx|cheers|good (morning|afternoon|evening)|"
    r"who are you|what can you do|help)\b[\s!.?]*$",
    re.IGNORECASE,
)
# "drivers of churn" investigates; "driver and passenger airbags" are data.
_INVESTIGATE = re.compile(
    r"\b(why|what (drove|caused|explains|changed)|root cause|explain|investigate|"
    r"drivers? (of|behind)|what drives|dig (deeper|into)|what happened|went (up|down)|"
    r"dropp?(ed)?|declined?|fell|spiked?|jump(ed)?|surged?)\b",
    re.IGNORECASE,
)
# compose_app: a dashboard, an app, a scorecard, a report or KPI page, something to monitor.
APP_REQUEST = _APP = re.compile(
    r"\b(dashboards?|scorecards?|report pages?|kpi (page|board)s?|keep an eye on|"
    r"overview of|(an?|the|my|our)\s+(\w+\s+)?(app|application)\b|app (for|of|showing)|"
    r"(^|\b(to|me|us|please|and)\s+)monitor(ing)?\b(?!s))",
    re.IGNORECASE,
)
# The words that frame a compose_app request: never handed to the question parser.
_APP_LEAD = re.compile(
    r"^\s*(please\s+)?((can|could|would) you\s+|i (want|need|would like)( you)? to\s+|"
    r"help me\s+|let me\s+|let's\s+)?(please\s+)?"
    r"(build|make|create|compose|set up|put together|give|show|draft|generate|open|start)?"
    r"\s*(me|us)?\s*",
    re.IGNORECASE,
)
_APP_WORDS = re.compile(
    r"\b(an?|the|my|our)\s+(?:(\w+)\s+)?(?:app|application)s?\b"
    r"|\b(an?|the|my|our)?\s*(dashboards?|scorecards?|report pages?|kpi (page|board)s?)\b"
    r"|\bapp (for|of|showing)\b|\bkeep an eye on\b|\boverview of\b|\bmonitor(ing)?\b(?!s)",
    re.IGNORECASE,
)
_APP_GLUE = re.compile(
    r"^[\s,.:;!?-]*((an?|the|my|our|of|for|on|about|showing|that shows|to track|to watch|"
    r"with|covering)\b[\s,.:;-]*)*|[\s,.:;!?]+$",
    re.IGNORECASE,
)
_SQL = re.compile(
    r"\b(write|give me|show me|generate|draft)\b.*\b(sql|query)\b|^\s*sql\b|\bsql (for|to)\b",
    re.IGNORECASE,
)
_BLOCK = re.compile(r"\b(dql|block)\b", re.IGNORECASE)

ROUTE_FOR_MODE = {
    Mode.RESEARCH: Route.RESEARCH,
    Mode.SQL: Route.SQL_CELL,
    Mode.BLOCK: Route.DQL_BLOCK_DRAFT,
    Mode.APP: Route.APP_BUILD,
}
# Stakeholders get answers, never code to review.
_ANALYST_ONLY = frozenset({Route.SQL_CELL, Route.DQL_BLOCK_DRAFT})


def strip_app_framing(request: str) -> str:
    """What a compose_app request is about, without the words that ask for an app.

    >>> strip_app_framing("Build me a dashboard of revenue by region and segment")
    'revenue by region and segment'
    >>> strip_app_framing("keep an eye on monthly revenue")
    'monthly revenue'
    """
    text = _APP_LEAD.sub("", request, count=1)
    text = _APP_WORDS.sub(lambda m: f" {m.group(2) or ''} ", text)
    text = re.sub(r"\s+", " ", text)
    previous = None
    while previous != text:
        previous, text = text, _APP_GLUE.sub("", text).strip()
    return text


def decide_action(question: str, signals: IntentSignals) -> Action:
    """Classify a question into what the loop should do with it.

    >>> decide_action("hello!", IntentSignals())
    <Action.CONVERSE: 'converse'>
    >>> decide_action("why did revenue drop in December?", IntentSignals(metric_score=0.9))
    <Action.INVESTIGATE: 'investigate'>
    """
    text = question.strip()
    if _GREETING.match(text):
        return Action.CONVERSE
    if _APP.search(text):
        return Action.COMPOSE_APP
    if _INVESTIGATE.search(text):
        return Action.INVESTIGATE
    if signals.certified_score >= CERTIFIED_THRESHOLD:
        return Action.ANSWER
    if signals.missing_context and not signals.has_retrieval:
        return Action.CLARIFY
    return Action.ANSWER


def select_route(
    action: Action,
    question: str,
    signals: IntentSignals,
    *,
    mode: Mode = Mode.AUTO,
    audience: Audience = Audience.ANALYST,
) -> Route:
    """Pick the first route: forced mode, then phrasing, then certified match, then intent.

    >>> select_route(Action.ANSWER, "revenue by segment", IntentSignals(certified_score=0.8))
    <Route.CERTIFIED_ANSWER: 'certified_answer'>
    >>> select_route(Action.ANSWER, "write sql for revenue", IntentSignals(),
    ...              audience=Audience.STAKEHOLDER)
    <Route.GENERATED_ANSWER: 'generated_answer'>
    """
    route = _route_before_audience(action, question, signals, mode)
    if audience is Audience.STAKEHOLDER and route in _ANALYST_ONLY:
        return _answer_route(signals)
    return route


def _route_before_audience(
    action: Action, question: str, signals: IntentSignals, mode: Mode
) -> Route:
    if mode in ROUTE_FOR_MODE:
        return ROUTE_FOR_MODE[mode]
    if mode is Mode.ASK:
        return _answer_route(signals)
    if action is Action.CONVERSE:
        return Route.CONVERSE
    if action is Action.COMPOSE_APP:
        return Route.APP_BUILD
    if _SQL.search(question):
        return Route.SQL_CELL
    if _BLOCK.search(question):
        return Route.DQL_BLOCK_DRAFT
    if signals.certified_score >= CERTIFIED_THRESHOLD and action is not Action.INVESTIGATE:
        return Route.CERTIFIED_ANSWER
    if action is Action.INVESTIGATE:
        return Route.RESEARCH
    if action is Action.CLARIFY:
        return Route.CLARIFY
    return Route.GENERATED_ANSWER


def _answer_route(signals: IntentSignals) -> Route:
    if signals.certified_score >= CERTIFIED_THRESHOLD:
        return Route.CERTIFIED_ANSWER
    return Route.GENERATED_ANSWER
