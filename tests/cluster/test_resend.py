"""Requests sent again through a fault (protocol.md 2.4, 6): while Redis is down every
request about a room is answered `unavailable`, and each is sent again as it was until it is
answered, then once more, as a client whose answer was lost would. Judged from everything
the clients were shown, each took effect once: one seat taken, one seat changed, one start,
one draw asked, one answer, one end."""

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from parlour.protocol import messages as m

from .conftest import StartNode, start_nodes
from .processes import Node, RedisProcess, until_health
from .test_faults import Watched

LEASE: Final = "2"
PAUSE: Final = 0.25
"""Seconds between sendings, as protocol.md 6 asks."""
DOWN: Final = 0.1
"""Seconds Redis stays down each time, once every node knows."""


class Outages:
    """Redis killed, and started again after `DOWN` seconds, once for each request."""

    def __init__(self, redis: RedisProcess, nodes: list[Node]) -> None:
        self.redis = redis
        self.nodes = nodes
        self.unavailable: Counter[str] = Counter()

    async def across(self, *sent: tuple[Watched, m.ClientMessage]) -> list[m.ServerMessage]:
        """Each request sent while Redis is down, again until answered, then once more; the
        first answers that were not `unavailable`, each checked to be what the last sending
        was answered."""
        await self.redis.kill()
        for node in self.nodes:
            await until_health(node, "503")
        back = asyncio.create_task(self._back())
        answers = await asyncio.gather(*(self._until_answered(*each) for each in sent))
        await back
        for (person, request), first in zip(sent, answers, strict=True):
            again = await ask(person, request)
            assert type(again) is type(first), (request, first, again)
            assert not isinstance(again, m.Error), (request, again)
        return answers

    async def _back(self) -> None:
        await asyncio.sleep(DOWN)
        await self.redis.start()

    async def _until_answered(self, person: Watched, request: m.ClientMessage) -> m.ServerMessage:
        return await ask(person, request, lambda: self.unavailable.update([request.TYPE]))


async def ask(
    person: Watched, request: m.ClientMessage, refused: Callable[[], None] = lambda: None
) -> m.ServerMessage:
    """`request` sent again as it was until it is answered other than `unavailable` (a room
    may still be changing hands once Redis is back); `refused` is told of each
    `unavailable`."""
    while True:
        answer = await person.request(request)
        if not (isinstance(answer, m.Error) and answer.code == "unavailable"):
            return answer
        refused()
        await asyncio.sleep(PAUSE)


async def view(person: Watched, ref: str) -> dict[str, Any]:
    shown = await ask(person, m.GetRoom(room=ref))
    assert isinstance(shown, m.RoomView), shown
    return shown.room


async def test_a_seat_the_start_a_draw_and_its_answer_sent_again_happen_once(
    start: StartNode, redis_server: RedisProcess
) -> None:
    owner, edge = await start_nodes(start, 2, "--lease", LEASE, "--bot-workers", "0")
    ann = await Watched.open(owner.port, "Ann")  # the host
    bob = await Watched.open(edge.port, "Bob")
    made = await ann.request(m.CreateRoom(game="othello", board=1, seat=None))
    assert isinstance(made, m.Joined), made
    ref = made.room["room"]
    outages = Outages(redis_server, [owner, edge])

    joined, taken = await outages.across(
        (bob, m.Join(room=ref, seat="black")),
        (ann, m.SetSeat(room=ref, seat="white", holder="human")),
    )
    assert isinstance(joined, m.Joined) and joined.seat == "black", joined
    assert isinstance(taken, m.Ok), taken
    (started,) = await outages.across((ann, m.Start(room=ref)))
    assert isinstance(started, m.Ok), started
    room = await view(ann, ref)
    for person in (bob, ann):  # a draw is for a game each person has moved in
        move = m.Move(room=ref, version=room["version"], move=room["state"]["legal_moves"][0])
        assert isinstance(await ask(person, move), m.Ok)
        room = await view(ann, ref)
    offer = m.OfferDraw(room=ref, version=room["version"])
    (offered,) = await outages.across((bob, offer))
    assert isinstance(offered, m.Ok), offered
    asked = await ann.expect(lambda message: isinstance(message, m.Proposal))
    assert isinstance(asked, m.Proposal) and asked.kind == "draw"
    accept = m.Answer(room=ref, proposal=asked.proposal, accept=True)
    (answered,) = await outages.across((ann, accept))
    assert isinstance(answered, m.Ok), answered

    final = await view(bob, ref)
    assert (final["status"], final["ended"], len(final["moves"])) == ("finished", "agreed", 2)
    holders = [(seat["colour"], seat["holder"].get("name")) for seat in final["seats"]]
    assert holders == [("black", "Bob"), ("white", "Ann")]
    assert set(outages.unavailable) >= {"join", "set_seat", "start", "offer_draw", "answer"}
    latest = await ask(ann, m.Join(room=ref, seat="white"))  # itself a join sent again
    assert isinstance(latest, m.Joined) and latest.history is not None
    kept = Counter(entry["kind"] for entry in latest.history)
    assert (kept["seat"], kept["started"], kept["proposal"], kept["over"]) == (2, 1, 0, 1), kept
    # What a fault cut off (a change kept though answered `unavailable`) the room view sent
    # again tells; nothing is ever told twice.
    for name, person in (("Ann", ann), ("Bob", bob)):
        shown = await person.everything(0.1)
        asking = {message.proposal for message in shown if isinstance(message, m.Proposal)}
        assert asking <= {asked.proposal}, (name, asking)
        ended = [message for message in shown if isinstance(message, m.ProposalEnded)]
        assert [message.outcome for message in ended] in ([], ["accepted"]), (name, ended)
        seats = Counter(message.seat for message in shown if isinstance(message, m.SeatSet))
        assert all(count == 1 for count in seats.values()), (name, seats)
        for message in shown:
            if isinstance(message, m.Joined):
                told = Counter(entry["kind"] for entry in message.history or [])
                assert told["started"] <= 1 and told["over"] <= 1, (name, told)
            if isinstance(message, m.RoomView) and message.room["status"] == "finished":
                assert message.room["ended"] == "agreed", (name, message.room)
