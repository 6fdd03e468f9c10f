-- wrk: GET /v1/manifest as callers spread over 50 countries (the CDN's header), 3 platforms, 20 app versions and 100
-- installation ids, a different caller each request (a fixed pseudo-random sequence, each thread starting elsewhere).
-- Usage: wrk ... -s audience.lua URL -- COUNTRY-HEADER
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "threads.lua")

function init(args)
  local header = args[1] or "CloudFront-Viewer-Country"
  local countries = { "US", "CA", "MX", "BR", "AR", "GB", "IE", "FR", "DE", "ES", "PT", "IT", "NL", "BE", "CH", "AT",
    "SE", "NO", "DK", "FI", "PL", "CZ", "HU", "RO", "GR", "TR", "IL", "EG", "ZA", "NG", "KE", "MA", "SA", "AE", "IN",
    "PK", "BD", "TH", "VN", "ID", "MY", "SG", "PH", "CN", "JP", "KR", "TW", "AU", "NZ", "CL" }
  local platforms = { "ios", "android", "web" }
  requests = {}
  local seed = 12345
  for i = 1, 4000 do
    seed = (seed * 1103515245 + 12345) % 2147483648
    local f = math.floor
    local c, v, n, p = seed % 50, f(seed / 50) % 20, f(seed / 1000) % 100, f(seed / 100000) % 3
    local headers = {
      [header] = countries[c + 1],
      ["Sticker-Platform"] = platforms[p + 1],
      ["Sticker-App-Version"] = string.format("2.%d.%d", f(v / 4), v % 4),
      ["Sticker-Installation"] = string.format("bench-installation-%03d", n),
    }
    requests[i] = wrk.format("GET", "/v1/manifest", headers)
  end
  index = (id * 997) % #requests
end

function request()
  index = index % #requests + 1
  return requests[index]
end
