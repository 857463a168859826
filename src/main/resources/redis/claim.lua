-- Claims a thread for a run, unless a run holds it, and numbers the claim: one round trip for what was an INCR of
-- the claims' counter, then a SET NX of the claim. A claim not taken uses no number.
--
-- KEYS: the claims' counter, the claim. ARGV: what follows the ordinal in the claim's value (the rest of its token,
-- a space, the run's id), the claim's time to live (ms).
-- Returns the claim's ordinal when it was taken, nil when the thread is claimed already.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return false
end
local ordinal = redis.call('INCR', KEYS[1])
-- '%d', not ordinal .. ARGV[1]: Lua 5.1 writes a number of more than 14 digits with an exponent
redis.call('SET', KEYS[2], string.format('%d', ordinal) .. ARGV[1], 'PX', ARGV[2])
return ordinal
