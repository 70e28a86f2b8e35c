-- wrk script: requests rotate through the paths in the file named by the first script argument
-- (one per line), each thread starting at a different place, so consecutive requests differ and
-- none is a replay the server could have kept. At the end one JSON line with the latency
-- percentiles in microseconds.
local paths = {}
local counter = 0
function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then paths[#paths + 1] = line end
  end
  counter = (thread_index or 0) * 7919
end

function request()
  counter = counter + 1
  return wrk.format("GET", paths[(counter % #paths) + 1])
end

-- setup() and done() (the JSON result line), shared with the other scripts.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk-common.lua")
