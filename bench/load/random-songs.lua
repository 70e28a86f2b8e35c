-- wrk script: every request asks for a song drawn uniformly at random from the whole catalog
-- (ids s0 .. s<N-1> of the generated catalog), so no set of paths can become warm: the
-- requests a small-memory server sees when its clients' keys are spread over the catalog.
-- Arguments: the number of songs N, then the path template with %d for the song's index
-- (default /v1/song/s%d). At the end one JSON line with the latency percentiles in microseconds.
local count = 0
local template = "/v1/song/s%d"
function init(args)
  count = tonumber(args[1])
  if args[2] then template = args[2] end
  math.randomseed(7919 * ((thread_index or 0) + 1))
end

function request()
  return wrk.format("GET", string.format(template, math.random(0, count - 1)))
end

-- setup() and done() (the JSON result line), shared with the other scripts.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk-common.lua")
