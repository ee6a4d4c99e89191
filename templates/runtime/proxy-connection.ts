import { Connection } from "./connection.js";
import type {
  CallOptions,
  ConnectionOptions,
  LogEvent,
  MethodEntry,
  NotificationContext,
  RequestContext,
} from "./connection-types.js";
import type { MessageStream } from "./message-stream.js";
import { fillEmpty, invalidParams, type Routes, receive, routesOf } from "./method-routes.js";
import { wireErrors } from "./request-error.js";
import { type Caller, type RemoteMethods, remoteMethods } from "./side-connection.js";
import { issuesOf, ValidationError } from "./validation.js";
import { consoleError } from "./web-globals.js";
import type { PlatformAbortSignal } from "./web-types.js";

/**
 * What a proxy's connection routes by: the generated `connection.js` of a surface with a
 * proxy chain passes its method tables and the wire names the chain's prose gives.
 */
export interface ChainTables {
  /** Methods the agent serves: what the predecessor calls, and what the proxy calls on its successor. */
  readonly agent: readonly MethodEntry[];
  /** Methods the client serves: what the successor calls, and what the proxy calls on its predecessor. */
  readonly client: readonly MethodEntry[];
  /** The `x-side: proxy` methods, the envelope included. */
  readonly proxy: readonly MethodEntry[];
  readonly protocol?: readonly MethodEntry[];
  /** Wire name of the envelope (`proxy/successor`). */
  readonly successor: string;
  /** The proxy method a conductor sends in place of an agent method (`proxy/initialize` for `initialize`). */
  readonly initialize?: { readonly method: string; readonly forwards: string };
}

/** The handler object a proxy gives: its own methods' handlers, and the two pass-through groups. */
export interface ChainHandlers {
  /** Handlers for the agent's methods, called by the predecessor. */
  readonly agent?: object;
  /** Handlers for the client's methods, called by the successor. */
  readonly client?: object;
  readonly [handler: string]: unknown;
}

type Handler = (params: unknown, context: never) => unknown;
type Envelope = { readonly method: string; readonly params?: unknown };

/**
 * A proxy's end of its link to the conductor. A proxy sits between a predecessor (towards
 * the client) and a successor (towards the agent), and the conductor carries both over
 * this one connection: the predecessor's calls arrive as the agent's methods, the
 * successor's arrive wrapped in the envelope, and the proxy reaches its successor by
 * wrapping calls in it too.
 *
 * Each call that passes through goes to the proxy's handler for it when it has one (which
 * may call either neighbour itself) and on to the other neighbour otherwise, so a proxy
 * handles only what it changes. What passes through is read and checked like every other
 * message: params as the reference implementation reads them, checked when sent on, and
 * the answer, result or error, returned to the caller as the neighbour gave it.
 */
export class ProxyConnection {
  /** The predecessor's methods (the client's): exposed as `client` by the generated subclass. */
  protected readonly predecessor: RemoteMethods;
  /** The successor's methods (the agent's), each sent in the envelope. */
  protected readonly next: RemoteMethods;
  private readonly connection: Connection;

  constructor(
    tables: ChainTables,
    toHandlers: (connection: ProxyConnection) => ChainHandlers,
    stream: MessageStream,
    options: ConnectionOptions = {},
  ) {
    const validate = options.validate ?? true;
    const check = {
      received: typeof validate === "boolean" ? validate : (validate.received ?? true),
      sent: typeof validate === "boolean" ? validate : (validate.sent ?? true),
      // Whatever a proxy receives it may send on, and what it sends is checked strictly: a
      // variant this package does not know could not go on, so it is refused on arrival.
      unknownVariants: "reject" as const,
    };
    const log = options.log ?? defaultLog;
    // Served and called entries keep their handler names per group: one object routes all.
    const agentEntries = tables.agent.map((e) => ({ ...e, handler: `agent:${e.handler}` }));
    const proxyEntries = tables.proxy.map((e) => ({ ...e, handler: `proxy:${e.handler}` }));
    this.connection = new Connection(
      {
        serves: [...agentEntries, ...proxyEntries],
        calls: [...tables.client, ...tables.proxy.filter((e) => e.method === tables.successor)],
        ...(tables.protocol ? { protocol: tables.protocol } : {}),
      },
      stream,
      { ...options, unknownVariants: check.unknownVariants },
    );
    const connection = this.connection;
    const successor = successorCaller(connection, tables.successor, routesOf(tables.agent), check);
    this.predecessor = remoteMethods(connection, tables.client);
    this.next = remoteMethods(successor, tables.agent);

    const handlers = toHandlers(this);
    const group = (name: "agent" | "client") => (handlers[name] ?? {}) as Record<string, unknown>;
    const own = (g: Record<string, unknown>, name: string): Handler | undefined => {
      const member = g[name];
      return typeof member === "function" ? (member.bind(g) as Handler) : undefined;
    };
    // No prototype: handler names come from the schema and must not meet Object.prototype.
    const dispatch: Record<string, unknown> = Object.create(null);
    for (const entry of tables.agent) {
      const mine = own(group("agent"), entry.handler);
      dispatch[`agent:${entry.handler}`] =
        mine ??
        (entry.kind === "request"
          ? (params: unknown, context: RequestContext) =>
              successor.request(entry.method, params, { signal: context.signal })
          : (params: unknown) => successor.notify(entry.method, params));
    }
    const fromSuccessor = new SuccessorDelivery(
      connection,
      routesOf(tables.client),
      group("client"),
      check,
      log,
    );
    for (const entry of tables.proxy) {
      const key = `proxy:${entry.handler}`;
      if (entry.method === tables.successor) {
        dispatch[key] =
          entry.kind === "request"
            ? (envelope: Envelope, context: RequestContext) =>
                fromSuccessor.request(envelope, context)
            : (envelope: Envelope, context: NotificationContext) =>
                fromSuccessor.notify(envelope, context);
        continue;
      }
      const mine = own(handlers as Record<string, unknown>, entry.handler);
      const forwards = tables.initialize?.method === entry.method && tables.initialize.forwards;
      if (mine) dispatch[key] = mine;
      else if (forwards && entry.kind === "request")
        dispatch[key] = (params: unknown, context: RequestContext) =>
          successor.request(forwards, params, { signal: context.signal });
    }
    // Extension methods pass through too, unchecked, unless the group handles them.
    const agentGroup = group("agent");
    dispatch.extMethod =
      own(agentGroup, "extMethod") ??
      ((method: string, params: unknown, context: RequestContext) =>
        successor.request(method, params, { signal: context.signal }));
    dispatch.extNotification =
      own(agentGroup, "extNotification") ??
      ((method: string, params: unknown) => successor.notify(method, params));
    connection.serve(dispatch);
  }

  /** Aborts when the connection closes. */
  get signal(): PlatformAbortSignal {
    return this.connection.signal;
  }

  /** Resolves once the connection has closed (end of input, transport error or `close()`). */
  get closed(): Promise<void> {
    return this.connection.closed;
  }

  /** Closes the connection: pending calls reject, handlers' signals abort, output is closed. */
  close(reason?: unknown): void {
    this.connection.close(reason);
  }
}

interface Checks {
  readonly received: boolean;
  readonly sent: boolean;
  /** How received params are read (`ConnectionOptions.unknownVariants`). */
  readonly unknownVariants: "keep" | "reject";
}

/**
 * Calls on the successor: each wrapped in the envelope, its params checked here against
 * the agent's method as any sent params are, and its result read as any received result
 * is (the envelope's own schema says nothing of what it wraps). Extension methods pass
 * unchecked. Aborting sends `$/cancel_request` for the envelope, as chains require.
 */
function successorCaller(
  connection: Connection,
  envelope: string,
  routes: Routes,
  check: Checks,
): Caller {
  const wrap = (method: string, params: unknown) =>
    params === undefined ? { method } : { method, params };
  return {
    async request(method: string, params?: unknown, options?: CallOptions): Promise<unknown> {
      const entry = routes.request.get(method);
      const invalid = check.sent ? invalidParams(entry, params) : undefined;
      if (invalid) throw invalid;
      const result = await connection.request(envelope, wrap(method, params), options);
      if (!entry) return result;
      const filled = fillEmpty(result, entry.validateResult);
      if (!check.received) return filled;
      const read = receive(
        entry.parseResult,
        entry.validateResult,
        entry.result ?? "result",
        filled,
      );
      if ("invalid" in read) throw read.invalid;
      return read.value;
    },
    async notify(method: string, params?: unknown): Promise<void> {
      const invalid = check.sent
        ? invalidParams(routes.notification.get(method), params)
        : undefined;
      if (invalid) throw invalid;
      await connection.notify(envelope, wrap(method, params));
    },
  };
}

/**
 * What the successor sent, unwrapped from the envelope: read as the client's method it
 * names, then to the proxy's handler for it, or on to the predecessor.
 */
class SuccessorDelivery {
  constructor(
    private readonly connection: Connection,
    private readonly routes: Routes,
    private readonly handlers: Record<string, unknown>,
    private readonly check: Checks,
    private readonly log: (event: LogEvent) => void,
  ) {}

  async request(envelope: Envelope, context: RequestContext): Promise<unknown> {
    const { method } = envelope;
    const params = paramsOf(envelope);
    const inner: RequestContext = { ...context, method };
    if (method.startsWith("_")) {
      const ext = this.handler("extMethod");
      if (ext) return (await ext(method, params, inner)) ?? null;
      return this.connection.request(method, params, { signal: context.signal });
    }
    const entry = this.routes.request.get(method);
    if (!entry) throw wireErrors.methodNotFound(method);
    const read = this.read(entry, params);
    if ("invalid" in read) {
      const { invalid } = read;
      this.note("invalid-params", `invalid params for ${method}: ${invalid.message}`, method);
      throw wireErrors.invalidParams(
        { type: invalid.type, issues: invalid.issues },
        invalid.message,
      );
    }
    const handler = this.handler(entry.handler);
    if (!handler) return this.connection.request(method, read.value, { signal: context.signal });
    const result = fillEmpty(await handler(read.value, inner), entry.validateResult);
    if (this.check.sent && entry.validateResult && !entry.validateResult(result)) {
      const problem = new ValidationError(entry.result ?? "result", issuesOf(entry.validateResult));
      this.note("invalid-result", `the ${method} handler returned an ${problem.message}`, method);
      throw wireErrors.internalError(
        { type: problem.type, issues: problem.issues },
        `the handler returned an ${problem.message}`,
      );
    }
    return result;
  }

  async notify(envelope: Envelope, context: NotificationContext): Promise<void> {
    const { method } = envelope;
    const params = paramsOf(envelope);
    const inner: NotificationContext = { ...context, method };
    if (method.startsWith("_")) {
      const ext = this.handler("extNotification");
      await (ext ? ext(method, params, inner) : this.connection.notify(method, params));
      return;
    }
    const entry = this.routes.notification.get(method);
    if (!entry) {
      this.note("unknown-method", `no client notification ${method} to pass on`, method);
      return;
    }
    const read = this.read(entry, params);
    if ("invalid" in read) {
      this.note("invalid-params", `dropped ${method}: ${read.invalid.message}`, method);
      return;
    }
    const handler = this.handler(entry.handler);
    await (handler ? handler(read.value, inner) : this.connection.notify(method, read.value));
  }

  private read(entry: MethodEntry, params: unknown) {
    return this.check.received
      ? receive(
          entry.parseParams,
          entry.validateParams,
          entry.params,
          params,
          this.check.unknownVariants,
        )
      : { value: params };
  }

  private handler(name: string): ((...args: unknown[]) => unknown) | undefined {
    const member = this.handlers[name];
    return typeof member === "function"
      ? (member.bind(this.handlers) as (...args: unknown[]) => unknown)
      : undefined;
  }

  private note(reason: LogEvent["reason"], message: string, method: string): void {
    this.log({ level: "warn", reason, message, method });
  }
}

/** The envelope's params: omitted and `null` both mean the wrapped call has none. */
function paramsOf(envelope: Envelope): unknown {
  return envelope.params === null ? undefined : envelope.params;
}

function defaultLog(event: LogEvent): void {
  if (event.level !== "debug") consoleError(`acp: ${event.message}`);
}
