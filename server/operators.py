"""What a server's operators do from the command line (protocol.md 2.14): read the reports
players filed, and bar a player from the server or let them in again. Over a single
server's database in its data directory, or a cluster's Redis; either may be serving."""

import asyncio
from pathlib import Path
from typing import Any

import platformdirs

from parlour.protocol.players import ID_PREFIX, player_id, read_key

from .cluster.connect import connect
from .cluster.records import RedisRecords
from .store import FILE_NAME, Store

LEASE_MS = 3000
"""The lease the records are opened with: unused here, for nothing is leased."""


class NotAPlayerError(ValueError):
    """What names a player to bar is neither a player id nor a player key."""


def player_named(text: str) -> str:
    """The player id that `text` gives: an id as reports show it, or the player's key."""
    text = text.strip()
    if text.startswith(ID_PREFIX) and len(text) > len(ID_PREFIX):
        return text.lower()
    if read_key(text) is not None:
        return player_id(text)
    raise NotAPlayerError(f"{text!r} is neither a player id (p-...) nor a player key")


def reports(data_dir: Path | None, redis_url: str | None, limit: int) -> list[dict[str, Any]]:
    """The newest reports kept, newest first."""
    if redis_url is not None:
        return asyncio.run(_remote(redis_url, lambda records: records.reports(limit)))
    store = _store(data_dir)
    try:
        return store.reports(limit)
    finally:
        store.close()


def bar(data_dir: Path | None, redis_url: str | None, player: str, reason: str) -> None:
    """Bar `player`: their next hello is refused, with `reason`."""
    if redis_url is not None:
        asyncio.run(_remote(redis_url, lambda records: records.bar(player, reason)))
        return
    store = _store(data_dir)
    try:
        store.bar(player, reason)
    finally:
        store.close()


def lift_bar(data_dir: Path | None, redis_url: str | None, player: str) -> bool:
    """Let `player` in again; whether they were barred."""
    if redis_url is not None:
        return bool(asyncio.run(_remote(redis_url, lambda records: records.lift_bar(player))))
    store = _store(data_dir)
    try:
        return store.lift_bar(player)
    finally:
        store.close()


def _store(data_dir: Path | None) -> Store:
    """The single server's database in `data_dir`; FileNotFoundError if it has none."""
    path = (data_dir or Path(platformdirs.user_data_dir("parlour"))) / FILE_NAME
    if not path.exists():
        raise FileNotFoundError(f"no Parlour database in {path.parent} ({FILE_NAME})")
    return Store(path)


async def _remote(url: str, ask: Any) -> Any:
    """What `ask(records)` answers over the cluster's Redis at `url`."""
    redis = connect(url)
    try:
        return await ask(RedisRecords(redis, LEASE_MS))
    finally:
        await redis.aclose()
