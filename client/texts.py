"""Texts the clients show that are written once: each game's rules page, in Markdown."""

from importlib import resources
from typing import Final

PAGES_FOLDER: Final = "pages"


def rules_text(game: str) -> str:
    """The Markdown of `game`'s rules page; FileNotFoundError if it has none."""
    return resources.files(__package__).joinpath(PAGES_FOLDER, f"{game}.md").read_text("utf-8")
