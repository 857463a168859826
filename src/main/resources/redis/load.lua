-- Reads a thread and refreshes its time to live, and that of its owner's index, which must outlive it.
--
-- KEYS: the thread's hash. ARGV: ttl (ms), the owner index key prefix.
-- Returns {owner, agent, state, messages, version, createdAt, updatedAt, meta, summary, info}, or nil when there is no
-- thread.
local thread = redis.call('HMGET', KEYS[1], 'owner', 'agent', 'state', 'messages', 'version', 'createdAt',
  'updatedAt', 'meta', 'summary', 'info')
if not thread[1] then
  return nil
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', ARGV[2] .. thread[1], ARGV[1])
return thread
