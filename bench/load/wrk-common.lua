-- What every wrk script of the benchmarks shares, loaded with dofile by the scripts beside it:
-- setup() numbers the threads (thread_index, so each can start somewhere else), and done()
-- prints one JSON line at the end (wrk.mjs reads it): requests, duration, errors and latency
-- percentiles in microseconds.
local threads = 0

function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"socketErrors":%d,"non2xx":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"maxUs":%d,"meanUs":%.1f}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
