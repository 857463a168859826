-- Extends a run claim only if it is still ours: a claim that lapsed may belong to another run by now.
--
-- KEYS: the claim. ARGV: our token, the new time to live (ms).
-- Returns 1 when the claim was extended, 0 when it is no longer ours.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
