-- Atomic token bucket. Time comes from the server (TIME), so replicas with skewed clocks agree.
-- KEYS[1]  bucket hash {tokens, ts_us}
-- ARGV[1]  capacity   ARGV[2] refill tokens per second   ARGV[3] cost (1 = take, 0 = peek)
-- Returns {allowed (0/1), tokens after * 1000 (integer), now in ms}
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil or ts == nil then
  tokens = capacity
  ts = now_us
end
local elapsed = math.max(0, now_us - ts) / 1000000
tokens = math.min(capacity, tokens + elapsed * rate)
local allowed = 1
if cost > 0 then
  if tokens >= cost then
    tokens = tokens - cost
  else
    allowed = 0
  end
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now_us))
  redis.call('PEXPIRE', KEYS[1], math.ceil((capacity / rate) * 1000) + 1000)
end
return {allowed, math.floor(tokens * 1000), math.floor(now_us / 1000)}
