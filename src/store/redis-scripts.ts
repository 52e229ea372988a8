// The Lua scripts of the Redis store: every write, and every read that must see one state, is
// one script, which Redis runs atomically. See decisions/008-redis-store.md for the key layout.
//
// Every script gets the same nine keys: the namespace of the state it works on (the main
// state or a scope), the namespace of the start-up mark, the set of scope names, and the
// epoch's three: `epoch` (the generation of the start-up data, set with the mark),
// `superseded` (the generations an explicit re-seed replaced) and `lost` (set by a replica that
// found its generation gone), the spec's, the main state's namespace and `room` (hash:
// `records` and `bytes` that the scopes hold beyond the mark, all together: with the main
// state's totals, what the limits are checked against). Its last ARGV is the generation the caller serves ('' for none
// yet): a script that guards refuses to run on any other, so that a Redis restarted empty is
// never served as if it held the data. A state's
// keys under its namespace: `meta` (hash: `records` and `bytes`, the totals the limits are
// checked against, and `seq`, the creation order), `last` (hash: collection → last integer id),
// `names` (set: its collections), and per collection `r:<name>` (hash: id → record JSON) and
// `o:<name>` (sorted set: ids by creation order). The scripts build these keys from the
// namespaces, so the store runs on one Redis server (standalone, or a primary with its
// replicas), not on Redis Cluster.

import { LIST_CLEAR, LIST_PUSH } from './redis-log-scripts.js';

const PREAMBLE = `
local ns, mark, scopes = KEYS[1], KEYS[2], KEYS[3]
local epochKey, superseded, lostKey, specKey = KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local mainNs, roomKey = KEYS[8], KEYS[9]
local startupGeneration = ARGV[#ARGV]

-- Stops the script, before it writes anything, when the start-up data the caller serves is
-- no longer in Redis: gone (a restart without persistence, FLUSHALL, a failover to an empty
-- replica), or replaced by another generation. A gone one is noted in 'lost', so that no
-- replica started later seeds over the prefix unless told to.
local function guard()
  if startupGeneration == '' then return end
  local now = redis.call('GET', epochKey)
  if now == startupGeneration then return end
  if now and redis.call('SISMEMBER', superseded, startupGeneration) == 1 then return end
  if not now then
    redis.call('SET', lostKey, startupGeneration)
    return error({err = 'EPOCHGONE'})
  end
  return error({err = 'EPOCHOTHER'})
end

local function drop(state)
  for _, name in ipairs(redis.call('SMEMBERS', state .. 'names')) do
    redis.call('DEL', state .. 'r:' .. name, state .. 'o:' .. name)
  end
  redis.call('DEL', state .. 'meta', state .. 'last', state .. 'names')
end

-- COPY is done inside Redis, without a round trip per record: a new scope costs little.
local function copy(from, to)
  drop(to)
  if redis.call('EXISTS', from .. 'meta') == 0 then
    redis.call('HSET', to .. 'meta', 'records', 0, 'bytes', 0, 'seq', 0)
    return
  end
  for _, name in ipairs(redis.call('SMEMBERS', from .. 'names')) do
    redis.call('COPY', from .. 'r:' .. name, to .. 'r:' .. name)
    redis.call('COPY', from .. 'o:' .. name, to .. 'o:' .. name)
  end
  for _, key in ipairs({'meta', 'last', 'names'}) do
    redis.call('COPY', from .. key, to .. key)
  end
end

-- A state that does not exist yet starts as a copy of the mark: a new scope, or the main
-- state before its first write. ARGV[1] is the scope's name, empty for the main state.
local function ensure()
  if redis.call('EXISTS', ns .. 'meta') == 0 then
    copy(mark, ns)
    if ARGV[1] ~= '' then redis.call('SADD', scopes, ARGV[1]) end
  end
end

-- The spec a prefix serves: refused ({'other-spec', its label}) when it is another than the
-- caller's (hash, label), noted when the prefix had none. An empty hash: no spec to compare.
local function sameSpec(hash, label)
  if hash == '' then return nil end
  local held = redis.call('HGET', specKey, 'hash')
  if held and held ~= hash then return {'other-spec', redis.call('HGET', specKey, 'label')} end
  if not held then redis.call('HSET', specKey, 'hash', hash, 'label', label) end
  return nil
end

-- A state's totals: its own, or the mark's for one not made yet (it would start as a copy).
local function totalsOf(state)
  local totals = redis.call('HMGET', state .. 'meta', 'records', 'bytes')
  if not totals[1] then totals = redis.call('HMGET', mark .. 'meta', 'records', 'bytes') end
  return tonumber(totals[1]) or 0, tonumber(totals[2]) or 0
end

-- What a scope of these totals adds to the whole: what it holds beyond the mark's count (its
-- copy of the start-up data counts once, as the mark's).
local function beyond(records, bytes)
  local markRecords, markBytes = totalsOf(mark)
  return math.max(0, records - markRecords), math.max(0, bytes - markBytes)
end

-- Moves the scopes' share in 'room' by what a scope's share moves by.
local function moveRoom(records, bytes)
  if records ~= 0 then redis.call('HINCRBY', roomKey, 'records', records) end
  if bytes ~= 0 then redis.call('HINCRBY', roomKey, 'bytes', bytes) end
end

-- Checks that this state's totals moved by these deltas keep the whole store (the main state,
-- and every scope beyond the mark) within the limits (a negative limit: none), and counts the
-- move when they do; returns the limit that would be passed, or nil. The caller then writes.
local function room(records, bytes, maxRecords, maxBytes)
  local moveRecords, moveBytes = records, bytes
  if ns ~= mainNs then
    local ownRecords, ownBytes = totalsOf(ns)
    local beforeRecords, beforeBytes = beyond(ownRecords, ownBytes)
    local afterRecords, afterBytes = beyond(ownRecords + records, ownBytes + bytes)
    moveRecords, moveBytes = afterRecords - beforeRecords, afterBytes - beforeBytes
  end
  local mainRecords, mainBytes = totalsOf(mainNs)
  local shared = redis.call('HMGET', roomKey, 'records', 'bytes')
  local wholeRecords = mainRecords + (tonumber(shared[1]) or 0)
  local wholeBytes = mainBytes + (tonumber(shared[2]) or 0)
  if moveRecords > 0 and maxRecords >= 0 and wholeRecords + moveRecords > maxRecords then
    return 'maxRecords'
  end
  if moveBytes > 0 and maxBytes >= 0 and wholeBytes + moveBytes > maxBytes then
    return 'maxBytes'
  end
  if ns ~= mainNs then moveRoom(moveRecords, moveBytes) end
  return nil
end

-- Before a scope's state is dropped or replaced: its share leaves the whole.
local function leaveRoom(state)
  if state == mainNs or redis.call('EXISTS', state .. 'meta') == 0 then return end
  local records, bytes = beyond(totalsOf(state))
  moveRoom(-records, -bytes)
end

-- The namespace of a scope's keys, as the store names it (encodeURIComponent of its name).
local function scopeNs(name)
  local prefix = string.sub(mainNs, 1, #mainNs - #'main:')
  local encoded = string.gsub(name, "[^%w%-_%.!~%*'%(%)]", function(c)
    return string.format('%%%02X', string.byte(c))
  end)
  return prefix .. 'scope:' .. encoded .. ':'
end

-- After the mark changed: every scope's share counted again against the new mark.
local function recountRoom()
  redis.call('DEL', roomKey)
  for _, name in ipairs(redis.call('SMEMBERS', scopes)) do
    local records, bytes = beyond(totalsOf(scopeNs(name)))
    moveRoom(records, bytes)
  end
end
`;

/** A script and its name, for messages. */
export interface Script {
  readonly name: string;
  readonly lua: string;
}

function script(name: string, body: string): Script {
  return { name, lua: PREAMBLE + body };
}

/**
 * ARGV: scope, collection, mode (`auto`: the next integer id; `int`: a given integer id;
 * `str`: a given string id), id (empty for `auto`), JSON before the id (`auto`) or the whole
 * record, JSON after the id (`auto`), the largest integer id, maxRecords, maxBytes.
 * Returns `{'ok', id}`, `{'taken'}`, `{'exhausted'}` (the counter stands at the largest id:
 * Lua's numbers are doubles, so one more would repeat it) or `{'full', limit}`; a refused
 * create changes nothing, not even the counter.
 */
export const CREATE = script(
  'create',
  `
guard()
ensure()
local name, mode = ARGV[2], ARGV[3]
local records = ns .. 'r:' .. name
local id, json = ARGV[4], ARGV[5]
if mode == 'auto' then
  local last = tonumber(redis.call('HGET', ns .. 'last', name) or '0')
  if last >= tonumber(ARGV[7]) then return {'exhausted'} end
  id = string.format('%d', last + 1)
  json = ARGV[5] .. id .. ARGV[6]
elseif redis.call('HEXISTS', records, id) == 1 then
  return {'taken'}
end
local full = room(1, #json, tonumber(ARGV[8]), tonumber(ARGV[9]))
if full then return {'full', full} end
if mode ~= 'str' then
  local last = tonumber(redis.call('HGET', ns .. 'last', name) or '0')
  if tonumber(id) > last then redis.call('HSET', ns .. 'last', name, id) end
end
redis.call('HSET', records, id, json)
redis.call('ZADD', ns .. 'o:' .. name, redis.call('HINCRBY', ns .. 'meta', 'seq', 1), id)
redis.call('HINCRBY', ns .. 'meta', 'records', 1)
redis.call('HINCRBY', ns .. 'meta', 'bytes', #json)
redis.call('SADD', ns .. 'names', name)
return {'ok', id}
`,
);

/**
 * ARGV: scope, collection, id, the JSON the change was computed from, the new JSON,
 * maxRecords, maxBytes. A compare-and-set: the write happens only if the record is still
 * what the change saw. Returns `{'ok'}`, `{'gone'}`, `{'changed', current JSON}` or
 * `{'full', limit}`.
 */
export const UPDATE = script(
  'update',
  `
guard()
ensure()
local records = ns .. 'r:' .. ARGV[2]
local current = redis.call('HGET', records, ARGV[3])
if not current then return {'gone'} end
if current ~= ARGV[4] then return {'changed', current} end
local delta = #ARGV[5] - #current
local full = room(0, delta, tonumber(ARGV[6]), tonumber(ARGV[7]))
if full then return {'full', full} end
redis.call('HSET', records, ARGV[3], ARGV[5])
redis.call('HINCRBY', ns .. 'meta', 'bytes', delta)
return {'ok'}
`,
);

/** ARGV: scope, collection, id. Returns 1 when a record was removed, else 0. */
export const REMOVE = script(
  'remove',
  `
guard()
ensure()
local records = ns .. 'r:' .. ARGV[2]
local current = redis.call('HGET', records, ARGV[3])
if not current then return 0 end
room(-1, -#current, -1, -1)
redis.call('HDEL', records, ARGV[3])
redis.call('ZREM', ns .. 'o:' .. ARGV[2], ARGV[3])
redis.call('HINCRBY', ns .. 'meta', 'records', -1)
redis.call('HINCRBY', ns .. 'meta', 'bytes', -#current)
return 1
`,
);

/** ARGV: scope, collection, id. Returns the record's JSON or nil. */
export const GET = script(
  'get',
  `
guard()
ensure()
return redis.call('HGET', ns .. 'r:' .. ARGV[2], ARGV[3])
`,
);

/** ARGV: scope, collection. Returns the records' JSON, oldest first, as one snapshot. */
export const LIST = script(
  'list',
  `
guard()
ensure()
local ids = redis.call('ZRANGE', ns .. 'o:' .. ARGV[2], 0, -1)
local out = {}
-- In slices: Lua's unpack has a bound on how many values it passes.
for first = 1, #ids, 1000 do
  local slice = redis.call('HMGET', ns .. 'r:' .. ARGV[2], unpack(ids, first, math.min(first + 999, #ids)))
  for _, json in ipairs(slice) do out[#out + 1] = json end
end
return out
`,
);

/** ARGV: scope. Returns the number of records of the state. */
export const COUNT = script(
  'count',
  `
guard()
ensure()
return tonumber(redis.call('HGET', ns .. 'meta', 'records'))
`,
);

/**
 * ARGV: scope, the seeding claim's key, this opener's token, a new generation. The state
 * becomes the mark, and a claim held by this opener ends: the prefix is ready for every
 * replica. The generation is set if the prefix has none (its first mark, or a re-seed after a
 * loss, whose lost generation is then superseded: the replicas serving it go on with this one).
 * Returns the prefix's generation.
 */
export const MARK = script(
  'mark',
  `
guard()
ensure()
copy(ns, mark)
recountRoom()
if redis.call('GET', ARGV[2]) == ARGV[3] then redis.call('DEL', ARGV[2]) end
local gone = redis.call('GET', lostKey)
if gone then
  redis.call('SADD', superseded, gone)
  redis.call('DEL', lostKey)
end
local epoch = redis.call('GET', epochKey)
if not epoch then
  epoch = ARGV[4]
  redis.call('SET', epochKey, epoch)
end
return epoch
`,
);

/** ARGV: scope. The state becomes a copy of the mark (empty without one). */
export const RESET = script(
  'reset',
  `
guard()
leaveRoom(ns)
copy(mark, ns)
if ARGV[1] ~= '' then redis.call('SADD', scopes, ARGV[1]) end
return 1
`,
);

/** ARGV: scope. Removes a scope's state; returns 1 when it had one. */
export const DROP = script(
  'drop',
  `
guard()
local had = redis.call('EXISTS', ns .. 'meta')
leaveRoom(ns)
drop(ns)
-- A scope touched but not used yet holds a state too (made from the mark when first used).
return math.max(had, redis.call('SREM', scopes, ARGV[1]))
`,
);

/**
 * ARGV: scope (empty), the claim's key, this opener's token, the claim's lease in ms, `reseed`
 * or '', the spec's hash and label (empty: none). Returns `{'other-spec', label}` when the
 * prefix serves another spec, else `{'loaded', generation}` when the prefix holds a marked start-up state,
 * `{'wait'}` while another opener holds the claim (it is seeding), `{'lost', generation}` when
 * replicas served start-up data that is gone and this opener was not told to seed again, or
 * `{'claimed', lost generation or ''}`: this opener seeds, into a main state emptied of whatever
 * an opener that never marked left (a seeding that did not finish).
 */
export const CLAIM = script(
  'claim',
  `
local other = sameSpec(ARGV[6], ARGV[7])
if other then return other end
if redis.call('EXISTS', mark .. 'meta') == 1 then
  local epoch = redis.call('GET', epochKey)
  -- Marked by a mock that kept no generation: its generation starts now.
  if not epoch then
    epoch = ARGV[3]
    redis.call('SET', epochKey, epoch)
  end
  return {'loaded', epoch}
end
local gone = redis.call('GET', lostKey)
if gone and ARGV[5] ~= 'reseed' then return {'lost', gone} end
if not redis.call('SET', ARGV[2], ARGV[3], 'NX', 'PX', ARGV[4]) then return {'wait'} end
drop(ns)
return {'claimed', gone or ''}
`,
);

/**
 * ARGV: scope (empty), the claim's key, this opener's token, the claim's lease in ms, the
 * spec's hash and label (written again: the loss took them). For a
 * reset by a replica whose start-up data is gone: `{'claimed'}` when it is to seed again (the
 * main state emptied, its generation noted as lost so that the mark supersedes it), `{'wait'}`
 * while another seeds, or `{'current'}` when the prefix holds a generation it may serve (one
 * that superseded its own, which it now serves too): then a plain reset follows.
 */
export const RECLAIM = script(
  'reclaim',
  `
local now = redis.call('GET', epochKey)
if now then
  if now ~= startupGeneration then redis.call('SADD', superseded, startupGeneration) end
  return {'current'}
end
if not redis.call('SET', ARGV[2], ARGV[3], 'NX', 'PX', ARGV[4]) then return {'wait'} end
sameSpec(ARGV[5], ARGV[6])
redis.call('SET', lostKey, startupGeneration, 'NX')
drop(ns)
return {'claimed'}
`,
);

/** ARGV: scope (empty). Fails as every guarded script does when the generation served is gone. */
export const CHECK = script(
  'check',
  `
guard()
return 1
`,
);

/** ARGV: scope (empty), the claim's key, this opener's token, the lease in ms. Keeps a claim alive. */
export const RENEW = script(
  'renew',
  `
if redis.call('GET', ARGV[2]) ~= ARGV[3] then return 0 end
redis.call('PEXPIRE', ARGV[2], ARGV[4])
return 1
`,
);

/** ARGV: scope (empty), the claim's key, this opener's token. Ends a claim (at close). */
export const RELEASE = script(
  'release',
  `
if redis.call('GET', ARGV[2]) == ARGV[3] then redis.call('DEL', ARGV[2]) end
return 1
`,
);

export const SCRIPTS: readonly Script[] = [
  CREATE,
  UPDATE,
  REMOVE,
  GET,
  LIST,
  COUNT,
  MARK,
  RESET,
  DROP,
  CLAIM,
  RECLAIM,
  CHECK,
  RENEW,
  RELEASE,
  LIST_PUSH,
  LIST_CLEAR,
];
