// The load generator of the HTTP benchmarks, run in a process of its own (pinned to another core than
// the server by bench/lib/http.mjs): autocannon against one URL, the result as one JSON line on stdout.
//   node bench/lib/load.mjs '{"url":"http://127.0.0.1:3000/x","connections":32,"duration":8,"headers":{}}'
import autocannon from "autocannon";

const { url, connections, duration, headers } = JSON.parse(process.argv[2]);
const result = await autocannon({ url, connections, duration, headers, pipelining: 1 });
console.log(
  JSON.stringify({
    rps: result.requests.average,
    total: result.requests.total,
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    // Which statuses the non-2xx were (e.g. 429 or 503): a failed run says why.
    status_codes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
  }),
);
