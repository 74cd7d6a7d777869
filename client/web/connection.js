/** The server's WebSocket, spoken in parlour.v1.json: requests answered by their id, the
 * rest handed on as events; after a drop it connects again by itself and says hello anew,
 * with the player's key when the page has one. A name another player holds is asked again
 * on the same connection (protocol.md 2.1). */

export const SUBPROTOCOL = "parlour.v1.json";
export const PROTOCOL_VERSION = 1;
const CLIENT = "parlour-web";
const RETRY_FIRST_MS = 200;
const RETRY_MOST_MS = 5000;
const NAME_TAKEN = "name_taken";
const RATE_LIMITED = "rate_limited";
const UNAVAILABLE = "unavailable";
const RATE_LIMITED_PAUSE_MS = 200;
const UNAVAILABLE_PAUSE_MS = 400;
/** How long a request answered `unavailable` is sent again for (a cluster's room changing
 * servers, or its records out of reach: protocol.md 6) before the refusal stands. */
const UNAVAILABLE_PATIENCE_MS = 8000;

/** The server refused a request: `code` from protocol.md section 3, `message` in words. */
export class ServerError extends Error {
  constructor(code, message, detail = null) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

/** The connection dropped before the server answered. */
export class ConnectionLost extends Error {
  constructor() {
    super("The connection to the server was lost; it is being made again.");
    this.code = "connection_lost";
  }
}

/** The WebSocket address of the server that served this page. */
export function serverUrl(where = window.location) {
  const scheme = where.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${where.host}/ws`;
}

/**
 * One connection to the server. Events: `message` (detail: a message the server sent of its
 * own accord), `status` (detail: "connecting", "open", "lost", "refused", or "name_taken"
 * while the server waits for a hello with another name: see `helloAgain`), `reconnected`
 * (after a drop, once the new connection is welcomed: rooms should be joined again).
 * `games` keeps the last welcome's games through a drop; `player` is the welcome's player
 * (`{id, name, new}`) for a connection with a key, else null. `muted` and `blocked` are the
 * people the player mutes and blocks (`{name, player}` each, protocol.md 2.14): a player's
 * as each welcome lists them, a guest's as this page made them (and makes them again on a
 * new connection, for the server forgets a guest's with the old one).
 */
export class Connection extends EventTarget {
  constructor(name, url = serverUrl(), key = null) {
    super();
    this.name = name;
    this.url = url;
    this.key = key;
    this.player = null;
    this.nameRefusal = null;
    this.welcome = null;
    this.games = [];
    this.refusal = null;
    this.socket = null;
    this.pending = new Map();
    this.nextId = 1;
    this.retryMs = RETRY_FIRST_MS;
    this.closed = false;
    this.everOpen = false;
    this.muted = [];
    this.blocked = [];
  }

  /** Open the connection and say hello; resolves with the server's `welcome`. */
  connect() {
    return new Promise((resolve, reject) => {
      this.firstWelcome = { resolve, reject };
      this.open();
    });
  }

  /** Send `message` and resolve with the server's answer; an `error` rejects as ServerError.
   * Told to slow down, or that the answer is `unavailable` for now, it sends the request again
   * as it was, as protocol.md asks; a `rate_limited` that says when to ask again
   * (`detail.retry_after_s`: too many codes mailed, 2.13) is a refusal to show instead. */
  async request(message) {
    const patience = Date.now() + UNAVAILABLE_PATIENCE_MS;
    for (;;) {
      try {
        return await this.exchange(message);
      } catch (error) {
        const slowDown = error.code === RATE_LIMITED && typeof error.detail?.retry_after_s !== "number";
        const again = slowDown || (error.code === UNAVAILABLE && Date.now() < patience);
        if (!again) throw error;
        const pause = error.code === RATE_LIMITED ? RATE_LIMITED_PAUSE_MS : UNAVAILABLE_PAUSE_MS;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  /** One sending of `message`, and the server's answer to it. */
  exchange(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN || !this.welcome) {
      return Promise.reject(new ConnectionLost());
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ ...message, id }));
    });
  }

  open() {
    this.status("connecting");
    const socket = new WebSocket(this.url, [SUBPROTOCOL]);
    this.socket = socket;
    socket.addEventListener("open", () => this.sayHello(socket));
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", () => this.dropped(socket));
  }

  sayHello(socket) {
    const hello = { type: "hello", version: PROTOCOL_VERSION, name: this.name, client: CLIENT };
    if (this.key) hello.key = this.key;
    socket.send(JSON.stringify(hello));
  }

  /** Say hello again as `name`, after the server answered `name_taken`: the connection
   * stays open for it. Resolves with the welcome (`connect()`'s promise resolves too). */
  helloAgain(name) {
    this.name = name;
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || this.welcome) {
      return Promise.reject(new ConnectionLost());
    }
    return new Promise((resolve, reject) => {
      this.nextWelcome = { resolve, reject };
      this.nameRefusal = null;
      this.status("connecting");
      this.sayHello(socket);
    });
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message === null || typeof message !== "object") return;
    if (message.type === "welcome") {
      this.welcomed(message);
      return;
    }
    const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
    if (waiting) {
      this.pending.delete(message.id);
      if (message.type === "error") {
        waiting.reject(new ServerError(message.code, message.message, message.detail ?? null));
      } else {
        waiting.resolve(message);
      }
      return;
    }
    if (message.type === "error" && !this.welcome) {
      const error = new ServerError(message.code, message.message, message.detail ?? null);
      if (error.code === NAME_TAKEN) this.nameTaken(error);
      else this.refused(error);
      return;
    }
    this.emit("message", message);
  }

  welcomed(message) {
    const again = this.everOpen;
    this.welcome = message;
    this.nameRefusal = null;
    this.player = message.player && typeof message.player.id === "string" ? message.player : null;
    if (typeof this.player?.name === "string" && this.player.name) this.name = this.player.name;
    this.games = message.games ?? [];
    const guest = !Array.isArray(message.muted) || !Array.isArray(message.blocked);
    if (!guest) {
      this.muted = message.muted.filter((person) => typeof person?.name === "string");
      this.blocked = message.blocked.filter((person) => typeof person?.name === "string");
    }
    this.everOpen = true;
    this.retryMs = RETRY_FIRST_MS;
    this.status("open");
    if (this.firstWelcome) {
      this.firstWelcome.resolve(message);
      this.firstWelcome = null;
    }
    if (this.nextWelcome) {
      this.nextWelcome.resolve(message);
      this.nextWelcome = null;
    }
    if (again && guest) this.standAgain();
    if (again) this.emit("reconnected", message);
  }

  /** A guest's mutes and blocks, made again on a new connection. */
  standAgain() {
    for (const [type, people] of [["mute", this.muted], ["block", this.blocked]]) {
      for (const person of people) {
        const message = { type, name: person.name, on: true };
        if (person.player) message.player = person.player;
        this.request(message).catch(() => {});
      }
    }
  }

  /** Another player holds the name: the connection waits, open, for `helloAgain`. A first
   * `connect()` stays pending meanwhile; a `helloAgain` waiting is answered with the error. */
  nameTaken(error) {
    this.nameRefusal = error;
    if (this.nextWelcome) {
      this.nextWelcome.reject(error);
      this.nextWelcome = null;
    }
    this.status("name_taken");
  }

  /** The server refused our hello (a name it will not take, a version it does not speak):
   * trying again would only be refused again. */
  refused(error) {
    this.closed = true;
    this.refusal = error;
    for (const waiting of [this.firstWelcome, this.nextWelcome]) waiting?.reject(error);
    this.firstWelcome = null;
    this.nextWelcome = null;
    this.status("refused");
  }

  dropped(socket) {
    if (socket !== this.socket) return;
    this.welcome = null;
    for (const waiting of this.pending.values()) waiting.reject(new ConnectionLost());
    this.pending.clear();
    if (this.closed) return;
    this.status("lost");
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MOST_MS);
    setTimeout(() => this.open(), delay);
  }

  status(state) {
    this.state = state;
    this.emit("status", state);
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
