"""Scripted model replies for the sample shop, and small readers of what the server saw."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
from fake_openai import FakeOpenAIServer, RecordedRequest, Reply, final_answer

QUESTION = "How many orders by channel in 2025?"
CHANNEL_SQL = (
    "SELECT o.channel, COUNT(*) AS orders FROM orders AS o "
    "WHERE o.order_date >= DATE '2025-01-01' AND o.order_date < DATE '2026-01-01' "
    "GROUP BY o.channel ORDER BY orders DESC"
)
CHANNEL_PLAN = {
    "grain": "one row per channel",
    "measures": ["count(*) of orders"],
    "dimensions": ["orders.channel"],
    "join_path": [],
    "filters": ["orders.order_date in 2025"],
}
# The real numbers of the sample shop (checked against DuckDB in the tests).
CHANNEL_SENTENCE = (
    "In 2025 the web channel took 32,457 orders, the store 12,607 and partners 9,930."
)

REGION_SQL = (
    "SELECT c.region, ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2) AS revenue "
    "FROM order_items AS oi JOIN orders AS o ON oi.order_id = o.order_id "
    "JOIN customers AS c ON o.customer_id = c.customer_id GROUP BY c.region ORDER BY revenue DESC"
)
REGION_PLAN = {
    "grain": "one row per customer region",
    "measures": ["revenue"],
    "dimensions": ["customers.region"],
    "join_path": [
        "order_items.order_id = orders.order_id",
        "orders.customer_id = customers.customer_id",
    ],
}


# Revenue by region is a certified block of the sample; revenue by category is not, so a
# model writes it (with the closest certified blocks shown as examples).
CATEGORY_QUESTION = "What is total revenue by product category?"
CATEGORY_SQL = (
    "SELECT p.category, ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2) AS revenue "
    "FROM order_items AS oi JOIN products AS p ON oi.product_id = p.product_id "
    "GROUP BY p.category ORDER BY revenue DESC"
)
CATEGORY_PLAN = {
    "grain": "one row per product category",
    "measures": ["revenue"],
    "dimensions": ["products.category"],
    "join_path": ["order_items.product_id = products.product_id"],
}


def plan_reply(*steps: tuple[str, str]) -> Reply:
    """The planner's JSON reply: (route, goal) per step."""
    body = {
        "steps": [
            {"route": route, "goal": goal, "success_criteria": ["query executes"]}
            for route, goal in steps
        ]
    }
    return Reply(content=json.dumps(body))


def one_step(route: str = "generated_answer", goal: str = "Count orders by channel") -> Reply:
    return plan_reply((route, goal))


def narration(text: str, usage: tuple[int, int] | None = (12, 7)) -> Reply:
    """The streamed answer sentence."""
    return Reply(content=text, usage=usage)


def answer(
    sql: str = CHANNEL_SQL,
    plan: dict[str, Any] | None = None,
    sentence: str = CHANNEL_SENTENCE,
) -> list[Reply]:
    """final_answer with a query plan, then the narration of the verified result."""
    return [final_answer(sql, "draft answer", plan or CHANNEL_PLAN), narration(sentence)]


def loop_requests(server: FakeOpenAIServer) -> list[RecordedRequest]:
    """The requests of tool-loop rounds (they offer tools; planner and narration do not)."""
    return [r for r in server.requests if r.body.get("tools")]


def user_text(request: RecordedRequest) -> str:
    return "\n".join(str(m.get("content") or "") for m in request.messages if m["role"] == "user")


def tool_replies(request: RecordedRequest) -> list[dict[str, Any]]:
    """The observations sent back to the model in this request, parsed."""
    out = []
    for message in request.messages:
        if message["role"] == "tool":
            try:
                out.append(json.loads(message["content"]))
            except json.JSONDecodeError:
                out.append({"text": message["content"]})
    return out


def truth(database: Path, sql: str) -> list[tuple[Any, ...]]:
    """Hand-written SQL on its own read-only connection."""
    con = duckdb.connect(str(database), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()
