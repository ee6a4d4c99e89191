#!/usr/bin/env node
// Experiment, not part of `npm run bench`: the JavaScript cost of one side of the streaming
// row (`session/update` chunks), without the pipes, for A/B work on the runtime.
//
//   node bench/experiments/runtime-stream.mjs [--side client|agent] [--per N] [--rounds R]
//        [--batch B] [--payload small|large|diff] NAME=PACKAGE_DIR ...
//
// In one process, over in-memory web streams: the client side reads the updates (N lines per
// chunk, as a pipe delivers several at a time) into a `sessionUpdate` handler; the agent side
// sends them, awaiting each, to a sink that drops them. The raw floor of
// bench/lib/runtime-workloads.mjs and every package given (its `v1` entry point) take turns
// over batches of B messages, R rounds, rotating who goes first, so drifting machine load
// lands on all alike; the figure is the median CPU per message (quartiles beside it). Pipes,
// the kernel and Node's socket code are not in it: bench/lib/runtime.mjs measures those.

import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { PAYLOADS, rawLines, rawWriter, SESSION_ID } from "../lib/runtime-workloads.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    side: { type: "string", default: "client" },
    per: { type: "string", default: "8" },
    rounds: { type: "string", default: "40" },
    batch: { type: "string", default: "20000" },
    payload: { type: "string", default: "small" },
  },
});
const PER = Number(values.per);
const ROUNDS = Number(values.rounds);
const BATCH = Number(values.batch);
const update = PAYLOADS[/** @type {keyof typeof PAYLOADS} */ (values.payload)]();
const params = { sessionId: SESSION_ID, update };
const encoder = new TextEncoder();
const line = `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params })}\n`;
const chunk = encoder.encode(line.repeat(PER));
const sink = () => new WritableStream({ write() {} });

/** @typedef {(n: number) => Promise<void>} Run one batch of `n` messages */

/**
 * The reading side: a source handing out `n` messages per batch, `PER` per chunk.
 * @param {string | undefined} pkg a package folder, or undefined for the floor
 * @returns {Promise<Run>}
 */
async function client(pkg) {
  let remaining = 0;
  let handled = 0;
  let target = 0;
  /** @type {() => void} */
  let wake = () => {};
  /** @type {() => void} */
  let done = () => {};
  const source = new ReadableStream(
    {
      async pull(controller) {
        while (remaining <= 0)
          await new Promise((resolve) => {
            wake = () => resolve(undefined);
          });
        remaining -= PER;
        controller.enqueue(chunk.slice());
      },
    },
    { highWaterMark: 0 },
  );
  const onUpdate = () => {
    handled++;
    if (handled === target) done();
  };
  if (pkg) {
    const acp = await import(pathToFileURL(`${pkg}/v1/index.js`).href);
    new acp.ClientSideConnection(
      () => ({
        sessionUpdate: onUpdate,
        sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      }),
      acp.ndJsonStream(sink(), source),
    );
  } else {
    void (async () => {
      for await (const message of rawLines(source))
        if (message.method === "session/update") onUpdate();
    })();
  }
  return (n) => {
    handled = 0;
    target = n;
    remaining = n;
    const finished = new Promise((resolve) => {
      done = () => resolve(undefined);
    });
    wake();
    return /** @type {Promise<void>} */ (finished);
  };
}

/**
 * The sending side: `n` updates, each awaited, after an `initialize` from the client.
 * @param {string | undefined} pkg a package folder, or undefined for the floor
 * @returns {Promise<Run>}
 */
async function agent(pkg) {
  /** @type {() => Promise<unknown>} */
  let send;
  if (pkg) {
    const acp = await import(pathToFileURL(`${pkg}/v1/index.js`).href);
    const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } };
    const input = new ReadableStream({
      start(controller) {
        controller.enqueue(encoder.encode(`${JSON.stringify(init)}\n`));
      },
    });
    /** @type {any} */
    let conn;
    new acp.AgentSideConnection(
      (/** @type {any} */ c) => {
        conn = c;
        return {
          initialize: () => ({ protocolVersion: 1 }),
          sessionNew: () => ({ sessionId: "s" }),
          sessionPrompt: () => ({ stopReason: "end_turn" }),
          sessionCancel: () => {},
        };
      },
      acp.ndJsonStream(sink(), input),
    );
    while (!conn.negotiated) await new Promise((resolve) => setImmediate(resolve));
    send = () => conn.client.sessionUpdate(params);
  } else {
    const write = rawWriter(sink());
    const notification = { jsonrpc: "2.0", method: "session/update", params };
    send = () => write(notification);
  }
  return async (n) => {
    for (let i = 0; i < n; i++) await send();
  };
}

/** @param {number[]} list @param {number} q */
const quantile = (list, q) => {
  const sorted = [...list].sort((a, b) => a - b);
  const at = q * (sorted.length - 1);
  const low = Math.floor(at);
  return (sorted[low] ?? 0) + ((sorted[Math.ceil(at)] ?? 0) - (sorted[low] ?? 0)) * (at - low);
};

const contenders = [
  { name: "floor", pkg: undefined },
  ...positionals.map((spec) => {
    const [name, pkg] = spec.split("=");
    if (!name || !pkg) throw new Error(`expected NAME=PACKAGE_DIR, got ${spec}`);
    return { name, pkg };
  }),
].map((c) => ({
  ...c,
  run: /** @type {Run | undefined} */ (undefined),
  us: /** @type {number[]} */ ([]),
}));

for (const c of contenders) {
  c.run = await (values.side === "agent" ? agent : client)(c.pkg);
  await c.run(BATCH * 2); // warm-up: optimised before anything is timed
}
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < contenders.length; k++) {
    const c = contenders[(k + round) % contenders.length];
    if (!c?.run) continue;
    const before = process.cpuUsage();
    await c.run(BATCH);
    const used = process.cpuUsage(before);
    c.us.push((used.user + used.system) / BATCH);
  }
}
const floor = quantile(contenders[0]?.us ?? [], 0.5);
for (const c of contenders) {
  const median = quantile(c.us, 0.5);
  process.stdout.write(
    `${values.side} ${c.name.padEnd(10)} ${median.toFixed(2)} µs CPU/msg (quartiles ${quantile(c.us, 0.25).toFixed(2)}–${quantile(c.us, 0.75).toFixed(2)}), floor ÷ this ${(floor / median).toFixed(2)}×\n`,
  );
}
process.exit(0);
