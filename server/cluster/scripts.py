"""The Lua scripts that keep a cluster's rooms in Redis; Redis runs each one whole.

Keys, under the cluster's prefix P:
- `P room:ID`: the room's record (JSON); `P rooms`: the ids of every open room.
- `P room:ID:own`: a hash of the room's fencing number `fence` and its last owner `node`;
  it outlives leases, so every owner gets a larger number than the one before.
- `P room:ID:lease`: `NODE:FENCE` while that node owns the room; it expires unless renewed.
- `P lobby`: public rooms' summaries by id; `P codes`: private rooms' ids by code.
- `P nodes`: each live node with the time (ms, Redis's clock) its heartbeat runs out.
- `P score:GAME:PRESET`: a score card's counts (`*` for every preset); `P counted:ROOM:V`
  for a day after the game that ended a room's version V was counted, so a write sent
  again counts it once; `P saves` and `P saved:GAME` (`*` for all): saved games by name,
  and their names by time (`P saves@ID` and `P saved@ID:GAME` for a player's own).
- `P record:ID` and `P finished:ID`: a finished game's file and its summary; `P mine:PLAYER`
  the games a player finished, by time. `P names`: player ids by folded name; `P player:ID`
  a player's name; `P rating:GAME`: ratings by player; `P rated:ROOM:V`: a game's rating
  changes, written once. `P done:TOKEN`: for a few seconds, the answer to a node's change
  with that token, so that a change sent again is not carried out twice.
- `P email:ID`: a player's address for mail and what goes with it (`emails.py`), as JSON;
  `P mailed:MARKER`: a mail sent once (a reminder for one turn), while it matters;
  `P online:NODE`: the players connected to that node, renewed with its heartbeat.

Every write to a room checks its lease against the writer's node and fencing number, so a
node that lost a room (paused, cut off, slow) can never write to it again.
"""

from typing import Final

WRITE_ROOMS: Final = """
local P, node, lease_ms, count = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local done = ARGV[5] ~= '' and P .. 'done:' .. ARGV[5]
if done then
  local before = redis.call('GET', done)
  if before then return cjson.decode(before) end
end

local function count_results(results)
  for _, result in ipairs(cjson.decode(results)) do
    local once = redis.call('SET', P .. 'counted:' .. result.game, 1, 'NX', 'EX', 86400)
    if once and result.record then
      redis.call('SET', P .. 'record:' .. result.record, result.text)
      redis.call('SET', P .. 'finished:' .. result.record, result.summary)
      for _, player in ipairs(result.players) do
        redis.call('ZADD', P .. 'mine:' .. player, result.at, result.record)
      end
    end
    for _, key in ipairs(once and result.keys or {}) do
      local card = P .. 'score:' .. key
      for field, count in pairs(result.counts) do
        redis.call('HINCRBY', card, field, count)
      end
      if result.best ~= cjson.null then
        local held = redis.call('HGET', card, 'best')
        if not held or cjson.decode(held)[2] < result.best[2] then
          redis.call('HSET', card, 'best', cjson.encode(result.best))
        end
      end
    end
  end
end

local function write(room, fence, record, summary, code, results)
  local own = P .. 'room:' .. room .. ':own'
  local lease = P .. 'room:' .. room .. ':lease'
  if fence == 0 then
    if record == '?' or redis.call('EXISTS', own) == 1 then return 0 end
    fence = 1
    redis.call('HSET', own, 'fence', fence, 'node', node)
    redis.call('SET', lease, node .. ':' .. fence, 'PX', lease_ms)
  elseif redis.call('GET', lease) ~= node .. ':' .. fence then
    return -1
  end
  if record == '?' then return fence end
  if results ~= '' then count_results(results) end
  if record == '' then
    local held = redis.call('GET', P .. 'room:' .. room)
    if held then
      local closed = cjson.decode(held).code
      if closed ~= cjson.null then redis.call('HDEL', P .. 'codes', closed) end
    end
    redis.call('DEL', P .. 'room:' .. room, own, lease)
    redis.call('SREM', P .. 'rooms', room)
    redis.call('HDEL', P .. 'lobby', room)
    return fence
  end
  redis.call('SET', P .. 'room:' .. room, record)
  redis.call('SADD', P .. 'rooms', room)
  if summary == '' then
    redis.call('HDEL', P .. 'lobby', room)
  elseif summary ~= '=' then
    redis.call('HSET', P .. 'lobby', room, summary)
  end
  if code ~= '' then redis.call('HSET', P .. 'codes', code, room) end
  return fence
end

local answers, kept = {}, true
for i = 0, count - 1 do
  local at = 6 + i * 6
  local answer = write(ARGV[at], tonumber(ARGV[at + 1]), ARGV[at + 2], ARGV[at + 3],
                       ARGV[at + 4], ARGV[at + 5])
  answers[i + 1] = answer
  if answer <= 0 then kept = false end
end
if kept then
  for at = 6 + count * 6, #ARGV, 2 do
    redis.call('PUBLISH', ARGV[at], ARGV[at + 1])
  end
end
if done then redis.call('SET', done, cjson.encode(answers), 'PX', 10000) end
return answers
"""
"""ARGV: prefix, node, lease ms, the count of rooms, the change's token (empty: none);
then for each room its id, fence (0: a new room), record (empty: the room closed; `?`:
only checked, for messages that show the room as it is), lobby summary (empty: not
listed; `=`: as it is), code (empty: public, or written before) and finished games'
score-card counts as JSON (empty: none); then channels and messages to publish. Each room
is written if the node holds it under that fence; the messages are published only if
every room was, so nobody hears of a change Redis did not keep (and, with every write
synced, they go out after it is on disk). Returns each room's fence; 0 where a new room's
id is taken; -1 where the node does not hold the lease. A change sent again under the
same token (its answer was lost on the way) gets the first answer and publishes nothing
twice."""

CLAIM_ROOMS: Final = """
local P, node, lease_ms = ARGV[1], ARGV[2], tonumber(ARGV[3])
local claimed = {}
for i = 4, #ARGV do
  local room = ARGV[i]
  local lease = P .. 'room:' .. room .. ':lease'
  local record = redis.call('GET', P .. 'room:' .. room)
  local holder = redis.call('GET', lease)
  if record and (not holder or string.match(holder, '^(%d+):') == node) then
    local own = P .. 'room:' .. room .. ':own'
    local before = redis.call('HGET', own, 'node')
    local alive = ''
    if before and before ~= node then alive = redis.call('HGET', P .. 'alive', before) or '' end
    local fence = redis.call('HINCRBY', own, 'fence', 1)
    redis.call('HSET', own, 'node', node)
    redis.call('SET', lease, node .. ':' .. fence, 'PX', lease_ms)
    table.insert(claimed, room)
    table.insert(claimed, fence)
    table.insert(claimed, record)
    table.insert(claimed, alive)
  elseif not record then
    redis.call('SREM', P .. 'rooms', room)
  end
end
return claimed
"""
"""ARGV: prefix, node, lease ms, room ids. Takes each room that has a record and no
lease (or a lease of this node's, for a room it forgot), with the next fencing number, so
that nothing written under an earlier one is taken any more. Returns id, fence, record
and, for a room another node held, when that node was last alive (Redis milliseconds;
empty if unknown) of each one taken."""

HEARTBEAT: Final = """
local P, node, lease_ms = ARGV[1], ARGV[2], tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local nodes = P .. 'nodes'
local due = redis.call('ZSCORE', nodes, node)
local lapsed = (not due or tonumber(due) < now) and 1 or 0
redis.call('ZADD', nodes, now + lease_ms, node)
redis.call('HSET', P .. 'alive', node, now)
local held, lost = {}, {}
for i = 4, #ARGV, 2 do
  held[ARGV[i]] = true
  local lease = P .. 'room:' .. ARGV[i] .. ':lease'
  if redis.call('GET', lease) == node .. ':' .. ARGV[i + 1] then
    redis.call('PEXPIRE', lease, lease_ms)
  else
    table.insert(lost, ARGV[i])
  end
end
redis.call('ZREMRANGEBYSCORE', nodes, '-inf', now)
local orphans = {}
for _, room in ipairs(redis.call('SMEMBERS', P .. 'rooms')) do
  local holder = redis.call('GET', P .. 'room:' .. room .. ':lease')
  if not holder or (not held[room] and string.match(holder, '^(%d+):') == node) then
    table.insert(orphans, room)
  end
end
return {now, lost, redis.call('ZRANGE', nodes, 0, -1), orphans, lapsed}
"""
"""ARGV: prefix, node, lease ms, then each room the node holds and its fence. Renews the
node and the leases it still holds (a lease that names the node and its fence is the
node's, even if its heartbeat ran out meanwhile: nobody else can have taken the room);
forgets nodes whose heartbeat ran out; notes when the node was last alive (`alive`, its
rooms' clocks stand still from then if it is lost). Returns Redis's time, the rooms whose
leases were lost, the live nodes, the rooms nobody holds (and those whose lease names this
node though it no longer holds them: it forgot them, and takes them again from their
records), and 1 if this node's own heartbeat had run out (the others may have dropped its
connections from their rooms), else 0."""

JOIN_CLUSTER: Final = """
local P, lease_ms = ARGV[1], tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local node = redis.call('INCR', P .. 'node-seq')
redis.call('ZADD', P .. 'nodes', now + lease_ms, node)
return node
"""
"""ARGV: prefix, lease ms. A new node's number (never given before), registered as live."""

RELEASE_ROOMS: Final = """
local P, node = ARGV[1], ARGV[2]
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('HSET', P .. 'alive', node, now)
for i = 3, #ARGV, 2 do
  local lease = P .. 'room:' .. ARGV[i] .. ':lease'
  if redis.call('GET', lease) == node .. ':' .. ARGV[i + 1] then
    redis.call('DEL', lease)
  end
end
redis.call('ZREM', P .. 'nodes', node)
return 1
"""
"""ARGV: prefix, node, then each room and fence. A node that stops gives its rooms up,
so that the others take them at their next heartbeat, and leaves the live nodes."""

PUT_SAVE: Final = """
local saves, saved, name, game, entry, at, replace = ARGV[1], ARGV[2], ARGV[3], ARGV[4],
  ARGV[5], ARGV[6], ARGV[7]
local held = redis.call('HGET', saves, name)
if held then
  if replace == '0' then return 0 end
  redis.call('ZREM', saved .. cjson.decode(held).game, name)
end
redis.call('HSET', saves, name, entry)
redis.call('ZADD', saved .. '*', at, name)
redis.call('ZADD', saved .. game, at, name)
return 1
"""
"""ARGV: the owner's saves hash, the prefix of their lists by game, name, game, the save
as JSON, when (ms), 1 to replace a save of that name. Returns 0 if the name is taken and
not to be replaced."""

CLAIM_NAME: Final = """
local P, id, name, folded, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local holder = redis.call('HGET', P .. 'names', folded)
if holder and holder ~= id then return -1 end
if id == '' then return 0 end
local player = P .. 'player:' .. id
local old = redis.call('HGET', player, 'folded')
if old and old ~= folded then redis.call('HDEL', P .. 'names', old) end
redis.call('HSET', P .. 'names', folded, id)
redis.call('HSET', player, 'name', name, 'folded', folded, 'seen', now)
if old then return 0 end
redis.call('HSET', player, 'created', now)
return 1
"""
"""ARGV: prefix, player id (empty: a guest), name, the name folded, now. -1 if another
player holds the name; else the player takes it (giving up their old one), 1 if they are
new."""

SET_INITIALS: Final = """
local P, game, preset, name, score, initials = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local card = P .. 'score:' .. game .. ':' .. preset
local held = redis.call('HGET', card, 'best')
if not held then return 0 end
local best = cjson.decode(held)
if best[1] ~= name or best[2] ~= tonumber(score) then return 0 end
local typed = cjson.encode({name, tonumber(score), initials})
redis.call('HSET', card, 'best', typed)
local every = P .. 'score:' .. game .. ':*'
local overall = redis.call('HGET', every, 'best')
if overall then
  local top = cjson.decode(overall)
  if top[1] == name and top[2] == tonumber(score) then redis.call('HSET', every, 'best', typed) end
end
return 1
"""
"""Keep the initials typed for a board's best score (KEYS none; ARGV: prefix, game, preset,
name, score, initials) if it is still theirs, and on the card of every board too where it
is the best there; 1 if kept."""

PRESENT: Final = """
local P, player = ARGV[1], ARGV[2]
for _, node in ipairs(redis.call('ZRANGE', P .. 'nodes', 0, -1)) do
  if redis.call('SISMEMBER', P .. 'online:' .. node, player) == 1 then return 1 end
end
return 0
"""
"""ARGV: prefix, player id. 1 if a connection of the player's is open on any node (the
players of a node that was lost go when its set runs out), else 0."""

FILE_REPORT: Final = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then
    redis.call('LPUSH', KEYS[2], ARGV[2])
end
return 1
"""
"""Keep a report once (KEYS: the keys seen, the reports; ARGV: its key, its JSON)."""
