"""Options: defaults, bounds and types are checked before anything is dealt."""

import pytest

from parlour.rules import OptionError, get_game
from parlour.rules.options import parse_options


def test_defaults_fill_in_what_is_not_given() -> None:
    assert get_game("tribolo").resolve_options({"tiles": 5}) == {
        "rows": 11,
        "cols": 16,
        "blocked": 12,
        "tiles": 5,
        "first": "random",
        "board": "random",
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rows": 3}, "'rows' must be from 4 to 26, not 3"),
        ({"cols": 27}, "'cols' must be from 4 to 26, not 27"),
        ({"rows": "11"}, "'rows' takes a whole number"),
        ({"rows": True}, "'rows' takes a whole number"),
        ({"tiles": 1.5}, "'tiles' takes a whole number"),
        ({"first": "purple"}, "'first' must be one of random, blue, red, green"),
        ({"colour": "blue"}, "unknown option 'colour'"),
        ({"rows": 4, "cols": 4, "blocked": 4, "tiles": 4}, "leave no empty square"),
    ],
)
def test_bad_options_are_refused_with_a_reason(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        get_game("tribolo").new(options)  # type: ignore[arg-type]


def test_doublolo_needs_room_for_its_blocked_squares() -> None:
    with pytest.raises(OptionError, match="blocked squares do not fit"):
        get_game("doublolo").new({"rows": 4, "cols": 8, "blocked": 40})


def test_othello_takes_no_options() -> None:
    with pytest.raises(OptionError, match=r"unknown option 'rows' \(this game's options: none\)"):
        get_game("othello").new({"rows": 10})


def test_options_parse_from_command_line_text() -> None:
    specs = get_game("numlo").option_specs
    assert parse_options(specs, ["rows=10", " valued = 3", "first=Red"]) == {
        "rows": 10,
        "valued": 3,
        "first": "red",
    }
    for bad, message in [("rows", "KEY=VALUE"), ("rows=ten", "whole number"), ("x=1", "unknown")]:
        with pytest.raises(OptionError, match=message):
            parse_options(specs, [bad])


@pytest.mark.parametrize("given", [5, ["rows"], "rows=5", {1: 2}, {"rows": 5, 7: 1}])
def test_options_must_be_a_mapping_of_names(given: object) -> None:
    with pytest.raises(OptionError, match="options are a mapping from option names"):
        get_game("tribolo").new(given)  # type: ignore[arg-type]
