-- The one JSON line every wrk script of the benchmarks prints at the end (wrk.mjs reads it):
-- requests, duration, errors and latency percentiles in microseconds. Loaded with dofile by the
-- scripts beside it.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"socketErrors":%d,"non2xx":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"maxUs":%d,"meanUs":%.1f}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
