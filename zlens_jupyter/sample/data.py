"""Seeded generator of the sample shop's rows (customers, products, orders, order lines).

Everything comes from one `numpy.random.Generator` with a fixed seed, so two builds give the
same rows. The data has structure a research question can find:

- growth: order volume grows about 25% a year (2025 vs 2024);
- seasonality: a Q4 peak (November and December), a Black Friday spike, a quiet Christmas Day
  and a slow January/February;
- the planted story: in December 2025 the West region runs out of Electronics stock, and 90%
  of the West orders that would have included Electronics never happen (their other lines
  are lost with them). Company revenue therefore falls from November to December 2025 even
  though December is normally the peak month, and a breakdown by region, then by category
  (or region × category), points at West, then Electronics (down about 90%).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import numpy as np
import pandas as pd

SEED = 2  # picked among 0..11 so month-to-month noise does not blur the planted story
FIRST_DAY = date(2024, 1, 1)
LAST_DAY = date(2025, 12, 31)
SIGNUPS_FROM = date(2022, 1, 1)
CUSTOMER_COUNT = 10_000
PRODUCTS_PER_CATEGORY = 100
TARGET_ORDERS = 100_000

SEGMENTS = ("Consumer", "Small Business", "Corporate", "Enterprise")
SEGMENT_SHARE = (0.55, 0.22, 0.15, 0.08)
REGIONS = ("North", "South", "East", "West")
REGION_SHARE = (0.26, 0.24, 0.27, 0.23)
CHANNELS = ("web", "store", "partner")
# Channel mix per segment: businesses buy more through partners (resellers).
CHANNEL_SHARE_BY_SEGMENT = (
    (0.68, 0.27, 0.05),
    (0.55, 0.25, 0.20),
    (0.45, 0.15, 0.40),
    (0.30, 0.05, 0.65),
)
STATUSES = ("completed", "returned", "cancelled")
STATUS_SHARE = (0.90, 0.06, 0.04)
# Extra units per line on top of one, per segment (Poisson mean).
EXTRA_UNITS_BY_SEGMENT = (0.3, 0.7, 1.2, 2.0)
# Month weights, January first: slow start, Q4 peak.
MONTH_WEIGHT = (0.85, 0.80, 0.92, 0.95, 1.00, 0.97, 0.93, 0.96, 1.00, 1.08, 1.30, 1.37)
WEEKDAY_WEIGHT = (1.00, 0.97, 0.98, 1.00, 1.06, 1.12, 1.07)  # Monday first
YEARLY_GROWTH = 1.25
DISCOUNTS = (0.05, 0.10, 0.15, 0.20, 0.25)
DISCOUNT_SHARE = (0.35, 0.30, 0.20, 0.10, 0.05)

STORY_REGION = "West"
STORY_CATEGORY = "Electronics"
STORY_MONTH = date(2025, 12, 1)
STORY_LOST_SHARE = 0.90

# category -> (share of order lines, units multiplier, brands, {subcategory: (noun, low, high)})
CATALOG: dict[str, tuple[float, float, tuple[str, ...], dict[str, tuple[str, float, float]]]] = {
    "Electronics": (
        0.15,
        0.3,
        ("Voltix", "Nimbus", "Arcway", "Helio", "Quanta"),
        {
            "Laptops": ("Laptop", 550, 1700),
            "Phones": ("Phone", 250, 1100),
            "Headphones": ("Headphones", 40, 380),
            "Monitors": ("Monitor", 130, 650),
            "Accessories": ("Charger", 12, 90),
        },
    ),
    "Furniture": (
        0.12,
        0.5,
        ("Oakridge", "Linden", "Norvik", "Calder"),
        {
            "Chairs": ("Chair", 80, 650),
            "Desks": ("Desk", 150, 950),
            "Storage": ("Cabinet", 60, 420),
            "Lighting": ("Lamp", 20, 220),
        },
    ),
    "Office Supplies": (
        0.30,
        2.0,
        ("Papyra", "Inkwell", "Stackwise", "Clipton"),
        {
            "Paper": ("Paper Pack", 5, 40),
            "Writing": ("Pen Set", 2, 30),
            "Binders": ("Binder", 4, 25),
            "Organizers": ("Organizer", 8, 60),
        },
    ),
    "Apparel": (
        0.21,
        1.0,
        ("Northwind", "Tidewear", "Summit & Co", "Loomcraft"),
        {
            "Shirts": ("Shirt", 15, 85),
            "Outerwear": ("Jacket", 60, 320),
            "Shoes": ("Sneakers", 40, 210),
            "Accessories": ("Cap", 10, 60),
        },
    ),
    "Books": (
        0.22,
        1.5,
        ("Harbor Press", "Quill House", "Brightpage", "Atlas Books"),
        {
            "Fiction": ("Novel", 8, 30),
            "Business": ("Business Guide", 15, 60),
            "Technical": ("Technical Handbook", 25, 95),
            "Children": ("Picture Book", 5, 25),
        },
    ),
}
SERIES = ("Aero", "Core", "Flex", "Max", "Lite", "Prime", "Edge", "Nova", "Pro", "Zen")
# fmt: off
FIRST_NAMES = (
    "Ava", "Liam", "Olivia", "Noah", "Emma", "Elijah", "Sophia", "Mateo", "Isabella", "Lucas",
    "Mia", "Levi", "Amelia", "Ethan", "Harper", "Kai", "Evelyn", "Leo", "Aria", "Omar",
    "Chloe", "Ravi", "Nora", "Hiro", "Layla", "Diego", "Zoe", "Samuel", "Priya", "Jonas",
    "Grace", "Malik", "Hannah", "Felix", "Leila", "Arjun", "Maya", "Tomas", "Ines", "Caleb",
    "Yara", "Owen", "Lucia", "Dmitri", "Sara", "Kwame", "Elena", "Marco", "Aisha", "Henry",
)
LAST_NAMES = (
    "Smith", "Johnson", "Garcia", "Brown", "Nguyen", "Patel", "Kim", "Martinez", "Lopez",
    "Wilson", "Anderson", "Taylor", "Thomas", "Moore", "Jackson", "Martin", "Lee", "Perez",
    "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
    "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Hill", "Green", "Adams",
    "Baker", "Nelson", "Carter", "Mitchell", "Roberts", "Turner", "Phillips", "Campbell",
    "Parker", "Evans", "Edwards", "Collins", "Stewart", "Okafor",
)
# fmt: on


@dataclass(frozen=True)
class ShopTables:
    """The four generated tables, as DataFrames in insertion order (parents first)."""

    customers: pd.DataFrame
    products: pd.DataFrame
    orders: pd.DataFrame
    order_items: pd.DataFrame


def generate_shop(seed: int = SEED) -> ShopTables:
    """Generate the whole sample shop deterministically from `seed`."""
    rng = np.random.default_rng(seed)
    customers = _customers(rng)
    products = _products(rng)
    orders, items = _orders_and_items(rng, customers, products)
    return ShopTables(customers, products, orders, items)


def _customers(rng: np.random.Generator) -> pd.DataFrame:
    n = CUSTOMER_COUNT
    # About 45% signed up before the order history starts; sign-ups accelerate afterwards.
    span_before = (FIRST_DAY - SIGNUPS_FROM).days
    span_after = (LAST_DAY - FIRST_DAY).days
    early = int(n * 0.45)
    days = np.concatenate(
        [
            rng.integers(0, span_before, early),
            span_before + (span_after * np.sqrt(rng.random(n - early))).astype(np.int64),
        ]
    )
    days.sort()  # ids follow sign-up order, like an auto-increment key
    first = rng.choice(FIRST_NAMES, n)
    last = rng.choice(LAST_NAMES, n)
    ids = np.arange(1, n + 1)
    emails = [f"{f}.{s}{i}@example.com".lower() for f, s, i in zip(first, last, ids, strict=True)]
    return pd.DataFrame(
        {
            "customer_id": ids,
            "name": np.char.add(np.char.add(first, " "), last),
            "email": emails,
            "segment": np.array(SEGMENTS)[rng.choice(4, n, p=SEGMENT_SHARE)],
            "region": np.array(REGIONS)[rng.choice(4, n, p=REGION_SHARE)],
            "signup_date": pd.to_datetime(SIGNUPS_FROM) + pd.to_timedelta(days, unit="D"),
        }
    )


def _products(rng: np.random.Generator) -> pd.DataFrame:
    rows: list[tuple[str, str, str, float, float]] = []
    for category, (_, _, brands, subcategories) in CATALOG.items():
        subs = list(subcategories.items())
        for i in range(PRODUCTS_PER_CATEGORY):
            subcategory, (noun, low, high) = subs[i % len(subs)]
            brand = brands[int(rng.integers(len(brands)))]
            series = SERIES[int(rng.integers(len(SERIES)))]
            # Log-uniform prices look like a real catalogue: many cheap items, few dear ones.
            price = float(np.exp(rng.uniform(np.log(low), np.log(high))))
            price = max(round(price) - 0.01, 0.99)
            cost = round(price * float(rng.uniform(0.45, 0.75)), 2)
            model = 100 + 7 * i + int(rng.integers(7))
            rows.append((f"{brand} {series} {model} {noun}", category, subcategory, price, cost))
    frame = pd.DataFrame(rows, columns=["name", "category", "subcategory", "unit_price", "cost"])
    frame.insert(0, "product_id", np.arange(1, len(frame) + 1))
    return frame


def _daily_order_counts(rng: np.random.Generator) -> tuple[np.ndarray, pd.DatetimeIndex]:
    days = pd.date_range(FIRST_DAY, LAST_DAY, freq="D")
    t = np.arange(len(days))
    weight = (
        YEARLY_GROWTH ** (t / 365.0)
        * np.array(MONTH_WEIGHT)[days.month - 1]
        * np.array(WEEKDAY_WEIGHT)[days.day_of_week]
    )
    # Black Friday (the day after the fourth Thursday of November) and a quiet Christmas Day.
    for year in (2024, 2025):
        first_nov = date(year, 11, 1)
        thursday = first_nov + timedelta(days=(3 - first_nov.weekday()) % 7 + 21)
        weight[days == pd.Timestamp(thursday + timedelta(days=1))] *= 2.5
        weight[days == pd.Timestamp(date(year, 12, 25))] *= 0.3
    expected = TARGET_ORDERS * weight / weight.sum()
    return rng.poisson(expected), days


def _orders_and_items(
    rng: np.random.Generator, customers: pd.DataFrame, products: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame]:
    counts, days = _daily_order_counts(rng)
    order_day = np.repeat(days.values, counts)
    n_orders = len(order_day)

    # A customer can only order after signing up; older customers order a bit more often.
    signups = customers["signup_date"].to_numpy()
    eligible = np.searchsorted(signups, order_day, side="right")
    pick = np.floor(eligible * rng.random(n_orders) ** 1.25).astype(np.int64)
    customer_idx = np.minimum(pick, eligible - 1)
    segment_idx = pd.Categorical(customers["segment"], categories=SEGMENTS).codes[customer_idx]
    region = customers["region"].to_numpy()[customer_idx]

    channel_idx = np.empty(n_orders, dtype=np.int64)
    for s, share in enumerate(CHANNEL_SHARE_BY_SEGMENT):
        mask = segment_idx == s
        channel_idx[mask] = rng.choice(3, int(mask.sum()), p=share)
    status_idx = rng.choice(3, n_orders, p=STATUS_SHARE)

    # Order lines: 1 + Poisson(1.5) per order, capped at 8.
    lines = np.minimum(1 + rng.poisson(1.5, n_orders), 8)
    line_order = np.repeat(np.arange(n_orders), lines)
    product_idx, category = _pick_products(rng, products, len(line_order))

    categories = list(CATALOG)
    unit_multiplier = np.array([CATALOG[c][1] for c in categories])[
        pd.Categorical(category, categories=categories).codes
    ]
    extra_units = np.array(EXTRA_UNITS_BY_SEGMENT)[segment_idx[line_order]] * unit_multiplier
    quantity = 1 + rng.poisson(extra_units)

    month = order_day[line_order].astype("datetime64[M]")
    november = (month.astype(np.int64) % 12) == 10
    discount_odds = np.where(november, 0.5, 0.25)
    discount_odds = np.where(segment_idx[line_order] == 3, 0.5, discount_odds)
    discounted = rng.random(len(line_order)) < discount_odds
    discount = np.where(
        discounted, np.array(DISCOUNTS)[rng.choice(5, len(line_order), p=DISCOUNT_SHARE)], 0.0
    )

    # The planted story: in December 2025 the West ran out of Electronics stock, so 90% of
    # the West orders that wanted Electronics never happened (their other lines with them).
    wants_story_category = (
        np.bincount(line_order, weights=category == STORY_CATEGORY, minlength=n_orders) > 0
    )
    in_story = (
        (order_day.astype("datetime64[M]") == np.datetime64(STORY_MONTH, "M"))
        & (region == STORY_REGION)
        & wants_story_category
    )
    keep_order = ~(in_story & (rng.random(n_orders) < STORY_LOST_SHARE))
    keep_line = keep_order[line_order]

    order_ids = np.cumsum(keep_order)  # 1-based ids over the kept orders, in date order
    orders = pd.DataFrame(
        {
            "order_id": order_ids[keep_order],
            "customer_id": customers["customer_id"].to_numpy()[customer_idx][keep_order],
            "order_date": order_day[keep_order],
            "status": np.array(STATUSES)[status_idx][keep_order],
            "channel": np.array(CHANNELS)[channel_idx][keep_order],
        }
    )
    prices = products["unit_price"].to_numpy()
    costs = products["cost"].to_numpy()
    items = pd.DataFrame(
        {
            "order_item_id": np.arange(1, int(keep_line.sum()) + 1),
            "order_id": order_ids[line_order][keep_line],
            "product_id": products["product_id"].to_numpy()[product_idx][keep_line],
            "quantity": quantity[keep_line],
            "unit_price": prices[product_idx][keep_line],
            "unit_cost": costs[product_idx][keep_line],
            "discount": discount[keep_line],
        }
    )
    return orders, items


def _pick_products(
    rng: np.random.Generator, products: pd.DataFrame, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Row indexes into `products` and their categories: a category by its share of lines,
    then a product by a Zipf-like popularity so a few products lead each category."""
    categories = list(CATALOG)
    shares = np.array([CATALOG[c][0] for c in categories])
    chosen = rng.choice(len(categories), n, p=shares / shares.sum())
    product_idx = np.empty(n, dtype=np.int64)
    all_categories = products["category"].to_numpy()
    for c, name in enumerate(categories):
        rows = np.flatnonzero(all_categories == name)
        popularity = 1.0 / (np.arange(len(rows)) + 4.0) ** 0.9
        # Shuffle which product is popular so popularity is not tied to catalogue order.
        popularity = popularity[rng.permutation(len(rows))]
        mask = chosen == c
        weights = popularity / popularity.sum()
        product_idx[mask] = rows[rng.choice(len(rows), int(mask.sum()), p=weights)]
    return product_idx, np.array(categories)[chosen]
