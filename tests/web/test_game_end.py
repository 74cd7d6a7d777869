"""The end of a game in the browser: the result in the players' names, nothing over the final
position, and Rematch, which plays again with every seat's holder moved to the next seat in
turn order (`new_game` with `rotate`, protocol.md 2.7), so that the first move changes hands."""

from typing import Any

from .test_page import Player, create_room, more_options, open_player
from .test_typing import Sent

__all__ = ["open_player"]

NEAR_THE_END = "B.WWW.WB/WBWWWWBB/WWBBWBWB/WWBWBWBB/WWBWWWWB/.WWWWW../WWBBWWW./..BWWWWW B"
"""An Othello position a few moves from the end, Black to move."""
SMALL = {"rows": "6", "cols": "6", "blocked": "0", "tiles": "2"}


def holders(player: Player) -> list[str]:
    """Who holds each seat, in turn order: a person's name, or the computer's level."""
    names: list[str] = player.hook(
        "room.view.seats.map((seat) => seat.holder.name ?? `computer ${seat.holder.level}`)"
    )
    return names


def rematch(player: Player, seat: str) -> None:
    """Press Rematch after the end, check what it asked, and wait until the player's person
    plays `seat` (the bots may play on at once: the new game is not waited for)."""
    sent = Sent(player.page)
    version = player.hook("room.view.version")
    player.page.click("[data-action=rematch]")
    player.wait("room.playing().length === 1 && room.playing()[0] === arg", seat)
    asked = [message for message in sent.messages if message["type"] == "new_game"]
    ref = player.hook("room.ref")
    assert asked == [{"type": "new_game", "room": ref, "rotate": True, "version": version}]


def test_rematch_moves_both_seats_round_in_othello(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "othello")
    more_options(page)
    page.fill("#position", NEAR_THE_END)
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.play_out()
    turn = page.locator("#turn").inner_text()
    scores = ann.view["state"]["scores"]
    assert turn in {
        f"Ann won, {scores['black']} to {scores['white']}.",
        f"The computer (easy) won, {scores['white']} to {scores['black']}.",
        f"Ann and the computer (easy) tied, {scores['black']} to {scores['white']}.",
    }, turn
    assert page.locator("dialog[open]").count() == 0
    assert holders(ann) == ["Ann", "computer easy"]
    rematch(ann, "white")
    assert holders(ann) == ["computer easy", "Ann"]
    assert page.locator("#game-over").is_hidden()
    # Black moves first from the position: the computer now, Ann after it.
    ann.my_turn()
    assert ann.hook("room.played[0].seat") == "black" and ann.view["state"]["to_move"] == "white"


def test_rematch_moves_three_seats_round_in_tribolo(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "tribolo")
    more_options(page)
    for name, value in SMALL.items():
        page.fill(f"#option-{name}", value)
    page.select_option("#option-first", "blue")
    create_room(ann, "tribolo", {"blue": "you", "red": "easy", "green": "medium"})
    ann.play_out()
    assert holders(ann) == ["Ann", "computer easy", "computer medium"]
    rematch(ann, "red")
    assert holders(ann) == ["computer medium", "Ann", "computer easy"]
