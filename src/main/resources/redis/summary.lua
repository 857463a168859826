-- Saves a thread's summary of its earlier conversation, unless the summary moved on meanwhile. The thread's other
-- fields, its version and its expiry stay as they are.
--
-- KEYS: the thread's hash. ARGV: the message id the stored summary must cover up to ('' when there must be none),
-- the new summary's JSON, the message id it covers up to, the most a thread may take with its summary.
-- Returns 1 when saved, 0 when the thread is gone or its summary is not the expected one, and minus the bytes the
-- thread would take when that is more than the most.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local current = redis.call('HGET', KEYS[1], 'summaryThrough') or ''
if current ~= ARGV[1] then
  return 0
end
local bytes = redis.call('HSTRLEN', KEYS[1], 'state') + redis.call('HSTRLEN', KEYS[1], 'messages')
  + redis.call('HSTRLEN', KEYS[1], 'meta') + #ARGV[2]
if bytes > tonumber(ARGV[4]) then
  return -bytes
end
redis.call('HSET', KEYS[1], 'summary', ARGV[2], 'summaryThrough', ARGV[3])
return 1
