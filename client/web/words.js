/** What the page says about rooms, seats and moves, in words: pure functions of messages. */

/** A colour as a name: `blue` is Blue. */
export function title(colour) {
  return colour ? colour.charAt(0).toUpperCase() + colour.slice(1) : "";
}

/** Who holds a seat, in a few words. */
export function describeHolder(holder, mine = false) {
  switch (holder?.kind) {
    case "human": {
      const name = mine ? `${holder.name} (you)` : holder.name;
      return holder.connected === false ? `${name}, disconnected` : name;
    }
    case "bot":
      return holder.name
        ? `computer (level ${holder.level}) for ${holder.name}`
        : `computer, level ${holder.level}`;
    case "standin":
      return `computer (level ${holder.level}) for ${holder.name}, who is away`;
    default:
      return "open";
  }
}

/** The level offered first: a middling one, neither the weakest nor the strongest. */
export function middleLevel(levels) {
  return levels[Math.floor((levels.length - 1) / 2)];
}

/** The level a game's computer seats start at: the server's (the original's) default. */
export function defaultLevel(game) {
  const levels = game?.levels ?? [];
  return levels.includes(game?.default_level) ? game.default_level : middleLevel(levels);
}

/** A seat that changed hands, in words, for the log and the live region. */
export function seatText(change) {
  const seat = title(change.seat);
  const who = change.by ?? "The server";
  const holder = change.holder ?? {};
  if (holder.kind === "human") {
    if (change.by === null || change.by === undefined) return `${holder.name} is back in ${seat}.`;
    return holder.name === change.by ? `${holder.name} took ${seat}.` : `${who} gave ${seat} to ${holder.name}.`;
  }
  if (holder.kind === "standin" && !change.by) {
    return `The computer (level ${holder.level}) plays ${seat} until ${holder.name} is back.`;
  }
  if (holder.kind === "bot" || holder.kind === "standin") {
    return `${who} handed ${seat} to the computer, level ${holder.level}.`;
  }
  return `${who} opened ${seat} for someone to take.`;
}

/** A coin toss for who moves first. */
export function coinText(coin) {
  return `${title(coin.by)} called ${coin.call}; it landed ${coin.landed}: ${title(coin.first)} moves first.`;
}

/** A pass, as everyone is shown it. */
export function passText(colour) {
  return `${title(colour)} cannot move and passes.`;
}

/** The seats nobody holds. */
export function openSeats(seats) {
  return seats.filter((seat) => seat.holder?.kind === "open").map((seat) => seat.colour);
}

/** A count and its noun, singular for one: "1 game", "3 games", "0 moves". */
export function count(number, one, many = `${one}s`) {
  return `${number} ${number === 1 ? one : many}`;
}

/** Words joined as a person lists them: "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function listText(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** Who plays each seat, in a word or two for a sentence: the person's name, or the
 * computer at its level; a name two seats share gets its colour too. */
export function seatNames(seats) {
  const named = Object.fromEntries((seats ?? []).map((seat) => [seat.colour, playerName(seat.holder)]));
  const uses = {};
  for (const name of Object.values(named)) uses[name] = (uses[name] ?? 0) + 1;
  for (const [colour, name] of Object.entries(named)) {
    if (uses[name] > 1) named[colour] = `${name} (${title(colour)})`;
  }
  return named;
}

/** A holder as one name: `Ann`, `the computer (easy)`, `the computer for Ann`. */
function playerName(holder) {
  switch (holder?.kind) {
    case "human":
      return holder.name ?? "?";
    case "bot":
    case "standin":
      return holder.name ? `the computer for ${holder.name}` : `the computer (${holder.level})`;
    default:
      return "nobody";
  }
}

/** The result of a finished game. With the room's `seats`, in the players' names and their
 * scores: "Ann won, 34 to 30.", "Cy won with 40; Ann 20, Bob 12."; else in colours. */
export function resultText(state, seats = null) {
  const winners = state.winners ?? [];
  if (winners.length === 0) return "The game is over.";
  if (!seats) {
    if (winners.length === 1) return `${title(winners[0])} wins.`;
    return `${winners.map(title).join(" and ")} tie.`;
  }
  const names = seatNames(seats);
  const name = (colour) => names[colour] ?? title(colour);
  const points = state.routes ? state.progress ?? {} : state.scores ?? {};
  const score = (colour) => points[colour] ?? 0;
  const colours = seats.map((seat) => seat.colour);
  const others = colours.filter((colour) => !winners.includes(colour)).sort((a, b) => score(b) - score(a));
  const who = capital(listText(winners.map(name)));
  const did = winners.length === 1 ? "won" : "tied";
  const told = (colour) => (state.routes ? count(score(colour), "target") : String(score(colour)));
  if (colours.length === 2) {
    const [first, second] = winners.length === 2 ? winners : [winners[0], others[0]];
    return `${who} ${did}, ${told(first)} to ${score(second)}.`;
  }
  const rest = others.map((colour) => `${name(colour)} ${score(colour)}`).join(", ");
  return `${who} ${did} with ${told(winners[0])}${rest ? `; ${rest}` : ""}.`;
}

/** A sentence's first letter in capitals. */
function capital(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** The Tripppin piece that could not move and so lost, if that ended the game. */
export function stuckSeat(state) {
  const winners = state.winners ?? [];
  if (!state.over || !state.routes || winners.length !== 1) return null;
  const winner = winners[0];
  if ((state.progress?.[winner] ?? 0) >= (state.routes[winner]?.length ?? 0)) return null;
  return Object.keys(state.routes).find((colour) => colour !== winner) ?? null;
}

/** Whose turn it is, or how the game ended, for the line above the board. */
export function turnText(view, hosting = false) {
  if (view.status === "waiting") {
    return hosting ? "Start the game when the seats are ready." : "Waiting for the host to start the game.";
  }
  const state = view.state;
  if (!state) return "";
  if (state.over || view.status === "finished") return endingText(view);
  const mover = state.to_move;
  const seat = view.seats.find((s) => s.colour === mover);
  const playing = view.playing ?? (view.you ? [view.you] : []);
  const target = state.targets?.[mover];
  const reach = target ? ` Try to reach the flashing frame (${target}).` : "";
  if (playing.includes(mover) && playing.length > 1) {
    return `${title(mover)} (${seat?.holder?.name}) to move: pass the keyboard.${reach}`;
  }
  if (playing.includes(mover)) return `Your move.${reach}`;
  const kind = seat?.holder?.kind;
  if (kind === "bot" || kind === "standin") return `${title(mover)} is thinking…`;
  return `${title(mover)} to move.`;
}

/** A seat as its colour and the person whose it is: `Blue (Ann)`, or `Blue` for the
 * computer's own. */
export function seatLabel(seats, colour) {
  const name = (seats ?? []).find((seat) => seat.colour === colour)?.holder?.name;
  return `${title(colour)}${name ? ` (${name})` : ""}`;
}

/** How a finished game ended, from the room view's `ended` (protocol.md 2.5): the one
 * sentence the result line, the game-over card, the log and the live region all say. */
export function endingText(view) {
  const state = view.state ?? {};
  const seats = view.seats ?? [];
  const winners = state.winners ?? view.winners ?? [];
  const named = (colour) => seatLabel(seats, colour);
  const tie = winners.length > 1 && winners.length === seats.length;
  const won = winners.length === 1 ? `${named(winners[0])} wins` : `${listText(winners.map(named))} share the win`;
  let text;
  switch (view.ended) {
    case "aborted":
      return "Aborted: the game counts for nobody.";
    case "claimed":
      return claimedText(view);
    case "resigned": {
      const last = (view.resigned ?? []).at(-1);
      const who = last ? named(last) : "A seat";
      text = `${who} resigned${winners.length ? `: ${won}.` : "."}`;
      break;
    }
    case "flag": {
      const last = (view.flagged ?? []).at(-1);
      const out = `${last ? named(last) : "A seat"} ran out of time`;
      if (tie) text = `${out}: a draw, for the other seat could no longer have won.`;
      else if (winners.length === 1) text = `${out}: ${named(winners[0])} wins on time.`;
      else text = `${out}: the game is over.`;
      break;
    }
    case "agreed":
      text = tie ? "Drawn by agreement." : `Ended by agreement: ${resultText(state, seats)}`;
      break;
    default: {
      const stuck = stuckSeat(state);
      text = stuck ? `${title(stuck)} CAN'T MOVE! ${resultText(state, seats)}` : resultText(state, seats);
    }
  }
  const absent = view.absent ?? [];
  if (absent.length === 0) return text;
  const away = absent.length === 1 ? "was away at the end and finishes last" : "were away at the end and finish last";
  return `${text} ${listText(absent.map(named))} ${away}.`;
}

/** A game claimed by the one who stayed (protocol.md 2.7): who claimed it and who was away. */
function claimedText(view) {
  const seats = view.seats ?? [];
  const winners = view.state?.winners ?? view.winners ?? [];
  const absent = view.absent ?? [];
  const claimer = winners.length === 1 ? seatLabel(seats, winners[0]) : "The one who stayed";
  if (absent.length === 0) return `${claimer} claimed the game while everyone else was away.`;
  const away = listText(absent.map((colour) => seatLabel(seats, colour)));
  const last = absent.length === 1 ? "was away and finishes last" : "were away and finish last";
  return `${claimer} claimed the game: ${away} ${last}.`;
}

/** What claiming the game does, for the question asked first: who is away (the people the
 * computer stands in for, `away` their names) and that the asker wins. */
export function claimText(view, away) {
  const are = away.length === 1 ? "is" : "are";
  const counts = view.rated === true ? "the game counts" : "the game counts, though for no rating (a friendly game)";
  return `${listText(away)} ${are} away; you win and ${counts}.`;
}

/** What resigning `colour` does, for the question asked first: who wins, or that the
 * computer plays the seat on; and whether the game counts for ratings. */
export function resignText(view, colour) {
  const seats = view.seats ?? [];
  const out = new Set([...(view.resigned ?? []), ...(view.flagged ?? []), colour]);
  const left = seats.map((seat) => seat.colour).filter((each) => !out.has(each));
  const rated = view.rated === true;
  if (left.length === 1) {
    const counts = seats.length === 2 ? "both ratings" : "everyone's rating";
    return `${seatLabel(seats, left[0])} wins, and the game ${rated ? `counts for ${counts}` : "is not rated"}.`;
  }
  return `You finish last; the computer plays your seat on and the game ${rated ? "still counts for the others" : "is not rated"}.`;
}

/** An update told as a sentence, for the live region and the log; the result in the
 * players' names where the room's `seats` are given. */
export function moveText(update, seats = null) {
  const state = update.state ?? {};
  const parts = [`${title(update.seat)} played ${update.move}`];
  const flipped = state.flipped?.length ?? 0;
  if (flipped) parts[0] += `, turning ${flipped} ${flipped === 1 ? "piece" : "pieces"}`;
  if (state.last_pushed) parts[0] += `, pushing ${state.last_pushed}`;
  if (state.last_ejected) parts[0] += " and ejecting one";
  for (const seat of update.passed ?? []) parts.push(passText(seat).slice(0, -1));
  if (state.over) parts.push(resultText(state, seats).slice(0, -1));
  else if (state.to_move) parts.push(`${title(state.to_move)} to move`);
  return `${parts.join(". ")}.`;
}

/** How many of a search's score units make one of what each game counts, and its names. */
const SCORE_UNITS = {
  othello: [100, "square", "squares"],
  tribolo: [100, "square", "squares"],
  doublolo: [100, "square", "squares"],
  numlo: [100, "point", "points"],
  oubliette: [1000, "piece pushed off", "pieces pushed off"],
  tripppin: [2, "step in the race", "steps in the race"],
};

/** How the mover stands at the end of a search's line, in the game's terms. */
export function judgedText(game, search) {
  if (search.forced !== undefined && search.forced !== null) {
    const turns = Math.abs(search.forced);
    return `${search.forced > 0 ? "wins" : "loses"} in ${turns} turn${turns === 1 ? "" : "s"}`;
  }
  const [per, one, many] = SCORE_UNITS[game] ?? [1, "point", "points"];
  const worth = (search.score ?? 0) / per;
  if (Math.abs(worth) < 0.05) return "about even";
  const size = Math.abs(worth);
  return `about ${size.toFixed(1)} ${size === 1 ? one : many} ${worth > 0 ? "ahead" : "behind"}`;
}

/** A search as a line of text: its best move, how it judges it, and the line it expects. */
export function searchText(search, game) {
  if (!search) return "";
  const line = (search.line ?? []).join(" ");
  const judged = judgedText(game, search);
  return `${search.move} (${judged}; ${count(search.depth, "turn")} deep, ${count(search.nodes, "position")}): ${line}`;
}

/** What a proposal asks for, in words: `take back a move`. `room` says what the words
 * depend on: the room's number of `seats` (a draw of three is a ranking) and whether its
 * game was `over` when asked (a new game then is a rematch). */
export function proposedText(proposal, { seats = 2, over = false } = {}) {
  switch (proposal.kind) {
    case "hand_over":
      return `let the computer play ${title(proposal.seat ?? "?")} while its player is away`;
    case "undo":
      return "take back a move";
    case "draw":
      return seats > 2 ? "end the game now, ranked by the scores as they stand" : "agree a draw";
    default:
      if (proposal.rotate) return "play again, everyone one seat on";
      return over ? "play a rematch" : "start a new game";
  }
}

/** What a proposal nobody answered in time leaves, by kind (a draw of three: `ranked`). */
const LAPSED = {
  undo: "no undo",
  new_game: "no new game",
  rematch: "no rematch",
  draw: "no draw",
  ranked: "the game goes on",
  hand_over: "no hand-over",
};

/** A proposal made, for the log of the people it does not ask: `mine` where this page
 * made it. */
export function proposalMadeText(proposal, room = {}, mine = false) {
  const who = mine ? "You" : title(proposal.by);
  if (proposal.kind === "draw" && (room.seats ?? 2) <= 2) return `${who} offered a draw; waiting for an answer.`;
  return `${who} ${mine ? "asked" : "asks"} to ${proposedText(proposal, room)}; waiting for answers.`;
}

/** How a proposal ended, in words; `room` as for `proposedText`, with `ended` where the
 * game ended meanwhile, which ends an undo, draw or hand-over still asked (protocol.md 2.7).
 * The terminal's words (client/terminal/room.py `ended_words`) are the same. */
export function proposalEndedText(ended, room = {}) {
  const what = proposedText(ended, room);
  const pair = ended.kind === "draw" && (room.seats ?? 2) <= 2;
  if (ended.outcome === "accepted") return pair ? "A draw was agreed." : `Everyone agreed to ${what}.`;
  if (ended.outcome === "declined" && ended.by) {
    return pair ? `${title(ended.by)} declined the draw.` : `${title(ended.by)} declined to ${what}.`;
  }
  if (room.ended && ended.kind !== "new_game") return "The game ended before everyone had answered.";
  let sort = ended.kind;
  if (sort === "new_game" && room.over) sort = "rematch";
  if (sort === "draw" && !pair) sort = "ranked";
  return `No answer in time: ${LAPSED[sort] ?? "nothing changed"}.`;
}

/** A proposal as a question to the people it asks. */
export function proposalQuestion(proposal, room = {}) {
  if (proposal.kind === "draw" && (room.seats ?? 2) <= 2) return `${title(proposal.by)} offers a draw. Agree?`;
  return `${title(proposal.by)} asks to ${proposedText(proposal, room)}. Agree?`;
}

/** Who holds a seat as a game file writes it (the server's `holder_text`): a name,
 * `computer (easy)`, `computer (easy) for Ann`, or `open`. */
export function holderText(holder) {
  switch (holder?.kind) {
    case "human":
      return holder.name ?? "?";
    case "bot":
    case "standin": {
      const playing = `computer (${holder.level})`;
      return holder.name ? `${playing} for ${holder.name}` : playing;
    }
    default:
      return "open";
  }
}

/** A seat's holder as the move list names it: `Ann`, `computer, easy`, `computer for Ann`. */
export function holderLabel(text) {
  const computer = /^computer \(([^)]*)\)(?: for (.+))?$/.exec(text ?? "");
  if (computer === null) return text ?? "";
  return computer[2] ? `computer for ${computer[2]}` : `computer, ${computer[1]}`;
}

/** A seat and who held it: `Blue (Ann)`. */
export function seatAndHolder(colour, holder) {
  return holder ? `${title(colour)} (${holderLabel(holder)})` : title(colour);
}

/**
 * Each move of a game file (`export_game`'s text) with the colour that made it and who held
 * that seat then, and the seats passed over after it (the seats between it and the next
 * mover, in seat order). `seats` is the game's colours in order. The passes after the last
 * move are not in the file: they are the position's own `passed`.
 */
export function readGameFile(text, seats) {
  const holders = {};
  const tag = /^\[Seats\s+"((?:[^"\\]|\\.)*)"\]$/m.exec(text);
  if (tag) {
    const value = tag[1].replace(/\\(.)/g, "$1");
    const starts = new RegExp(`(?:^|; )(${seats.join("|")}): `, "g");
    const found = [...value.matchAll(starts)];
    found.forEach((match, i) => {
      const end = i + 1 < found.length ? found[i + 1].index : value.length;
      holders[match[1]] = value.slice(match.index + match[0].length, end);
    });
  }
  const played = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const change = /^\{\s*(\w+)\s*:\s*([^{}]*\S)\s*\}$/.exec(line);
    if (change) {
      holders[change[1].toLowerCase()] = change[2];
      continue;
    }
    const move = /^(\d+)\.\s+(\w+)\s+(\S.*)$/.exec(line);
    if (move) {
      const seat = move[2].toLowerCase();
      played.push({ move: move[3].trim(), seat, holder: holders[seat] ?? null, passed: [], holders: { ...holders } });
    }
  }
  played.forEach((entry, i) => {
    const next = played[i + 1];
    if (next) entry.passed = skipped(seats, entry.seat, next.seat).map((seat) => ({ seat, holder: entry.holders[seat] ?? null }));
  });
  return played.map(({ move, seat, holder, passed }) => ({ move, seat, holder, passed }));
}

/** The seats strictly between `from` and `to`, going round in seat order: those passed over
 * when `to` moves next after `from` (all the others when `from` moves again). */
export function skipped(seats, from, to) {
  const start = seats.indexOf(from);
  if (start < 0 || !seats.includes(to)) return [];
  const between = [];
  for (let i = 1; i <= seats.length; i += 1) {
    const seat = seats[(start + i) % seats.length];
    if (seat === to) break;
    between.push(seat);
  }
  return between;
}

/** How many people are in a room: "1 person", "3 people", "nobody here". */
export function peopleText(count) {
  if (count === 0) return "nobody here";
  return count === 1 ? "1 person" : `${count} people`;
}

/** How long ago a Unix time (seconds) was, in words: "just now", "3 min ago", "1 day ago". */
export function agoText(seconds, nowMs = Date.now()) {
  const ago = Math.max(0, Math.floor(nowMs / 1000 - seconds));
  if (ago < 60) return "just now";
  const minutes = Math.floor(ago / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${count(Math.floor(hours / 24), "day")} ago`;
}

/** When a room last moved: "moved just now", "moved 3 min ago". */
export function movedText(seconds, nowMs = Date.now()) {
  return `moved ${agoText(seconds, nowMs)}`;
}

/** When a room was made: "made 2 h ago". */
export function madeText(seconds, nowMs = Date.now()) {
  return `made ${agoText(seconds, nowMs)}`;
}

/** Whether a field of the server's is a time worth telling (seconds since 1970). */
export function isTime(seconds) {
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0;
}

/** A name as the server compares names (protocol `fold`): `Ann`, `ANN` and its full-width
 * form are one name. */
export function fold(name) {
  return String(name ?? "").normalize("NFKC").toLowerCase().split(/\s+/u).filter(Boolean).join(" ");
}

/** What a block does, said where a person may block someone. */
export const BLOCK_TEXT = "They cannot sit at your tables, and you will not see their chat.";

/** Told to a watcher the host sent out (`removed`, protocol.md 2.14). */
export const REMOVED_TEXT = "The host sent you out of this room.";

/** A refusal as a plain sentence: the moderation codes (protocol.md section 3) in the page's
 * own words where they occur (joining, watching, saying hello), anything else in the
 * server's, its first letter a capital. */
export function refusalText(error) {
  switch (error?.code) {
    case "blocked":
      return "A person in this room has blocked you: you cannot sit here, though you may watch.";
    case "removed":
      return `${REMOVED_TEXT} You cannot watch it or sit in it again.`;
    case "barred": {
      const words = String(error.message ?? "this server's operators have barred you from it").replace(/[.\s]+$/u, "");
      return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
    }
    default: {
      const words = String(error?.message ?? "");
      return words ? words.charAt(0).toUpperCase() + words.slice(1) : "";
    }
  }
}

/** What a person who is in the room without a seat is told: that they watch, not play. */
export function watchingText(view, hosting = false) {
  if (hosting) return "You host this room without a seat: you are not playing.";
  const free = view.status === "waiting" && openSeats(view.seats ?? []).length > 0;
  return `You are watching this game, not playing.${free ? " Take a free colour to play." : ""}`;
}
