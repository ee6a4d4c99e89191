import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type {
  ConnectionOptions,
  MessageStream,
  NdJsonStreamOptions,
} from "../../.test-package/package/v1/index.js";
import { BASELINE_METHODS } from "../support/protocol.js";
import { methodMaps, SURFACES, schemaOf } from "../support/surfaces.js";
import { TEST_PACKAGE } from "../support/test-package.js";

/**
 * Every surface's generated connection, checked against the surface's own METHODS table
 * (which the generated-package tests check against the schema): every method a side serves
 * reaches the handler of its name, and is checked against its own params definition.
 */

interface MethodSpec {
  method: string;
  side: string;
  kind: "request" | "notification";
  handler: string;
  params: string;
  result?: string;
}
type Remote = Record<string, (params: unknown) => Promise<unknown>>;
interface Side {
  readonly signal: { aborted: boolean };
  readonly closed: Promise<void>;
  close(): void;
}
type SideClass<P extends string> = new (
  toHandlers: (connection: Record<P, Remote>) => object,
  stream: MessageStream,
  options?: ConnectionOptions,
) => Side & Record<P, Remote>;
interface Surface {
  METHODS: MethodSpec[];
  AgentSideConnection: SideClass<"client">;
  ClientSideConnection: SideClass<"agent">;
  ndJsonStream(
    output: WritableStream<Uint8Array>,
    input: ReadableStream<Uint8Array>,
    options?: NdJsonStreamOptions,
  ): MessageStream;
  [guard: `is${string}`]: (value: unknown) => boolean;
}

const load = async (id: string) =>
  (await import(pathToFileURL(join(TEST_PACKAGE, id, "index.js")).href)) as Surface;
const servedBy = (spec: MethodSpec, role: "agent" | "client") =>
  spec.side === role || spec.side === "both";

const open: Side[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** An agent and a client of one surface, connected in memory; every handler records its calls. */
function connect(
  surface: Surface,
  options: { agent?: ConnectionOptions; client?: ConnectionOptions } = {},
) {
  const bytes = () => new TransformStream<Uint8Array, Uint8Array>();
  const [up, down] = [bytes(), bytes()];
  const calls: string[] = [];
  const recording = (role: "agent" | "client") =>
    Object.fromEntries(
      surface.METHODS.filter((m) => servedBy(m, role)).map((m) => [
        m.handler,
        (_params: unknown, context: { method: string }) => {
          calls.push(`${role} ${m.handler} ${context.method}`);
          return m.kind === "request" ? {} : undefined;
        },
      ]),
    );
  const agent = new surface.AgentSideConnection(
    () => recording("agent"),
    surface.ndJsonStream(down.writable, up.readable),
    options.agent,
  );
  const client = new surface.ClientSideConnection(
    () => recording("client"),
    surface.ndJsonStream(up.writable, down.readable),
    options.client,
  );
  open.push(agent, client);
  return { agent, client, calls };
}

describe.each(SURFACES.map((s) => s.id))(
  "generated connection of %s",
  { timeout: 10_000 },
  (id) => {
    it("routes every method to the handler named after it, on the side that serves it", async () => {
      const surface = await load(id);
      // Every method is called with `{}` and no handshake: capability checks would refuse most.
      const silent = { validate: false, log: () => {}, capabilities: "off" } as const;
      const { agent, client, calls } = connect(surface, { agent: silent, client: silent });
      const expected: string[] = [];
      for (const role of ["agent", "client"] as const) {
        const remote = role === "agent" ? client.agent : agent.client;
        const methods = surface.METHODS.filter((m) => servedBy(m, role));
        expect(Object.keys(remote).sort()).toEqual(methods.map((m) => m.handler).sort());
        for (const m of methods) {
          const call = remote[m.handler];
          if (!call) throw new Error(`no ${m.handler} on the ${role} proxy`);
          await call({});
          expected.push(`${role} ${m.handler} ${m.method}`);
        }
      }
      // Notifications are handled in order before a later request starts: initialize is a barrier.
      await client.agent.initialize?.({});
      expect(calls.slice(0, -1)).toEqual(expected);
    });

    it("checks each method's params against its own definition before sending", async () => {
      const surface = await load(id);
      // No handshake here: the capability checks are test/stubs/negotiation.test.ts's.
      const lenient = { validate: false, log: () => {}, capabilities: "off" } as const;
      const strictSender = {
        validate: { received: false },
        log: () => {},
        capabilities: "off",
      } as const;
      for (const role of ["agent", "client"] as const) {
        // The calling side checks what it sends; the serving side accepts anything.
        const { agent, client } = connect(
          surface,
          role === "agent"
            ? { agent: lenient, client: strictSender }
            : { agent: strictSender, client: lenient },
        );
        const remote = role === "agent" ? client.agent : agent.client;
        for (const m of surface.METHODS.filter((spec) => servedBy(spec, role))) {
          const accepted = surface[`is${m.params}`]?.({});
          const outcome = await remote[m.handler]?.({}).then(
            () => "sent",
            (error: { name?: string; type?: string }) => `${error.name} ${error.type}`,
          );
          expect(outcome, `${role} ${m.method}`).toBe(
            accepted ? "sent" : `ValidationError ${m.params}`,
          );
        }
      }
    });
  },
);

describe("baseline methods", () => {
  it.each(SURFACES)("exist under their wire names in $schema", (surface) => {
    const maps = methodMaps(schemaOf(surface));
    expect(Object.values(maps.agent ?? {})).toEqual(
      expect.arrayContaining([...BASELINE_METHODS.agent]),
    );
    expect(Object.values(maps.client ?? {})).toEqual(
      expect.arrayContaining([...BASELINE_METHODS.client]),
    );
  });
});
