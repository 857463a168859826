-- Stores a run's outcome: checks every version first, then writes, so a conflict writes nothing
-- (a script runs atomically). The thread's info (info.lua) and summary (summary.lua) stay as they are. Time comes from Redis so that all replicas share one clock.
--
-- KEYS: the thread's hash, its owner's index, then one hash per scope written.
-- ARGV: thread id, expected version, ttl (ms), owner, agent, state, messages, message count, meta, the bytes of
--       state, messages and meta together, the most a thread may take with its summary, the latest ended run
--       from meta, for listings ('' when none), then for each scope: its expected version and its new state.
-- Returns {'ok', version, createdAt, updatedAt, info (false when none)}, {'conflict', position, actual version}, where position is 0 for
-- the thread and n for the n-th scope, or {'too_large', bytes} when the thread with the summary it keeps would
-- take more than the most.
local threadKey, ownerIndex = KEYS[1], KEYS[2]
local threadId, expected, ttl = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local SCOPE_ARGS = 12 -- ARGV before the first scope's

local function versionOf(key)
  return tonumber(redis.call('HGET', key, 'version') or 0)
end

local current = versionOf(threadKey)
if current ~= expected then
  return {'conflict', 0, current}
end
local scopeCount = #KEYS - 2
for n = 1, scopeCount do
  local actual = versionOf(KEYS[2 + n])
  if actual ~= tonumber(ARGV[SCOPE_ARGS + 2 * n - 1]) then
    return {'conflict', n, actual}
  end
end

local bytes = tonumber(ARGV[10]) + redis.call('HSTRLEN', threadKey, 'summary')
if bytes > tonumber(ARGV[11]) then
  return {'too_large', bytes}
end

local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
local createdAt = redis.call('HGET', threadKey, 'createdAt') or now
for n = 1, scopeCount do
  redis.call('HSET', KEYS[2 + n], 'state', ARGV[SCOPE_ARGS + 2 * n],
    'version', tonumber(ARGV[SCOPE_ARGS + 2 * n - 1]) + 1)
end
redis.call('HSET', threadKey, 'owner', ARGV[4], 'agent', ARGV[5], 'state', ARGV[6], 'messages', ARGV[7],
  'messageCount', ARGV[8], 'meta', ARGV[9], 'version', current + 1, 'createdAt', createdAt, 'updatedAt', now,
  'lastRun', ARGV[12])
redis.call('PEXPIRE', threadKey, ttl)
-- Scored by minus the update time: ascending ranks are newest first, and ties go by thread id.
redis.call('ZADD', ownerIndex, -now, threadId)
redis.call('PEXPIRE', ownerIndex, ttl)
return {'ok', current + 1, createdAt, now, redis.call('HGET', threadKey, 'info')}
