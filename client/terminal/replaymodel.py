"""A replay as the client steps through it (protocol.md 2.10 `replay`): each frame's board,
mover and move, the series the charts draw, the worst moves, and words for all of them.
Pure: the server's answer in, values and words out; the screen draws them."""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from parlour.protocol import messages as m

from .ratings import BETWEEN, MINUS
from .room import title

SHARE_WHOLE: Final = 1000
"""A share of the win in thousandths: the whole of it."""


def thousandths(value: object) -> int | None:
    """A judge's share, or a loss of one, in thousandths; a fraction from 0 to 1 sent as a
    float is read as such, so that either spelling draws alike."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and -1.0 <= value <= 1.0:
        return round(value * SHARE_WHOLE)
    return round(value)


def percent(share: int) -> str:
    """A share in thousandths as a whole percentage: `45%`."""
    return f"{round(share / 10)}%"


@dataclass(frozen=True, slots=True)
class Worst:
    """A move that cost its mover much of their share of the win."""

    ply: int
    colour: str
    loss: int
    """In thousandths of the whole."""


@dataclass(frozen=True, slots=True)
class Frame:
    """The game after `ply` moves, as the server sent it."""

    ply: int
    move: str | None
    mover: str | None
    state: dict[str, Any]
    changed: tuple[str, ...]
    scores: tuple[int, ...]
    evaluation: tuple[int, ...] | None
    """Each seat's share of the win in thousandths, in seat order; None if not judged."""


def read_frame(raw: Mapping[str, Any], seats: int) -> Frame:
    """One frame of the server's answer; ValueError if it lacks what a frame has."""
    state = raw.get("state")
    if not isinstance(state, dict):
        raise ValueError(f"frame {raw.get('ply')} has no board")
    scores = tuple(int(score) for score in raw.get("scores") or ())
    judged = raw.get("evaluation")
    evaluation = None
    if isinstance(judged, list) and len(judged) == seats:
        shares = [thousandths(share) for share in judged]
        evaluation = None if None in shares else tuple(int(share or 0) for share in shares)
    move, mover = raw.get("move"), raw.get("mover")
    return Frame(
        ply=int(raw["ply"]),
        move=None if move is None else str(move),
        mover=None if mover is None else str(mover),
        state=state,
        changed=tuple(str(cell) for cell in raw.get("changed") or ()),
        scores=scores,
        evaluation=evaluation,
    )


@dataclass(frozen=True)
class ReplayModel:
    """A whole replay: the frames in order, ply 0 the start."""

    game: str
    seats: tuple[str, ...]
    names: tuple[str, ...]
    frames: tuple[Frame, ...]
    evaluator: str | None
    worst: tuple[Worst, ...]
    winners: tuple[str, ...]
    final_scores: tuple[int, ...]
    over: bool

    @classmethod
    def from_reply(cls, reply: m.ReplayReply) -> "ReplayModel":
        """The replay the server sent; ValueError if it cannot be read."""
        try:
            seats = tuple(str(seat) for seat in reply.seats)
            frames = tuple(read_frame(frame, len(seats)) for frame in reply.frames)
            worst = tuple(
                Worst(int(slip["ply"]), str(slip["colour"]), thousandths(slip["loss"]) or 0)
                for slip in reply.worst
            )
            result = reply.result if isinstance(reply.result, dict) else {}
            winners = tuple(str(colour) for colour in result.get("winners", ()))
            final = tuple(int(score) for score in result.get("scores", ()))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"the replay cannot be read: {error}") from None
        if not frames or [frame.ply for frame in frames] != list(range(len(frames))):
            raise ValueError("the replay's frames are not the start and one a move")
        names = tuple(str(name) for name in reply.names)
        over = bool(result.get("over", frames[-1].state.get("over", False)))
        return cls(reply.game, seats, names, frames, reply.evaluator, worst, winners, final, over)

    @property
    def last(self) -> int:
        """The last ply: how many moves the game had."""
        return len(self.frames) - 1

    def name_of(self, colour: str) -> str:
        """Who held a seat at the start, in a game file's words."""
        index = self.seats.index(colour) if colour in self.seats else -1
        return self.names[index] if 0 <= index < len(self.names) else ""

    @property
    def racing(self) -> bool:
        """Whether the game is a race to targets (Tripppin), charted by targets reached."""
        return isinstance(self.frames[0].state.get("progress"), dict)

    def scores(self) -> dict[str, list[float | None]]:
        """Each seat's score after every ply, for the score chart; in a race, the targets
        each has reached."""
        if self.racing:
            return {
                colour: [
                    _number(frame.state.get("progress", {}).get(colour)) for frame in self.frames
                ]
                for colour in self.seats
            }
        return {
            colour: [
                float(frame.scores[seat]) if seat < len(frame.scores) else None
                for frame in self.frames
            ]
            for seat, colour in enumerate(self.seats)
        }

    @property
    def score_caption(self) -> str:
        return "Targets reached" if self.racing else "Score"

    @property
    def judged(self) -> bool:
        return any(frame.evaluation is not None for frame in self.frames)

    def shares(self) -> dict[str, list[float | None]]:
        """Each seat's share of the win in thousandths after every ply, for the chart of
        chances; None where the judge said nothing."""
        return {
            colour: [
                None if frame.evaluation is None else float(frame.evaluation[seat])
                for frame in self.frames
            ]
            for seat, colour in enumerate(self.seats)
        }

    def worst_at(self, ply: int) -> Worst | None:
        return next((slip for slip in self.worst if slip.ply == ply), None)

    def next_worst(self, ply: int) -> int | None:
        """The ply of the next worst move after `ply`, round to the first."""
        plies = sorted(slip.ply for slip in self.worst)
        return next((marked for marked in plies if marked > ply), plies[0] if plies else None)

    def move_line(self, ply: int) -> str:
        """A frame in the move list: `12. Blue d5`, with `??` on a worst move."""
        frame = self.frames[ply]
        if frame.move is None:
            return "   start"
        slip = self.worst_at(ply)
        marked = f"  ?? {MINUS}{percent(slip.loss)}" if slip is not None else ""
        return f"{ply:>3}. {title(frame.mover or '')} {frame.move}{marked}"

    def frame_words(self, ply: int) -> str:
        """What happened at `ply`: who moved and what, or the start."""
        frame = self.frames[ply]
        if frame.move is None:
            mover = frame.state.get("to_move")
            first = f": {title(str(mover))} moves first" if mover else ""
            return f"The start{first} ({self.last} moves in all)"
        words = f"Move {ply} of {self.last}: {title(frame.mover or '')} played {frame.move}"
        slip = self.worst_at(ply)
        if slip is not None:
            words += f"; a worst move, it lost {percent(slip.loss)} of the win"
        if ply == self.last and self.over:
            words += f". {self.result_words()}"
        return words

    def standing(self, ply: int) -> list[tuple[str, str]]:
        """Each seat and how it stands at `ply`: its score (targets reached, in a race) and,
        where judged, its share of the win: `12 (45%)`."""
        frame = self.frames[ply]
        scores = self.scores()
        parts = []
        for seat, colour in enumerate(self.seats):
            value = scores[colour][ply]
            score = "?" if value is None else str(round(value))
            share = "" if frame.evaluation is None else f" ({percent(frame.evaluation[seat])})"
            parts.append((colour, f"{score}{share}"))
        return parts

    def result_words(self) -> str:
        """How the game ended: who won, with the scores."""
        if not self.over:
            return "The game was not played to its end."
        winners = [title(colour) for colour in self.winners]
        scores = BETWEEN.join(str(score) for score in self.final_scores)
        scores = f", {scores}" if any(self.final_scores) else ""
        if not winners or len(winners) == len(self.seats):
            return f"A draw{scores}."
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"{' and '.join(winners)} {verb}{scores}."

    def players_words(self) -> str:
        """Who played which seat: `Blue Ann, Red computer (hard)`."""
        return ", ".join(
            f"{title(colour)} {self.name_of(colour)}".strip() for colour in self.seats
        )


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def score_ticks(series: Mapping[str, Sequence[float | None]]) -> list[tuple[float, str]]:
    """Whole numbers to label a score chart's y axis with: 0, the middle and the top."""
    top = max((value for values in series.values() for value in values if value), default=0)
    top = max(1, math.ceil(top))
    middle = top // 2
    return [
        (0.0, "0"),
        *([(float(middle), str(middle))] if 0 < middle < top else []),
        (float(top), str(top)),
    ]
