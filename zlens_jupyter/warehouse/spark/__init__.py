"""Spark SQL behind the warehouse interface (PySpark is imported by the caller, never here)."""

from __future__ import annotations

from zlens_jupyter.warehouse.spark.warehouse import SparkWarehouse, is_spark_session

__all__ = ["SparkWarehouse", "is_spark_session"]
