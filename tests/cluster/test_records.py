"""The Redis records of a cluster, against a real Redis: leases and fencing numbers, room
writes, score cards and saved games (which must answer exactly as SQLite's store does)."""

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from parlour.server.cluster.records import (
    CHECK,
    FENCED_OUT,
    ID_TAKEN,
    NEW_ROOM,
    RedisRecords,
    RoomWrite,
)
from parlour.server.emails import (
    HOUR_MS,
    Digest,
    EmailChange,
    NotYet,
    ReadAddress,
    SetAddress,
    Verify,
)
from parlour.server.known import playing_in
from parlour.server.letters import Mail
from parlour.server.scores import Result, SeatResult
from parlour.server.store import GUESTS, MEMORY, Save, SetInitials, Store

from ..server.test_scores import result
from .processes import RedisProcess

LEASE_MS = 300
ANN, BOB, CY = "p-ann0000000000000", "p-bob0000000000000", "p-cy00000000000000"


@pytest.fixture
async def records(redis_server: RedisProcess) -> AsyncIterator[RedisRecords]:
    redis = Redis.from_url(redis_server.url)
    try:
        yield RedisRecords(redis, LEASE_MS)
    finally:
        await redis.aclose()


def record(room: str, moves: list[str], code: str | None = None) -> str:
    return json.dumps({"id": room, "moves": moves, "code": code})


async def published(listener: PubSub) -> list[bytes]:
    """Every message published to the listener's channels until it has been quiet a while."""
    heard = []
    deadline = asyncio.get_running_loop().time() + 0.5
    while asyncio.get_running_loop().time() < deadline:
        message = await listener.get_message(ignore_subscribe_messages=True, timeout=0.1)
        if message is not None:
            heard.append(bytes(message["data"]))
    return heard


async def stored(records: RedisRecords, room: str) -> dict[str, object] | None:
    text = await records.redis.get(f"parlour:room:{room}")
    return None if text is None else dict(json.loads(text))


async def test_a_node_that_lost_its_lease_can_never_write_the_room_again(
    records: RedisRecords,
) -> None:
    first, second = await records.join_cluster(), await records.join_cluster()
    assert first != second
    made = await records.write(first, [RoomWrite("r1", NEW_ROOM, record("r1", ["a1"]))])
    assert made == {"r1": 1}
    assert await records.claim(second, ["r1"]) == [], "the lease is held"
    assert await records.owner("r1") == first

    await asyncio.sleep(LEASE_MS / 1000 + 0.1)
    assert await records.owner("r1") is None
    [taken] = await records.claim(second, ["r1"])
    assert (taken.room, taken.fence, taken.record["moves"]) == ("r1", 2, ["a1"])
    late = await records.write(first, [RoomWrite("r1", 1, record("r1", ["a1", "b2"]))])
    assert late == {"r1": FENCED_OUT}
    assert (await stored(records, "r1") or {})["moves"] == ["a1"]
    anew = await records.write(first, [RoomWrite("r1", NEW_ROOM, record("r1", []))])
    assert anew == {"r1": ID_TAKEN}, "an id in use is never made again"
    assert await records.write(second, [RoomWrite("r1", 2, record("r1", ["a1", "c3"]))]) == {
        "r1": 2
    }
    assert (await stored(records, "r1") or {})["moves"] == ["a1", "c3"]


async def test_heartbeats_renew_leases_and_a_lapsed_node_is_told(
    records: RedisRecords,
) -> None:
    node, other = await records.join_cluster(), await records.join_cluster()
    await records.write(node, [RoomWrite("r1", NEW_ROOM, record("r1", []))])
    await records.write(node, [RoomWrite("r2", NEW_ROOM, record("r2", []))])
    beats = []
    for _ in range(4):
        await asyncio.sleep(LEASE_MS / 3000)
        beats.append(await records.heartbeat(node, {"r1": 1}))
    beat = beats[-1]
    assert beat is not None and all(each is not None and each.lost == [] for each in beats)
    assert await records.owner("r1") == node
    assert await records.owner("r2") is None, "r2 was not renewed"
    assert beat.orphans == ["r2"]
    assert beat.live == {node}, "the other node's heartbeat ran out"
    assert not beat.lapsed
    back = await records.heartbeat(other, {})
    assert back.lapsed, "the other node is told that it was taken for lost"
    assert back.live == {node, other}, "and is live again"
    lost = await records.heartbeat(node, {"r1": 1, "r2": 1})
    assert lost.lost == ["r2"] and not lost.lapsed


async def test_a_lapsed_node_keeps_the_leases_nobody_took(records: RedisRecords) -> None:
    node, other = await records.join_cluster(), await records.join_cluster()
    await records.write(node, [RoomWrite("kept", NEW_ROOM, record("kept", []))])
    await records.write(node, [RoomWrite("taken", NEW_ROOM, record("taken", []))])
    await records.redis.zadd("parlour:nodes", {str(node): 0})  # its heartbeat ran out
    await records.redis.delete("parlour:room:taken:lease")
    [taken] = await records.claim(other, ["taken"])
    beat = await records.heartbeat(node, {"kept": 1, "taken": 1})
    assert beat.lapsed
    assert beat.lost == ["taken"], "a lease another node took is lost; the other is kept"
    assert await records.owner("kept") == node
    assert await records.write(node, [RoomWrite("kept", 1, record("kept", ["a1"]))]) == {"kept": 1}
    assert await records.write(node, [RoomWrite("taken", 1, record("taken", ["a1"]))]) == {
        "taken": FENCED_OUT
    }
    assert taken.fence == 2


async def test_a_room_its_node_forgot_is_an_orphan_to_that_node_alone(
    records: RedisRecords,
) -> None:
    node, other = await records.join_cluster(), await records.join_cluster()
    await records.write(node, [RoomWrite("r1", NEW_ROOM, record("r1", ["a1"]))])
    assert (await records.heartbeat(other, {})).orphans == [], "its lease is held"
    forgot = await records.heartbeat(node, {})
    assert forgot.orphans == ["r1"], "the node holds the lease but not the room"
    assert await records.claim(other, ["r1"]) == []
    [again] = await records.claim(node, ["r1"])
    assert (again.fence, again.record["moves"]) == (2, ["a1"])
    late = await records.write(node, [RoomWrite("r1", 1, record("r1", ["a1", "b2"]))])
    assert late == {"r1": FENCED_OUT}, "nothing written under the fence it forgot is taken"


async def test_a_check_writes_nothing_and_is_refused_once_the_lease_is_lost(
    records: RedisRecords,
) -> None:
    node, other = await records.join_cluster(), await records.join_cluster()
    await records.write(node, [RoomWrite("r1", NEW_ROOM, record("r1", ["a1"]))])
    listener = records.redis.pubsub()
    await listener.subscribe("told")
    shown = [("told", b"v1")]
    assert await records.write(node, [RoomWrite("r1", 1, CHECK)], shown) == {"r1": 1}
    assert (await stored(records, "r1") or {})["moves"] == ["a1"]
    await records.redis.delete("parlour:room:r1:lease")
    await records.claim(other, ["r1"])
    assert await records.write(node, [RoomWrite("r1", 1, CHECK)], [("told", b"v2")]) == {
        "r1": FENCED_OUT
    }
    assert await records.write(node, [RoomWrite("new", NEW_ROOM, CHECK)]) == {"new": ID_TAKEN}
    assert await records.redis.exists("parlour:room:new:own") == 0, "a check makes no room"
    heard = await published(listener)
    assert heard == [b"v1"], "nothing is told of a room the node no longer holds"
    await listener.aclose()  # type: ignore[no-untyped-call]


async def test_a_change_sent_again_under_its_token_is_carried_out_once(
    records: RedisRecords,
) -> None:
    node = await records.join_cluster()
    await records.write(node, [RoomWrite("r1", NEW_ROOM, record("r1", []))])
    listener = records.redis.pubsub()
    await listener.subscribe("told")
    finished = dataclasses.replace(
        result("numlo", [("blue", "Ann", "win", 9), ("red", None, "loss", 1)]), room="r1"
    )
    write = RoomWrite("r1", 1, record("r1", ["a1"]), results=(finished,))
    for _ in range(2):
        answer = await records.write(node, [write], [("told", b"moved")], token="7:1")
        assert answer == {"r1": 1}
    heard = await published(listener)
    assert heard == [b"moved"], "told once"
    card = await records.score_card("numlo", None)
    assert card["games"] == 1
    await listener.aclose()  # type: ignore[no-untyped-call]


async def test_a_closed_room_leaves_nothing_behind(records: RedisRecords) -> None:
    node = await records.join_cluster()
    listed = RoomWrite("pub", NEW_ROOM, record("pub", []), summary='{"room": "pub"}')
    hidden = RoomWrite("pri", NEW_ROOM, record("pri", [], code="secret"), code="secret")
    await records.write(node, [listed, hidden])
    assert await records.public_rooms() == [{"room": "pub"}]
    assert await records.room_id("secret") == "pri"
    assert await records.room_id("pub") == "pub"
    await records.write(node, [RoomWrite("pub", 1, None), RoomWrite("pri", 1, None)])
    assert await records.public_rooms() == []
    assert await records.room_id("secret") is None
    assert await records.room_id("pri") is None
    assert await records.redis.keys("parlour:room:*") == []


async def test_score_cards_count_as_the_single_servers_do(records: RedisRecords) -> None:
    games = [
        result("numlo", [("blue", "Ann", "win", 9), ("red", None, "loss", 1)]),
        result("numlo", [("blue", "Bob", "tie", 5), ("red", "Ann", "tie", 5)], preset="big"),
        result("numlo", [("blue", "Bob", "loss", 2), ("red", "Cy", "win", 12)], stood_in=True),
        result("othello", [("black", "Di:na", "win", 40), ("white", None, "loss", 24)]),
    ]
    sqlite = Store(MEMORY)
    sqlite.save([], results=games)
    node = await records.join_cluster()
    for number, played in enumerate(games):
        room = f"g{number}"
        finished = dataclasses.replace(played, room=room)
        written = RoomWrite(room, NEW_ROOM, record(room, []), results=(finished,))
        await records.write(node, [written])
        again = RoomWrite(room, 1, record(room, []), results=(finished,))
        assert await records.write(node, [again]) == {room: 1}, "written again, counted once"
    for game, preset in [
        ("numlo", None),
        ("numlo", "standard"),
        ("numlo", "big"),
        ("othello", None),
        ("tribolo", None),
    ]:
        assert await records.score_card(game, preset) == sqlite.score_card(game, preset)
    card = await records.score_card("numlo", None)
    assert (card["games"], card["stood_in"], card["best"]["name"]) == (3, 1, "Cy")
    # Initials typed for a best score are kept where it is still the best, as in SQLite.
    for asked in (
        SetInitials("numlo", "standard", "Cy", 11, "XX"),
        SetInitials("numlo", "standard", "Ann", 9, "AN"),
        SetInitials("numlo", "standard", "Cy", 12, "CYX"),
        SetInitials("numlo", "big", "Bob", 5, "BB"),
    ):
        assert await records.set_initials(asked) == sqlite.set_initials(asked)
    for game, preset in [("numlo", None), ("numlo", "standard"), ("numlo", "big")]:
        assert await records.score_card(game, preset) == sqlite.score_card(game, preset)
    card = await records.score_card("numlo", None)
    assert card["best"] == {"name": "Cy", "initials": "CYX", "typed": True, "score": 12}


async def test_saved_games_behave_as_the_single_servers_do(records: RedisRecords) -> None:
    sqlite = Store(MEMORY)
    saves = [
        (Save("one", "othello", "text 1", 3, "Ann"), False),
        (Save("two", "numlo", "text 2", 5, "Bob"), False),
        (Save("one", "numlo", "text 3", 7, "Cy"), False),
        (Save("one", "numlo", "text 4", 9, "Cy"), True),
        (Save("one", "numlo", "text 5", 1, "Ann", owner=ANN), False),
    ]
    for save, replace in saves:
        assert await records.put_save(save, replace=replace) == sqlite.put_save(
            save, replace=replace
        )
        await asyncio.sleep(0.002)
    for name in ("one", "two", "three"):
        for owner in (GUESTS, ANN):
            assert await records.get_save(owner, name) == sqlite.get_save(owner, name)
    assert await records.get_save(ANN, "one") == ("numlo", "text 5")

    def shown(listed: list[dict[str, object]]) -> list[tuple[object, ...]]:
        return [(s["name"], s["game"], s["moves"], s["saved_by"]) for s in listed]

    for game in (None, "numlo", "othello"):
        for owner in (GUESTS, ANN, "p-nobody"):
            mine = shown(await records.list_saves(owner, game))
            assert mine == shown(sqlite.list_saves(owner, game))
    assert shown(await records.list_saves(ANN, None)) == [("one", "numlo", 1, "Ann")]


async def test_players_ratings_and_finished_games_answer_as_the_single_servers_do(
    records: RedisRecords,
) -> None:
    sqlite = Store(MEMORY)
    for player, name in [(ANN, "Ann"), (BOB, "Bob"), (BOB, "ann"), (None, "Bob"), (ANN, "Annie")]:
        assert await records.claim_name(player, name) == sqlite.claim_name(player, name)
    assert await records.claim_name(BOB, "Annie") is None
    assert await records.claim_name(BOB, "Ann") is False, "Ann gave the name up"
    sqlite.claim_name(BOB, "Ann")
    played = [
        rated("othello", [("black", ANN, "win", 40), ("white", BOB, "loss", 24)], 1),
        rated("othello", [("black", BOB, "tie", 32), ("white", ANN, "tie", 32)], 2),
        rated("othello", [("black", ANN, "loss", 20), ("white", None, "win", 44)], 3),
    ]
    node = await records.join_cluster()
    for finished in played:
        assert await records.rate(finished) == sqlite.rate(finished)
        assert await records.rate(finished) == sqlite.rate(finished), "rated once"
        sqlite.save([], results=[finished])
        write = RoomWrite(finished.room, NEW_ROOM, record(finished.room, []), results=(finished,))
        await records.write(node, [write])
    handed = dataclasses.replace(
        rated("othello", [("black", None, "win", 40), ("white", None, "loss", 24)], 4),
        seats=(
            SeatResult("black", "changed", None, None, "win", 40, played_by=(BOB, ANN)),
            SeatResult("white", "bot", None, "easy", "loss", 24, played_by=(BOB,)),
        ),
        changed_hands=True,
        rated=False,
    )
    sqlite.save([], results=[handed])
    await records.write(node, [RoomWrite("g4", NEW_ROOM, record("g4", []), results=(handed,))])
    assert await records.ratings("othello", [ANN, BOB, "computer:easy"]) == sqlite.ratings(
        "othello", [ANN, BOB, "computer:easy"]
    )
    assert await records.leaderboard("othello") == sqlite.leaderboard("othello")
    assert sqlite.leaderboard("othello")[0]["name"] == "computer, level easy"

    def listed(games: list[dict[str, object]]) -> list[dict[str, object]]:
        return [{k: v for k, v in game.items() if k != "finished_at"} for game in games]

    for player in (ANN, BOB, "p-nobody"):
        assert listed(await records.finished_games(player)) == listed(
            sqlite.finished_games(player)
        )
    assert [game["record"] for game in sqlite.finished_games(ANN)] == [
        "g4.4",
        "g3.3",
        "g2.2",
        "g1.1",
    ], "the last game's seats were handed to the computer: it is in the list of each player"
    (last, *_) = sqlite.finished_games(BOB)
    assert [(seat["kind"], seat["player"]) for seat in last["seats"]] == [
        ("changed", ANN),
        ("bot", BOB),
    ]
    for name in ("g1.1", "g3.3", "g1.2", "nothing"):
        assert await records.record(name) == sqlite.record(name)
    assert await records.record("g1.1") == "game g1"
    card = await records.score_card("othello", None)
    assert card == sqlite.score_card("othello", None)
    assert {line["name"]: line["player"] for line in card["players"]} == {
        "Annie": ANN,
        "Ann": BOB,
        "computer, level easy": "computer:easy",
    }


def rated(game: str, outcomes: list[tuple[str, str | None, str, int]], number: int) -> Result:
    """A rated result in room `gN` at version N: players by id, None for the computer."""
    seats = tuple(
        SeatResult(
            colour,
            "bot" if player is None else "human",
            None if player is None else player[-3:],
            "easy" if player is None else None,
            outcome,
            score,
            player_id=player,
            rated_as=player or "computer:easy",
        )
        for colour, player, outcome, score in outcomes
    )
    winners = tuple(i for i, seat in enumerate(seats) if seat.outcome != "loss")
    return Result(
        room=f"g{number}",
        game=game,
        preset="standard",
        board=1,
        moves=60,
        stood_in=False,
        seats=seats,
        version=number,
        record=f"game g{number}",
        rated=True,
        winners=winners,
    )


async def test_a_room_taken_from_a_lost_node_says_when_that_node_was_last_alive(
    records: RedisRecords,
) -> None:
    first, second = await records.join_cluster(), await records.join_cluster()
    await records.write(first, [RoomWrite("r1", NEW_ROOM, record("r1", ["a1"]))])
    await records.heartbeat(first, {"r1": 1})
    alive = int(await records.redis.hget("parlour:alive", str(first)) or 0)
    seconds, micros = await records.redis.time()
    assert 0 <= int(seconds) * 1000 + int(micros) // 1000 - alive < 1000
    await asyncio.sleep(LEASE_MS / 1000 + 0.1)
    [taken] = await records.claim(second, ["r1"])
    assert taken.alive_ms == alive, "the clocks stand still from the lost node's last heartbeat"
    await asyncio.sleep(LEASE_MS / 1000 + 0.1)
    [again] = await records.claim(second, ["r1"])
    assert again.alive_ms is None, "a node taking back its own room lost no time to anyone"
    await records.release(second, {"r1": again.fence})
    released = int(await records.redis.hget("parlour:alive", str(second)) or 0)
    [third] = await records.claim(first, ["r1"])
    assert third.alive_ms == released, "a node that stopped was alive till it gave its rooms up"


async def test_vacations_are_kept_in_redis_as_sqlite_keeps_them(records: RedisRecords) -> None:
    store = Store(MEMORY)
    now = 1_800_000_000.0
    asked: list[tuple[str, int | None, float]] = [
        (ANN, 10, now),
        (ANN, 25, now + 60),
        (ANN, 0, now + 86_400 * 1.5),
        (BOB, 31, now),
    ]
    asked += [(ANN, 28, now + 86_400 * 2), (ANN, None, now + 86_400 * 3), (CY, None, now)]
    asked += [(ANN, 5, now + 86_400 * 400), (ANN, None, now + 86_400 * 400)]
    for player, days, at in asked:
        kept = store.take_vacation(player, days, at)
        assert await records.take_vacation(player, days, at) == kept, (player, days)
    last = store.take_vacation(ANN, 0, now + 86_400 * 401)
    assert last is not None and last.year == 2028 and last.used == 1, "a new year, a day begun"


async def test_mail_kept_unsent_is_taken_once_in_order_as_sqlite_does(
    records: RedisRecords,
) -> None:
    sqlite = Store(MEMORY)
    first = [Mail(f"p{n}@example.org", f"subject {n}", "é\n" * n, "digest") for n in range(3)]
    later = [Mail("cy@example.org", "your code", "042917\n", "code")]
    for keeper in (sqlite.mail, records.mail):
        assert await maybe(keeper.take_unsent()) == [], "nothing kept at first"
        await maybe(keeper.keep_unsent(first))
        await maybe(keeper.keep_unsent(later))
        await maybe(keeper.keep_unsent([]))
    assert await records.mail.take_unsent() == sqlite.mail.take_unsent() == first + later
    assert await records.mail.take_unsent() == sqlite.mail.take_unsent() == [], "taken once"


async def maybe(value: object) -> object:
    """An answer of either store: SQLite's at once, Redis's awaited."""
    return await value if asyncio.iscoroutine(value) else value


async def test_players_mail_records_answer_as_the_single_servers_do(
    records: RedisRecords,
) -> None:
    sqlite = Store(MEMORY)
    hour = HOUR_MS
    asked: list[tuple[int, str, EmailChange]] = [
        (0, ANN, ReadAddress()),
        (0, ANN, SetAddress("ann@example.org", 12, "111111")),
        (1, ANN, Verify("222222")),
        (2, ANN, SetAddress("ann@example.org", None, "333333")),
        (3, ANN, Verify("333333")),
        (4, ANN, SetAddress("ann@example.org", 48, "444444")),
        (5, ANN, SetAddress("anne@example.org", None, "555555")),
        (6, ANN, SetAddress("ann@example.org", None, "666666")),
        (7, BOB, SetAddress("ann@example.org", None, "777777")),
        (8, CY, SetAddress("ann@example.org", None, "888888")),
        (hour, ANN, SetAddress("ann@example.org", None, "999999")),
        (hour + 1, ANN, Verify("999999")),
        (hour + 2, ANN, SetAddress(None, 6, "000000")),
        (hour + 3, ANN, ReadAddress()),
    ]
    refused = []
    for now, who, change in asked:
        answer = await records.mail.change_email(who, change, now)
        assert answer == sqlite.mail.change_email(who, change, now), (now, who)
        refused += [(now, answer.refused[0].value)] if answer.refused else []
    assert refused == [(1, "bad_code"), (6, "rate_limited"), (8, "rate_limited")], (
        "a wrong code, a fourth code for Ann within the hour, a fourth to her address"
    )
    assert await records.mail.change_email(BOB, ReadAddress(), 0) == sqlite.mail.change_email(
        BOB, ReadAddress(), 0
    )
    shown = sqlite.mail.change_email(ANN, ReadAddress(), hour + 4).shown
    assert shown == {"address": None, "verified": False, "digest_hours": 6}

    waiting = tuple(playing_in([json.loads(ann_waits("r1"))], ANN, 0))
    for change in (SetAddress("ann@example.org", 1, "123456"), Verify("123456")):
        sqlite.mail.change_email(ANN, change, 2 * hour)
        await records.mail.change_email(ANN, change, 2 * hour)
    node = await records.join_cluster()
    await records.write(node, [RoomWrite("r1", NEW_ROOM, ann_waits("r1"))])
    for began, now in [(10, 3 * hour), (10, 3 * hour + 1), (3 * hour + 5, 3 * hour + 9)]:
        assert await records.mail.claim_digest(
            ANN, began, now, waiting
        ) == sqlite.mail.claim_digest(ANN, began, now, waiting), (began, now)
    assert sqlite.mail.claim_digest(ANN, 4 * hour + 5, 4 * hour + 9, waiting) == Digest(
        "ann@example.org", waiting, 1
    )
    for marker, now in [("r1:3:white", 0), ("r1:3:white", 1), ("r1:4:white", 2)]:
        assert await records.mail.claim_reminder(
            ANN, marker, now, hour
        ) == sqlite.mail.claim_reminder(ANN, marker, now, hour)
    assert await records.mail.claim_reminder(BOB, "r1:5:black", 0, hour) is None


async def test_a_digest_claimed_by_two_nodes_at_once_goes_once_and_never_to_one_connected(
    records: RedisRecords,
) -> None:
    for change in (SetAddress("ann@example.org", None, "123456"), Verify("123456")):
        await records.mail.change_email(ANN, change, 0)
    node, other = await records.join_cluster(), await records.join_cluster()
    await records.write(node, [RoomWrite("r1", NEW_ROOM, ann_waits("r1"))])
    await records.mail.arrived(other, ANN, 10_000)
    assert await records.mail.present(ANN)
    assert await records.mail.claim_digest(ANN, 5, 10, ()) == NotYet(10), "Ann is connected"
    await records.mail.set_present(other, [BOB], 10_000)
    assert not await records.mail.present(ANN)
    claims = await asyncio.gather(*(records.mail.claim_digest(ANN, 5, 10, ()) for _ in range(8)))
    sent = [claim for claim in claims if isinstance(claim, Digest)]
    assert len(sent) == 1, claims
    assert [game["room"] for game in sent[0].games] == ["r1"], "the cluster's games, read"
    await records.mail.departed(other, BOB)
    assert not await records.mail.present(BOB)


def ann_waits(room: str) -> str:
    """A room's record in which white, Ann's as a person, is to move."""
    seats = [
        {"colour": "black", "holder": "human", "player": BOB},
        {"colour": "white", "holder": "human", "player": ANN},
    ]
    return json.dumps(
        {
            "id": room,
            "code": None,
            "game": "othello",
            "status": "playing",
            "moved_at": 1_790_000_000,
            "seats": seats,
            "to_move": "white",
            "clock": None,
        }
    )
