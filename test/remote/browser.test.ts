import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "../../.test-package/package/node/index.js";
import { AcpServer } from "../../.test-package/package/remote/index.js";
import { ROOT } from "../../generator/paths.js";
import { launchChromium } from "../support/chromium.js";
import { agentConnect, closeAfter, newLog } from "./support.js";

/**
 * A real browser (Debian's headless Chromium) loads a page that uses our `PKG/remote` client,
 * bundled as a web app would bundle it, and completes prompt turns with our Node server over
 * WebSocket and over HTTP: cross-origin, so CORS, the preflight and the Origin check are the
 * browser's own. A page whose origin is not allowed gets nowhere.
 */

interface TurnOutcome {
  transport: string;
  stopReason?: string;
  updates: string[];
  error?: string;
}

let browser: Awaited<ReturnType<typeof launchChromium>>;
let pages: Server;
let pageOrigin = "";

beforeAll(async () => {
  const [launched, bundled] = await Promise.all([
    launchChromium(),
    build({
      entryPoints: [join(ROOT, "test", "remote", "browser", "page.ts")],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2020",
      write: false,
      logLevel: "silent",
    }),
  ]);
  browser = launched;
  const script = bundled.outputFiles[0]?.text ?? "";
  pages = createServer((req, res) => {
    if (req.url === "/page.js") {
      res.setHeader("Content-Type", "text/javascript");
      res.end(script);
      return;
    }
    res.setHeader("Content-Type", "text/html");
    res.end('<!doctype html><title>editor</title><script type="module" src="/page.js"></script>');
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  const address = pages.address();
  pageOrigin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  // Installing chromium on a clean machine takes minutes.
}, 900_000);

afterAll(async () => {
  await browser?.close();
  pages?.close();
});

async function runPage(acpUrl: string): Promise<TurnOutcome[]> {
  const page = await browser.context.newPage();
  try {
    await page.goto(`${pageOrigin}/?acp=${encodeURIComponent(acpUrl)}`);
    const handle = await page.waitForFunction(
      () => (globalThis as { acpResult?: unknown }).acpResult,
      undefined,
      { timeout: 20_000 },
    );
    return (await handle.jsonValue()) as TurnOutcome[];
  } finally {
    await page.close();
  }
}

describe("a browser page drives an agent with our client", { timeout: 60_000 }, () => {
  it("completes prompt turns over WebSocket and over HTTP from an allowed origin", async () => {
    const log = newLog();
    const served = await serve(
      new AcpServer({ connect: agentConnect(log), allowedOrigins: [pageOrigin] }),
    );
    closeAfter(served);
    const outcomes = await runPage(served.url);
    expect(outcomes).toEqual([
      {
        transport: "websocket",
        stopReason: "end_turn, end_turn",
        updates: ["chunk 0", "chunk 1", "chunk 2"],
      },
      {
        transport: "http",
        stopReason: "end_turn, end_turn",
        updates: ["chunk 0", "chunk 1", "chunk 2"],
      },
    ]);
    expect(log.connections).toBe(2);
    expect(log.prompts).toBe(4);
  });

  it("gets nowhere from an origin the server does not allow (the default)", async () => {
    const log = newLog();
    const served = await serve(new AcpServer({ connect: agentConnect(log), log: () => {} }));
    closeAfter(served);
    const outcomes = await runPage(served.url);
    expect(outcomes.map((o) => o.transport)).toEqual(["websocket", "http"]);
    for (const outcome of outcomes) {
      expect(outcome.error, outcome.transport).toBeDefined();
      expect(outcome.updates).toEqual([]);
    }
    // Not even initialize reached the agent.
    expect(log.connections).toBe(0);
  });
});
