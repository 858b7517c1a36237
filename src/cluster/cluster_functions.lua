#!lua name=topicrawl

local function pfx(keys) return string.sub(keys[1], 1, #keys[1] - 7) end

-- Moves a shard's in-flight URLs (a previous owner's) back to its queue.
local function requeue(p, s)
  local items = redis.call('HGETALL', p .. 'f:' .. s)
  local n = 0
  for j = 1, #items, 2 do
    redis.call('ZADD', p .. 'q:' .. s, items[j + 1], items[j])
    n = n + 1
  end
  if n > 0 then
    redis.call('DEL', p .. 'f:' .. s)
    redis.call('DECRBY', p .. 'inflight', n)
  end
  if redis.call('EXISTS', p .. 'q:' .. s) == 1 then redis.call('SADD', p .. 'ready', s) end
  return n
end

-- ARGV: (bucket, member, shard, score, payload) per URL. Seen-set check,
-- enqueue and pending counter for the whole batch, atomically.
local function handoff(keys, args)
  local p = pfx(keys)
  local added = 0
  for i = 1, #args, 5 do
    if redis.call('SADD', p .. 's:' .. args[i], args[i + 1]) == 1 then
      redis.call('ZADD', p .. 'q:' .. args[i + 2], args[i + 3], args[i + 4])
      redis.call('SADD', p .. 'ready', args[i + 2])
      added = added + 1
    end
  end
  if added > 0 then redis.call('INCRBY', p .. 'pending', added) end
  return added
end

-- ARGV: worker, max, budget (0 = none), start. Pops up to max URLs from the
-- queues of shards the worker holds the lease of (round robin from start)
-- into the shards' in-flight hashes. Returns (shard, payload, score)...
local function take(keys, args)
  local p = pfx(keys)
  local w = args[1]
  local max = tonumber(args[2])
  local budget = tonumber(args[3])
  if redis.call('EXISTS', p .. 'stop') == 1 then return {} end
  if budget > 0 then
    local room = budget - tonumber(redis.call('GET', p .. 'ok') or '0')
                        - tonumber(redis.call('GET', p .. 'inflight') or '0')
    if room <= 0 then return {} end
    if room < max then max = room end
  end
  local shards = redis.call('SINTER', p .. 'ready', p .. 'own:' .. w)
  local n = #shards
  if n == 0 then return {} end
  local out = {}
  local got = 0
  local per = math.max(1, math.ceil(max / n))
  local start = tonumber(args[4]) % n
  for k = 0, n - 1 do
    if got >= max then break end
    local s = shards[((start + k) % n) + 1]
    if redis.call('GET', p .. 'lease:' .. s) == w then
      local items = redis.call('ZPOPMIN', p .. 'q:' .. s, math.min(per, max - got))
      for j = 1, #items, 2 do
        redis.call('HSET', p .. 'f:' .. s, items[j], items[j + 1])
        out[#out + 1] = s
        out[#out + 1] = items[j]
        out[#out + 1] = items[j + 1]
      end
      got = got + #items / 2
      if redis.call('EXISTS', p .. 'q:' .. s) == 0 then redis.call('SREM', p .. 'ready', s) end
    end
  end
  if got > 0 then redis.call('INCRBY', p .. 'inflight', got) end
  return out
end

-- ARGV: (shard, payload, ok) per URL whose page and outlinks are stored and
-- handed off. Returns {pending, ok pages, stop}.
local function done(keys, args)
  local p = pfx(keys)
  local n = 0
  local okc = 0
  for i = 1, #args, 3 do
    if redis.call('HDEL', p .. 'f:' .. args[i], args[i + 1]) == 1 then
      n = n + 1
      if args[i + 2] == '1' then okc = okc + 1 end
    end
  end
  if n > 0 then
    redis.call('DECRBY', p .. 'pending', n)
    redis.call('DECRBY', p .. 'inflight', n)
  end
  if okc > 0 then redis.call('INCRBY', p .. 'ok', okc) end
  return {tonumber(redis.call('GET', p .. 'pending') or '0'),
          tonumber(redis.call('GET', p .. 'ok') or '0'),
          redis.call('EXISTS', p .. 'stop')}
end

-- Redis server time in ms: hand-over deadlines are stored in the server's
-- clock, so the workers' clocks never need to agree.
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Stores host politeness records, 4 ARGV from `from` on: (shard, host,
-- wait_ms, record). pol:<shard> maps host -> "not_before_ms record".
local function store_hosts(p, args, from)
  if #args < from then return end
  local now = now_ms()
  for i = from, #args, 4 do
    redis.call('HSET', p .. 'pol:' .. args[i], args[i + 1],
               string.format('%.0f', now + tonumber(args[i + 2])) .. ' ' .. args[i + 3])
  end
end

-- ARGV: worker, ttl_ms, then host records (see store_hosts). Keeps the
-- worker live for ttl_ms: this one SET also keeps every shard lease of the
-- worker valid (a lease is valid while its holder's w: key exists), so
-- renewing costs one command per round whatever the number of shards.
-- Forgets dead workers. Returns {live workers, lapsed}: lapsed = 1 when the
-- w: key had expired (the worker stalled past ttl_ms; its leases may have
-- been taken: it must check them with tc_verify).
local function heartbeat(keys, args)
  local p = pfx(keys)
  local prev = redis.call('SET', p .. 'w:' .. args[1], '1', 'PX', args[2], 'GET')
  redis.call('SADD', p .. 'workers', args[1])
  store_hosts(p, args, 3)
  local live = {}
  for _, m in ipairs(redis.call('SMEMBERS', p .. 'workers')) do
    if redis.call('EXISTS', p .. 'w:' .. m) == 1 then
      live[#live + 1] = m
    else
      redis.call('SREM', p .. 'workers', m)
      redis.call('DEL', p .. 'own:' .. m)
    end
  end
  local lapsed = 0
  if not prev then lapsed = 1 end
  return {live, lapsed}
end

-- ARGV: worker, shard... Takes the free leases: a lease is free when its
-- key is gone (never taken, or a release's hold ran out) or its holder's
-- liveness key w:<holder> expired (a dead or stalled worker). A new owner
-- first requeues what the previous owner had in flight. Returns {shards
-- now held, host records of the shards taken over: (shard, host, wait_ms,
-- record)...}.
local function acquire(keys, args)
  local p = pfx(keys)
  local w = args[1]
  local got = {}
  local hosts = {}
  local now = nil
  for i = 2, #args do
    local s = args[i]
    local lk = p .. 'lease:' .. s
    local holder = redis.call('GET', lk)
    local mine = holder == w
    if not mine and (not holder or (holder ~= '-' and
                                    redis.call('EXISTS', p .. 'w:' .. holder) == 0)) then
      redis.call('SET', lk, w)
      requeue(p, s)
      mine = true
      local pol = redis.call('HGETALL', p .. 'pol:' .. s)
      if #pol > 0 and not now then now = now_ms() end
      for j = 1, #pol, 2 do
        local sp = string.find(pol[j + 1], ' ', 1, true)
        local wait = tonumber(string.sub(pol[j + 1], 1, sp - 1)) - now
        if wait < 0 then wait = 0 end
        hosts[#hosts + 1] = s
        hosts[#hosts + 1] = pol[j]
        hosts[#hosts + 1] = string.format('%.0f', wait)
        hosts[#hosts + 1] = string.sub(pol[j + 1], sp + 1)
      end
    end
    if mine then
      redis.call('SADD', p .. 'own:' .. w, s)
      got[#got + 1] = s
    end
  end
  return {got, hosts}
end

-- ARGV: worker, k, shard x k (taking), shard... (yielded). After a lapsed
-- heartbeat: another worker's heartbeat may have dropped own:<worker>
-- meanwhile, so the shards still held and not yielded are put back there;
-- returns the shards the worker no longer holds (taken by another worker).
local function verify(keys, args)
  local p = pfx(keys)
  local w = args[1]
  local k = tonumber(args[2])
  local lost = {}
  for i = 3, #args do
    if redis.call('GET', p .. 'lease:' .. args[i]) ~= w then
      redis.call('SREM', p .. 'own:' .. w, args[i])
      lost[#lost + 1] = args[i]
    elseif i <= k + 2 then
      redis.call('SADD', p .. 'own:' .. w, args[i])
    end
  end
  return lost
end

-- ARGV: worker, shard... Stops taking URLs of these shards (the lease is
-- kept until the worker's local URLs of the shard are done).
local function yield(keys, args)
  local p = pfx(keys)
  for i = 2, #args do redis.call('SREM', p .. 'own:' .. args[1], args[i]) end
  return #args - 1
end

-- ARGV: worker, hold_ms, n, shard x n, then host records (see store_hosts).
-- Stores the records (the hosts' crawl delay, back-off and next allowed
-- request, for the next owner), then gives the leases up (compare-and-set):
-- the lease stays blocked hold_ms more (the politeness delay), so the next
-- owner's first request to a host comes at least that long after ours.
local function release(keys, args)
  local p = pfx(keys)
  local w = args[1]
  local hold = tonumber(args[2])
  local last = 3 + tonumber(args[3])
  store_hosts(p, args, last + 1)
  local n = 0
  for i = 4, last do
    local lk = p .. 'lease:' .. args[i]
    if redis.call('GET', lk) == w then
      if hold > 0 then
        redis.call('SET', lk, '-', 'PX', hold)
      else
        redis.call('DEL', lk)
      end
      n = n + 1
    end
    redis.call('SREM', p .. 'own:' .. w, args[i])
  end
  return n
end

-- ARGV: worker. A clean exit.
local function leave(keys, args)
  local p = pfx(keys)
  redis.call('DEL', p .. 'w:' .. args[1], p .. 'own:' .. args[1])
  redis.call('SREM', p .. 'workers', args[1])
  return 1
end

redis.register_function('tc_handoff', handoff)
redis.register_function('tc_take', take)
redis.register_function('tc_done', done)
redis.register_function('tc_heartbeat', heartbeat)
redis.register_function('tc_acquire', acquire)
redis.register_function('tc_verify', verify)
redis.register_function('tc_yield', yield)
redis.register_function('tc_release', release)
redis.register_function('tc_leave', leave)
