"""The asyncio shell around the lobby: sockets in, the lobby's outbox out, bots in workers.

Everything decided here is about I/O and time; every rule of who may do what lives in the
lobby and the protocol package, which never await.
"""

import asyncio
import itertools
import logging
import sqlite3
import ssl
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed, NegotiationError
from websockets.typing import Subprotocol

from parlour import bots
from parlour.botworker import Think
from parlour.protocol import (
    MAX_FRAME_BYTES,
    SUBPROTOCOLS,
    CloseCode,
    ErrorCode,
    Refusal,
    ServerSession,
    codec_for,
)
from parlour.protocol import messages as m
from parlour.protocol.session import FLOOD_CLOSE_AFTER
from parlour.protocol.wire import Frame

from .addresses import METRICS_FROM, TRUSTED_PROXIES, Network, address_of, networks
from .alarm import ClockAlarm
from .answers import Outbox
from .archive import ArchiveAsk, MailArchive, RemoteArchive, RemoteMailArchive, answer_remotely
from .botrunner import BotRunner
from .known import ReplayAsked
from .letters import Site
from .lobby import Lobby
from .mailer import Mailer
from .metrics import Metrics
from .reach import EVERY_ADDRESS, advertises_tls, joined, reachable
from .records import RecordError, record_text, restore_room
from .room import ConnId, Status
from .routes import http_router
from .services import Limits
from .smtp import MailSettingsError, read_mail_from, read_smtp_url
from .static import WebSite
from .stopping import cancel_all
from .store import FILE_NAME as STORE_FILE
from .store import MEMORY, Store
from .tls import TlsError, reload_certificate, server_context
from .workers import BotWorkers, Thinkers

log = logging.getLogger("parlour.server")

MAX_WRITE_BUFFER: Final = 1 << 22
"""Bytes queued for a client that does not read before it is closed as too slow."""
CHECKPOINT_SECONDS: Final = 5.0
"""How often the database's write-ahead log is folded in, away from the event loop."""
CLOSE_TIMEOUT: Final = 2.0
MAIL_INTERVAL: Final = 60.0
"""Seconds between looks for the digests and reminders due."""


@dataclass
class ServerConfig:
    """How a server listens, thinks and limits; the defaults are protocol.md's."""

    host: str = "127.0.0.1"
    port: int = 0
    data_dir: Path | None = None
    bot_workers: int = 2
    """Processes that search for bots (one more takes only quick levels); a cluster node
    may have none, leaving its searches to the cluster's other workers."""
    bot_grace: float = 0.5
    """Seconds past the budget before a bot's move is replaced by a fallback."""
    bot_pause: float = 0.0
    """Least seconds between a bot's turn and its move, so people can follow the game."""
    think: Think = bots.think
    """The bots' entry point, run in the workers: (state, level, budget, seed) to thoughts."""
    flood_close_after: float = FLOOD_CLOSE_AFTER
    """Seconds of sending past the rate limit before the connection is closed with 1008."""
    tick_interval: float = 1.0
    ping_interval: float = 20.0
    limits: Limits = field(default_factory=Limits)
    redis_url: str | None = None
    """A cluster's Redis: rooms, score cards and saves are kept there, not in `data_dir`."""
    lease_seconds: float = 3.0
    """How long a cluster node holds its rooms without renewing: how soon another node
    takes them when it is lost."""
    advertise: tuple[str, ...] = ()
    """`HOST[:PORT]` addresses other machines reach the server at, where the one it listens
    on is not (behind a balancer, or a router forwarding a port); else it finds them.
    Given as `https://HOST[:PORT]`, they are a balancer's that serves TLS (port 443 unless
    given): invitations name `wss://` and `https://`."""
    trusted_proxies: tuple[str, ...] = TRUSTED_PROXIES
    """Networks of the proxies (balancers) whose `X-Forwarded-For` names the client, whose
    address the guessing limit counts by; from any other peer the peer is the client."""
    tls_cert: Path | None = None
    """The certificate chain (PEM) the server serves `https://` and `wss://` with; with
    `tls_key`, or neither (plain `http://` and `ws://`)."""
    tls_key: Path | None = None
    """The private key (PEM, unencrypted) of `tls_cert`."""
    metrics_from: tuple[str, ...] = METRICS_FROM
    """Networks whose peers may read `/metrics`; by the connection's own peer alone, so
    behind a balancer the balancer's address is the one that counts."""
    metrics_port: int | None = None
    """A port of its own for `/metrics` (and `/healthz`), in plain HTTP on `host`, which
    the game's port then does not serve metrics on."""
    smtp: str | None = None
    """The SMTP server to send players' mail through (`smtp.read_smtp_url`); without one
    the server offers no mail (protocol.md 2.13)."""
    mail_from: str | None = None
    """The address mail is sent from, with `smtp`."""
    mail_interval: float = MAIL_INTERVAL
    """Seconds between looks for the digests and reminders due."""


class Keeper(Protocol):
    """Where a server's rooms live and how their records are kept, given to the shell:
    in this process with SQLite (`InProcess`), or owned under leases in a cluster's Redis
    (`parlour.server.cluster.node.ClusterNode`). The shell calls it at these points; the
    keeper acts through the shell's `Shell` surface, never its privates."""

    async def start(self) -> None:
        """Take the rooms back, then have the shell serve (`ParlourServer.serve_now`)."""

    async def close(self) -> None:
        """Keep what is left to keep and let go, once the shell stopped serving."""

    def handle(self, conn: ConnId, message: m.ClientMessage) -> None:
        """Act on a valid request, here (`ParlourServer.handle_here`) or where its room is."""

    def send(
        self,
        outbox: Outbox,
        request: tuple[ConnId, m.ClientMessage] | None = None,
        about: Iterable[str] = (),
    ) -> None:
        """Keep what the lobby changed, then deliver its messages (`ParlourServer.deliver`)."""

    def disconnected(self, conn: ConnId) -> None:
        """A connection of this server closed, and the lobby was told."""

    def conn_id(self, serial: int) -> ConnId:
        """The id of the server's `serial`-th connection."""

    def thinkers(self) -> Thinkers:
        """What runs the bots' searches."""

    def health_problem(self) -> str | None:
        """Why no new players should be sent now, if they should not."""

    def may_think(self) -> bool:
        """Whether bots' searches may start now."""


class Shell(Protocol):
    """What a keeper may ask of the server shell it is given (`ParlourServer`)."""

    async def serve_now(self) -> None:
        """Start the bot workers, listen and keep time: the end of the keeper's `start`."""

    def handle_here(self, conn: ConnId, message: m.ClientMessage) -> None:
        """Hand a request to this server's lobby; its answers are kept and sent."""

    def ask_lobby(self, conn: ConnId, message: m.ClientMessage) -> Outbox:
        """The lobby's answers to a request, for the keeper to keep and send."""

    def deliver(self, outbox: Outbox) -> None:
        """Send messages to this server's connections now, keeping nothing."""

    def send_frame(self, conn: ConnId, websocket: ServerConnection, frame: Frame) -> None:
        """Queue one encoded frame for a connection; one that does not read is closed."""

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run `work` in the background, cancelled when the shell stops."""

    def follow_up(self) -> None:
        """Start what the lobby asked for: bots' searches, suggestions, replays, records."""


KeeperMaker = Callable[["ParlourServer"], Keeper]
"""A keeper for a shell, made when the shell is."""


def select_subprotocol(
    connection: ServerConnection, offered: Sequence[Subprotocol]
) -> Subprotocol:
    """The first of the client's subprotocols that the server speaks; else refuse with 400."""
    for subprotocol in offered:
        if subprotocol in SUBPROTOCOLS:
            return subprotocol
    raise NegotiationError(
        f"offer the WebSocket subprotocol {SUBPROTOCOLS[0]} or {SUBPROTOCOLS[1]}"
    )


class ParlourServer:
    """One Parlour server: its lobby, connections, bot workers and listening socket, and
    the keeper it is given for where its rooms live (by default, this process's SQLite)."""

    def __init__(self, config: ServerConfig, keeper: KeeperMaker | None = None) -> None:
        """TlsError if the configuration's certificate files cannot be used; AdvertiseError
        if it advertises addresses some over TLS and some not; MailSettingsError if its
        SMTP server or sender cannot be used."""
        self.config = config
        self.lobby = Lobby(clock=time.monotonic, limits=config.limits)
        self.trusted: tuple[Network, ...] = networks(config.trusted_proxies)
        self.metrics_from: tuple[Network, ...] = networks(config.metrics_from)
        self.metrics = Metrics()
        self.site = WebSite()
        self.connections: dict[ConnId, tuple[ServerConnection, ServerSession]] = {}
        self._ids = itertools.count(1)
        self.remote_archive: RemoteArchive | None = None
        """Where score cards and saves are asked for when the lobby has no archive at hand."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._workers: Thinkers | None = None
        self.bots = BotRunner(
            self.lobby,
            send=self._send,
            spawn=self.spawn,
            follow_up=self.follow_up,
            metrics=self.metrics,
            bot_pause=config.bot_pause,
        )
        self._server: Server | None = None
        self._metrics_server: Server | None = None
        self._closing = False
        self.ssl_context: ssl.SSLContext | None = tls_context(config)
        """What the server serves TLS with, when it does; `reload_tls` renews it in place."""
        self.lobby.tls = self.ssl_context is not None or advertises_tls(config.advertise)
        self.mailer: Mailer | None = mailer_for(config, self.metrics)
        """What sends players' mail, where the server has an SMTP server to send it by."""
        self.lobby.mailing.enabled = self.mailer is not None
        self.keeper: Keeper = (keeper or InProcess)(self)
        self.alarm = ClockAlarm(
            self.lobby.timekeeper,
            self.lobby.wall,
            self._flag_due,
            self.keeper.may_think,
            config.tick_interval,
        )

    @property
    def store(self) -> Store | None:
        """The SQLite store the rooms are kept in, when they are kept in this process."""
        return self.keeper.store if isinstance(self.keeper, InProcess) else None

    @property
    def port(self) -> int:
        """The port the server listens on (the one chosen, when asked for port 0)."""
        assert self._server is not None
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def metrics_port(self) -> int | None:
        """The port of its own `/metrics` is served on, if it has one."""
        if self._metrics_server is None:
            return None
        port: int = self._metrics_server.sockets[0].getsockname()[1]
        return port

    async def start(self) -> None:
        """Take back the rooms (as the keeper does), start the bot workers, listen.

        StoreError if the data directory holds a database this server cannot use.
        """
        await self.keeper.start()

    async def serve_now(self) -> None:
        """Start the bot workers, listen, and keep time: the keeper's part of `start`."""
        config = self.config
        self._workers = self.bots.workers = self.keeper.thinkers()
        try:
            await self._workers.start()
            self._server = await self._listen()
            if config.metrics_port is not None:
                self._metrics_server = await self._listen_for_metrics(config.metrics_port)
            # Finding this machine's addresses may ask DNS for its own name: off the loop.
            reach = await asyncio.to_thread(reachable, config.host, self.port, config.advertise)
            self.lobby.reach = reach
            here = "127.0.0.1" if config.host in EVERY_ADDRESS else config.host
            address = reach[0] if reach else joined(here, self.port)
            self.lobby.mailing.site = Site(address, self.lobby.tls)
        except BaseException:
            for server in (self._server, self._metrics_server):
                if server is not None:
                    server.close()
                    await server.wait_closed()
            await self._workers.close()
            raise
        self.spawn(self._tick_forever())
        self.spawn(self.alarm.run())
        if self.mailer is not None:
            self.spawn(self.mailer.run_forever())
            self.spawn(self._mail_forever())

    async def _listen(self) -> Server:
        separate_metrics = self.config.metrics_port is not None
        return await serve(
            self._connection,
            self.config.host,
            self.config.port,
            subprotocols=[Subprotocol(name) for name in SUBPROTOCOLS],
            select_subprotocol=select_subprotocol,
            process_request=http_router(
                self.health_problem,
                None if separate_metrics else self._render_metrics,
                self.site,
                self.metrics_from,
                tls=self.ssl_context is not None,
            ),
            ssl=self.ssl_context,
            max_size=MAX_FRAME_BYTES,
            # Updates are under 1 KiB, while permessage-deflate keeps some 40 KiB of zlib
            # state for each connection: memory, not bandwidth, is what runs short.
            compression=None,
            ping_interval=self.config.ping_interval,
            ping_timeout=self.config.ping_interval,
            # A client that does not read never answers a close: shutting down waits this
            # long for each handshake, not websockets' 10 s, so SIGTERM stops in seconds.
            close_timeout=CLOSE_TIMEOUT,
        )

    async def _listen_for_metrics(self, port: int) -> Server:
        """The metrics port: plain HTTP, `/metrics` and `/healthz`, never a WebSocket."""
        router = http_router(self.health_problem, self._render_metrics, None, self.metrics_from)
        return await serve(self._connection, self.config.host, port, process_request=router)

    def reload_tls(self) -> bool:
        """Read the certificate files again (a renewal) into the context the server serves:
        the next handshakes get the new certificate, open connections keep theirs. Files
        that cannot be used are logged and the certificate served stays. Whether it took."""
        return reload_certificate(self.ssl_context, self.config.tls_cert, self.config.tls_key)

    def health_problem(self) -> str | None:
        """Why the server should be sent no new players now, if it should not."""
        return "shutting down" if self._closing else self.keeper.health_problem()

    def drain(self) -> None:
        """Answer /healthz with 503 from now on, so that load balancers stop sending players."""
        self._closing = True

    def close(self) -> None:
        """Stop listening and close every connection with 1001 (going away)."""
        self.drain()
        if self._server is not None:
            self._server.close(code=CloseCode.GOING_AWAY, reason="the server is shutting down")
        if self._metrics_server is not None:
            self._metrics_server.close()

    async def wait_closed(self) -> None:
        """Wait until every connection is closed, then stop the bot workers."""
        for server in (self._server, self._metrics_server):
            if server is not None:
                await server.wait_closed()
        await self._stop_tasks()
        if self.mailer is not None:
            await self.mailer.keep_unsent(self._mail_archive())
        if self._workers is not None:
            await self._workers.close()
        await self.keeper.close()

    async def _stop_tasks(self) -> None:
        """Cancel every background task, and again while one goes on (`cancel_all`): one
        that swallowed a cancellation left a node told to stop waiting for ever."""
        left = await cancel_all(self._tasks)
        if left:
            log.warning("%d background tasks would not stop; stopping without them", left)

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run `work` in the background, kept until it ends and cancelled on close."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # Connections.

    async def _connection(self, websocket: ServerConnection) -> None:
        """Serve one WebSocket connection from its first frame to its close."""
        assert websocket.subprotocol is not None
        conn = self._new_conn_id()
        session = ServerSession(
            codec_for(websocket.subprotocol), flood_close_after=self.config.flood_close_after
        )
        self.connections[conn] = (websocket, session)
        self.lobby.connect(conn, address_of(websocket, self.trusted))
        self.metrics.connections.inc()
        try:
            async for frame in websocket:
                close = self._receive(conn, session, frame)
                if close is not None:
                    await websocket.close(close, "see the error message before this close")
                    break
        except ConnectionClosed:
            pass
        finally:
            del self.connections[conn]
            self.metrics.connections.dec()
            self._disconnected(conn)

    def _new_conn_id(self) -> ConnId:
        return self.keeper.conn_id(next(self._ids))

    def _disconnected(self, conn: ConnId) -> None:
        """A connection closed: its rooms are told."""
        self._send(self.lobby.disconnect(conn))
        self.follow_up()
        self.keeper.disconnected(conn)

    def _receive(self, conn: ConnId, session: ServerSession, frame: Frame) -> int | None:
        """Act on one frame; the close code if the connection must close."""
        result = session.receive(frame, time.monotonic())
        if isinstance(result, Refusal):
            self._send([(conn, result.error)])
            return result.close
        message = result.message
        self.metrics.messages.labels(message.TYPE).inc()
        if isinstance(message, m.Move):
            websocket, _ = self.connections[conn]
            self.lobby.people.lags[conn] = round(websocket.latency * 500)
        self._handle(conn, message)
        return None

    def _handle(self, conn: ConnId, message: m.ClientMessage) -> None:
        """Hand a valid request to the keeper, which acts on it here or where its room is."""
        self.keeper.handle(conn, message)

    def handle_here(self, conn: ConnId, message: m.ClientMessage) -> None:
        """Hand a valid request to this server's lobby and send its answers."""
        self._send(self.ask_lobby(conn, message), (conn, message))
        self.follow_up()

    def ask_lobby(self, conn: ConnId, message: m.ClientMessage) -> Outbox:
        """The lobby's answer to a request; an `internal` error if the lobby failed on it."""
        try:
            outbox = self.lobby.handle(conn, message)
        except Exception:
            log.exception("failed on %s from connection %d", message.TYPE, conn)
            error = m.Error(
                id=message.id,
                code=ErrorCode.INTERNAL.value,
                message="the server failed on that request",
            )
            return [(conn, error)]
        if isinstance(message, m.Move) and outbox and isinstance(outbox[0][1], m.Ok):
            self.metrics.moves.labels("human").inc()
        return outbox

    def _send(
        self,
        outbox: Outbox,
        request: tuple[ConnId, m.ClientMessage] | None = None,
        about: Iterable[str] = (),
    ) -> None:
        """Keep what the lobby changed, then send its messages: the answers to `request`,
        if they are, showing the rooms `about` (which a cluster node checks it still
        holds before it tells)."""
        self.keeper.send(outbox, request, about)

    def deliver(self, outbox: Outbox) -> None:
        """Send each message at once, in order, without waiting for slow readers.

        A message sent to several connections is encoded once for each codec among them.
        """
        frames: dict[tuple[int, str], Frame] = {}
        for conn, message in outbox:
            entry = self.connections.get(conn)
            if entry is None:
                continue
            websocket, session = entry
            if isinstance(message, m.Error):
                self.metrics.errors.labels(message.code).inc()
            elif isinstance(message, m.ChatLine) and self.lobby.people.hides(
                conn, message.player, message.name
            ):
                continue  # the reader muted or blocked its writer
            key = (id(message), session.codec.subprotocol)
            frame = frames.get(key)
            if frame is None:
                frame = frames[key] = session.send(message)
            self.send_frame(conn, websocket, frame)

    def send_frame(self, conn: ConnId, websocket: ServerConnection, frame: Frame) -> None:
        """Queue one frame; a connection that does not read what it is sent is closed."""
        broadcast([websocket], frame)
        if websocket.transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
            log.warning("closing connection %d: it does not read what it is sent", conn)
            self.spawn(websocket.close(CloseCode.POLICY_VIOLATION, "reading too slowly"))

    # Bots.

    def follow_up(self) -> None:
        """Start what the lobby asked for: bots' searches, suggestions, database questions."""
        for ask in self.lobby.asker.take():
            self.spawn(self._ask_archive(ask))
        for replay in self.lobby.known.replays_asked():
            self.spawn(self._build_replay(replay))
        for mail in self.lobby.mailing.take():
            if self.mailer is not None:
                self.mailer.post(mail)
        if not self._closing and self.keeper.may_think():
            self.bots.schedule()
        self.alarm.look()

    def _mail_archive(self) -> MailArchive | RemoteMailArchive | None:
        """Where players' mail records are: Redis for a cluster, else SQLite."""
        if self.remote_archive is not None:
            return self.remote_archive.mail
        return None if self.store is None else self.store.mail

    async def _build_replay(self, asked: ReplayAsked) -> None:
        """Build a replay in a thread, so rooms go on moving meanwhile, and send it."""
        self._send(await asyncio.to_thread(asked.answer), about=filter(None, [asked.room]))

    async def _ask_archive(self, ask: ArchiveAsk) -> None:
        """Put a question to the remote archive and hand its answer to the lobby."""
        assert self.remote_archive is not None
        try:
            found = await answer_remotely(self.remote_archive, ask.query)
        except Exception:
            log.exception("the archive failed on %s", type(ask.query).__name__)
            self._send(self.lobby.archive_failed(ask))
            return
        self._send(self.lobby.archived(ask, found))
        self.follow_up()

    # Time.

    def _flag_due(self) -> None:
        """Flag each seat whose clock ran out by now, and show rooms whose clocks run again."""
        self._send(self.lobby.timekeeper.flags_due())
        self.follow_up()

    async def _mail_forever(self) -> None:
        """Send the mails a stopped server kept unsent, and look for the digests and
        reminders due, now and then; not while a cluster node is cut off from Redis."""
        assert self.mailer is not None
        while True:
            if self.keeper.may_think():
                await self.mailer.send_kept(self._mail_archive())
            await asyncio.sleep(self.config.mail_interval)
            if self.keeper.may_think():
                self._send(self.lobby.mailing.sweep())
                self.follow_up()

    async def mail_round(self) -> None:
        """One look for the digests and reminders due, its questions to a remote database
        answered and the mails it made sent (or put off till their next try)."""
        if self.mailer is not None:
            await self.mailer.send_kept(self._mail_archive())
        self._send(self.lobby.mailing.sweep())
        await asyncio.gather(*(self._ask_archive(ask) for ask in self.lobby.asker.take()))
        self.follow_up()
        if self.mailer is not None:
            await self.mailer.idle()

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.tick_interval)
            self._send(self.lobby.tick(flags=self.keeper.may_think()))
            self.follow_up()

    def _render_metrics(self) -> bytes:
        for status in Status:
            count = sum(room.status is status for room in self.lobby.rooms.values())
            self.metrics.rooms.labels(status.value).set(count)
        if self._workers is not None:
            waiting, oldest = self._workers.waiting(time.monotonic())
            self.metrics.bot_queue.set(waiting)
            self.metrics.bot_queue_oldest.set(oldest)
        return self.metrics.render()


class InProcess:
    """Rooms in this process, their records in SQLite: the data directory's database, or
    one in memory when there is none."""

    def __init__(self, shell: ParlourServer) -> None:
        self.shell = shell
        self.store: Store | None = None

    async def start(self) -> None:
        """Take back the rooms stored in the data directory, then serve; the clocks are
        given back the time the server was away, till its port opened.

        StoreError if the data directory holds a database this server cannot use.
        """
        shell, config = self.shell, self.shell.config
        self.store = Store(MEMORY if config.data_dir is None else config.data_dir / STORE_FILE)
        shell.lobby.asker.archive = self.store
        away_since = None
        if config.data_dir is not None:
            away_since = self._restore(self.store)
        try:
            await shell.serve_now()
        except BaseException:
            self.store.close()
            raise
        if away_since is not None:
            self.send(shell.lobby.timekeeper.resume_clocks(away_since))
        shell.spawn(self._checkpoint_forever(self.store))

    async def close(self) -> None:
        """Store what is left and close the database."""
        if self.store is not None:
            self._save()
            self.store.mark_alive(self.shell.lobby.wall())
            self.store.close()
            self.store = None

    def handle(self, conn: ConnId, message: m.ClientMessage) -> None:
        self.shell.handle_here(conn, message)

    def send(
        self,
        outbox: Outbox,
        request: tuple[ConnId, m.ClientMessage] | None = None,
        about: Iterable[str] = (),
    ) -> None:
        self._save()
        lobby, here = self.shell.lobby, self.shell.connections
        for notice in lobby.your_turns():
            outbox = [*outbox, *notice.outbox(lobby.people.players, here)]
        lobby.timekeeper.vacations_taken()  # one server: no other servers to tell
        lobby.standings_changed()
        self.shell.deliver(outbox)

    def disconnected(self, conn: ConnId) -> None:
        pass

    def conn_id(self, serial: int) -> ConnId:
        return serial

    def thinkers(self) -> Thinkers:
        """This server's own worker processes."""
        config = self.shell.config
        return BotWorkers(config.bot_workers, config.think, config.bot_grace, self.shell.metrics)

    def health_problem(self) -> str | None:
        return None

    def may_think(self) -> bool:
        return True

    def _restore(self, store: Store) -> float | None:
        """Rooms as they were stored; one that cannot be rebuilt is logged and left out.
        When the server was last known to run (Unix time), if ever."""
        lobby, metrics = self.shell.lobby, self.shell.metrics
        now = time.monotonic()
        rooms = []
        for stored in store.load():
            try:
                if stored.record is None:
                    raise RecordError(stored.problem or "no record")
                rooms.append(restore_room(stored.record, now, lobby.wall()))
            except RecordError as error:
                log.error("room %s not restored: %s", stored.room_id, error)
                metrics.rooms_not_restored.inc()
        lobby.restore(rooms)
        if rooms:
            log.info("restored %d room(s) from %s", len(rooms), store.path)
        return store.alive_at()

    def _save(self) -> None:
        """Store every room the lobby changed, before anyone is told of the change."""
        if self.store is None:
            return
        lobby = self.shell.lobby
        unsaved = lobby.take_unsaved()
        if not (unsaved.rooms or unsaved.closed or unsaved.results):
            return
        records = [record_text(room) for room in unsaved.rooms]
        try:
            self.store.save(records, unsaved.closed, unsaved.results)
        except Exception:
            log.exception("could not store %d room(s); trying again with the next", len(records))
            self.shell.metrics.store_failures.inc()
            lobby.journal.requeue(unsaved)

    async def _checkpoint_forever(self, store: Store) -> None:
        """Note that the server runs, and fold the database's write-ahead log in now and
        then, in a thread."""
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            try:
                store.mark_alive(self.shell.lobby.wall())
                await asyncio.to_thread(store.checkpoint)
            except sqlite3.Error:
                log.exception("checkpoint of %s failed; trying again later", store.path)


def mailer_for(config: ServerConfig, metrics: Metrics) -> Mailer | None:
    """What sends mail through the configuration's SMTP server, if it names one.

    MailSettingsError if its URL or sender cannot be used, or one comes without the other.
    """
    if config.smtp is None and config.mail_from is None:
        return None
    if config.smtp is None or config.mail_from is None:
        raise MailSettingsError("give both the SMTP server (smtp) and its sender (mail_from)")
    server = read_smtp_url(config.smtp)
    return Mailer(server, read_mail_from(config.mail_from), metrics.mails, metrics.mails_waiting)


def tls_context(config: ServerConfig) -> ssl.SSLContext | None:
    """The TLS context `config`'s certificate files make, if it names them.

    TlsError if it names one without the other, or the files cannot be used.
    """
    if config.tls_cert is None and config.tls_key is None:
        return None
    if config.tls_cert is None or config.tls_key is None:
        raise TlsError("give both the certificate (tls_cert) and its key (tls_key), or neither")
    return server_context(config.tls_cert, config.tls_key)
