import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { RawPeer, recorder } from "../runtime/support.js";
import { run, TS_NODE } from "../stubs/support.js";
import { cli, RELEASES_DIR, tempDir } from "../support/run.js";

/**
 * A proxy chain in three processes, on the surface whose schema has the proxy methods
 * (SDK 2.4.0, v1 unstable): our client, which conducts the chain with the generated
 * ConductorSideConnection, our proxy on ProxySideConnection, and our agent on
 * AgentSideConnection, through one prompt turn. The three programs live in
 * test/fixtures/chain/ and import the package generated here as `acp-chain`, with the
 * extension methods of test/fixtures/chain/extension.json.
 */
const FIXTURES = join(ROOT, "test", "fixtures", "chain");
const work = tempDir("chain");
const program = (name: string) => join(work.path, `${name}.ts`);

beforeAll(async () => {
  const out = join(work.path, "acp-chain");
  const generated = await cli(
    "generate",
    ...[
      "--schema-dir",
      join(RELEASES_DIR, "2.4.0"),
      "--out",
      out,
      "--name",
      "acp-chain",
      "--extension",
      join(FIXTURES, "extension.json"),
      "--quiet",
    ],
  );
  expect(generated.stderr.filter((l) => !l.startsWith("warning:"))).toEqual([]);
  mkdirSync(join(work.path, "node_modules"));
  symlinkSync(out, join(work.path, "node_modules", "acp-chain"), "dir");
  writeFileSync(join(work.path, "package.json"), JSON.stringify({ type: "module" }));
  for (const file of readdirSync(FIXTURES))
    copyFileSync(join(FIXTURES, file), join(work.path, file));
});
afterAll(() => work.remove());

/** What the client printed after the turn, with the chain's stderr and exit code (run once, shared). */
interface Turn {
  initialized: { protocolVersion: number; agentInfo?: { name: string } };
  sessionId: string;
  stopReason: string;
  updates: string[];
  permissions: string[];
  notes: string[];
  wire: string[];
}
let turn: Promise<{ stderr: string; code: number | null; seen: Turn }> | undefined;
function runTurn() {
  turn ??= run([...TS_NODE, program("client")], {
    env: {
      CHAIN_PROXY: JSON.stringify([...TS_NODE, program("proxy")]),
      CHAIN_AGENT: JSON.stringify([...TS_NODE, program("agent")]),
    },
    timeoutMs: 45_000,
  }).then(({ stderr, code, stdout }) => ({
    stderr,
    code,
    seen: (code === 0 ? JSON.parse(stdout) : {}) as Turn,
  }));
  return turn;
}

describe("a proxy chain: our client ↔ our proxy ↔ our agent", { timeout: 60_000 }, () => {
  it("the three programs type-check against the generated package, strictly", () => {
    const tsconfig = join(work.path, "tsconfig.json");
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          types: ["node"],
          typeRoots: [join(ROOT, "node_modules", "@types")],
        },
        files: ["agent", "proxy", "client"].map(program),
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig],
      { encoding: "utf8" },
    );
    expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("runs a prompt turn through the proxy, which changes what it handles and passes the rest", async () => {
    const { stderr, code, seen } = await runTurn();
    expect(stderr).toBe("");
    expect(code).toBe(0);
    // proxy/initialize, which the proxy does not handle, reached the agent as initialize.
    expect(seen.initialized.protocolVersion).toBe(1);
    expect(seen.initialized.agentInfo?.name).toBe("chain-agent");
    // session/new passed through both ways unchanged.
    expect(seen.sessionId).toBe("session-1");
    expect(seen.stopReason).toBe("end_turn");
    // In order: the proxy's own note to the client, then the agent's updates as the proxy
    // changed them, with the prompt as the proxy changed it and the client's permission
    // answer carried back to the agent through the proxy.
    expect(seen.updates).toEqual([
      "proxy: prompt on its way",
      "echo: [via proxy] hello (seen by proxy)",
      "permission: allow (seen by proxy)",
      "ask: the proxy, asked who? (seen by proxy)",
    ]);
    expect(seen.permissions).toEqual(["Write the file"]);
    // What crossed the conductor's link to the proxy, in each direction (the two
    // directions interleave as the processes run): the chain's own methods.
    const direction = (prefix: string) =>
      seen.wire.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
    expect(direction("to proxy: ")).toEqual([
      "request proxy/initialize",
      "request session/new",
      "request session/prompt",
      "notification proxy/successor session/update",
      "request proxy/successor session/request_permission",
      "notification proxy/successor session/update",
      "notification proxy/successor _chain/note",
      "request proxy/successor _chain/ask",
      "notification proxy/successor session/update",
    ]);
    expect(direction("from proxy: ")).toEqual([
      "request proxy/successor initialize",
      "request proxy/successor session/new",
      "notification session/update",
      "request proxy/successor session/prompt",
      "notification session/update",
      "request session/request_permission",
      "notification session/update",
      "notification _chain/note",
      "notification session/update",
    ]);
  });

  it("routes the extension methods the package declares from the successor to the proxy's typed handlers, read leniently", async () => {
    const { stderr, code, seen } = await runTurn();
    expect(stderr).toBe("");
    expect(code).toBe(0);
    // `_chain/ask`: the proxy's chainAsk answered it; the client, which has no handler for
    // it, never saw it (the wire above: no `_chain/ask` from the proxy).
    expect(seen.updates).toContain("ask: the proxy, asked who? (seen by proxy)");
    // `_chain/note`: the agent sent annotations that are not an object and the conductor
    // carried them unread; the proxy's chainNote got the note with them dropped, as the
    // lenient reading repairs them (a strict reading would have refused the note).
    expect(seen.notes).toEqual(["a note (annotations dropped by proxy)"]);
  });
});

type ProxyModule = {
  ProxySideConnection: new (
    toProxy: () => object,
    stream: RawPeer["stream"],
    options?: object,
  ) => { close(): void };
};

/**
 * The proxy's routing on its own, in this process: a raw conductor on the other end
 * sends what a conductor would and reads what the proxy sends back. The proxy handles
 * nothing, so everything is the pass-through.
 */
describe("ProxySideConnection passing calls through", () => {
  async function proxy() {
    const url = pathToFileURL(join(work.path, "acp-chain", "v1", "unstable", "index.js")).href;
    const { ProxySideConnection } = (await import(url)) as ProxyModule;
    const conductor = new RawPeer();
    const log = recorder();
    const connection = new ProxySideConnection(() => ({}), conductor.stream, { log: log.log });
    return { conductor, log, close: () => connection.close() };
  }

  it("carries an extension request to the successor in the envelope, and its result back", async () => {
    const { conductor, close } = await proxy();
    await conductor.send({ jsonrpc: "2.0", id: 7, method: "_vendor/x", params: { a: 1 } });
    expect(await conductor.next()).toEqual({
      jsonrpc: "2.0",
      id: 0,
      method: "proxy/successor",
      params: { method: "_vendor/x", params: { a: 1 } },
    });
    await conductor.send({ jsonrpc: "2.0", id: 0, result: { b: [2] } });
    expect(await conductor.next()).toEqual({ jsonrpc: "2.0", id: 7, result: { b: [2] } });
    close();
  });

  it("reads what passes as the reference does: the x-deserialize repairs apply both ways", async () => {
    const { conductor, close } = await proxy();
    await conductor.send({
      jsonrpc: "2.0",
      id: 1,
      method: "session/new",
      params: { cwd: "/w", mcpServers: [], _meta: 5 },
    });
    expect(await conductor.next()).toEqual({
      jsonrpc: "2.0",
      id: 0,
      method: "proxy/successor",
      params: { method: "session/new", params: { cwd: "/w", mcpServers: [] } },
    });
    await conductor.send({ jsonrpc: "2.0", id: 0, result: { sessionId: "s", _meta: 5, modes: 7 } });
    expect(await conductor.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { sessionId: "s" } });
    const update = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } };
    await conductor.send({
      jsonrpc: "2.0",
      method: "proxy/successor",
      params: {
        method: "session/update",
        params: {
          sessionId: "s",
          update: { ...update, content: { ...update.content, annotations: 5 } },
          _meta: 3,
        },
      },
    });
    expect(await conductor.next()).toEqual({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s", update },
    });
    close();
  });

  it("answers the envelope itself when what it wraps cannot pass: an unknown method, invalid params", async () => {
    const { conductor, log, close } = await proxy();
    await conductor.send({
      jsonrpc: "2.0",
      id: 3,
      method: "proxy/successor",
      params: { method: "session/nothing", params: {} },
    });
    expect(await conductor.next()).toMatchObject({ id: 3, error: { code: -32601 } });
    await conductor.send({
      jsonrpc: "2.0",
      id: 4,
      method: "proxy/successor",
      params: { method: "session/request_permission", params: { sessionId: "s" } },
    });
    expect(await conductor.next()).toMatchObject({ id: 4, error: { code: -32602 } });
    // Logged with the reasons a call the proxy receives plain would get (LogReason).
    expect(log.reasons()).toEqual(["unknown-method", "invalid-params"]);
    close();
  });

  it("refuses a variant it does not know instead of passing on what it could not send", async () => {
    const { conductor, log, close } = await proxy();
    const deliver = (sessionUpdate: string) =>
      conductor.send({
        jsonrpc: "2.0",
        method: "proxy/successor",
        params: {
          method: "session/update",
          params: {
            sessionId: "s",
            update: { sessionUpdate, content: { type: "text", text: "x" } },
          },
        },
      });
    await deliver("future_kind_of_update");
    await deliver("agent_message_chunk");
    // Only the known one went on to the predecessor.
    expect(await conductor.next()).toMatchObject({
      method: "session/update",
      params: { update: { sessionUpdate: "agent_message_chunk" } },
    });
    // As `unknownVariants: "reject"` drops a plain notification: a warning naming the kind.
    expect(log.reasons()).toEqual(["unknown-variant"]);
    expect(log.events[0]?.message).toContain('"future_kind_of_update"');
    close();
  });

  it("treats null envelope params as none: the extension notification goes on without params", async () => {
    const { conductor, close } = await proxy();
    await conductor.send({
      jsonrpc: "2.0",
      method: "proxy/successor",
      params: { method: "_vendor/ping", params: null },
    });
    expect(await conductor.next()).toEqual({ jsonrpc: "2.0", method: "_vendor/ping" });
    close();
  });
});
