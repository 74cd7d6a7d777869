"""Parlour's clients: the terminal client in `terminal/`, the browser page in `web/`, and at
this top what both of them, the command line or the server need from the player's side.

- `connection.py`, `tls.py`: one connection to a server over `ws://` or `wss://`; the
  terminal client plays through it and the command line's `leaderboard`, `mine`
  and `replay` ask through it.
- `playerkey.py`, `seatbook.py`, `privatefile.py`: this user's player key and held seat
  tokens, kept on disk between runs; read by `parlour key`, `join` and `rooms` as well as
  by the terminal client.
- `invocation.py`: the `parlour` command as started, for the commands a client prints.
- `texts.py` with `pages/`: each game's rules in Markdown, shown by the terminal client and
  rendered by the server into the page's `/rules/GAME`.

`terminal/` (`parlour.client.terminal`) is the Textual client: its screens, boards, charts
and the pure models they draw from. `web/` is the page's static files (plain ES modules, no
build step), package data that `parlour serve` serves (server/static.py); it has no Python.
"""
