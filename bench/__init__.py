"""Benchmarks, run as ``python bench/NAME.py``; nothing in the product or the tests imports them."""
