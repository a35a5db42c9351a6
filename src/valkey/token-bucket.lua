-- Atomic token buckets: one token from every bucket, or from none. Time comes from the server (TIME),
-- so replicas with skewed clocks agree.
-- KEYS[i]  bucket hash {tokens, ts}
-- ARGV[1]  cost (1 = take, 0 = peek); ARGV[2i], ARGV[2i+1]: capacity and refill tokens per second of KEYS[i]
-- Returns {allowed (0/1), now in ms, tokens after * 1000 (integer) for each bucket in order}
local cost = tonumber(ARGV[1])
local t = redis.call('TIME')
local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tokens = {}
local allowed = 1
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[2 * i])
  local rate = tonumber(ARGV[2 * i + 1])
  local state = redis.call('HMGET', key, 'tokens', 'ts')
  local held = tonumber(state[1])
  local ts = tonumber(state[2])
  if held == nil or ts == nil then
    held = capacity
    ts = now_us
  end
  local elapsed = math.max(0, now_us - ts) / 1000000
  tokens[i] = math.min(capacity, held + elapsed * rate)
  if tokens[i] < cost then allowed = 0 end
end
local out = {allowed, math.floor(now_us / 1000)}
for i, key in ipairs(KEYS) do
  if cost > 0 then
    local capacity = tonumber(ARGV[2 * i])
    local rate = tonumber(ARGV[2 * i + 1])
    if allowed == 1 then tokens[i] = tokens[i] - cost end
    redis.call('HSET', key, 'tokens', tostring(tokens[i]), 'ts', tostring(now_us))
    redis.call('PEXPIRE', key, math.ceil((capacity / rate) * 1000) + 1000)
  end
  out[#out + 1] = math.floor(tokens[i] * 1000)
end
return out
