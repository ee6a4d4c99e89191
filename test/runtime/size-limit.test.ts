import { afterEach, describe, expect, it } from "vitest";
import { Connection } from "../../templates/runtime/connection.js";
import { CALLER_TABLES, recorder, SERVER_TABLES, streamPair } from "./support.js";

/**
 * One size limit for both directions: a message over `maxMessageBytes` is refused where it
 * is made, with an error naming its size, instead of being sent to a peer that skips it
 * and answers with an id nobody can match (which left the call pending forever).
 */

const open: Connection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

const LIMIT = 1024;

function connect(server: object) {
  const serverLog = recorder();
  const callerLog = recorder();
  const [a, b] = streamPair({ maxMessageBytes: LIMIT });
  const serverSide = new Connection(SERVER_TABLES, a, { log: serverLog.log });
  const callerSide = new Connection(CALLER_TABLES, b, { log: callerLog.log });
  serverSide.serve(server);
  callerSide.serve({});
  open.push(serverSide, callerSide);
  return { server: serverSide, caller: callerSide, serverLog, callerLog };
}

/** Whether `promise` has settled, once the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await Promise.resolve();
  return done;
}

describe("the size limit on outgoing messages", { timeout: 10_000 }, () => {
  it("rejects a request over the limit before a later small request is answered, and sends nothing", async () => {
    const { caller, serverLog } = connect({
      wait: (p: { tag: string }) => ({ tag: p.tag.slice(0, 3) }),
    });
    const big = caller.request("slow/wait", { tag: "x".repeat(5 * LIMIT) });
    big.catch(() => {});
    await expect(caller.request("slow/wait", { tag: "small" })).resolves.toEqual({ tag: "sma" });
    expect(await settled(big)).toBe(true);
    await expect(big).rejects.toMatchObject({
      name: "MessageTooLargeError",
      limit: LIMIT,
      size: expect.any(Number),
    });
    const error = (await big.catch((e: unknown) => e)) as { size: number; message: string };
    expect(error.size).toBeGreaterThan(5 * LIMIT);
    expect(error.message).toContain("slow/wait");
    // The peer never saw it.
    expect(serverLog.reasons()).toEqual([]);
  });

  it("rejects a notification over the limit", async () => {
    const lines: string[] = [];
    const { caller } = connect({ line: (p: { line: string }) => void lines.push(p.line) });
    await expect(caller.notify("log/line", { line: "y".repeat(2 * LIMIT) })).rejects.toMatchObject({
      name: "MessageTooLargeError",
    });
    await caller.notify("log/line", { line: "fits" });
    await caller.request("slow/wait", { tag: "barrier" }).catch(() => {});
    expect(lines).toEqual(["fits"]);
  });

  it("answers -32603 naming the size when a handler's result is over the limit", async () => {
    const { caller, serverLog } = connect({ wait: () => ({ tag: "z".repeat(3 * LIMIT) }) });
    await expect(caller.request("slow/wait", { tag: "t" })).rejects.toMatchObject({
      code: -32603,
      data: { limit: LIMIT, size: expect.any(Number) },
    });
    expect(serverLog.reasons()).toEqual(["message-too-large"]);
  });
});
