// The remote transport under load (streamable HTTP and WebSocket, the upstream RFD's), ours
// against the official SDK 2.4.0's experimental one:
//
// - many clients at once: `CLIENTS` concurrent clients, each with its own connection, one
//   session and one prompt turn of `UPDATES` updates, all driven by our client from one
//   process, against our server and then the SDK's (each in a process of its own, serving
//   its own agent): the wall time until the last turn ends, and the server process's CPU time
//   and peak RSS. The same client drives both servers, so the ratios are the servers'.
// - one client streaming: a single turn of many small updates, over each transport and over
//   stdio (our agent spawned as a process, as an editor does), in messages per second of the
//   prompt call alone (connecting and start-up left out): what the remote transport costs over
//   the local one. The SDK's client and server over the
//   same transports are measured beside ours.
//
// Contenders alternate round by round, medians of the rounds. Nothing here asserts a timing.
//
//   node bench/lib/remote.mjs [--quick] [--pkg DIR] [--write]
//     the section alone, as table rows; --write puts them (and their details) into
//     bench/results.json in place of the previous run's, leaving every other row as it is.

import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { REPO, RESULTS } from "./paths.mjs";
import { standalone } from "./standalone.mjs";
import { formatMs, formatRatio, median, round } from "./stats.mjs";

const AGENT = fileURLToPath(new URL("./remote-agent.mjs", import.meta.url));
const CLIENT = fileURLToPath(new URL("./remote-client.mjs", import.meta.url));
export const SECTION =
  "remote transport (streamable HTTP and WebSocket, client and agent processes on 127.0.0.1)";

/**
 * @typedef {"ours" | "sdk"} Impl
 * @typedef {"http" | "ws"} Transport
 * @typedef {{ wallMs: number, promptMs: number, cpuMs: number, updates: number, peakRssMb: number }} ClientRun
 * @typedef {{ cpuMs: number, peakRssMb: number }} ServerRun
 * @typedef {{ wallMs: number, serverCpuMs: number, serverRssMb: number, clientCpuMs: number }} LoadSample
 */

/**
 * Starts an agent process; resolves once it listens, with its URL and a `stop()` that resolves
 * with its CPU time and peak RSS.
 * @param {Impl} impl
 * @param {string} pkg
 * @param {number} updates
 * @param {number} payload
 */
function startServer(impl, pkg, updates, payload) {
  const child = spawn(
    process.execPath,
    [
      AGENT,
      "--impl",
      impl,
      "--pkg",
      pkg,
      "--updates",
      String(updates),
      "--payload",
      String(payload),
    ],
    { stdio: ["pipe", "pipe", "inherit"], cwd: REPO },
  );
  let out = "";
  child.stdout.setEncoding("utf8");
  /** @type {Promise<{ url: string, stop(): Promise<ServerRun> }>} */
  const ready = new Promise((resolve, reject) => {
    const onData = (/** @type {string} */ chunk) => {
      out += chunk;
      const newline = out.indexOf("\n");
      if (newline < 0) return;
      child.stdout.off("data", onData);
      const { url } = JSON.parse(out.slice(0, newline));
      out = out.slice(newline + 1);
      resolve({
        url,
        stop: () =>
          new Promise((done) => {
            child.stdout.on("data", (/** @type {string} */ more) => {
              out += more;
            });
            child.once("close", () => done(JSON.parse(out.trim().split("\n").pop() ?? "{}")));
            child.stdin.end();
          }),
      });
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`${impl} agent exited with ${code} before listening`)),
    );
  });
  return ready;
}

/**
 * Runs the client process to the end.
 * @param {string[]} extra
 * @param {string} pkg
 * @returns {ClientRun}
 */
function runClient(extra, pkg) {
  const r = spawnSync(process.execPath, [CLIENT, "--pkg", pkg, ...extra], {
    cwd: REPO,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`remote client ${extra.join(" ")} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}");
}

/**
 * Runs the client process while the server runs (the client is spawned asynchronously so the
 * server process keeps serving from this event loop's point of view).
 * @param {string[]} extra
 * @param {string} pkg
 * @returns {Promise<ClientRun>}
 */
function runClientAsync(extra, pkg) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT, "--pkg", pkg, ...extra], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (/** @type {string} */ d) => {
      out += d;
    });
    child.stderr.setEncoding("utf8").on("data", (/** @type {string} */ d) => {
      err += d;
    });
    child.once("close", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").pop() ?? "{}"))
        : reject(new Error(`remote client ${extra.join(" ")} failed (${code}):\n${err}`)),
    );
  });
}

/**
 * @param {{ pkg: string, quick?: boolean, log?: (line: string) => void }} options
 */
export async function benchRemote({ pkg, quick = false, log = () => {} }) {
  const rounds = quick ? 1 : 3;
  const clients = quick ? 50 : 200;
  const updates = 50;
  const streamed = quick ? 2_000 : 20_000;
  /** @type {Record<Transport, Record<Impl, LoadSample[]>>} */
  const load = { http: { ours: [], sdk: [] }, ws: { ours: [], sdk: [] } };
  /** @type {Record<string, number[]>} messages per second of one client's turn */
  const stream = { "ours-http": [], "ours-ws": [], "ours-stdio": [], "sdk-http": [], "sdk-ws": [] };
  for (let round = 0; round < rounds; round++) {
    /** @type {Impl[]} */
    const order = round % 2 ? ["sdk", "ours"] : ["ours", "sdk"];
    for (const transport of /** @type {Transport[]} */ (["http", "ws"]))
      for (const impl of order) {
        log(
          `  round ${round + 1}/${rounds}: ${clients} clients over ${transport}, ${impl} server…`,
        );
        const server = await startServer(impl, pkg, updates, 100);
        // A warm-up turn, so both servers are measured past their first connection.
        await runClientAsync(
          ["--impl", "ours", "--transport", transport, "--url", server.url],
          pkg,
        );
        const client = await runClientAsync(
          [
            "--impl",
            "ours",
            "--transport",
            transport,
            "--url",
            server.url,
            "--clients",
            String(clients),
          ],
          pkg,
        );
        const served = await server.stop();
        if (client.updates !== clients * updates)
          throw new Error(
            `${impl} over ${transport}: ${client.updates} of ${clients * updates} updates arrived`,
          );
        load[transport][impl].push({
          wallMs: client.wallMs,
          serverCpuMs: served.cpuMs,
          serverRssMb: served.peakRssMb,
          clientCpuMs: client.cpuMs,
        });
      }
    log(`  round ${round + 1}/${rounds}: one client streaming ${streamed} updates…`);
    for (const impl of order)
      for (const transport of /** @type {Transport[]} */ (["http", "ws"])) {
        const server = await startServer(impl, pkg, streamed, 100);
        const client = await runClientAsync(
          ["--impl", impl, "--transport", transport, "--url", server.url],
          pkg,
        );
        await server.stop();
        stream[`${impl}-${transport}`]?.push((client.updates / client.promptMs) * 1000);
      }
    const local = runClient(
      ["--impl", "ours", "--transport", "stdio", "--agent", AGENT, "--updates", String(streamed)],
      pkg,
    );
    stream["ours-stdio"]?.push((local.updates / local.promptMs) * 1000);
  }
  /** @param {LoadSample[]} samples */
  const summary = (samples) => ({
    wallMs: median(samples.map((s) => s.wallMs)),
    serverCpuMs: median(samples.map((s) => s.serverCpuMs)),
    serverRssMb: median(samples.map((s) => s.serverRssMb)),
    clientCpuMs: median(samples.map((s) => s.clientCpuMs)),
  });
  return {
    rounds,
    clients,
    updates,
    streamed,
    load: {
      http: { ours: summary(load.http.ours), sdk: summary(load.http.sdk), samples: load.http },
      ws: { ours: summary(load.ws.ours), sdk: summary(load.ws.sdk), samples: load.ws },
    },
    stream: Object.fromEntries(
      Object.entries(stream).map(([k, v]) => [k, { perSecond: median(v), samples: v }]),
    ),
  };
}

/**
 * The table rows: `[section, measure, reference, ours, ratio, target, note]`, ratio = how many
 * times better ours is.
 * @param {Awaited<ReturnType<typeof benchRemote>>} r
 * @returns {Array<[string, string, string, string, number, number | undefined, string]>}
 */
export function remoteRows(r) {
  /** @type {Array<[string, string, string, string, number, number | undefined, string]>} */
  const rows = [];
  for (const transport of /** @type {Transport[]} */ (["http", "ws"])) {
    const { ours, sdk } = r.load[transport];
    const name = transport === "http" ? "streamable HTTP" : "WebSocket";
    const what = `${r.clients} concurrent clients × a prompt turn of ${r.updates} updates, ${name}, our client, ours vs the SDK's server`;
    rows.push([
      SECTION,
      `${what}: time until the last turn ends`,
      `SDK ${formatMs(sdk.wallMs)}`,
      formatMs(ours.wallMs),
      sdk.wallMs / ours.wallMs,
      1,
      `median of ${r.rounds}; client CPU ${formatMs(ours.clientCpuMs)} / ${formatMs(sdk.clientCpuMs)}`,
    ]);
    rows.push([
      SECTION,
      `${what}: server CPU`,
      `SDK ${formatMs(sdk.serverCpuMs)}`,
      formatMs(ours.serverCpuMs),
      sdk.serverCpuMs / ours.serverCpuMs,
      1,
      "user + system of the server process, from ready to the end of the load",
    ]);
    rows.push([
      SECTION,
      `${what}: server peak RSS`,
      `SDK ${sdk.serverRssMb.toFixed(0)} MB`,
      `${ours.serverRssMb.toFixed(0)} MB`,
      sdk.serverRssMb / ours.serverRssMb,
      1,
      "",
    ]);
  }
  const s = r.stream;
  const per = (/** @type {string} */ k) => s[k]?.perSecond ?? Number.NaN;
  const rate = (/** @type {number} */ n) => `${Math.round(n).toLocaleString("en")} msg/s`;
  for (const transport of /** @type {Transport[]} */ (["ws", "http"])) {
    const name = transport === "http" ? "streamable HTTP" : "WebSocket";
    rows.push([
      SECTION,
      `one client streaming ${r.streamed.toLocaleString("en")} 100 B updates, ${name} vs stdio (ours both: the transport's own cost)`,
      `stdio ${rate(per("ours-stdio"))}`,
      rate(per(`ours-${transport}`)),
      per(`ours-${transport}`) / per("ours-stdio"),
      undefined,
      `the SDK's client and server over ${name}: ${rate(per(`sdk-${transport}`))} (ours ${formatRatio(per(`ours-${transport}`) / per(`sdk-${transport}`))})`,
    ]);
  }
  return rows;
}

// --- standalone ------------------------------------------------------------------------------
if (process.argv[1] === fileURLToPath(import.meta.url))
  await standalone("remote", {
    // --write puts this section's rows into bench/results.json, for a run of it alone.
    options: { write: { type: "boolean", default: false } },
    async run({ values, ...input }) {
      const result = await benchRemote(input);
      const rows = remoteRows(result);
      if (values.write) {
        const results = JSON.parse(readFileSync(RESULTS, "utf8"));
        results.table = [
          ...results.table.filter(
            (/** @type {{ section: string }} */ row) => row.section !== SECTION,
          ),
          ...rows.map(([section, measure, reference, ours, ratio, target, note]) => ({
            section,
            measure,
            reference,
            ours,
            ratio: round(ratio),
            target: target ?? null,
            met: target === undefined || !Number.isFinite(ratio) ? null : ratio >= target,
            note,
          })),
        ];
        results.details = { ...results.details, remote: result };
        writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
        spawnSync(join(REPO, "node_modules", ".bin", "biome"), ["format", "--write", RESULTS], {
          cwd: REPO,
        });
        process.stderr.write(`wrote the remote rows into ${RESULTS}\n`);
      }
      return rows;
    },
  });
