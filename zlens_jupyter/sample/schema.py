"""DDL of the sample shop: tables with keys and constraints, and their documentation comments.

Comments matter: the catalog shows them to people and to the model when it links a question
to tables and columns.
"""

from __future__ import annotations

CREATE_TABLES = """
CREATE TABLE customers (
    customer_id INTEGER PRIMARY KEY,
    name        VARCHAR NOT NULL,
    email       VARCHAR NOT NULL,
    segment     VARCHAR NOT NULL,
    region      VARCHAR NOT NULL,
    signup_date DATE    NOT NULL
);
CREATE TABLE products (
    product_id  INTEGER PRIMARY KEY,
    name        VARCHAR NOT NULL,
    category    VARCHAR NOT NULL,
    subcategory VARCHAR NOT NULL,
    unit_price  DECIMAL(10, 2) NOT NULL CHECK (unit_price > 0),
    cost        DECIMAL(10, 2) NOT NULL CHECK (cost > 0)
);
CREATE TABLE orders (
    order_id    INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
    order_date  DATE    NOT NULL,
    status      VARCHAR NOT NULL,
    channel     VARCHAR NOT NULL,
    amount      DECIMAL(12, 2) NOT NULL
);
CREATE TABLE order_items (
    order_item_id INTEGER PRIMARY KEY,
    order_id      INTEGER NOT NULL REFERENCES orders (order_id),
    product_id    INTEGER NOT NULL REFERENCES products (product_id),
    quantity      INTEGER NOT NULL CHECK (quantity > 0),
    unit_price    DECIMAL(10, 2) NOT NULL,
    unit_cost     DECIMAL(10, 2) NOT NULL,
    discount      DECIMAL(4, 2)  NOT NULL CHECK (discount >= 0 AND discount < 1)
);
"""

TABLE_COMMENTS: dict[str, str] = {
    "customers": "People and companies who have an account with the shop, one row each.",
    "products": "The product catalogue: every item the shop sells, with list price and cost.",
    "orders": "One row per order placed between 2024-01-01 and 2025-12-31, whatever its status.",
    "order_items": "Order lines: which product, how many, at what price and discount.",
}

COLUMN_COMMENTS: dict[str, dict[str, str]] = {
    "customers": {
        "customer_id": "Customer key, assigned in sign-up order.",
        "name": "Customer's full name.",
        "email": "Contact email (synthetic, example.com).",
        "segment": "Customer segment: Consumer, Small Business, Corporate or Enterprise.",
        "region": "Sales region of the customer: North, South, East or West.",
        "signup_date": "Date the customer created an account.",
    },
    "products": {
        "product_id": "Product key.",
        "name": "Product name as shown in the shop.",
        "category": "Product category: Electronics, Furniture, Office Supplies, Apparel, Books.",
        "subcategory": "Product subcategory within the category, e.g. Laptops or Chairs.",
        "unit_price": "Current list price in US dollars.",
        "cost": "Unit cost of goods in US dollars.",
    },
    "orders": {
        "order_id": "Order key, increasing with order date.",
        "customer_id": "The customer who placed the order (customers.customer_id).",
        "order_date": "Date the order was placed.",
        "status": "Order status: completed, returned or cancelled.",
        "channel": "Where the order was placed: web, store or partner (resellers).",
        "amount": "Order total in US dollars: sum of its lines' quantity × price × (1 − discount).",
    },
    "order_items": {
        "order_item_id": "Order line key.",
        "order_id": "The order this line belongs to (orders.order_id).",
        "product_id": "The product sold (products.product_id).",
        "quantity": "Units sold on this line.",
        "unit_price": "Price per unit in US dollars at the time of sale, before discount.",
        "unit_cost": "Cost per unit in US dollars at the time of sale.",
        "discount": "Discount rate on the line: 0.10 means 10% off.",
    },
}


def comment_statements() -> list[str]:
    """`COMMENT ON` statements for every table and column above."""

    def quoted(text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    statements = [f"COMMENT ON TABLE {t} IS {quoted(c)}" for t, c in TABLE_COMMENTS.items()]
    for table, columns in COLUMN_COMMENTS.items():
        statements += [
            f"COMMENT ON COLUMN {table}.{column} IS {quoted(text)}"
            for column, text in columns.items()
        ]
    return statements
