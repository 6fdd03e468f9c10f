-- wrk: each thread sends prepared requests from a file, one line each: as POST bodies (webhooks), as bodies with a
-- forged Sticker-Signature, sent over and over (forged), or as bearer tokens (GET; an empty file sends no Authorization). Bodies are split between threads and each is sent once: a thread stops
-- when its share runs out. Prints "p50_ms p99_ms requests non2xx" at the end for the driver script.
-- Usage: wrk ... -s requests.lua URL -- FILE post|forged|get THREADS
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "threads.lua")

function init(args)
  local file, mode, threads = args[1], args[2], tonumber(args[3])
  requests, index, once = {}, 0, mode == "post"
  local line_number = 0
  for line in io.lines(file) do
    if mode == "get" then
      table.insert(requests, wrk.format("GET", wrk.path, { ["Authorization"] = "Bearer " .. line }))
    elseif mode == "forged" then
      table.insert(requests, wrk.format("POST", wrk.path, { ["Content-Type"] = "application/json", ["Sticker-Signature"] = "t=1,v1=00" }, line))
    elseif line_number % threads == id then
      table.insert(requests, wrk.format("POST", wrk.path, { ["Content-Type"] = "application/json" }, line))
    end
    line_number = line_number + 1
  end
  if #requests == 0 then table.insert(requests, wrk.format("GET", wrk.path)) end
end

function request()
  index = index + 1
  if index > #requests then
    if once then index = #requests else index = 1 end
  end
  return requests[index]
end

function response(status, headers, body)
  if once and index >= #requests then wrk.thread:stop() end
end

function done(summary, latency, requests)
  io.write(string.format("RESULT %.2f %.2f %d %d\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, summary.errors.status))
end
