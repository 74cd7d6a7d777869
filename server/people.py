"""Who each connection is: the name it was welcomed under, the player its key proved, and
the rooms it has come into; and the names one player holds against everyone else."""

from dataclasses import dataclass, field
from typing import Any

from parlour import __version__
from parlour.bots import default_level, levels_for
from parlour.protocol import ErrorCode, ProtocolError
from parlour.protocol import messages as m
from parlour.rules import GAMES

from .answers import refuse
from .archive import Archive, ClaimName
from .moderation import BLOCK, MUTE, Standing, person_of
from .room import ConnId
from .store import GUESTS


@dataclass
class People:
    """The connections the lobby has welcomed, its own and (in a cluster) other nodes'."""

    names: dict[ConnId, str] = field(default_factory=dict)
    """Each welcomed connection's name."""
    players: dict[ConnId, str] = field(default_factory=dict)
    """The player id each connection's key proved, for those that sent one."""
    entered: dict[ConnId, set[str]] = field(default_factory=dict)
    """The rooms each connection has come into: all a disconnect need look at."""
    lags: dict[ConnId, int] = field(default_factory=dict)
    """Each connection's network lag (half its last ping's round trip), in milliseconds:
    what a live clock forgives of its moves' time."""
    standings: dict[ConnId, Standing] = field(default_factory=dict)
    """Whom each connection's person mutes and blocks, and who blocks them; of another
    node's connection, only who blocks them (`know`)."""

    def name(self, conn: ConnId) -> str:
        return self.names[conn]

    def know(
        self, conn: ConnId, name: str, player: str, blocked_by: frozenset[str] = frozenset()
    ) -> None:
        """Another node's connection, welcomed there: its name, player ("" for a guest) and
        who blocks it."""
        self.names[conn] = name
        if player:
            self.players[conn] = player
        else:
            self.players.pop(conn, None)
        self.standings[conn] = Standing(blocked_by=blocked_by)

    def claimed(
        self, conn: ConnId, claim: ClaimName, found: tuple[bool | None, Standing]
    ) -> dict[str, Any] | None:
        """Welcome `conn` under the name it claimed, if the database let it and no operator
        barred it: its player, as `welcome` shows it, if it sent a key."""
        claimed, standing = found
        if standing.barred is not None:
            raise refuse(
                ErrorCode.BARRED,
                f"this server's operators have barred you from it: {standing.barred}",
            )
        if claimed is None:
            raise held_name(claim.name)
        self.names[conn] = claim.name
        self.standings[conn] = standing
        if claim.player is None:
            return None
        self.players[conn] = claim.player
        return {"id": claim.player, "name": claim.name, "new": bool(claimed)}

    def person(self, conn: ConnId) -> str:
        """How mutes and blocks name `conn`'s person (`moderation.person_of`)."""
        return person_of(self.players.get(conn), self.names[conn])

    def standing(self, conn: ConnId) -> Standing:
        return self.standings.get(conn, Standing())

    def hides(self, conn: ConnId, player: str | None, name: str) -> bool:
        """Whether chat from `player` (or the guest `name`) is kept from `conn`."""
        standing = self.standings.get(conn)
        return standing is not None and standing.hides(player, name)

    def stood(
        self, by: str, kind: str, person: str, name: str, on: bool, *, only: ConnId | None = None
    ) -> None:
        """The player (or person) `by` muted or blocked `person`, or no longer: every
        connection of the player's here sees it so (`only` a guest's own connection, where
        a guest's mutes live), and where it is a block, every connection of the person's."""
        for conn in list(self.standings):
            theirs = conn == only if only is not None else self.players.get(conn) == by
            if theirs:
                self.standings[conn] = self.standings[conn].changed(kind, person, name, on)
            if kind == BLOCK and self.person(conn) == person:
                self.standings[conn] = self.standings[conn].blocked_by_too(by, on)

    def lag_ms(self, conn: ConnId) -> int:
        return self.lags.get(conn, 0)

    def came_in(self, conn: ConnId, room_id: str) -> None:
        self.entered.setdefault(conn, set()).add(room_id)

    def forget(self, conn: ConnId) -> set[str]:
        """A connection is gone: the rooms it had come into."""
        self.names.pop(conn, None)
        self.players.pop(conn, None)
        self.lags.pop(conn, None)
        self.standings.pop(conn, None)
        return self.entered.pop(conn, set())

    def owner_of_saves(self, conn: ConnId) -> str:
        """Whose saved games a connection sees: its player's, or the guests' shared ones."""
        return self.players.get(conn, GUESTS)

    def player_of(self, conn: ConnId, name: str) -> str | None:
        """The player id a seat taken by `conn` for the person `name` carries: the
        connection's player where the name is theirs (one of several at a shared screen
        may be someone else)."""
        player = self.players.get(conn)
        return player if player is not None and name == self.names.get(conn) else None

    def guest_name(self, conn: ConnId, message: m.ClientMessage) -> str | None:
        """The name a request gives a second person at `conn`'s screen, if it gives one
        other than the connection's own: a name no player may hold."""
        named = message.name if isinstance(message, m.Join | m.SetSeat) else None
        return named if named is not None and named != self.names.get(conn) else None

    def check_guest_name(
        self, conn: ConnId, message: m.Join | m.SetSeat, archive: Archive | None
    ) -> None:
        """Refuse a second person's name that a player holds, where the database is at
        hand (a cluster node asks Redis before the request reaches the lobby)."""
        named = self.guest_name(conn, message)
        if named is None or archive is None:
            return
        if archive.holder_of(named) not in (None, self.players.get(conn)):
            raise held_name(named)


def welcome(
    request: str | int | None,
    player: dict[str, Any] | None,
    reach: list[str],
    tls: bool,
    *,
    email: bool = False,
    standing: Standing | None = None,
) -> m.Welcome:
    """The answer to a hello: the server, its games and their levels, where it is reached;
    to a player, whom they mute and block."""
    games = [
        game.describe() | {"levels": list(levels_for(name)), "default_level": default_level(name)}
        for name, game in GAMES.items()
    ]
    return m.Welcome(
        id=request,
        version=m.PROTOCOL_VERSION,
        server=f"parlour {__version__}",
        games=games,
        player=player,
        addresses=list(reach) or None,
        tls=tls,
        email=email,
        muted=None if player is None or standing is None else standing.listed(MUTE),
        blocked=None if player is None or standing is None else standing.listed(BLOCK),
    )


def held_name(name: str) -> ProtocolError:
    """The refusal of a name a player holds, for someone who is not them."""
    return refuse(
        ErrorCode.NAME_TAKEN,
        f"the name {name} belongs to another player on this server; choose another",
    )
