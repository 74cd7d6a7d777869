"""Clocks as the terminal shows them (client/terminal/clocks.py, and the room's model): the
figures, the running seat counted down from when its message came and set right by each
message that carries a clock, low time, seats out of time, and the time controls typed in
the New room dialog. Rooms' messages come from a real lobby on clocks the test turns."""

from typing import Any

import pytest

from parlour.client.terminal.clocks import (
    LIVE_PRESETS,
    Clocks,
    TimeControlError,
    control_label,
    date_words,
    is_low,
    live_text,
    span_text,
    typed_time_control,
)
from parlour.client.terminal.room import RoomModel
from parlour.protocol import messages as m
from parlour.protocol.timecontrol import DAY_MS, TimeControl, read_time_control
from parlour.server.lobby import Lobby

from ...server.test_clocks import UNIX, clocked_lobby, move, started
from ...server.test_lobby import answer, to

HOUR = 3_600_000
LIVE_5_3 = {"kind": "live", "base_s": 300, "increment_s": 3}


def clock_map(left: dict[str, Any], running: str | None, at: int = 0, control: Any = None) -> Any:
    return {"control": control or LIVE_5_3, "left_ms": left, "running": running, "at": at}


@pytest.mark.parametrize(
    ("ms", "shown"),
    [
        (299_000, "4:59"),
        (299_999, "4:59"),
        (60_000, "1:00"),
        (10_000, "0:10"),
        (9_999, "0:09.9"),
        (9_350, "0:09.3"),
        (100, "0:00.1"),
        (0, "0:00.0"),
        (-40, "0:00.0"),
        (3_723_000, "1:02:03"),
        (3 * HOUR, "3:00:00"),
    ],
)
def test_a_live_clock_shows_minutes_and_seconds_and_tenths_below_ten_seconds(
    ms: int, shown: str
) -> None:
    assert live_text(ms) == shown


@pytest.mark.parametrize(
    ("ms", "shown"),
    [
        (2 * DAY_MS + 3 * HOUR + 59 * 60_000, "2d 03h"),
        (DAY_MS, "1d 00h"),
        (14 * DAY_MS, "14d 00h"),
        (5 * HOUR + 12 * 60_000 + 59_000, "5h 12m"),
        (HOUR + 60_000, "1h 01m"),
        (HOUR - 1, "59:59"),
        (62_000, "1:02"),
        (0, "0:00"),
    ],
)
def test_a_days_clock_shows_days_and_hours_then_hours_and_minutes(ms: int, shown: str) -> None:
    assert span_text(ms) == shown


def test_the_running_seat_counts_down_from_when_its_message_came_and_the_others_stand() -> None:
    clocks = Clocks.read(clock_map({"black": 61_000, "white": 45_500}, "black"), received=100.0)
    assert clocks is not None
    assert [clocks.left("black", 100.0), clocks.left("white", 100.0)] == [61_000, 45_500]
    assert [clocks.left("black", 101.25), clocks.left("white", 101.25)] == [59_750, 45_500]
    black, white = clocks.face("black", 101.25), clocks.face("white", 101.25)
    assert black is not None and (black.text, black.running, black.low) == ("0:59", True, False)
    assert white is not None and (white.text, white.running, white.low) == ("0:45", False, False)
    late = clocks.face("black", 100.0 + 51.7)
    assert late is not None and (late.text, late.low) == ("0:09.3", True)
    gone = clocks.face("black", 100.0 + 70)
    assert gone is not None and (gone.text, gone.out) == ("0:00.0", False), "at zero, not below"
    out = clocks.face("white", 101.25, out=True)
    assert out is not None and (out.text, out.low, out.running) == ("out of time", True, False)


def test_a_clock_is_redrawn_as_its_figure_changes_ten_times_a_second_below_ten_seconds() -> None:
    clocks = Clocks.read(clock_map({"black": 12_345, "white": 1}, "black"), received=0.0)
    assert clocks is not None
    assert clocks.next_change(0.0) == pytest.approx(0.346)
    now, shown = 0.0, []
    while (wait := clocks.next_change(now)) is not None:
        now += wait
        face = clocks.face("black", now)
        assert face is not None
        shown.append(face.text)
    assert len(shown) == len(set(shown)), "each redraw shows a new figure"
    assert shown[:3] == ["0:11", "0:10", "0:09.9"]
    above, below = shown[:2], shown[2:]
    assert len(above) == 2 and len(below) == 99 + 1  # 9.9 s down to 0.0, and 0:00.0
    assert shown[-1] == "0:00.0" and clocks.next_change(now) is None
    assert now == pytest.approx(12.345 - 0.099), "drawn as 0:00.0 as soon as under 0.1 s"
    still = Clocks.read(clock_map({"black": 12_345, "white": 1}, None), received=0.0)
    assert still is not None and still.next_change(5.0) is None, "nothing runs: no redraw"
    days = {"kind": "days", "days": 3, "bank_days": 0}
    slow = Clocks.read(clock_map({"black": DAY_MS + HOUR // 2}, "black", control=days), 0.0)
    assert slow is not None and slow.next_change(0.0) == 1.0, "at least once a second"


@pytest.mark.parametrize(
    ("control", "low_below"),
    [
        ({"kind": "live", "base_s": 300, "increment_s": 3}, 30_000),
        ({"kind": "live", "base_s": 1800, "increment_s": 0}, 180_000),
        ({"kind": "live", "base_s": 60, "increment_s": 0}, 10_000),
        ({"kind": "days", "days": 3, "bank_days": 7}, 3 * DAY_MS // 10),
    ],
)
def test_time_is_low_under_ten_seconds_or_a_tenth_of_the_start(
    control: dict[str, Any], low_below: int
) -> None:
    read = read_time_control("time_control", control)
    assert is_low(low_below - 1, read) and not is_low(low_below, read)


def test_labels_as_players_say_them() -> None:
    assert control_label(LIVE_5_3) == "5+3"
    assert control_label({"kind": "days", "days": 3, "bank_days": 7}) == "3 days a move, bank 7"
    assert control_label({"kind": "none"}) == "no clock"
    assert control_label(None) == ""
    assert control_label({"kind": "blitz"}) == ""


@pytest.mark.parametrize("broken", [None, "5+3", {"control": LIVE_5_3}, {"left_ms": {}}])
def test_a_clock_that_is_not_one_shows_nothing(broken: Any) -> None:
    assert Clocks.read(broken, received=0.0) is None
    bad_left = clock_map({"black": "soon"}, "black")
    assert Clocks.read(bad_left, received=0.0) is None
    assert Clocks.read(clock_map({"black": 1}, "white"), received=0.0) is None


def test_a_seat_on_vacation_says_till_when_not_a_figure_that_stands_still() -> None:
    days = {"kind": "days", "days": 2, "bank_days": 0}
    at = 1_800_000_000_000
    held = clock_map({"black": 2 * DAY_MS, "white": DAY_MS}, None, at, days)
    held["held_until"] = {"white": at + 3 * DAY_MS}
    clocks = Clocks.read(held, received=10.0)
    assert clocks is not None and clocks.held_until == {"white": at + 3 * DAY_MS}
    face = clocks.face("white", 10_000.0)
    assert face is not None and face.held and not face.low and not face.running
    till = date_words(at / 1000 + 3 * 86_400, since_s=at / 1000)
    assert face.text == f"on vacation until {till}"
    black = clocks.face("black", 10_000.0)
    assert black is not None and not black.held and black.text == "2d 00h"
    assert clocks.next_change(10_000.0) is None
    held["held_until"] = {"white": "Monday"}
    assert Clocks.read(held, received=10.0) is None, "not a clock this client can read"


# The room's model, from a real lobby's messages.


class Local:
    """This client's monotonic clock, turned by the test."""

    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def room_of(lobby: Lobby, room: str, conn: int, local: Local) -> RoomModel:
    view = answer(lobby.handle(conn, m.GetRoom(room=room)), conn)
    assert isinstance(view, m.RoomView)
    return RoomModel(view.room, room, now=local)


def test_the_room_shows_the_servers_clocks_and_each_update_sets_them_right() -> None:
    lobby, wall = clocked_lobby(("Ann", None), ("Bob", None))
    room_id = started(lobby, "othello", ["black", "white"], time_control=LIVE_5_3)
    local = Local()
    room = room_of(lobby, room_id, 2, local)
    assert room.time_control == "5+3"
    faces = room.clock_faces(local.now)
    assert {colour: face.text for colour, face in faces.items()} == {
        "black": "5:00",
        "white": "5:00",
    }
    local.now += 7.4
    assert room.clock_faces(local.now)["black"].text == "4:52"
    # This client's clock ran fast (or the message was slow): the update sets it right.
    local.now += 30.0
    wall.now += 7.25
    (update,) = [told for told in to(move(lobby, room_id), 2) if isinstance(told, m.Update)]
    assert room.apply(update)
    faces = room.clock_faces(local.now)
    assert (faces["black"].text, faces["black"].running) == ("4:55", False)  # 300-7.25+3 s
    assert (faces["white"].text, faces["white"].running) == ("5:00", True)
    local.now += 3.5
    assert room.clock_faces(local.now)["white"].text == "4:56"
    # A view of the same position made before that update does not set the clocks back.
    stale = dict(room.view, clock=dict(update.clock or {}, at=int(UNIX * 1000), running="black"))
    room.apply(m.RoomView(room=stale))
    assert room.clock_faces(local.now)["white"].text == "4:56"


def test_a_seat_out_of_time_is_shown_and_said_in_a_game_of_two() -> None:
    lobby, wall = clocked_lobby(("Ann", None), ("Bob", None))
    room_id = started(
        lobby, "othello", ["black", "white"], time_control={"kind": "live", "base_s": 30}
    )
    local = Local()
    for _ in range(3):
        move(lobby, room_id)  # black, white and black at once: white's 30 s run
    room = room_of(lobby, room_id, 1, local)
    wall.now += 20.5
    local.now += 20.5
    assert room.clock_faces(local.now)["white"].text == "0:09.5"
    assert room.clock_faces(local.now)["white"].low
    wall.now += 10.5
    assert lobby.timekeeper.next_deadline() == wall.now
    views = [
        message
        for message in to(lobby.timekeeper.flags_due(), 1)
        if isinstance(message, m.RoomView)
    ]
    assert views, "the flag was told"
    before = room.flagged
    for view in views:
        room.apply(view)
    assert room.flagged == ["white"] and room.status == "finished"
    assert room.out_words(before) == ["Bob (White) ran out of time."]
    assert room.news == "Bob (White) ran out of time."
    white = room.clock_faces(local.now + 60)["white"]
    assert (white.text, white.low, white.running) == ("out of time", True, False)
    assert room.clocks is not None and room.clocks.next_change(local.now) is None


def test_in_a_game_of_three_the_seat_out_of_time_is_said_to_be_played_on() -> None:
    lobby, wall = clocked_lobby(("Ann", None), ("Bob", None), ("Cy", None))
    control = {"kind": "live", "base_s": 60, "increment_s": 5}
    room_id = started(lobby, "tribolo", ["blue", "red", "green"], time_control=control)
    local = Local()
    for _ in range(3):
        move(lobby, room_id)  # each of the three moves once, at once
    room = room_of(lobby, room_id, 2, local)
    first = room.to_move
    assert first is not None
    name = room.holder(first)["name"]
    wall.now += 67.0  # its 60 s, the 5 s its move gained, and the grace
    assert lobby.timekeeper.next_deadline() is not None
    for message in to(lobby.timekeeper.flags_due(), 2):
        room.apply(message)
    assert room.flagged == [first] and room.status == "playing"
    assert room.out_words([]) == [
        f"{name} ({first.capitalize()}) ran out of time; the computer plays on."
    ]
    faces = room.clock_faces(local.now)
    assert faces[first].text == "out of time"
    assert [face.running for colour, face in faces.items() if colour != first] == [False, False]


def test_a_room_without_a_clock_shows_none() -> None:
    lobby, _ = clocked_lobby(("Ann", None), ("Bob", None))
    room_id = started(lobby, "othello", ["black", "white"])
    room = room_of(lobby, room_id, 1, Local())
    assert room.clocks is None and room.clock_faces(0.0) == {} and room.time_control == ""


# Time controls typed in the New room dialog.


@pytest.mark.parametrize(("minutes", "increment"), LIVE_PRESETS)
def test_the_presets_make_their_live_clocks(minutes: int, increment: int) -> None:
    typed = {"minutes": str(minutes), "increment": str(increment)}
    made = typed_time_control("live", typed)
    assert made == {"kind": "live", "base_s": minutes * 60, "increment_s": increment}
    assert read_time_control("time_control", made).label() == f"{minutes}+{increment}"


def test_typed_clocks_of_each_kind() -> None:
    assert typed_time_control("none", {"minutes": "junk"}) == {"kind": "none"}
    live = typed_time_control("live", {"minutes": " 1.5 ", "increment": "0"})
    assert live == {"kind": "live", "base_s": 90, "increment_s": 0}
    quarter = typed_time_control("live", {"minutes": "0.25", "increment": "180"})
    assert quarter == {"kind": "live", "base_s": 15, "increment_s": 180}
    days = typed_time_control("days", {"days": "14", "bank": "28", "minutes": "?"})
    assert days == {"kind": "days", "days": 14, "bank_days": 28}
    assert TimeControl("days", days=14, bank_days=28).describe() == days


@pytest.mark.parametrize(
    ("kind", "typed", "said"),
    [
        (
            "live",
            {"minutes": "five minutes please", "increment": "3"},
            "Minutes each must be a number from 0.25 to 180 (5, or 1.5);"
            " “five minutes please” is not one.",
        ),
        (
            "live",
            {"minutes": "", "increment": "3"},
            "Minutes each must be a number from 0.25 to 180 (5, or 1.5); nothing was typed.",
        ),
        (
            "live",
            {"minutes": "0.33", "increment": "3"},
            "Minutes each must be a number from 0.25 to 180 (5, or 1.5), in whole seconds;"
            " 0.33 minutes is 19.80 s.",
        ),
        (
            "live",
            {"minutes": "0.1", "increment": "3"},
            "Minutes each must be a number from 0.25 to 180 (5, or 1.5); 0.1 is not.",
        ),
        (
            "live",
            {"minutes": "200", "increment": "3"},
            "Minutes each must be a number from 0.25 to 180 (5, or 1.5); 200 is not.",
        ),
        (
            "live",
            {"minutes": "5", "increment": "3 please"},
            "Seconds added a move must be a whole number from 0 to 180; “3 please” is not one.",
        ),
        (
            "live",
            {"minutes": "5", "increment": "-1"},
            "Seconds added a move must be a whole number from 0 to 180; “-1” is not one.",
        ),
        (
            "days",
            {"days": "15", "bank": "0"},
            "Days a move must be a whole number from 1 to 14; 15 is not.",
        ),
        (
            "days",
            {"days": "3", "bank": "a week"},
            "Days in the bank must be a whole number from 0 to 28; “a week” is not one.",
        ),
        ("blitz", {}, "There is no clock 'blitz': no clock, live or days per move."),
    ],
)
def test_what_is_not_a_clock_is_refused_saying_which_field_and_what_it_takes(
    kind: str, typed: dict[str, str], said: str
) -> None:
    with pytest.raises(TimeControlError) as refused:
        typed_time_control(kind, typed)
    assert str(refused.value) == said
