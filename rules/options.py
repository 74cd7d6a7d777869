"""Game options: each with a default and bounds, checked before a game is dealt."""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .dealing import MAX_BOARD_NUMBER, check_board_number
from .errors import OptionError
from .jsonvalue import JsonValue

OptionValue = int | str
Options = Mapping[str, OptionValue]


@dataclass(frozen=True, slots=True)
class IntOption:
    """A whole-number option within [minimum, maximum]."""

    name: str
    default: int
    minimum: int
    maximum: int
    help: str

    def check(self, value: object) -> int:
        """Return the value if it is allowed, else raise OptionError."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"option {self.name!r} takes a whole number, not {value!r}")
        if not self.minimum <= value <= self.maximum:
            raise OptionError(
                f"option {self.name!r} must be from {self.minimum} to {self.maximum}, not {value}"
            )
        return value

    def parse(self, text: str) -> int:
        """Read the value from text, as given on a command line."""
        try:
            return self.check(int(text.strip()))
        except ValueError as error:
            if isinstance(error, OptionError):
                raise
            raise OptionError(f"option {self.name!r} takes a whole number, not {text!r}") from None

    def describe(self) -> dict[str, JsonValue]:
        """A JSON-compatible description for clients and help texts."""
        return {
            "name": self.name,
            "kind": "int",
            "default": self.default,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class ChoiceOption:
    """An option that takes one of a few names."""

    name: str
    default: str
    choices: tuple[str, ...]
    help: str

    def check(self, value: object) -> str:
        """Return the value if it is one of the choices, else raise OptionError."""
        if not isinstance(value, str) or value not in self.choices:
            raise OptionError(
                f"option {self.name!r} must be one of {', '.join(self.choices)}, not {value!r}"
            )
        return value

    def parse(self, text: str) -> str:
        """Read the value from text, as given on a command line."""
        return self.check(text.strip().lower())

    def describe(self) -> dict[str, JsonValue]:
        """A JSON-compatible description for clients and help texts."""
        return {
            "name": self.name,
            "kind": "choice",
            "default": self.default,
            "choices": list[JsonValue](self.choices),
            "help": self.help,
        }


OptionSpec = IntOption | ChoiceOption


def _unknown_option(name: str, known: Mapping[str, OptionSpec]) -> OptionError:
    """The error for an option the game does not have, naming those it has."""
    return OptionError(
        f"unknown option {name!r} (this game's options: {', '.join(known) or 'none'})"
    )


def resolve_options(specs: Sequence[OptionSpec], given: Options | None) -> dict[str, OptionValue]:
    """Every option of `specs` with its value: the given one, checked, or the default."""
    known = {spec.name: spec for spec in specs}
    given = {} if given is None else given
    if not isinstance(given, Mapping) or not all(isinstance(name, str) for name in given):
        raise OptionError(f"options are a mapping from option names to values, not {given!r}")
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise _unknown_option(unknown[0], known)
    return {
        name: spec.check(given[name]) if name in given else spec.default
        for name, spec in known.items()
    }


def parse_options(specs: Sequence[OptionSpec], pairs: Sequence[str]) -> dict[str, OptionValue]:
    """Options from `KEY=VALUE` texts, as typed on a command line."""
    known = {spec.name: spec for spec in specs}
    parsed: dict[str, OptionValue] = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        name = name.strip()
        if not equals:
            raise OptionError(f"an option is written KEY=VALUE, not {pair!r}")
        if name not in known:
            raise _unknown_option(name, known)
        parsed[name] = known[name].parse(text)
    return parsed


def board_choice(
    title: str, specs: Sequence[OptionSpec], board: str
) -> tuple[int | None, list[str]]:
    """A board as typed after `--board`: a number to deal, or the name of one of the
    game's named boards, given as its `board=NAME` option (and no number)."""
    text = board.strip()
    if re.fullmatch(r"[+-]?[0-9]+", text):
        if len(text) > len(str(MAX_BOARD_NUMBER)) + 1:
            raise OptionError(f"the board number must be from 0 to {MAX_BOARD_NUMBER}")
        return check_board_number(int(text)), []
    if not any(spec.name == "board" for spec in specs):
        raise OptionError(f"{title} has no named boards: --board takes a board number")
    return None, [f"board={text}"]
