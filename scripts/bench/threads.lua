-- The prologue the wrk scripts here share (each loads it with dofile): every thread learns its number as `id` (0, 1,
-- ...), to take its own share of the work or to start at its own place.
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end
