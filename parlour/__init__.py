"""Parlour: classic grid games hosted over the network."""

__version__ = "0.1.0"
