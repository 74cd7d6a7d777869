"""Parlour past one machine: nodes that share rooms through Redis (`parlour serve --redis`)."""
