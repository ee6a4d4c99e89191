// The client side of the runtime benchmark: spawns the agent (runtime-agent.mjs) with the same
// implementation, runs one workload twice (a smaller warm-up, then the measured run) and
// prints one JSON line: wall time, this process's CPU, the agent's CPU and, for the
// soak, heap samples.
//   node [--expose-gc] runtime-client.mjs --impl ours|session|sdk|floor --workload stream|requests
//        --count N [--payload small|large|diff] [--inflight K] [--turn] [--soak] [--pkg DIR]
//
//   stream    one session/prompt answered after `count` session/update notifications; done
//             when the prompt has resolved and every update was handled
//   requests  `count` session/prompt round trips, `inflight` at a time (1: sequential)
//   --turn    the sessionUpdate handler awaits one event-loop turn (setImmediate)
//   --soak    sample the heap (after a full GC) every tenth of the run
//
//   session   ours through the session layer: `conn.session()`, each prompt a Turn whose
//             updates are read with `for await` (the agent is ours)

import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { flag, processCpuMs, promptParams, rawLines, rawWriter } from "./runtime-workloads.mjs";

const impl = flag("impl");
const workload = flag("workload");
const count = Number(flag("count"));
const inflight = Number(flag("inflight", "1"));
const turn = process.argv.includes("--turn");
const turnWait = turn;
const soak = process.argv.includes("--soak");
const pkg = flag("pkg", "");

const agentScript = fileURLToPath(new URL("./runtime-agent.mjs", import.meta.url));
// ACP_BENCH_AGENT_NODE_FLAGS: extra Node flags for the agent (e.g. "--cpu-prof"), for profiling.
const agentFlags = (process.env.ACP_BENCH_AGENT_NODE_FLAGS ?? "").split(" ").filter(Boolean);
const child = spawn(
  process.execPath,
  [
    ...agentFlags,
    agentScript,
    ...["--impl", impl === "session" ? "ours" : impl, "--payload", flag("payload", "small")],
    ...["--pkg", pkg],
  ],
  { stdio: ["pipe", "pipe", "inherit"] },
);
const output = /** @type {WritableStream<Uint8Array>} */ (Writable.toWeb(child.stdin));
const input = /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(child.stdout));
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

// --- what each implementation's handler does with an update ---------------------------------
let handled = 0;
/** @type {Array<{ handled: number, heapMb: number }>} */
const heap = [];
let sampleEvery = Number.POSITIVE_INFINITY;
function onUpdate() {
  handled++;
  if (handled % sampleEvery === 0) {
    globalThis.gc?.();
    heap.push({ handled, heapMb: process.memoryUsage().heapUsed / 2 ** 20 });
  }
}
const sessionUpdate = turn
  ? async () => {
      await nextTurn();
      onUpdate();
    }
  : onUpdate;

// --- one prompt call per implementation --------------------------------------------------------
/** @type {(text: string) => Promise<unknown>} */
let prompt;
let finish = () => {};
if (impl === "ours") {
  const acp = await import(pathToFileURL(`${pkg}/v1/index.js`).href);
  const conn = new acp.ClientSideConnection(
    () => ({
      sessionUpdate,
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    }),
    acp.ndJsonStream(output, input),
  );
  // Our connections keep the handshake: nothing but initialize goes out before it completed.
  await conn.agent.initialize({ protocolVersion: 1 });
  prompt = (/** @type {string} */ text) => conn.agent.sessionPrompt(promptParams(text));
  finish = () => conn.close();
} else if (impl === "session") {
  const acp = await import(pathToFileURL(`${pkg}/v1/index.js`).href);
  const conn = new acp.ClientSideConnection(
    () => ({
      sessionUpdate: () => {},
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    }),
    acp.ndJsonStream(output, input),
  );
  await conn.agent.initialize({ protocolVersion: 1 });
  const session = await conn.session({ cwd: "/", mcpServers: [] });
  // Each update through the session's state and the turn's iterator, as a client renders it.
  prompt = async (/** @type {string} */ text) => {
    const turn = session.prompt(text);
    if (turnWait) {
      for await (const _ of turn) await sessionUpdate();
    } else {
      for await (const _ of turn) onUpdate();
    }
    return turn;
  };
  finish = () => conn.close();
} else if (impl === "sdk") {
  const sdk = await import("@agentclientprotocol/sdk");
  const app = sdk
    .client({ name: "bench-client" })
    .onNotification(sdk.methods.client.session.update, sessionUpdate);
  const connection = app.connect(sdk.ndJsonStream(output, input));
  prompt = (/** @type {string} */ text) =>
    connection.agent.request("session/prompt", promptParams(text));
  finish = () => connection.close();
} else if (impl === "floor") {
  // JSON-RPC by hand: ids, a pending map, no validation, no dispatch table.
  const write = rawWriter(output);
  const pending = new Map();
  let nextId = 0;
  let queue = Promise.resolve();
  (async () => {
    for await (const message of rawLines(input)) {
      if (message.method === "session/update") {
        // Handled in order, as ours are; with --turn each waits for the one before.
        if (turn) queue = queue.then(sessionUpdate);
        else sessionUpdate();
      } else if (message.id !== undefined) {
        const resolve = pending.get(message.id);
        pending.delete(message.id);
        if (turn) queue = queue.then(() => resolve(message.result));
        else resolve(message.result);
      }
    }
  })();
  prompt = (/** @type {string} */ text) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      write({ jsonrpc: "2.0", id, method: "session/prompt", params: promptParams(text) });
    });
  finish = () => {};
} else {
  throw new Error(`unknown --impl ${impl}`);
}

/**
 * Runs the workload at size `n`; resolves once everything is answered and handled.
 * @param {number} n
 */
async function run(n) {
  handled = 0;
  if (workload === "stream") {
    await prompt(`stream ${n}`);
    // The SDK may resolve the prompt before its concurrent async handlers have finished.
    while (handled < n) await nextTurn();
    return;
  }
  let started = 0;
  const lane = async () => {
    while (started < n) {
      started++;
      await prompt("echo");
    }
  };
  await Promise.all(Array.from({ length: Math.min(inflight, n) }, lane));
}

// Warm-up: long enough for V8 to have optimised the hot paths (its tier-up follows call
// counts, so a row with few large messages gets a larger share), short of the measured run.
await run(Math.max(1, Math.floor(Math.max(count / 5, Math.min(count / 2, 4000)))));
if (soak) sampleEvery = Math.max(1, Math.floor(count / 10));
globalThis.gc?.();
const cpu0 = process.cpuUsage();
const agentCpu0 = processCpuMs(child.pid);
const t0 = process.hrtime.bigint();
await run(count);
const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
const cpu = process.cpuUsage(cpu0);
const agentCpu1 = processCpuMs(child.pid);
process.stdout.write(
  `${JSON.stringify({
    impl,
    count,
    wallMs,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
    agentCpuMs: agentCpu0 === null || agentCpu1 === null ? null : agentCpu1 - agentCpu0,
    heap,
    rssMb: process.memoryUsage().rss / 2 ** 20,
  })}\n`,
);
finish();
child.stdin.end();
// A profiled agent writes its profile when it exits on its own (end of input).
if (agentFlags.length > 0) await new Promise((resolve) => child.once("exit", resolve));
child.kill();
process.exit(0);
