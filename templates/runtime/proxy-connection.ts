import { Connection } from "./connection.js";
import type {
  CallOptions,
  ConnectionOptions,
  MethodEntry,
  NotificationContext,
  RequestContext,
} from "./connection-types.js";
import {
  DROPPED,
  EXTENSION,
  extensionResult,
  handlerOf,
  IncomingCalls,
  type IncomingOptions,
  incomingOptions,
} from "./incoming.js";
import type { MessageStream } from "./message-stream.js";
import { fillEmpty, invalidParams, type Routes, receive, routesOf } from "./method-routes.js";
import { type Caller, type RemoteMethods, remoteMethods } from "./side-connection.js";
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
    // Whatever a proxy receives it may send on, and what it sends is checked strictly: a
    // variant this package does not know could not go on, so it is refused on arrival.
    const check = incomingOptions(options, "reject");
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
    const own = (g: Record<string, unknown>, name: string): Handler | undefined =>
      handlerOf(g, name)?.bind(g) as Handler | undefined;
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
      new IncomingCalls(routesOf(tables.client), check),
      group("client"),
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
    // Extension methods the package does not declare pass through too, unchecked, unless
    // the group handles them (a declared one has its entry, routed above).
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

/**
 * Calls on the successor: each wrapped in the envelope, its params checked here against
 * the agent's method as any sent params are, and its result read as any received result
 * is (the envelope's own schema says nothing of what it wraps). Extension methods the
 * package does not declare pass unchecked. Aborting sends `$/cancel_request` for the envelope, as chains require.
 */
function successorCaller(
  connection: Connection,
  envelope: string,
  routes: Routes,
  check: IncomingOptions,
): Caller {
  const wrap = (method: string, params: unknown) =>
    params === undefined ? { method } : { method, params };
  return {
    async request(method: string, params?: unknown, options?: CallOptions): Promise<unknown> {
      const entry = routes.request.get(method);
      const invalid = check.checkSent ? invalidParams(entry, params) : undefined;
      if (invalid) throw invalid;
      const result = await connection.request(envelope, wrap(method, params), options);
      if (!entry) return result;
      const filled = fillEmpty(result, entry.validateResult);
      if (!check.checkReceived) return filled;
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
      const invalid = check.checkSent
        ? invalidParams(routes.notification.get(method), params)
        : undefined;
      if (invalid) throw invalid;
      await connection.notify(envelope, wrap(method, params));
    },
  };
}

/**
 * What the successor sent, unwrapped from the envelope: routed and read as the client's
 * method it names (a declared extension method included), then to the proxy's handler for
 * it, or on to the predecessor. Another `_` method goes to the group's `extMethod` /
 * `extNotification`, or on unread.
 */
class SuccessorDelivery {
  constructor(
    private readonly connection: Connection,
    private readonly incoming: IncomingCalls,
    private readonly handlers: Record<string, unknown>,
  ) {}

  async request(envelope: Envelope, context: RequestContext): Promise<unknown> {
    const { method } = envelope;
    const params = paramsOf(envelope);
    const inner: RequestContext = { ...context, method };
    const { signal, requestId: id } = context;
    const entry = this.incoming.route("request", method);
    if (entry === EXTENSION) {
      const ext = handlerOf(this.handlers, "extMethod");
      if (ext) return extensionResult(await ext.call(this.handlers, method, params, inner));
      return this.connection.request(method, params, { signal });
    }
    if (!entry) throw this.incoming.notFound(method, id);
    const value = this.incoming.requestParams(entry, params, id);
    const handler = handlerOf(this.handlers, entry.handler);
    if (!handler) return this.connection.request(method, value, { signal });
    return this.incoming.answerOf(entry, await handler.call(this.handlers, value, inner), id);
  }

  async notify(envelope: Envelope, context: NotificationContext): Promise<void> {
    const { method } = envelope;
    const params = paramsOf(envelope);
    const inner: NotificationContext = { ...context, method };
    const entry = this.incoming.route("notification", method);
    if (entry === EXTENSION) {
      const ext = handlerOf(this.handlers, "extNotification");
      await (ext
        ? ext.call(this.handlers, method, params, inner)
        : this.connection.notify(method, params));
      return;
    }
    if (!entry) {
      this.incoming.unhandled(method);
      return;
    }
    const value = this.incoming.notificationParams(entry, params);
    if (value === DROPPED) return;
    const handler = handlerOf(this.handlers, entry.handler);
    await (handler
      ? handler.call(this.handlers, value, inner)
      : this.connection.notify(method, value));
  }
}

/** The envelope's params: omitted and `null` both mean the wrapped call has none. */
function paramsOf(envelope: Envelope): unknown {
  return envelope.params === null ? undefined : envelope.params;
}
