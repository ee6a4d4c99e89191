import { afterEach, describe, expect, it } from "vitest";
import {
  AgentSideConnection,
  type ClientSideConnection as Client,
  ClientSideConnection,
  type LogEvent,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type ToolCallStatus,
  ValidationError,
} from "../../.test-package/package/v1/index.js";
import { SURFACES, schemaOf } from "../support/surfaces.js";

/**
 * A value this side was about to send that fails the schema: the error names where, what the
 * schema allows there and what was found, for the sender's code and, when a handler failed on
 * it, for the peer whose call it answers. A value received from the peer is not repeated in
 * issues or logs (they may travel further), but what the schema allows still is.
 */

const open: Array<{ close(): void }> = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** The values a string definition of the v1 schema allows, as the schema lists them. */
function allowed(definition: string): string {
  const v1 = SURFACES.find((s) => s.id === "v1");
  if (!v1) throw new Error("no v1 surface");
  const def = schemaOf(v1).$defs[definition] as {
    oneOf?: Array<{ const?: string }>;
    enum?: string[];
  };
  const values = def.enum ?? (def.oneOf ?? []).map((b) => b.const ?? "");
  expect(values.length).toBeGreaterThan(1);
  return values.map((v) => JSON.stringify(v)).join(", ");
}

function pipes(): [ReturnType<typeof ndJsonStream>, ReturnType<typeof ndJsonStream>] {
  const a = new TransformStream<Uint8Array, Uint8Array>();
  const b = new TransformStream<Uint8Array, Uint8Array>();
  return [ndJsonStream(a.writable, b.readable), ndJsonStream(b.writable, a.readable)];
}

/** A client talking to an agent whose turn sends one tool call with `status`. */
async function turnWithStatus(status: string) {
  const [agentEnd, clientEnd] = pipes();
  let sent: unknown;
  const agent = new AgentSideConnection(
    (conn) => ({
      initialize: () => ({ protocolVersion: PROTOCOL_VERSION }),
      sessionNew: () => ({ sessionId: "s-1" }),
      async sessionPrompt({ sessionId }) {
        try {
          await conn.client.sessionUpdate({
            sessionId,
            update: {
              sessionUpdate: "tool_call",
              toolCallId: "t-1",
              title: "Edit",
              status: status as ToolCallStatus, // invalid on purpose
            },
          });
        } catch (error) {
          sent = error;
          throw error;
        }
        return { stopReason: "end_turn" };
      },
      sessionCancel: () => {},
    }),
    agentEnd,
    { log: () => {} },
  );
  const client: Client = new ClientSideConnection(
    () => ({
      sessionUpdate: () => {},
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    }),
    clientEnd,
    { log: () => {} },
  );
  open.push(agent, client);
  await client.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
  const { sessionId } = await client.agent.sessionNew({ cwd: "/", mcpServers: [] });
  const answer = await client.agent
    .sessionPrompt({ sessionId, prompt: [] })
    .catch((e: unknown) => e);
  return { answer, sent };
}

describe("an invalid value this side sends", () => {
  it("the sender's call rejects naming the place, the allowed values and what was found", async () => {
    const { sent } = await turnWithStatus("finished");
    expect(sent).toBeInstanceOf(ValidationError);
    expect((sent as ValidationError).message).toBe(
      `invalid SessionNotification: /update/status must be equal to one of the allowed values: ${allowed("ToolCallStatus")}; found "finished"`,
    );
  });

  it("the peer whose call the failed handler answers reads the same, not only 'Internal error'", async () => {
    const { answer } = await turnWithStatus("finished");
    expect(answer).toBeInstanceOf(RequestError);
    expect((answer as RequestError).code).toBe(-32603);
    expect((answer as RequestError).message).toBe(
      `Internal error: the session/prompt handler failed: invalid SessionNotification: /update/status must be equal to one of the allowed values: ${allowed("ToolCallStatus")}; found "finished"`,
    );
  });
});

describe("an invalid value received", () => {
  it("is refused naming what the schema allows, never repeating the value", async () => {
    const events: LogEvent[] = [];
    const toClient = new TransformStream<Uint8Array, Uint8Array>();
    const fromClient = new TransformStream<Uint8Array, Uint8Array>();
    const client = new ClientSideConnection(
      () => ({
        sessionUpdate: () => {},
        sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      }),
      ndJsonStream(fromClient.writable, toClient.readable),
      { log: (e) => events.push(e) },
    );
    open.push(client);
    // A permission option whose kind no release has: lenient parsing cannot repair it.
    const secret = "s3cr3t-token-as-a-kind";
    const options = [{ optionId: "o-1", name: "Allow", kind: secret }];
    const request = {
      jsonrpc: "2.0",
      id: 1,
      method: "session/request_permission",
      params: { sessionId: "s-1", toolCall: { toolCallId: "t-1" }, options },
    };
    await toClient.writable
      .getWriter()
      .write(new TextEncoder().encode(`${JSON.stringify(request)}\n`));
    const { value } = await fromClient.readable.getReader().read();
    const answer = JSON.parse(new TextDecoder().decode(value)) as {
      error: { code: number; message: string; data: unknown };
    };
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toBe(
      `Invalid params: invalid RequestPermissionRequest: /options/0/kind must be equal to one of the allowed values: ${allowed("PermissionOptionKind")}`,
    );
    expect(JSON.stringify([answer, events.map((e) => [e.message, e.issues])])).not.toContain(
      secret,
    );
  });
});
