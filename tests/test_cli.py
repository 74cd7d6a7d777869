"""The `parlour` command line."""

import pytest

from parlour.cli import main
from parlour.rules import GAMES, get_game
from parlour.rules.game import plain_perft
from parlour.rules.tribolo_boards import NAMED_BOARDS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_perft_prints_the_count_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "perft", "othello", "--depth", "6") == (0, "8200\n", "")


def test_perft_deals_the_board_number_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "perft", "tribolo", "--board", "7", "--option", "rows=8", "--depth", "3"
    )
    expected = plain_perft(get_game("tribolo").new({"rows": 8}, seed=7), 3)
    assert (status, out) == (0, f"{expected}\n")


def test_perft_reads_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    start = get_game("othello").new().format_position()
    assert run(capsys, "perft", "othello", "--position", start, "--depth", "4")[:2] == (0, "244\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["perft", "numlo", "--option", "tiles=0", "--depth", "1"], "'tiles' must be from 1"),
        (["perft", "numlo", "--board", "-3", "--depth", "1"], "board number"),
        (["perft", "numlo", "--board", "9" * 5000, "--depth", "1"], "board number must be from 0"),
        (["perft", "othello", "--position", "BW.", "--depth", "1"], "a position is"),
        (["perft", "othello", "--position", "B. X", "--depth", "1"], "'X' is not a seat"),
        (
            ["perft", "numlo", "--position", "BR. B", "--option", "rows=5", "--depth", "1"],
            "leave out --option",
        ),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert message in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("argv", [["perft", "chess", "--depth", "1"], ["perft", "othello"]])
def test_usage_errors_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2


def test_games_lists_every_game_and_option(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "games")
    assert status == 0
    for game in GAMES.values():
        assert f"{game.name}: {game.title}" in out
    assert "valued=24  (0..676)" in out
    assert "first=random  (random|red|white)" in out
    assert "computer levels: easy, medium, hard, expert (weakest first)" in out
    assert "computer levels: 1, 2, 3, 4, 5, 6, 7, 8, 9, perfect (weakest first)" in out


def test_perft_counts_abalone_moves_on_a_named_board(capsys: pytest.CaptureFixture[str]) -> None:
    # Abalone's published opening counts: 44 from the standard start, 52 from the daisy.
    assert run(capsys, "perft", "oubliette", "--board", "abalone", "--depth", "1")[:2] == (
        0,
        "44\n",
    )
    daisy = run(capsys, "perft", "oubliette", "--board", "belgian-daisy", "--depth", "1")
    assert daisy[:2] == (0, "52\n")


def test_perft_on_a_dealt_tripppin_board(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", "tripppin", "--board", "5", "--depth", "4")
    assert (status, out) == (0, f"{plain_perft(get_game('tripppin').new(seed=5), 4)}\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["perft", "numlo", "--board", "abalone", "--depth", "1"],
            "Numlo has no named boards",
        ),
        (["perft", "oubliette", "--board", "daisy", "--depth", "1"], "'board' must be one of"),
    ],
)
def test_named_board_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert message in err


def test_see_draws_a_named_tribolo_board_as_laid_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["see", "tribolo", "--board", "walls"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Tribolo, the walls board: who moves first is drawn at the start."
    drawn = [line[4:].replace("░░░", " # ").split() for line in lines[2:]]
    expected = [list(row.replace(".", "·")) for row in NAMED_BOARDS["walls"]]
    assert drawn == expected


def test_see_draws_a_dealt_board_and_refuses_a_name_there_is_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["see", "tribolo", "--board", "walls", "--option", "first=green"]) == 0
    assert capsys.readouterr().out.startswith("Tribolo, the walls board: Green moves first.\n")
    assert main(["see", "othello", "--board", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Othello, board 5: Black moves first.\n")
    assert main(["see", "tribolo", "--board", "maze"]) == 2
    assert "must be one of random, centre, islands, walls, diamond" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--smtp", "http://mail.example.org", "--mail-from", "games@example.org"],
            "--smtp 'http://mail.example.org' is not an SMTP URL: give smtp://",
        ),
        (
            ["--smtp", "smtp://mail.example.org?starttls=maybe", "--mail-from", "g@example.org"],
            "the one setting an SMTP URL takes is ?starttls=require",
        ),
        (
            ["--smtp", "smtp://mail.example.org", "--mail-from", "games"],
            "--mail-from 'games' is not an address to send from",
        ),
    ],
)
def test_serve_refuses_mail_settings_it_cannot_use_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", *argv])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--smtp", "smtp://mail.example.org"], "--smtp needs --mail-from too"),
        (["--mail-from", "games@example.org"], "--mail-from needs --smtp too"),
    ],
)
def test_serve_takes_an_smtp_server_and_its_sender_together(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "serve", *argv)
    assert (status, out) == (2, "")
    assert err.startswith(f"parlour serve: error: {message}")
    assert err.count("\n") == 1
