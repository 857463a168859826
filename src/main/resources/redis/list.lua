-- One page of an owner's threads, newest first (the index's order). Index entries whose thread expired or was
-- deleted are dropped on the way, so they neither show nor count for paging.
--
-- KEYS: the owner's index. ARGV: offset, limit, the prefix of the owner's thread keys, the owner.
-- Returns a list of {thread id, agent, version, message count, createdAt, updatedAt, info, last run}, the last two
-- false when there are none.
local index = KEYS[1]
local offset, limit, threadPrefix, owner = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4]
local page, rank = {}, 0
while #page < limit do
  local id = redis.call('ZRANGE', index, rank, rank)[1]
  if not id then
    break
  end
  local thread = redis.call('HMGET', threadPrefix .. id, 'owner', 'agent', 'version', 'messageCount',
    'createdAt', 'updatedAt', 'info', 'lastRun')
  if thread[1] ~= owner then
    redis.call('ZREM', index, id) -- the next entry moves up to this rank
  else
    if rank >= offset then
      local lastRun = thread[8]
      if lastRun == '' then
        lastRun = false
      end
      page[#page + 1] = {id, thread[2], thread[3], thread[4], thread[5], thread[6], thread[7], lastRun}
    end
    rank = rank + 1
  end
end
return page
