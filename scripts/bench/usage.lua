-- wrk: POSTs /v1/usage batches of 50 sends of random stickers (ids, one per line, in the file given), stamped now;
-- with a rate (requests a second per connection) it paces each connection, else sends as fast as it can; with
-- `spread`, each request names one of 1,000 client addresses in X-Forwarded-For (stickerd must trust 127.0.0.1); with
-- `sources:P`, each request names a new one, P.<thread>.x.y (65,536 a thread before they repeat), one event a body.
-- Usage: wrk ... -s usage.lua URL -- IDS-FILE [RATE] [spread | sources:P]
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "threads.lua")

function init(args)
  local ids = {}
  for line in io.lines(args[1]) do table.insert(ids, line) end
  rate = tonumber(args[2] or "0")
  spread = args[3] == "spread"
  prefix = (args[3] or ""):match("^sources:(%d+)$")
  local count = prefix and 1 or 50
  math.randomseed(id * 7919 + os.time())
  local at = os.date("!%Y-%m-%dT%H:%M:%SZ")
  bodies = {}
  for b = 1, 64 do
    local events = {}
    for e = 1, count do
      events[e] = string.format('{"sticker":"%s","action":"sent","at":"%s"}', ids[math.random(#ids)], at)
    end
    bodies[b] = '{"events":[' .. table.concat(events, ",") .. ']}'
  end
  n = 0
end

function request()
  n = n + 1
  local headers = { ["Content-Type"] = "application/json" }
  if spread then headers["X-Forwarded-For"] = string.format("10.%d.%d.1", id, n % 1000) end
  if prefix then
    headers["X-Forwarded-For"] = string.format("%s.%d.%d.%d", prefix, id, math.floor(n / 256) % 256, n % 256)
  end
  return wrk.format("POST", "/v1/usage", headers, bodies[n % #bodies + 1])
end

function delay()
  if rate > 0 then return 1000 / rate end
  return 0
end
