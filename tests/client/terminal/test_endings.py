"""Ending a game on purpose in the terminal (protocol.md 2.7): Resign, Abort and Offer draw
from the F1 list, each question with the safe answer in focus, and another's draw or
rematch declined by Enter; against a real server on port 0. Then the words, from views a
lobby in this process made: how each game ended, a resignation of three seats, history."""

import asyncio
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Button, RichLog, Static

from parlour.client.connection import Connection
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.dialogs import ConfirmScreen, ProposalScreen
from parlour.client.terminal.history import history_lines
from parlour.client.terminal.room import RoomModel
from parlour.protocol import messages as m
from parlour.server.lobby import Lobby

from ...server.test_clocks import clocked_lobby, started
from ...server.test_endings import both_moved, rated_lobby, view_of
from ...server.test_lobby import Clock as Ticks
from ...server.test_lobby import to
from .test_app import SCREEN, WAIT, command, room_view, screen_of, status_text, type_line, until
from .test_clocks import Local
from .test_history import entry

ENDINGS = ["Offer draw", "Resign", "Abort"]


async def othello(ann: Connection, bob: Connection, *, plies: int = 0) -> RoomModel:
    """Othello with ann Black and bob White, started, and `plies` first legal moves played
    in turn; ann's room as it now is."""
    joined = await ann.request(m.CreateRoom(game="othello", seat="black", board=1))
    assert isinstance(joined, m.Joined)
    room = RoomModel.joined(joined)
    assert isinstance(await bob.request(m.Join(room=room.ref, seat="white")), m.Joined)
    assert isinstance(await ann.request(m.Start(room=room.ref)), m.Ok)
    for _ in range(plies):
        view = await room_view(ann, room)
        mover = ann if view["state"]["to_move"] == "black" else bob
        legal = view["state"]["legal_moves"][0]
        await mover.request(m.Move(room=room.ref, version=view["version"], move=legal))
    room.apply(m.RoomView(room=await room_view(ann, room)))
    return room


def offered(app: ParlourApp) -> list[str]:
    """The ending commands the F1 list offers now."""
    return [each.name for each in screen_of(app).commands if each.name in ENDINGS]


def log_text(app: ParlourApp) -> str:
    return "\n".join(line.text for line in screen_of(app).query_one("#log", RichLog).lines)


def question(app: ParlourApp) -> str:
    """The words of the question on the screen."""
    return str(app.screen.query_one("#words", Static).render())


async def next_proposal(connection: Connection) -> m.Proposal:
    """The next proposal the connection hears of."""
    while True:
        event = await asyncio.wait_for(connection.events.get(), WAIT)
        if isinstance(event, m.Proposal):
            return event


def focused_button(app: ParlourApp) -> str | None:
    focused = app.screen.focused
    return focused.id if isinstance(focused, Button) else None


async def asked(pilot: Pilot[None], kind: type[ConfirmScreen] | type[ProposalScreen]) -> None:
    """Wait for a question of `kind`, up with a button in focus."""

    def up() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, kind) and isinstance(screen.focused, Button)

    await until(pilot, up, f"a {kind.__name__} came")


async def test_resign_asks_first_enter_keeps_playing_then_it_resigns_a_rated_game(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    room = await othello(ann, bob, plies=2)
    assert room.view["rated"] and not room.view["abortable"]
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        assert offered(app) == ["Offer draw", "Resign"]
        await command(pilot, "Resign")
        await asked(pilot, ConfirmScreen)
        assert question(app) == (
            "Resign this game? bob (White) wins, and the game counts for both ratings."
        )
        assert focused_button(app) == "no"
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "the question went")
        await pilot.pause()
        kept = await room_view(ann, room)
        assert (kept["status"], kept["resigned"]) == ("playing", []), "nothing was sent"

        await command(pilot, "Resign")
        await asked(pilot, ConfirmScreen)
        await pilot.press("tab", "enter")
        await until(pilot, lambda: screen.room.status == "finished", "the game ended")
        result = "You resigned: bob (White) wins."
        await until(pilot, lambda: result in status_text(app), "the result line said so")
        assert result in log_text(app)
        assert offered(app) == []
    ended = await room_view(bob, room)
    assert (ended["ended"], ended["resigned"], ended["winners"]) == (
        "resigned",
        ["black"],
        ["white"],
    )
    assert ended["rated"]


async def test_abort_before_anyone_moved_ends_the_game_for_nobody(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    room = await othello(ann, bob)
    assert room.view["abortable"]
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        assert offered(app) == ["Offer draw", "Abort"], "resigning now would be aborting"
        await command(pilot, "Abort")
        await asked(pilot, ConfirmScreen)
        assert question(app) == "Abort this game? The game ends now and counts for nobody."
        assert focused_button(app) == "no"
        await pilot.press("tab", "enter")
        await until(pilot, lambda: screen.room.status == "finished", "the game ended")
        aborted = "Aborted: the game counts for nobody."
        await until(pilot, lambda: aborted in status_text(app), "the result line said so")
        assert aborted in log_text(app) and "F8 replays" not in log_text(app)
        rated = str(screen.query_one("#rated", Static).render())
        assert rated == "Aborted: it counts for nobody's rating."
    ended = await room_view(bob, room)
    assert (ended["ended"], ended["winners"], ended["rating_changes"]) == ("aborted", [], None)


async def test_a_draw_offered_is_asked_of_the_other_and_one_asked_of_me_enter_declines(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    room = await othello(ann, bob, plies=2)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        # Ann offers one: Bob is asked, and declines.
        await command(pilot, "Offer draw")
        offered = "You asked to agree a draw; waiting for an answer."
        await until(pilot, lambda: offered in status_text(app), "it said it was offered")
        offer = await next_proposal(bob)
        assert (offer.kind, offer.by, offer.asked) == ("draw", "black", ["white"])
        no = m.Answer(room=room.ref, proposal=offer.proposal, accept=False)
        assert isinstance(await bob.request(no), m.Ok)
        await until(pilot, lambda: "bob (White) declined the draw." in log_text(app), "told")

        # Bob offers one: Enter declines it, and Tab, Enter accepts the next.
        assert isinstance(await bob.request(m.OfferDraw(room=room.ref)), m.Ok)
        await asked(pilot, ProposalScreen)
        assert question(app) == "bob (White) asks to agree a draw."
        assert focused_button(app) == "decline"
        await pilot.press("enter")
        declined = "You declined the draw."
        await until(pilot, lambda: declined in log_text(app), "the log said so")
        assert app.screen is screen and screen.room.status == "playing"
        assert (await room_view(bob, room))["status"] == "playing"

        assert isinstance(await bob.request(m.OfferDraw(room=room.ref)), m.Ok)
        await asked(pilot, ProposalScreen)
        await pilot.press("tab", "enter")
        await until(pilot, lambda: screen.room.status == "finished", "the game ended")
        drawn = "Game over by agreement: a draw."
        await until(pilot, lambda: drawn in status_text(app), "the result line said so")
        assert "A draw was agreed." in log_text(app)
    ended = await room_view(bob, room)
    assert (ended["ended"], ended["winners"]) == ("agreed", ["black", "white"])


async def test_a_rematch_asked_after_the_end_reads_so_and_enter_declines_it(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    room = await othello(ann, bob)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        assert isinstance(await bob.request(m.Abort(room=room.ref, version=0)), m.Ok)
        await until(pilot, lambda: screen.room.status == "finished", "the game ended")
        version = screen.room.version
        assert isinstance(await bob.request(m.NewGame(room=room.ref, rotate=True)), m.Ok)
        await asked(pilot, ProposalScreen)
        assert question(app) == "bob (White) asks to play a rematch."
        assert focused_button(app) == "decline"
        await pilot.press("enter")
        declined = "You declined to play a rematch."
        await until(pilot, lambda: declined in log_text(app), "the log said so")
        assert screen.room.status == "finished" and screen.room.version == version
    kept = await room_view(bob, room)
    assert (kept["status"], kept["version"], kept["you"]) == ("finished", version, "white")


async def test_sentences_typed_on_the_board_go_to_the_chat_and_end_nothing(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    room = await othello(ann, bob, plies=2)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        said = "I resign, abort it! Offer draw? yes"
        await type_line(pilot, said)
        await until(pilot, lambda: f"ann (Black): {said}" in log_text(app), "it was said")
        assert app.screen is screen, "no question came"
        assert screen.room.status == "playing" and screen.room.proposal is None
    kept = await room_view(bob, room)
    assert (kept["status"], kept["resigned"]) == ("playing", [])


async def test_only_a_person_playing_is_offered_an_ending_and_no_draw_against_computers(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    joined = await ann.request(m.CreateRoom(game="othello", seat="black", board=1))
    assert isinstance(joined, m.Joined)
    alone = RoomModel.joined(joined)
    await ann.request(m.FillBots(room=alone.ref, level="easy"))
    await ann.request(m.Start(room=alone.ref))
    alone.apply(m.RoomView(room=await room_view(ann, alone)))
    watched = await bob.request(m.Spectate(room=alone.ref))
    assert isinstance(watched, m.Watching)
    watcher = ParlourApp(bob, RoomModel.watching(watched, alone.ref))
    async with watcher.run_test(size=SCREEN):
        assert offered(watcher) == []
    app = ParlourApp(ann, alone)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        assert offered(app) == ["Abort"], "the computer accepts no draw"
        legal = screen.room.observation["legal_moves"]  # type: ignore[index]
        version = screen.room.version
        await ann.request(m.Move(room=alone.ref, version=version, move=legal[0]))
        # Her first move: no update says the game may no longer be aborted; it is asked.
        await until(pilot, lambda: not screen.room.view["abortable"], "the room was asked")
        assert offered(app) == ["Resign"]
        await command(pilot, "Resign")
        await asked(pilot, ConfirmScreen)
        assert question(app) == (
            "Resign this game? The computer (White) wins, and the game counts for both ratings."
        )
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the question went")
        assert screen.room.status == "playing"


# The words, from views a lobby in this process made.


def model(lobby: Lobby, room: str, conn: int, now: Callable[[], float] | None = None) -> RoomModel:
    """Conn's room as the client keeps it, from a view the lobby sends it; on `now`, a
    clock the test turns."""
    made = RoomModel(view_of(lobby, room, conn), room, now=now or Local())
    made.apply(m.RoomView(room=made.view))
    return made


def tell(models: dict[int, RoomModel], outbox: Any) -> None:
    """Every message of `outbox` to the room's model of the connection it goes to."""
    for conn, room in models.items():
        for message in to(outbox, conn):
            room.apply(message)


def test_in_a_game_of_three_a_resignation_plays_the_seat_on_and_the_last_one_ends_it() -> None:
    lobby = rated_lobby(3)
    room = started(lobby, "tribolo", ["blue", "red", "green"])
    both_moved(lobby, room, plies=3)
    ann, bob, cy = (model(lobby, room, conn) for conn in (1, 2, 3))
    models = {1: ann, 2: bob, 3: cy}
    assert (ann.may_resign, ann.may_abort, ann.may_offer_draw) == (True, False, True)

    tell(models, lobby.handle(1, m.OfferDraw(room=room)))
    ranked = "Ann (Blue) asks to end the game now, ranked by the scores as they stand."
    assert bob.news == ranked and bob.asks_me and not ann.asks_me
    assert ann.news == (
        "You asked to end the game now, ranked by the scores as they stand; waiting for answers."
    )
    assert bob.proposal is not None
    no = m.Answer(room=room, proposal=bob.proposal.proposal, accept=False)
    tell(models, lobby.handle(2, no))
    assert (
        ann.news == "Bob (Red) declined to end the game now, ranked by the scores as they stand."
    )

    assert ann.resign_question() == (
        "Resign this game? You finish last; the computer plays your seat on and the game"
        " still counts for the others."
    )
    out = ann.out
    tell(models, lobby.handle(1, m.Resign(room=room, version=ann.version)))
    assert ann.out_words(out) == ["Ann (Blue) resigned; the computer plays on."]
    assert ann.status == "playing" and ann.playing == []
    assert not (ann.may_resign or ann.may_offer_draw), "her seat is the computer's now"

    assert bob.resign_question() == (
        "Resign this game? Cy (Green) wins, and the game counts for every player's rating."
    )
    tell(models, lobby.handle(2, m.Resign(room=room, version=bob.version)))
    assert ann.status == "finished"
    assert ann.result() == "Bob (Red) resigned: Cy (Green) wins."
    assert bob.result() == "You resigned: Cy (Green) wins."
    assert cy.result() == "Bob (Red) resigned: you win!"
    lines = history_lines(lobby.rooms[room].history.window(), seats=3)
    assert "Ann (Blue) resigned; the computer plays on." in lines
    assert lines[-2] == "Bob (Red) resigned."
    assert lines[-1].startswith("Game over: Cy won ")


def test_an_unrated_resignation_says_why_and_a_draw_in_a_game_of_two_is_a_tie() -> None:
    lobby, _ = clocked_lobby(("Ann", None), ("Bob", None))
    room = started(lobby, "othello", ["black", "white"])
    both_moved(lobby, room)
    ann = model(lobby, room, 1)
    assert ann.resign_question() == (
        "Resign this game? Bob (White) wins. The game counts for no rating: Ann plays as a guest."
    )
    bob = model(lobby, room, 2)
    models = {1: ann, 2: bob}
    tell(models, lobby.handle(1, m.OfferDraw(room=room)))
    assert bob.news == "Ann (Black) asks to agree a draw."
    assert ann.news == "You asked to agree a draw; waiting for an answer."
    proposal = bob.proposal
    assert proposal is not None
    tell(models, lobby.handle(2, m.Answer(room=room, proposal=proposal.proposal, accept=True)))
    assert ann.news == "A draw was agreed." and ann.status == "finished"
    assert ann.result() == "Game over by agreement: a draw."


def test_a_draw_offer_lapses_when_the_game_ends_under_it_or_nobody_answers_in_time() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"])
    both_moved(lobby, room)
    local = Local()
    ann = model(lobby, room, 1, local)
    tell({1: ann}, lobby.handle(1, m.OfferDraw(room=room)))
    local.now += 31
    ticks = lobby.services.clock
    assert isinstance(ticks, Ticks)
    ticks.now += 31
    tell({1: ann}, lobby.tick())
    assert ann.news == "No answer in time: no draw." and ann.proposal is None

    tell({1: ann}, lobby.handle(1, m.OfferDraw(room=room)))
    told = [
        message for message in to(lobby.handle(1, m.Resign(room=room, version=ann.version)), 1)
    ]
    assert isinstance(told[1], m.ProposalEnded), "the offer ends before the game is shown over"
    said = []
    for message in told:
        ann.apply(message)
        said.append(ann.news)
    assert said[1] == "The draw offer lapsed: the game changed before everyone had answered."
    assert ann.result() == "You resigned: Bob (White) wins."
    lines = history_lines(lobby.rooms[room].history.window())
    assert lines[-4:-2] == ["No answer in time: no draw.", "Ann (Black) resigned."]
    assert lines[-2].startswith("Game over: Bob won ")
    assert lines[-1] == said[1], "the history says what the live log said"


def test_every_way_a_game_ends_has_its_result_line() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"])
    ann = model(lobby, room, 1)
    tell({1: ann}, lobby.handle(2, m.Abort(room=room, version=0)))
    assert ann.result() == "Aborted: the game counts for nobody."

    # A person away at the end finishes last, the computer having played their seat.
    view = dict(view_of(lobby, room, 2))
    view.update(ended="played", winners=["black"], absent=["white"])
    view["seats"] = [
        {"colour": "black", "holder": {"kind": "human", "name": "Ann", "connected": True}},
        {"colour": "white", "holder": {"kind": "standin", "name": "Bob", "level": "easy"}},
    ]
    assert RoomModel(view, room).result() == (
        "Game over: Ann (Black) wins. Bob (White) was away at the end and finishes last."
    )
    view.update(yours=["white"], you="white")
    view["seats"][1]["holder"] = {"kind": "human", "name": "Bob", "connected": True}
    back = RoomModel(view, room)
    back.apply(m.RoomView(room=view))
    assert back.result() == (
        "Game over: Ann (Black) wins. You were away at the end and finish last."
    )
    view.update(ended="flag", flagged=["white"], absent=[])
    assert RoomModel(view, room).result() == "Game over: Ann (Black) wins on time."


def test_a_rematch_after_a_game_aborted_before_a_move_is_told_as_a_new_game() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"])
    ann, bob = model(lobby, room, 1), model(lobby, room, 2)
    models = {1: ann, 2: bob}
    tell(models, lobby.handle(1, m.Abort(room=room, version=0)))
    tell(models, lobby.handle(1, m.NewGame(room=room, rotate=True)))
    assert bob.news == "Ann (Black) asks to play a rematch."
    assert bob.proposal is not None
    yes = m.Answer(room=room, proposal=bob.proposal.proposal, accept=True)
    tell(models, lobby.handle(2, yes))
    assert ann.status == bob.status == "playing"
    assert ann.news == bob.news == "A new game began."
    assert (ann.playing, bob.playing) == (["white"], ["black"])


def test_the_history_tells_resignations_aborts_and_a_rematch_declined() -> None:
    over = entry("over", winners=["red"], scores={"blue": 1, "red": 3}, names={"red": "Bob"})
    entries = [
        entry("resigned", 1, seat="blue", name="Ann", ends=True),
        {**over, "n": 2},
        entry("proposal", 3, proposal="new_game", outcome="declined", by="blue"),
        entry("new_game", 4, first="red", board=3, rotated=True, coin=None),
        entry("proposal", 5, proposal="new_game", outcome="expired", by=None),
        entry("proposal", 6, proposal="draw", outcome="declined", by="red"),
        entry("aborted", 7, seat="red", name="Bob"),
        entry("aborted", 8, seat="blue", name="Ann", late=True),
    ]
    assert history_lines(entries) == [
        "Ann (Blue) resigned.",
        "Game over: Bob won 1\N{EN DASH}3.",
        "Blue declined to play a rematch.",
        "A new game began with everyone one seat on: Red moves first.",
        "No answer in time: no new game.",
        "Red declined the draw.",
        "Bob (Red) aborted the game: it counts for nobody.",
        "Ann (Blue) made no first move in time: the game is aborted and counts for nobody.",
    ]
    assert history_lines(entries[5:6], seats=3) == [
        "Red declined to end the game now, ranked by the scores as they stand."
    ]
