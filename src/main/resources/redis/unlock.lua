-- Releases a run claim only if it is still ours: a claim that lapsed may belong to another run by now.
--
-- KEYS: the claim. ARGV: our token.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
