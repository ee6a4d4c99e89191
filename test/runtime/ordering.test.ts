import { afterEach, describe, expect, it } from "vitest";
import { Connection } from "../../templates/runtime/connection.js";
import { deferred, RawPeer, SERVER_TABLES } from "./support.js";

/**
 * A response is delivered after every notification received before it has been handled:
 * an ACP agent sends every `session/update` of a turn before it answers `session/prompt`,
 * so a client must see the turn end after its updates. Asserted on the order of events.
 */

const open: Connection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const line = (text: string) =>
  `${JSON.stringify({ jsonrpc: "2.0", method: "log/line", params: { line: text } })}\n`;

function facing(handlers: object) {
  const peer = new RawPeer();
  const connection = new Connection(SERVER_TABLES, peer.stream, { log: () => {} });
  connection.serve(handlers);
  open.push(connection);
  return { peer, connection };
}

describe("responses after the notifications before them", { timeout: 20_000 }, () => {
  it("resolves a call only after the asynchronous handling of every update sent before its answer", async () => {
    const count = 2_000;
    const events: string[] = [];
    const { peer, connection } = facing({
      async line(p: { line: string }) {
        await turn();
        events.push(p.line);
      },
    });
    const call = connection.request("echo/ping", { n: 1 }).then(() => events.push("answer"));
    const sent = (await peer.next()) as { id: number };
    let updates = "";
    for (let i = 0; i < count; i++) updates += line(`u${i}`);
    await peer.send(
      `${updates}${JSON.stringify({ jsonrpc: "2.0", id: sent.id, result: { n: 1 } })}\n`,
    );
    await call;
    expect(events).toHaveLength(count + 1);
    expect(events.at(-1)).toBe("answer");
    expect(events.at(-2)).toBe(`u${count - 1}`);
  });

  it("orders an error answer the same way", async () => {
    const events: string[] = [];
    const { peer, connection } = facing({
      async line(p: { line: string }) {
        await turn();
        events.push(p.line);
      },
    });
    const call = connection
      .request("echo/ping", { n: 1 })
      .catch((e: { code: number }) => events.push(`error ${e.code}`));
    const sent = (await peer.next()) as { id: number };
    await peer.send(
      `${line("a")}${line("b")}${JSON.stringify({ jsonrpc: "2.0", id: sent.id, error: { code: -32603, message: "x" } })}\n`,
    );
    await call;
    expect(events).toEqual(["a", "b", "error -32603"]);
  });

  it("does not hold back the answer a running notification handler is waiting for", async () => {
    const events: string[] = [];
    let connection!: Connection;
    const setup = facing({
      async line(p: { line: string }) {
        if (p.line === "asks") {
          await connection.request("echo/ping", { n: 1 });
          events.push("asks got its answer");
        }
        events.push(p.line);
      },
    });
    connection = setup.connection;
    const { peer } = setup;
    await peer.send(line("asks"));
    const ping = (await peer.next()) as { id: number };
    // A notification that arrives after the request was sent, then the answer: the answer
    // must not wait for "later", which waits for "asks", which waits for the answer.
    await peer.send(
      `${line("later")}${JSON.stringify({ jsonrpc: "2.0", id: ping.id, result: { n: 1 } })}\n`,
    );
    await peer.send({ jsonrpc: "2.0", id: 1, method: "math/add", params: { a: 0, b: 0 } });
    await peer.next();
    expect(events).toEqual(["asks got its answer", "asks", "later"]);
  });

  it("delivers at once when no notification is waiting", async () => {
    const gate = deferred();
    const events: string[] = [];
    const { peer, connection } = facing({
      add: async () => {
        await gate.promise;
        return { sum: 0 };
      },
    });
    // A request handler still running does not hold back answers (only notifications do).
    await peer.send({ jsonrpc: "2.0", id: "busy", method: "math/add", params: { a: 0, b: 0 } });
    const call = connection.request("echo/ping", { n: 1 }).then(() => events.push("answer"));
    const sent = (await peer.next()) as { id: number };
    await peer.send({ jsonrpc: "2.0", id: sent.id, result: { n: 1 } });
    await call;
    expect(events).toEqual(["answer"]);
    gate.resolve();
    expect(await peer.next()).toMatchObject({ id: "busy", result: { sum: 0 } });
  });
});
