// The Lua scripts of the Redis store: every write, and every read that must see one state, is
// one script, which Redis runs atomically. See decisions/008-redis-store.md for the key layout.
//
// Every script gets the same three keys: the namespace of the state it works on (the main
// state or a scope), the namespace of the start-up mark, and the set of scope names. A state's
// keys under its namespace: `meta` (hash: `records` and `bytes`, the totals the limits are
// checked against, and `seq`, the creation order), `last` (hash: collection → last integer id),
// `names` (set: its collections), and per collection `r:<name>` (hash: id → record JSON) and
// `o:<name>` (sorted set: ids by creation order). The scripts build these keys from the
// namespaces, so the store runs on one Redis server (standalone, or a primary with its
// replicas), not on Redis Cluster.

const PREAMBLE = `
local ns, mark, scopes = KEYS[1], KEYS[2], KEYS[3]

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

-- Whether totals moved by these deltas stay within the limits (a negative limit: none).
local function room(records, bytes, maxRecords, maxBytes)
  local totals = redis.call('HMGET', ns .. 'meta', 'records', 'bytes')
  if records > 0 and maxRecords >= 0 and tonumber(totals[1]) + records > maxRecords then
    return 'maxRecords'
  end
  if bytes > 0 and maxBytes >= 0 and tonumber(totals[2]) + bytes > maxBytes then
    return 'maxBytes'
  end
  return nil
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
 * record, JSON after the id (`auto`), maxRecords, maxBytes.
 * Returns `{'ok', id}`, `{'taken'}` or `{'full', limit}`; a refused create changes nothing,
 * not even the counter.
 */
export const CREATE = script(
  'create',
  `
ensure()
local name, mode = ARGV[2], ARGV[3]
local records = ns .. 'r:' .. name
local id, json = ARGV[4], ARGV[5]
if mode == 'auto' then
  local last = tonumber(redis.call('HGET', ns .. 'last', name) or '0')
  id = string.format('%d', last + 1)
  json = ARGV[5] .. id .. ARGV[6]
elseif redis.call('HEXISTS', records, id) == 1 then
  return {'taken'}
end
local full = room(1, #json, tonumber(ARGV[7]), tonumber(ARGV[8]))
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
ensure()
local records = ns .. 'r:' .. ARGV[2]
local current = redis.call('HGET', records, ARGV[3])
if not current then return 0 end
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
ensure()
return redis.call('HGET', ns .. 'r:' .. ARGV[2], ARGV[3])
`,
);

/** ARGV: scope, collection. Returns the records' JSON, oldest first, as one snapshot. */
export const LIST = script(
  'list',
  `
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
ensure()
return tonumber(redis.call('HGET', ns .. 'meta', 'records'))
`,
);

/**
 * ARGV: scope, the seeding claim's key, this opener's token. The state becomes the mark, and
 * a claim held by this opener ends: the prefix is ready for every replica.
 */
export const MARK = script(
  'mark',
  `
ensure()
copy(ns, mark)
if redis.call('GET', ARGV[2]) == ARGV[3] then redis.call('DEL', ARGV[2]) end
return 1
`,
);

/** ARGV: scope. The state becomes a copy of the mark (empty without one). */
export const RESET = script(
  'reset',
  `
copy(mark, ns)
if ARGV[1] ~= '' then redis.call('SADD', scopes, ARGV[1]) end
return 1
`,
);

/** ARGV: scope. Removes a scope's state; returns 1 when it had one. */
export const DROP = script(
  'drop',
  `
local had = redis.call('EXISTS', ns .. 'meta')
drop(ns)
redis.call('SREM', scopes, ARGV[1])
return had
`,
);

/**
 * ARGV: scope (empty), the claim's key, this opener's token, the claim's lease in ms.
 * Returns `loaded` when the prefix holds a marked start-up state, `wait` while another opener
 * holds the claim (it is seeding), or `claimed`: this opener seeds, into a main state emptied
 * of whatever an opener that never marked left (a seeding that did not finish).
 */
export const CLAIM = script(
  'claim',
  `
if redis.call('EXISTS', mark .. 'meta') == 1 then return 'loaded' end
if not redis.call('SET', ARGV[2], ARGV[3], 'NX', 'PX', ARGV[4]) then return 'wait' end
drop(ns)
return 'claimed'
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

export const SCRIPTS = [
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
  RENEW,
  RELEASE,
];
