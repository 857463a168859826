-- Saves a thread's info (name, archived, metadata), unless it moved on meanwhile. The thread's other fields, its
-- version, update time and expiry stay as they are, so a run in progress is not disturbed.
--
-- KEYS: the thread's hash. ARGV: the info the stored one must be ('' for none), the new info ('' for none).
-- Returns 1 when saved, 0 when the thread is gone or its info is not the expected one.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if (redis.call('HGET', KEYS[1], 'info') or '') ~= ARGV[1] then
  return 0
end
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[1], 'info')
else
  redis.call('HSET', KEYS[1], 'info', ARGV[2])
end
return 1
