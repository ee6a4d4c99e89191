import type { CallOptions, LogEvent } from "./connection-types.js";
import { defaultLog } from "./incoming.js";
import { classify, type Incoming, type JsonRpcId, type JsonRpcMessage } from "./json-rpc.js";
import { isMalformedFrame, type MalformedFrame, type MessageStream } from "./message-stream.js";
import { RequestError, wireErrors } from "./request-error.js";
import { type HeldStream, handOver, hold, release } from "./router-stream.js";

/**
 * One agent for every client version, and one client for every agent version: the two
 * ends of version negotiation on one stream, on the same routing code (router-stream.ts).
 * ACP negotiates the version in the first exchange, `initialize`: the client asks for the
 * newest version it speaks, the agent answers with that version if it speaks it, else its
 * own latest, and the client decides. Each version has its own connection classes (its
 * own entry point), so each router reads that first exchange itself, picks the version's
 * connection and hands it the stream, the exchange included, as if it had been there.
 */

/** What the package's schema says of the handshake both routers read (generated into `PKG/router`). */
export interface HandshakeSpec {
  /** The request that negotiates (`initialize`). */
  readonly method: string;
  /** The property of its params and result that holds the protocol version. */
  readonly version: string;
  /** The protocol versions the package has an entry point for. */
  readonly versions: readonly number[];
}

/** Protocol versions are `uint16` in every schema (`ProtocolVersion`). */
const MAX_PROTOCOL_VERSION = 0xffff;

/**
 * Makes the connection of one version for a stream, with the arguments `connect` got after
 * it (`AcpServer` passes the client connection's `RemoteConnectionInfo`).
 */
// biome-ignore lint/suspicious/noExplicitAny: the extra arguments are the factory's to type.
export type AgentFactory = (stream: MessageStream, ...extra: any[]) => unknown;

/** `agentRouter`'s routes: a factory per protocol version served. */
export type AgentRoutes<V extends number = number> = { readonly [K in V]?: AgentFactory };

/** The arguments `connect` passes on to the factories after the stream. */
export type ExtraArguments<R> = {
  [K in keyof R]-?: NonNullable<R[K]> extends (stream: MessageStream, ...extra: infer E) => unknown
    ? E
    : never;
}[keyof R];

/** Where a stream went: the version chosen, and what its factory returned. */
export type AgentRoute<R> = {
  [K in keyof R & number]-?: NonNullable<R[K]> extends (...args: never[]) => infer C
    ? { readonly protocolVersion: K; readonly connection: C }
    : never;
}[keyof R & number];

export interface RouterOptions {
  /**
   * Where the router reports what it answers or drops before `initialize`, and a factory
   * that threw. Default: `warn` and `error` events go to `console.error`.
   */
  readonly log?: (event: LogEvent) => void;
}

/**
 * The agent's end: `connect(stream)` reads the stream up to its first valid `initialize`
 * request and hands the stream, that request first, to the factory of the version chosen.
 * The chosen connection reads the `initialize` itself, as on a stream of its own, so its
 * handler answers it and the capabilities negotiate as they would without the router.
 *
 * The version chosen is the highest one routed at or below the one the client asks for;
 * when none is (a client older than every version routed), the latest routed one, whose
 * connection answers with its own version and leaves the client to decide, as ACP says.
 *
 * Before that `initialize`, as the official SDK's `agentProtocolRouter()`: notifications
 * and responses are ignored, other requests get -32600, a JSON array (a batch: no version
 * is chosen yet) a single -32600 with `id: null`, and an `initialize` whose params hold no
 * protocol version (an integer from 0 to 65535) gets -32602. None of these ends the
 * stream: the client may send `initialize` again. Once a version is chosen it stays: a
 * later `initialize` goes to the chosen connection like every other message.
 */
export class AgentRouter<R extends AgentRoutes = AgentRoutes> {
  /** The versions routed, from the latest down. */
  readonly versions: readonly number[];
  private readonly log: (event: LogEvent) => void;

  constructor(
    private readonly spec: HandshakeSpec,
    private readonly routes: R,
    options: RouterOptions = {},
  ) {
    this.versions = routedVersions("agentRouter", spec, routes, (route) => {
      if (typeof route !== "function") return "is not a function";
      return undefined;
    });
    this.log = options.log ?? defaultLog;
    this.connect = this.connect.bind(this);
  }

  /**
   * Serves one client on `stream` (`stdio()`, or what `AcpServer` passes to its `connect`):
   * resolves with the version chosen and the factory's connection, or undefined when the
   * stream ended (or failed) before an `initialize`. Rejects only when the factory threw
   * (then the stream is closed); that rejection is also logged, and never unhandled.
   */
  connect(stream: MessageStream, ...extra: ExtraArguments<R>): Promise<AgentRoute<R> | undefined> {
    const routed = this.route(stream, extra);
    routed.catch(ignore);
    return routed;
  }

  private async route(stream: MessageStream, extra: unknown[]): Promise<AgentRoute<R> | undefined> {
    const held = hold(stream);
    for (;;) {
      let next: Awaited<ReturnType<HeldStream["reader"]["read"]>>;
      try {
        next = await held.reader.read();
      } catch {
        await release(held);
        return undefined;
      }
      if (next.done) {
        await release(held);
        return undefined;
      }
      const decision = this.first(next.value);
      if (decision.kind === "wait") {
        if (decision.answer) {
          try {
            await held.writer.write(decision.answer);
          } catch {
            await release(held);
            return undefined;
          }
        }
        continue;
      }
      const { version } = decision;
      const factory = this.routes[version as keyof R] as AgentFactory;
      try {
        const connection = factory(handOver(held, [next.value]), ...extra);
        return { protocolVersion: version, connection } as AgentRoute<R>;
      } catch (error) {
        this.note("error", "handler-error", `the v${version} factory threw: ${describe(error)}`, {
          error,
        });
        await release(held, error);
        throw error;
      }
    }
  }

  /** What to do with a message received before the first `initialize`. */
  private first(value: unknown): Decision {
    if (isMalformedFrame(value)) return this.malformed(value);
    if (Array.isArray(value)) {
      this.note("warn", "invalid-message", "a JSON-RPC batch before initialize: answered -32600");
      return refuse(null, wireErrors.invalidRequest(undefined, "a batch before initialize"));
    }
    const message = classify(value);
    switch (message.kind) {
      case "notification":
      case "result":
      case "error":
        this.note("debug", "not-initialized", `ignored ${what(message)} before initialize`);
        return IGNORE;
      case "invalid":
        this.note("warn", "invalid-message", `invalid JSON-RPC message: ${message.reason}`, {
          id: message.id,
        });
        return message.answer
          ? refuse(message.id, wireErrors.invalidRequest(undefined, message.reason))
          : IGNORE;
      case "request":
        break;
    }
    const { id, method, params } = message;
    const expected = this.spec.method;
    if (method !== expected) {
      this.note(
        "warn",
        "not-initialized",
        `refused ${method}: the first request must be ${expected}`,
        {
          method,
          id,
        },
      );
      return refuse(
        id,
        wireErrors.invalidRequest(
          { method, reason: "not-initialized" },
          `the first request must be ${expected}`,
        ),
      );
    }
    const requested = protocolVersionOf(params, this.spec.version);
    if (requested === undefined) {
      const property = this.spec.version;
      this.note("warn", "invalid-params", `refused ${method}: no valid ${property} in its params`, {
        method,
        id,
      });
      return refuse(
        id,
        wireErrors.invalidParams(
          { property },
          `${property} must be an integer from 0 to ${MAX_PROTOCOL_VERSION}`,
        ),
      );
    }
    return { kind: "route", version: choose(this.versions, requested) };
  }

  private malformed(frame: MalformedFrame): Decision {
    const { id, response } = frame.peek ?? {};
    this.note(
      "warn",
      frame.problem === "too-large" ? "message-too-large" : frame.problem,
      `an incoming message of ${frame.size} bytes before initialize is ${
        frame.problem === "too-large" ? "over the size limit" : "not valid JSON"
      }; dropped`,
    );
    // A request over the size limit is answered, so the client's call fails instead of waiting.
    if (frame.problem === "too-large" && id !== undefined && !response)
      return refuse(
        id,
        wireErrors.invalidRequest({ size: frame.size, limit: frame.limit }, "message too large"),
      );
    return IGNORE;
  }

  private note(
    level: LogEvent["level"],
    reason: LogEvent["reason"],
    message: string,
    detail: Partial<LogEvent> = {},
  ): void {
    this.log({ ...detail, level, reason, message: `router: ${message}` });
  }
}

/** A connection whose peer is an agent: what the client's router calls `initialize` on. */
export interface InitializingConnection {
  readonly agent: { initialize(params: never, options?: CallOptions): Promise<unknown> };
  close(reason?: unknown): void;
}

/** What a connection's `initialize` resolves with. */
export type InitializeResultOf<C> = C extends {
  readonly agent: { initialize(...args: never[]): Promise<infer R> };
}
  ? R
  : never;

/**
 * One version's connection, as the client's router makes it: the params of its
 * `initialize` (`P`: its version's `InitializeRequest` without `protocolVersion`, which the
 * router sets to the version offered) and the factory, called with the stream once the
 * agent chose this version.
 */
export interface ClientOffer<C, P = object> {
  readonly initialize: P;
  readonly connect: (stream: MessageStream) => C;
}

/**
 * Where the client's router landed: the version the agent chose, its connection, and its
 * answer as that connection read it. `C` maps each version to its connection type (`never`
 * for a version not offered).
 */
export type ClientRoute<C> = {
  [K in keyof C & number]-?: [C[K]] extends [never]
    ? never
    : {
        readonly protocolVersion: K;
        readonly connection: C[K];
        readonly initialized: InitializeResultOf<C[K]>;
      };
}[keyof C & number];

export interface ClientConnectOptions {
  /** Aborts the handshake: `connect` rejects with the signal's reason, and the stream is closed. */
  readonly signal?: CallOptions["signal"];
}

/** Messages an agent may send before it answers `initialize` that the router keeps for the connection. */
const MAX_EARLY_MESSAGES = 1024;

/**
 * The client's end: `connect(stream)` asks the agent for the newest version offered, in one
 * `initialize` whose params are every offered version's (each version's fields are read by
 * an agent of that version and ignored by the others, as serde and every SDK ignore unknown
 * fields), then makes the connection of the version the agent answered with and hands it
 * the stream with that exchange as its own: the connection's `initialize` call is answered
 * with the agent's answer (not sent again), and its capabilities negotiate as they would
 * have on the stream itself. Resolves with the version, the connection and the answer as
 * that connection read it; the caller narrows on `protocolVersion`.
 *
 * An answer with a version not offered (the client SHOULD then disconnect), an error
 * answer, or a stream that ends first rejects, and the stream is closed.
 */
export class ClientRouter<C = { readonly [version: number]: InitializingConnection }> {
  /** The versions offered, from the newest down. */
  readonly versions: readonly number[];
  private readonly offer: Readonly<Record<string, unknown>>;

  constructor(
    private readonly spec: HandshakeSpec,
    private readonly offers: { readonly [version: number]: ClientOffer<InitializingConnection> },
    options: RouterOptions = {},
  ) {
    this.versions = routedVersions("clientRouter", spec, offers, (offer) => {
      if (typeof offer !== "object" || offer === null) return "is not an object";
      const { initialize, connect } = offer as { initialize?: unknown; connect?: unknown };
      if (typeof connect !== "function") return "has no connect function";
      if (typeof initialize !== "object" || initialize === null || Array.isArray(initialize))
        return "has no initialize params object";
      return undefined;
    });
    this.offer = mergedOffer(spec, this.versions, offers);
    void options;
    this.connect = this.connect.bind(this);
  }

  connect(stream: MessageStream, options: ClientConnectOptions = {}): Promise<ClientRoute<C>> {
    return this.route(stream, options.signal);
  }

  private async route(
    stream: MessageStream,
    signal: CallOptions["signal"],
  ): Promise<ClientRoute<C>> {
    if (signal?.aborted) throw signal.reason;
    const held = hold(stream);
    const abort = () => {
      void release(held, signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
    try {
      const id = 0;
      await held.writer.write({ jsonrpc: "2.0", id, method: this.spec.method, params: this.offer });
      const { early, answer } = await this.answerTo(held, id);
      const version = protocolVersionOf(answer.result, this.spec.version);
      const offer = version === undefined ? undefined : this.offers[version];
      if (version === undefined || !offer || !this.versions.includes(version))
        throw new RequestError(
          -32600,
          `the agent answered ${this.spec.method} with protocol version ${JSON.stringify(
            isRecord(answer.result) ? answer.result[this.spec.version] : undefined,
          )}; this client speaks ${this.versions.join(" or ")}`,
          {
            [this.spec.version]: isRecord(answer.result)
              ? answer.result[this.spec.version]
              : undefined,
          },
        );
      signal?.removeEventListener("abort", abort);
      const method = this.spec.method;
      const connection = offer.connect(
        handOver(held, [], (message) =>
          !Array.isArray(message) &&
          "method" in message &&
          message.method === method &&
          "id" in message
            ? [...early, { ...answer, id: message.id }]
            : undefined,
        ),
      );
      let initialized: unknown;
      try {
        initialized = await connection.agent.initialize(this.offer as never);
      } catch (error) {
        connection.close(error);
        throw error;
      }
      return { protocolVersion: version, connection, initialized } as unknown as ClientRoute<C>;
    } catch (error) {
      signal?.removeEventListener("abort", abort);
      await release(held, error);
      throw signal?.aborted ? signal.reason : error;
    }
  }

  /** Reads up to the answer to request `id`, keeping what came before it. */
  private async answerTo(
    held: HeldStream,
    id: JsonRpcId,
  ): Promise<{ early: unknown[]; answer: { jsonrpc: "2.0"; id: JsonRpcId; result: unknown } }> {
    const early: unknown[] = [];
    for (;;) {
      const next = await held.reader.read();
      if (next.done)
        throw new RequestError(
          -32603,
          `the agent closed the stream before it answered ${this.spec.method}`,
        );
      const value = next.value;
      const message = isMalformedFrame(value) || Array.isArray(value) ? undefined : classify(value);
      if (message?.kind === "result" && message.id === id)
        return { early, answer: value as { jsonrpc: "2.0"; id: JsonRpcId; result: unknown } };
      if (message?.kind === "error" && message.id === id)
        throw new RequestError(message.error.code, message.error.message, message.error.data);
      if (early.length >= MAX_EARLY_MESSAGES)
        throw new RequestError(
          -32603,
          `the agent sent ${MAX_EARLY_MESSAGES} messages without answering ${this.spec.method}`,
        );
      early.push(value);
    }
  }
}

/** The versions of `routes`, checked (keys are versions the package has), from the latest down. */
function routedVersions(
  who: string,
  spec: HandshakeSpec,
  routes: object,
  check: (route: unknown) => string | undefined,
): number[] {
  if (typeof routes !== "object" || routes === null)
    throw new TypeError(`${who}: pass an object of protocol version → route`);
  const versions: number[] = [];
  for (const key of Object.keys(routes)) {
    const version = Number(key);
    const route = (routes as Record<string, unknown>)[key];
    if (route === undefined) continue;
    if (!spec.versions.includes(version) || String(version) !== key)
      throw new TypeError(
        `${who}: ${JSON.stringify(key)} is not a protocol version of this package (${spec.versions.join(", ")})`,
      );
    const problem = check(route);
    if (problem) throw new TypeError(`${who}: the route of v${version} ${problem}`);
    versions.push(version);
  }
  if (versions.length === 0) throw new TypeError(`${who}: no protocol version routed`);
  return versions.sort((a, b) => b - a);
}

/** The highest of `versions` (sorted from the latest down) at or below `requested`, else the latest. */
function choose(versions: readonly number[], requested: number): number {
  return versions.find((v) => v <= requested) ?? (versions[0] as number);
}

/**
 * The params of the one `initialize` the client sends: every offered version's fields, the
 * newest's first where two name the same field (they must then agree), and the newest
 * version asked for.
 */
function mergedOffer(
  spec: HandshakeSpec,
  versions: readonly number[],
  offers: { readonly [version: number]: ClientOffer<InitializingConnection> },
): Record<string, unknown> {
  const merged: Record<string, unknown> = Object.create(null);
  const from: Record<string, number> = Object.create(null);
  for (const version of versions) {
    const params = (offers[version] as ClientOffer<InitializingConnection>).initialize as Record<
      string,
      unknown
    >;
    for (const key of Object.keys(params)) {
      if (key === spec.version) continue;
      const value = params[key];
      if (value === undefined) continue;
      if (key in merged) {
        if (!sameJson(merged[key], value))
          throw new TypeError(
            `clientRouter: the initialize params of v${from[key]} and v${version} disagree on ${JSON.stringify(key)}: an agent of either version reads the one initialize sent`,
          );
        continue;
      }
      merged[key] = value;
      from[key] = version;
    }
  }
  return { [spec.version]: versions[0], ...merged };
}

function protocolVersionOf(value: unknown, property: string): number | undefined {
  if (!isRecord(value) || !Object.hasOwn(value, property)) return undefined;
  const version = value[property];
  return typeof version === "number" &&
    Number.isInteger(version) &&
    version >= 0 &&
    version <= MAX_PROTOCOL_VERSION
    ? version
    : undefined;
}

/** What the agent's router does with a message read before the first `initialize`. */
type Decision =
  /** Answer it (or ignore it), and read on. */
  | { readonly kind: "wait"; readonly answer?: JsonRpcMessage }
  /** It is that `initialize`: hand the stream to this version's connection. */
  | { readonly kind: "route"; readonly version: number };

const IGNORE: Decision = { kind: "wait" };

function refuse(id: JsonRpcId, error: RequestError): Decision {
  return { kind: "wait", answer: { jsonrpc: "2.0", id, error: error.toErrorObject() } };
}

function what(message: Extract<Incoming, { kind: "notification" | "result" | "error" }>): string {
  return message.kind === "notification"
    ? `the ${message.method} notification`
    : `an answer to ${JSON.stringify(message.id)}`;
}

/** JSON equality, key order aside. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]))
    );
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function ignore(): void {}
