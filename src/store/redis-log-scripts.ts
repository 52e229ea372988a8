// The Lua scripts of the Redis store's bounded lists (the request logs of every state): one
// bound for all of them together, as a store of one process has (list-budget.ts). Keys:
// a list (entries newest first), its counter (`pushed`: how many were ever pushed, so that the
// entry at index i is number pushed - i), the prefix's `log:order` (every entry pushed, oldest
// first, as `list\ncounter\nnumber`) and `log:totals` (hash: `entries`, `bytes` of every list).
import type { Script } from './redis-scripts.js';

const LIST_PREAMBLE = `
local list, pushed, order, totals = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

-- Nothing to count is not sent: Lua's -0 reaches Redis as "-0", which HINCRBY refuses.
local function count(entries, bytes)
  if entries ~= 0 then redis.call('HINCRBY', totals, 'entries', entries) end
  if bytes ~= 0 then redis.call('HINCRBY', totals, 'bytes', bytes) end
end

-- Drops a list's oldest entry, uncounted.
local function popOldest(from)
  local gone = redis.call('RPOP', from)
  if gone then count(-1, -#gone) end
end

-- The list, counter and number an order item names, and whether that list still holds it.
local function held(item)
  local at, counter, number = string.match(item, '^(.*)\\n(.*)\\n(%d+)$')
  if not at then return nil end
  local length = redis.call('LLEN', at)
  local oldest = tonumber(redis.call('GET', counter) or '0') - length + 1
  number = tonumber(number)
  return at, length > 0 and number >= oldest, number == oldest
end
`;

/**
 * KEYS: the four above and the state's index of its side data. ARGV: the entry's JSON, the list's capacity, the most entries and bytes of every list
 * together. Pushes the entry to the front of the list and counts it; past the list's capacity
 * its oldest goes, and past the bounds of all lists, the oldest entry of any list. Returns the
 * entry's number.
 */
export const LIST_PUSH: Script = {
  name: 'list-push',
  lua: `${LIST_PREAMBLE}
local json, capacity = ARGV[1], tonumber(ARGV[2])
local maxEntries, maxBytes = tonumber(ARGV[3]), tonumber(ARGV[4])
local number = redis.call('INCR', pushed)
-- The state's index of its side data, so that dropping the state drops the list too.
redis.call('SADD', KEYS[5], list, pushed)
redis.call('LPUSH', list, json)
count(1, #json)
redis.call('RPUSH', order, list .. '\\n' .. pushed .. '\\n' .. number)
while redis.call('LLEN', list) > capacity do popOldest(list) end
local function over()
  local now = redis.call('HMGET', totals, 'entries', 'bytes')
  return tonumber(now[1]) > maxEntries or tonumber(now[2]) > maxBytes
end
while over() do
  local item = redis.call('LPOP', order)
  if not item then break end
  -- The oldest item a list still holds is that list's oldest entry: the older ones went first.
  local at, _, oldest = held(item)
  if oldest then popOldest(at) end
end
-- Items of entries gone otherwise (a capacity, a clear) are forgotten once they outnumber the rest.
local entries = tonumber(redis.call('HGET', totals, 'entries'))
if redis.call('LLEN', order) > 2 * entries + 64 then
  local items = redis.call('LRANGE', order, 0, -1)
  redis.call('DEL', order)
  for _, item in ipairs(items) do
    local _, still = held(item)
    if still then redis.call('RPUSH', order, item) end
  end
end
return number
`,
};

/** Empties a list, uncounting its entries; its counter goes on. */
export const LIST_CLEAR: Script = {
  name: 'list-clear',
  lua: `${LIST_PREAMBLE}
local entries = redis.call('LRANGE', list, 0, -1)
local bytes = 0
for _, entry in ipairs(entries) do bytes = bytes + #entry end
count(-#entries, -bytes)
redis.call('DEL', list)
return #entries
`,
};
