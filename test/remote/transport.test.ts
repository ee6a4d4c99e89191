import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  createHttpStream,
  createWebSocketStream,
} from "../../.test-package/package/remote/index.js";
import { client, serveAgent, texts, turn } from "./support.js";

describe("a prompt turn over each transport", { timeout: 20_000 }, () => {
  it("over streamable HTTP", async () => {
    const { served } = await serveAgent();
    const { conn, updates } = client(createHttpStream(served.url));
    const { result } = await turn(conn, "updates 5");
    expect(result.stopReason).toBe("end_turn");
    expect(texts(updates)).toEqual(["chunk 0", "chunk 1", "chunk 2", "chunk 3", "chunk 4"]);
  });

  it("over WebSocket", async () => {
    const { served } = await serveAgent();
    const { conn, updates } = client(createWebSocketStream(served.url, { WebSocket }));
    const { result } = await turn(conn, "updates 5");
    expect(result.stopReason).toBe("end_turn");
    expect(texts(updates)).toEqual(["chunk 0", "chunk 1", "chunk 2", "chunk 3", "chunk 4"]);
  });
});
