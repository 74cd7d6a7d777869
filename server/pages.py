"""The rules pages: each game's rules in Parlour's own words, written once in Markdown in
the client package. The terminal client shows the Markdown; the server renders it here to
the HTML pages the room links to, at `/rules/GAME`."""

import html
from typing import Final

from markdown_it import MarkdownIt

from parlour.client.texts import rules_text

RULES_PREFIX: Final = "/rules/"

TEMPLATE: Final = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>{title} rules · Parlour</title>
<link rel="stylesheet" href="{assets}/style.css">
</head>
<body>
<header class="top"><a href="/" class="brand">Parlour</a></header>
<main class="rules-page">
{body}
</main>
</body>
</html>
"""


def rules_pages(games: dict[str, str], assets: str) -> dict[str, bytes]:
    """Every game's rules page as HTML, by its path; `games` maps names to titles."""
    renderer = MarkdownIt("commonmark", {"html": False})
    return {
        f"{RULES_PREFIX}{name}": TEMPLATE.format(
            title=html.escape(title), assets=assets, body=renderer.render(rules_text(name))
        ).encode()
        for name, title in games.items()
    }
