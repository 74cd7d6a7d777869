"""A cluster's rooms, score cards and saved games in Redis, written only under a lease.

Every room write goes through a script that checks the writer's lease and fencing number
(`scripts.py`), so Redis itself refuses a node that has lost the room. Score cards are
kept as counts that each finished game adds to, in the same script as the room's write,
so a game is counted exactly once.
"""

import json
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import WatchError

from parlour.protocol.players import fold

from .. import vacations
from ..emails import (
    HOUR_MS,
    Digest,
    DigestDue,
    EmailAnswer,
    EmailChange,
    EmailRecord,
    NotYet,
    code_address,
    digest_due,
)
from ..known import playing_in
from ..letters import Mail
from ..moderation import BLOCK, MUTE, REPORTS_SHOWN, Report, SetStanding, Standing, person_of
from ..ratings import COMPUTER, NEW, Rating, computer_player, rate_players
from ..scores import COMPUTER_NAME, Result, best_of
from ..store import (
    COMPUTER_NAMES,
    GUESTS,
    MAX_LISTED,
    MY_GAMES,
    Save,
    SetInitials,
    leaders,
    player_lines,
    tally,
)
from ..vacations import Vacation
from . import scripts

PREFIX: Final = "parlour:"
ALL: Final = "*"
"""The score card of every preset, and the list of every game's saves."""
NEW_ROOM: Final = 0
"""The fence a node writes a room under that it has just made."""
FIRST_FENCE: Final = 1
"""The fence a new room is written under in Redis."""
FENCED_OUT: Final = -1
KEEP: Final = "="
"""A room's lobby line left as it is in Redis."""
CHECK: Final = "?"
"""A room's record left as it is: the write only checks that the node still holds it."""
ID_TAKEN: Final = 0


@dataclass(frozen=True, slots=True)
class RoomWrite:
    """One room's new record (None: the room closed; CHECK: as it is), as its owner writes
    it."""

    room: str
    fence: int
    record: str | None
    summary: str | None = None
    """The lobby's line for the room, while it is public and not finished; KEEP to leave
    the line Redis has."""
    code: str | None = None
    results: tuple[Result, ...] = ()


@dataclass(frozen=True, slots=True)
class Claimed:
    room: str
    fence: int
    record: dict[str, Any]
    alive_ms: int | None = None
    """When the node that held the room was last alive (Unix milliseconds), if another did."""


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """What a node learns each heartbeat."""

    lost: list[str]
    """Rooms this node thought it held whose leases are gone."""
    live: set[int]
    """Every node whose heartbeat has not run out, this one included."""
    orphans: list[str]
    """Rooms that nobody holds, and those this node forgot while its lease still names it."""
    lapsed: bool = False
    """Whether this node's own heartbeat had run out: the others may have dropped its
    connections from their rooms."""


class RedisRecords:
    """The Redis side of a cluster: leases, room records, the lobby, score cards and saves."""

    def __init__(self, redis: Redis, lease_ms: int, prefix: str = PREFIX) -> None:
        self.redis = redis
        self.lease_ms = lease_ms
        self.prefix = prefix
        self._write = redis.register_script(scripts.WRITE_ROOMS)
        self._claim = redis.register_script(scripts.CLAIM_ROOMS)
        self._heartbeat = redis.register_script(scripts.HEARTBEAT)
        self._join = redis.register_script(scripts.JOIN_CLUSTER)
        self._release = redis.register_script(scripts.RELEASE_ROOMS)
        self._put_save = redis.register_script(scripts.PUT_SAVE)
        self._set_initials = redis.register_script(scripts.SET_INITIALS)
        self._claim_name = redis.register_script(scripts.CLAIM_NAME)
        self._file_report = redis.register_script(scripts.FILE_REPORT)
        self.mail = RedisMail(redis, prefix, self.playing)
        """Players' addresses, the mail they are sent, and who is connected (2.13)."""

    def _key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    # Nodes and leases.

    async def join_cluster(self) -> int:
        """Register a new node as live, under a number never given before."""
        return int(await self._join(args=[self.prefix, self.lease_ms]))

    async def heartbeat(self, node: int, held: Mapping[str, int]) -> Heartbeat:
        """Renew the node and the leases it still holds."""
        args: list[Any] = [self.prefix, node, self.lease_ms]
        for room, fence in held.items():
            args += [room, fence]
        _, lost, live, orphans, lapsed = await self._heartbeat(args=args)
        return Heartbeat(
            lost=[_text(room) for room in lost],
            live={int(member) for member in live},
            orphans=[_text(room) for room in orphans],
            lapsed=bool(lapsed),
        )

    async def claim(self, node: int, rooms: Iterable[str]) -> list[Claimed]:
        """Take every one of `rooms` that nobody holds (or whose lease names `node`, which
        forgot it), each under its next fencing number."""
        found = await self._claim(args=[self.prefix, node, self.lease_ms, *rooms])
        return [
            Claimed(
                _text(found[i]),
                int(found[i + 1]),
                json.loads(found[i + 2]),
                int(found[i + 3]) if _text(found[i + 3]) else None,
            )
            for i in range(0, len(found), 4)
        ]

    async def release(self, node: int, held: Mapping[str, int]) -> None:
        """Give up every lease held, for the other nodes to take the rooms at once."""
        args: list[Any] = [self.prefix, node]
        for room, fence in held.items():
            args += [room, fence]
        await self._release(args=args)

    async def owner(self, room: str) -> int | None:
        """The node that holds `room`'s lease, if any does."""
        return (await self.owners([room]))[room]

    async def owners(self, rooms: list[str]) -> dict[str, int | None]:
        """The node that holds each room's lease, None where none does."""
        if not rooms:
            return {}
        leases = await self.redis.mget([self._key("room", room, "lease") for room in rooms])
        return {
            room: None if lease is None else int(_text(lease).partition(":")[0])
            for room, lease in zip(rooms, leases, strict=True)
        }

    async def room_id(self, ref: str) -> str | None:
        """The id of the open room that `ref` names (its id or its code), if there is one."""
        room = await self.redis.hget(self._key("codes"), ref)
        if room is not None:
            return _text(room)
        if await self.redis.exists(self._key("room", ref)):
            return ref
        return None

    # Rooms.

    async def write(
        self,
        node: int,
        writes: Iterable[RoomWrite],
        publish: Iterable[tuple[str, bytes]] = (),
        token: str = "",
    ) -> dict[str, int]:
        """Each room written if the node holds it: its fence, else ID_TAKEN or FENCED_OUT;
        the messages in `publish` go out if every room was written. A write sent again
        with the same `token` is answered as the first was, and done once."""
        batch = list(writes)
        answers = await self.queue_write(self.redis, node, batch, publish, token)
        return self.answers(batch, answers)

    async def queue_write(
        self,
        client: Redis | Pipeline,
        node: int,
        writes: list[RoomWrite],
        publish: Iterable[tuple[str, bytes]] = (),
        token: str = "",
    ) -> Any:
        """`write` on `client`, which may be a pipeline (then the answer comes with the
        pipeline's, for `answers` to read, and the script must be loaded: `load_scripts`)."""
        args: list[str | int | bytes] = [self.prefix, node, self.lease_ms, len(writes), token]
        for entry in writes:
            args += [
                entry.room,
                entry.fence,
                entry.record or "",
                entry.summary or "",
                entry.code or "",
                _score_counts(entry.results),
            ]
        for channel, message in publish:
            args += [channel, message]
        if isinstance(client, Pipeline):
            return await client.evalsha(self._write.sha, 0, *args)
        return await self._write(args=args, client=client)

    async def load_scripts(self) -> None:
        """Load the write script into Redis's cache, which is empty after Redis starts
        again: a pipeline names it by its digest alone."""
        await self.redis.script_load(scripts.WRITE_ROOMS)

    @staticmethod
    def answers(writes: list[RoomWrite], found: list[Any]) -> dict[str, int]:
        return {entry.room: int(answer) for entry, answer in zip(writes, found, strict=True)}

    async def public_rooms(self) -> list[dict[str, Any]]:
        """The lobby's line for every public room of the cluster that has not finished."""
        found = await self.redis.hvals(self._key("lobby"))
        rooms = [json.loads(summary) for summary in found]
        rooms.sort(key=lambda summary: str(summary["room"]))
        return rooms

    # Score cards.

    async def score_card(self, game: str, preset: str | None) -> dict[str, Any]:
        """As `Store.score_card`: wins, losses and ties by colour and by player, and the
        best score by a person."""
        counts = await self.redis.hgetall(self._key("score", game, preset or ALL))
        fields = {_text(key): _text(value) for key, value in counts.items()}
        colours, players, keyed = [], [], []
        for field, value in fields.items():
            kind, _, rest = field.partition(":")
            who, _, outcome = rest.rpartition(":")
            if kind == "c":
                colours.append((who, outcome, int(value)))
            elif kind == "p":
                players.append((who, outcome, int(value)))
            elif kind == "k":
                keyed.append((who, outcome, int(value)))
        best = fields.get("best")
        held = json.loads(best) if best else None
        return {
            "games": int(fields.get("games", 0)),
            "stood_in": int(fields.get("stood_in", 0)),
            "changed_hands": int(fields.get("changed_hands", 0)),
            "colours": tally(colours, "colour"),
            "players": await self._player_lines(game, players, keyed),
            "best": None
            if held is None
            else best_of(str(held[0]), int(held[1]), held[2] if len(held) > 2 else None),
        }

    async def _player_lines(
        self, game: str, named: list[tuple[str, str, int]], keyed: list[tuple[str, str, int]]
    ) -> list[dict[str, Any]]:
        """As `Store._player_lines`: players by key with the names they have now, guests
        and computers by name, each with their rating."""
        names = await self.names([who for who, _, _ in keyed])
        rows: list[tuple[Any, ...]] = [
            (who, names.get(who, who), True, o, n) for who, o, n in keyed
        ]
        for who, outcome, count in named:
            computer = who.removeprefix(COMPUTER_NAME)
            rated = computer_player(computer) if computer != who else who
            rows.append((rated, who, False, outcome, count))
        return player_lines(rows, await self.ratings(game, {row[0] for row in rows}))

    async def set_initials(self, asked: SetInitials) -> bool:
        """As `Store.set_initials`."""
        args: list[str | int] = [
            self.prefix,
            asked.game,
            asked.preset,
            asked.name,
            asked.score,
            asked.initials,
        ]
        return bool(await self._set_initials(args=args))

    # Saved games.

    async def put_save(self, save: Save, *, replace: bool) -> bool:
        entry = json.dumps(
            {
                "game": save.game,
                "text": save.text,
                "moves": save.moves,
                "saved_by": save.saved_by,
                "saved_at": int(time.time()),
            }
        )
        at = time.time_ns() // 1_000_000
        saves, saved = self._saves_of(save.owner)
        args: list[str | int] = [saves, saved, save.name, save.game, entry, at, int(replace)]
        return bool(await self._put_save(args=args))

    def _saves_of(self, owner: str) -> tuple[str, str]:
        """The keys of an owner's saves and the prefix of their lists by game; the guests'
        are where saves were kept before players had their own."""
        mine = f"@{owner}" if owner != GUESTS else ""
        return self._key(f"saves{mine}"), self._key(f"saved{mine}:")

    async def get_save(self, owner: str, name: str) -> tuple[str, str] | None:
        found = await self.redis.hget(self._saves_of(owner)[0], name)
        if found is None:
            return None
        entry = json.loads(found)
        return str(entry["game"]), str(entry["text"])

    async def list_saves(self, owner: str, game: str | None) -> list[dict[str, Any]]:
        saves, saved = self._saves_of(owner)
        newest = await self.redis.zrange(saved + (game or ALL), 0, MAX_LISTED - 1, desc=True)
        names = [_text(name) for name in newest if isinstance(name, bytes | str)]
        if not names:
            return []
        entries = await self.redis.hmget(saves, names)
        listed = []
        for name, found in zip(names, entries, strict=True):
            if found is None:
                continue
            entry = json.loads(found)
            listed.append(
                {
                    "name": name,
                    "game": entry["game"],
                    "moves": entry["moves"],
                    "saved_by": entry["saved_by"],
                    "saved_at": entry["saved_at"],
                }
            )
        return listed

    # Players, ratings and finished games.

    async def claim_name(self, player: str | None, name: str) -> bool | None:
        """As `Store.claim_name`."""
        folded = fold(name)
        if folded.startswith(COMPUTER_NAMES):
            return None
        args: list[str | int] = [self.prefix, player or "", name, folded, int(time.time())]
        found = int(await self._claim_name(args=args))
        return None if found < 0 else bool(found)

    async def standing(self, player: str | None, name: str) -> Standing:
        """As `Store.standing`."""
        person = person_of(player, name)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(self._key("bars"), person)
            pipe.hgetall(self._key("standing", player or "", MUTE))
            pipe.hgetall(self._key("standing", player or "", BLOCK))
            pipe.smembers(self._key("blocked_by", person))
            bar, muted, blocked, by = await pipe.execute()
        kept = [{_text(k): _text(v) for k, v in found.items()} for found in (muted, blocked)]
        barred = None if bar is None else str(json.loads(bar)["reason"])
        return Standing(barred, kept[0], kept[1], frozenset(_text(each) for each in by))

    async def set_standing(self, change: SetStanding) -> None:
        """As `Store.set_standing`."""
        kept = self._key("standing", change.player, change.kind)
        by = self._key("blocked_by", change.person)
        async with self.redis.pipeline(transaction=True) as pipe:
            if change.on:
                pipe.hset(kept, change.person, change.name)
            else:
                pipe.hdel(kept, change.person)
            if change.kind == BLOCK and change.on:
                pipe.sadd(by, change.player)
            elif change.kind == BLOCK:
                pipe.srem(by, change.player)
            await pipe.execute()

    async def file_report(self, report: Report) -> None:
        """As `Store.file_report`: kept once, by its key."""
        keys = [self._key("reports", "seen"), self._key("reports")]
        await self._file_report(keys=keys, args=[report.key, json.dumps(report.describe())])

    async def reports(self, limit: int = REPORTS_SHOWN) -> list[dict[str, Any]]:
        """As `Store.reports`."""
        found = await self.redis.lrange(self._key("reports"), 0, limit - 1)
        return [json.loads(each) for each in found]

    async def bar(self, player: str, reason: str) -> None:
        """As `Store.bar`."""
        value = json.dumps({"at": int(time.time()), "reason": reason})
        await self.redis.hset(self._key("bars"), player, value)

    async def lift_bar(self, player: str) -> bool:
        """As `Store.lift_bar`."""
        return bool(await self.redis.hdel(self._key("bars"), player))

    async def holder_of(self, name: str) -> str | None:
        """As `Store.holder_of`."""
        folded = fold(name)
        if folded.startswith(COMPUTER_NAMES):
            return COMPUTER
        held = await self.redis.hget(self._key("names"), folded)
        return None if held is None else _text(held)

    async def names(self, players: Iterable[str]) -> dict[str, str]:
        """The names players go by now."""
        wanted = list(dict.fromkeys(players))
        if not wanted:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for player in wanted:
                pipe.hget(self._key("player", player), "name")
            found = await pipe.execute()
        return {p: _text(n) for p, n in zip(wanted, found, strict=True) if n is not None}

    async def ratings(self, game: str, players: Iterable[str]) -> dict[str, Rating]:
        """As `Store.ratings`."""
        wanted = list(dict.fromkeys(players))
        if not wanted:
            return {}
        found = await self.redis.hmget(self._key("rating", game), wanted)
        return {p: _rating(v) for p, v in zip(wanted, found, strict=True) if v is not None}

    async def rate(self, result: Result) -> dict[str, dict[str, int]]:
        """As `Store.rate`: the ratings and the game's changes written together, once,
        retried if another node rates a game of the same players meanwhile."""
        table = self._key("rating", result.pool)
        marker = self._key("rated", result.room, str(result.version))
        seats = [seat.rated_as or "" for seat in result.seats]
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(table, marker)
                    kept = await pipe.get(marker)
                    if kept is not None:
                        changes: dict[str, dict[str, int]] = json.loads(kept)
                        return changes
                    values = await pipe.hmget(table, seats)
                    before = {
                        p: _rating(v) for p, v in zip(seats, values, strict=True) if v is not None
                    }
                    ranks = result.ranks
                    after = rate_players(before, seats, ranks)
                    changes = {
                        seat.colour: {
                            "before": before.get(player, NEW).display,
                            "after": after[player].display,
                        }
                        for seat, player in zip(result.seats, seats, strict=True)
                    }
                    pipe.multi()  # type: ignore[no-untyped-call]
                    pipe.hset(
                        table,
                        mapping={
                            p: json.dumps([r.mu, r.sigma, r.games]) for p, r in after.items()
                        },
                    )
                    pipe.set(marker, json.dumps(changes))
                    await pipe.execute()
                    return changes
                except WatchError:
                    continue

    async def take_vacation(self, player: str, days: int | None, now: float) -> Vacation | None:
        """As `Store.take_vacation`, retried if the player's vacation changes meanwhile."""
        key = self._key("vacation", player)
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(key)
                    kept = await pipe.get(key)
                    before = None if kept is None else Vacation(*json.loads(kept))
                    after = vacations.take(before, days, now)
                    if after is None or after == before:
                        return after
                    pipe.multi()  # type: ignore[no-untyped-call]
                    pipe.set(key, json.dumps([after.year, after.used, after.start, after.until]))
                    await pipe.execute()
                    return after
                except WatchError:
                    continue

    async def leaderboard(self, game: str) -> list[dict[str, Any]]:
        """As `Store.leaderboard`."""
        found = await self.redis.hgetall(self._key("rating", game))
        ratings = {_text(p): _rating(v) for p, v in found.items()}
        names = await self.names(ratings)
        return leaders((p, names.get(p), rating) for p, rating in ratings.items())

    async def finished_games(self, player: str) -> list[dict[str, Any]]:
        """As `Store.finished_games`."""
        newest = await self.redis.zrange(self._key("mine", player), 0, MY_GAMES - 1, desc=True)
        records = [_text(record) for record in newest if isinstance(record, bytes | str)]
        if not records:
            return []
        summaries = await self.redis.mget([self._key("finished", r) for r in records])
        games = [json.loads(found) for found in summaries if found is not None]
        async with self.redis.pipeline(transaction=False) as pipe:
            for game in games:
                pipe.get(self._key("rated", game["room"], str(game["version"])))
            rated = await pipe.execute()
        names = await self.names(
            seat["player"] for game in games for seat in game["seats"] if seat["player"]
        )
        for game, changes in zip(games, rated, strict=True):
            change = {} if changes is None else json.loads(changes)
            game["rated"] = bool(change)
            for seat in game["seats"]:
                seat["rating"] = change.get(seat["colour"])
                if seat["player"] in names:
                    seat["name"] = names[seat["player"]]
            del game["room"], game["version"]
        return games

    async def playing(self, player: str) -> list[dict[str, Any]]:
        """The rooms not finished where `player` holds a seat, from every room's record:
        a look at each open room, as a person asks for their games now and then."""
        rooms = [_text(room) for room in await self.redis.smembers(self._key("rooms"))]
        if not rooms:
            return []
        found = await self.redis.mget([self._key("room", room) for room in rooms])
        records = (json.loads(record) for record in found if record)
        return playing_in(records, player, int(time.time() * 1000))

    async def record(self, record: str) -> str | None:
        """As `Store.record`."""
        found = await self.redis.get(self._key("record", record))
        return None if found is None else _text(found)

    # Players' mail.


class RedisMail:
    """Players' email records, the mails claimed for sending, and which players are
    connected to some node: as `Store.mail` keeps them, in Redis for every node."""

    def __init__(
        self,
        redis: Redis,
        prefix: str,
        playing: Callable[[str], Awaitable[list[dict[str, Any]]]],
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self._playing = playing
        self._present = redis.register_script(scripts.PRESENT)

    def _key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def keep_unsent(self, mails: Iterable[Mail]) -> None:
        """As `SqliteMail.keep_unsent`: for whichever node takes them first."""
        kept = [mail.dumps() for mail in mails]
        if kept:
            await self.redis.rpush(self._key("unsent"), *kept)

    async def take_unsent(self) -> list[Mail]:
        """As `SqliteMail.take_unsent`: each kept mail goes to one node alone."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.lrange(self._key("unsent"), 0, -1)
            pipe.delete(self._key("unsent"))
            kept, _ = await pipe.execute()
        return [Mail.loads(text) for text in kept]

    async def change_email(self, player: str, change: EmailChange, now_ms: int) -> EmailAnswer:
        """As `Store.change_email`, retried if another node changes the record meanwhile."""
        key = self._key("email", player)
        address = code_address(change)
        codes = self._key("codes-to", address or "")
        since = now_ms - HOUR_MS
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(key, codes)
                    record = EmailRecord.read(await pipe.get(key))
                    to_address = 0
                    if address is not None:
                        to_address = await pipe.zcount(codes, f"({since}", "+inf")
                    after, answer = change.apply(record, player, now_ms, to_address)
                    if after == record and answer.code is None:
                        return answer
                    pipe.multi()  # type: ignore[no-untyped-call]
                    pipe.set(key, after.text())
                    if answer.code is not None:
                        pipe.zremrangebyscore(codes, "-inf", since)
                        pipe.zadd(codes, {f"{player}:{now_ms}": now_ms})
                        pipe.pexpire(codes, HOUR_MS)
                    await pipe.execute()
                    return answer
                except WatchError:
                    continue

    async def claim_digest(
        self, player: str, began_ms: int, now_ms: int, games: tuple[dict[str, Any], ...]
    ) -> Digest | NotYet:
        """As `Store.claim_digest`, but never while a connection of the player's is open
        on any node; the digest lists every game of the cluster's that waits on them.
        Noted as sent in one transaction on the record: of nodes asking at once, one
        wins and the others find it sent."""
        key = self._key("email", player)
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(key)
                    record = EmailRecord.read(await pipe.get(key))
                    due = digest_due(record, began_ms, now_ms)
                    if not isinstance(due, DigestDue):
                        return due
                    if await self.present(player):
                        return NotYet(now_ms)
                    waiting = tuple(game for game in await self._playing(player) if game["turn"])
                    if not waiting:
                        return NotYet(None)
                    pipe.multi()  # type: ignore[no-untyped-call]
                    pipe.set(key, record.digested(now_ms).text())
                    await pipe.execute()
                    return Digest(due.address, waiting, due.hours)
                except WatchError:
                    continue

    async def claim_reminder(
        self, player: str, marker: str, now_ms: int, keep_ms: int
    ) -> str | None:
        """As `Store.claim_reminder`: the turn marked once, by whichever node asks first."""
        record = EmailRecord.read(await self.redis.get(self._key("email", player)))
        if record.address is None or not record.verified:
            return None
        marked = await self.redis.set(self._key("mailed", marker), 1, nx=True, px=keep_ms)
        return record.address if marked else None

    async def present(self, player: str) -> bool:
        """Whether a connection of `player`'s is open on any node."""
        return bool(await self._present(args=[self.prefix, player]))

    async def set_present(self, node: int, players: Iterable[str], keep_ms: int) -> None:
        """The players connected to `node` now, kept `keep_ms` unless renewed."""
        key = self._key("online", str(node))
        here = sorted(set(players))
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            if here:
                pipe.sadd(key, *here)
                pipe.pexpire(key, keep_ms)
            await pipe.execute()

    async def arrived(self, node: int, player: str, keep_ms: int) -> None:
        """A connection of `player`'s opened on `node`."""
        key = self._key("online", str(node))
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.sadd(key, player)
            pipe.pexpire(key, keep_ms)
            await pipe.execute()

    async def departed(self, node: int, player: str) -> None:
        """The last connection of `player`'s on `node` closed."""
        await self.redis.srem(self._key("online", str(node)), player)


def _rating(value: bytes | str) -> Rating:
    mu, sigma, games = json.loads(value)
    return Rating(float(mu), float(sigma), int(games))


def _score_counts(results: Iterable[Result]) -> str:
    """Finished games as the counts they add to their score cards, for `WRITE_ROOM`."""
    counted = []
    for result in results:
        counts: dict[str, int] = {
            "games": 1,
            "stood_in": int(result.stood_in),
            "changed_hands": int(result.changed_hands),
        }
        best: tuple[str, int] | None = None
        for seat in result.seats:
            fields = [f"c:{seat.colour}:{seat.outcome}"]
            if seat.player_id is not None:
                fields.append(f"k:{seat.player_id}:{seat.outcome}")
            elif seat.player is not None:
                fields.append(f"p:{seat.player}:{seat.outcome}")
            for field in fields:
                counts[field] = counts.get(field, 0) + 1
            own = seat.kind == "human" and seat.own_play
            if own and seat.name and (best is None or seat.score > best[1]):
                best = (seat.name, seat.score)
        keys = [f"{result.game}:{result.preset}", f"{result.game}:{ALL}"]
        game = f"{result.room}:{result.version}"
        counted.append(
            {
                "game": game,
                "keys": keys,
                "counts": counts,
                "best": best,
                "record": result.record_id,
                "text": result.record,
                "summary": json.dumps(finished_summary(result)),
                "players": result.players,
                "at": int(time.time()),
            }
        )
    return json.dumps(counted) if counted else ""


def finished_summary(result: Result) -> dict[str, Any]:
    """What a player's list of finished games shows of one, as `Store.finished_games`,
    without the names players have now and the rating changes, added when read."""
    return {
        "record": result.record_id,
        "room": result.room,
        "version": result.version,
        "game": result.game,
        "preset": result.preset,
        "finished_at": int(time.time()),
        "moves": result.moves,
        "seats": [
            {
                "colour": seat.colour,
                "kind": seat.kind,
                "name": seat.name,
                "player": seat.whose,
                "level": seat.level,
                "outcome": seat.outcome,
                "score": seat.score,
            }
            for seat in result.seats
        ],
    }


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
