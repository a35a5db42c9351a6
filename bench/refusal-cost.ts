// `bun run bench/refusal-cost.ts [--seconds=10] [--loops=4]`: what one refused request costs the
// server. A client process floods with well-formed unknown keys from one address (so after the
// address's burst every request is a 429 of the pre-authentication throttle); the server runs in
// this process, so process.cpuUsage() over the flood is the server's CPU alone. Requests are
// counted by the server's own metrics, rate-limiter calls (each a Valkey round trip) by wrapping
// the limiter; those refused before the pipeline by their own counter. CPU per request does not grow with other load on the machine the way latency does.
import { startBenchApp } from "./lib/bench-app";
import { fmt } from "./lib/format";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}`))?.split("=")[1];
const seconds = Number(arg("seconds") ?? 10);
const loops = Number(arg("loops") ?? 4);

const app = await startBenchApp("refusal", {
  RATE_LIMIT_ENABLED: true,
  TRUSTED_PROXY_HOPS: 1,
});
const limiter = app.deps.limiter;
let limiterCalls = 0;
const { take, peek } = limiter;
limiter.take = (buckets) => (limiterCalls++, take(buckets));
limiter.peek = (key, policy) => (limiterCalls++, peek(key, policy));
/** The chain's answers and the 429s refused before it (not in svc_http_requests_total). */
const requestsAnswered = async () =>
  [
    ...(await app.deps.metrics.httpRequests.get()).values,
    ...(await app.deps.metrics.refusedBeforePipeline.get()).values,
  ].reduce((n, v) => n + v.value, 0);

const flood = Bun.spawn(
  [
    process.execPath,
    new URL("./lib/refusal-flood.ts", import.meta.url).pathname,
    app.base,
    "203.0.113.77",
    String(loops),
  ],
  { stdin: "pipe", stdout: "pipe", stderr: "inherit" },
);
await Bun.sleep(1000); // the address's burst spent, the flood under way
const requestsBefore = await requestsAnswered();
const callsBefore = limiterCalls;
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
await Bun.sleep(seconds * 1000);
const cpu = process.cpuUsage(cpuBefore);
const wallMs = performance.now() - wallBefore;
const requests = (await requestsAnswered()) - requestsBefore;
const calls = limiterCalls - callsBefore;
flood.stdin.end();
const statuses = JSON.parse(await new Response(flood.stdout).text()) as Record<string, number>;
await app.stop();

const cpuUs = cpu.user + cpu.system;
console.log(`Unknown-key flood, ${loops} loops, ${seconds} s measured:\n`);
console.log(
  "| requests/s | server CPU % | server CPU µs per request | limiter calls per request |",
);
console.log("|---:|---:|---:|---:|");
const cells = [
  fmt(requests / (wallMs / 1000), 0),
  fmt((cpuUs / 1000 / wallMs) * 100, 0),
  fmt(cpuUs / requests, 0),
  fmt(calls / requests, 2),
];
console.log(`| ${cells.join(" | ")} |`);
console.log(`\nAnswers: ${JSON.stringify(statuses)}`);
