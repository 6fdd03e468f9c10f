-- wrk: GETs each path of a file (one per line) in turn, each thread starting at its own place; counts non-2xx answers.
-- Usage: wrk ... -s paths.lua URL -- FILE
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "threads.lua")

function init(args)
  paths = {}
  for line in io.lines(args[1]) do table.insert(paths, wrk.format("GET", line)) end
  index = (id * 37) % #paths
end

function request()
  index = index % #paths + 1
  return paths[index]
end
