-- Appends a run's entries to its stream: ARGV[3..] are pairs of seq and JSON, each added as the entry with id
-- "<seq>-1" (an id must be above 0-0) and the field "data". An entry whose seq the stream holds already is skipped,
-- so a repeated append changes nothing. The stream keeps about ARGV[1] entries (MAXLEN ~: whole nodes go), and
-- expires ARGV[2] ms from now (agui.store.run-log.idle-ttl); the run's end then sets its final expiry.
local key = KEYS[1]
local latest = -1
local top = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)[1]
if top then
    latest = tonumber(string.match(top[1], '^(%d+)-'))
end
for i = 3, #ARGV, 2 do
    if tonumber(ARGV[i]) > latest then
        redis.call('XADD', key, 'MAXLEN', '~', ARGV[1], ARGV[i] .. '-1', 'data', ARGV[i + 1])
    end
end
redis.call('PEXPIRE', key, ARGV[2])
return 1
