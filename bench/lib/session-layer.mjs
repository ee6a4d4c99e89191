// The session layer's cost: the same stream of 100 B session/update text chunks, read by the
// connection alone (a `sessionUpdate` handler counting them) and through the session layer
// (`conn.session()`, a Turn iterated with `for await`, the session's state kept: a message
// grown by every chunk). Both are ours, over the same pipes, against the same agent process;
// rounds interleave them, and each figure is a median of fresh process pairs. The row is the
// share of messages per second the layer keeps, judged on CPU per message like the runtime
// section (bench/lib/runtime.mjs says why), with wall throughput beside it.
//
//   node bench/lib/session-layer.mjs [--quick] [--pkg DIR]   the rows alone, as a table

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { REPO } from "./paths.mjs";
import { standalone } from "./standalone.mjs";
import { formatRatio, median } from "./stats.mjs";

const CLIENT = fileURLToPath(new URL("./runtime-client.mjs", import.meta.url));
const STREAM = ["--workload", "stream", "--payload", "small"];
const COUNT = 60_000;

/**
 * One client process (and its agent), measured; what runtime-client.mjs prints.
 * @param {"ours" | "session"} impl
 * @param {number} count
 * @param {string} pkg
 * @returns {{ count: number, wallMs: number, clientCpuMs: number, agentCpuMs: number | null }}
 */
function runClient(impl, count, pkg) {
  const args = [CLIENT, "--impl", impl, "--count", String(count), "--pkg", pkg, ...STREAM];
  const r = spawnSync(process.execPath, args, {
    cwd: REPO,
    encoding: "utf8",
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0)
    throw new Error(
      `session bench (${impl}) exited ${r.status}: ${(r.stderr || "").trim().slice(0, 2000)}`,
    );
  return JSON.parse(r.stdout.trim().split("\n").pop() ?? "");
}

/**
 * @param {{ pkg: string, quick?: boolean, log?: (line: string) => void }} options
 *   `pkg`: a generated package folder (its `v1` entry point is what runs).
 */
export function benchSessionLayer({ pkg, quick = false, log = () => {} }) {
  const rounds = quick ? 1 : 5;
  const count = quick ? COUNT / 4 : COUNT;
  log(
    `  streaming 100 B updates, the connection alone and through conn.session() (${count} messages × ${rounds} rounds)…`,
  );
  /** @type {Record<"ours" | "session", ReturnType<typeof runClient>[]>} */
  const runs = { ours: [], session: [] };
  for (let round = 0; round < rounds; round++) {
    /** @type {Array<"ours" | "session">} */
    const order = round % 2 ? ["session", "ours"] : ["ours", "session"];
    for (const impl of order) runs[impl].push(runClient(impl, count, pkg));
  }
  /** @param {"ours" | "session"} impl */
  const summary = (impl) => ({
    perSecond: median(runs[impl].map((r) => (r.count / r.wallMs) * 1000)),
    clientUsPerMessage: median(runs[impl].map((r) => (r.clientCpuMs * 1000) / r.count)),
    totalUsPerMessage: median(
      runs[impl].map((r) => ((r.clientCpuMs + (r.agentCpuMs ?? Number.NaN)) * 1000) / r.count),
    ),
  });
  return { count, rounds, ours: summary("ours"), session: summary("session"), runs };
}

/**
 * The section's rows, as `[section, measure, reference, ours, ratio, target, note]`: the
 * share of the connection's messages per second the session layer keeps (target: it costs
 * under 10%), by CPU per message (both processes) and by the client's CPU alone.
 * @param {ReturnType<typeof benchSessionLayer>} result
 * @returns {Array<[string, string, string, string, number, (number | undefined)?, string?]>}
 */
export function sessionLayerRows(result) {
  const section = "session layer (ours through conn.session() vs ours alone; CPU per message)";
  const { ours, session } = result;
  const k = (/** @type {number} */ n) => `${(n / 1000).toFixed(0)}k msg/s`;
  return [
    [
      section,
      `streaming 100 B session/update text chunks, read from a Turn with for await (${result.count} messages, median of ${result.rounds})`,
      `connection alone ${ours.totalUsPerMessage.toFixed(1)} µs CPU/msg`,
      `${session.totalUsPerMessage.toFixed(1)} µs CPU/msg`,
      ours.totalUsPerMessage / session.totalUsPerMessage,
      0.9,
      `wall: session ${k(session.perSecond)}, connection alone ${k(ours.perSecond)} (${formatRatio(session.perSecond / ours.perSecond)})`,
    ],
    [
      section,
      "the same, the client process's CPU alone (where the layer runs)",
      `connection alone ${ours.clientUsPerMessage.toFixed(1)} µs/msg`,
      `${session.clientUsPerMessage.toFixed(1)} µs/msg`,
      ours.clientUsPerMessage / session.clientUsPerMessage,
    ],
  ];
}

// --- standalone ------------------------------------------------------------------------------
if (process.argv[1] === fileURLToPath(import.meta.url))
  await standalone("session", { run: (input) => sessionLayerRows(benchSessionLayer(input)) });
