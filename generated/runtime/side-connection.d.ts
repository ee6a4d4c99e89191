import { Connection } from "./connection.js";
import type { CallOptions, ConnectionOptions, MethodEntry, MethodTables } from "./connection-types.js";
import type { MessageStream } from "./message-stream.js";
import type { Negotiated } from "./negotiation.js";
import type { PlatformAbortSignal } from "./web-types.js";
/** Names ACP reserves for methods outside the schema. */
export type ExtensionMethod = `_${string}`;
/** Params of `M` in a generated method map (`AgentRequestMap` and friends). */
export type ParamsOf<Map, M extends keyof Map> = Map[M] extends {
    params: infer P;
} ? P : never;
/** Result of `M` in a generated request map. */
export type ResultOf<Map, M extends keyof Map> = Map[M] extends {
    result: infer R;
} ? R : never;
/** The peer's methods as functions, keyed by handler name: what `conn.agent` / `conn.client` hold. */
export type RemoteMethods = Readonly<Record<string, (params: unknown, options?: CallOptions) => Promise<unknown>>>;
/**
 * One side of an ACP connection, typed by the generated maps of what the peer serves. The
 * generated `AgentSideConnection` and `ClientSideConnection` of each surface extend this with
 * their tables and a typed `client` / `agent` property; the routing lives in {@link Connection}.
 */
export declare class SideConnection<PeerRequests, PeerNotifications> {
    /** The peer's methods, one function per handler name; exposed as `client`/`agent` by subclasses. */
    protected readonly remote: RemoteMethods;
    private readonly connection;
    /**
     * `toHandlers` gets this connection (so handlers can call the peer) and returns the handler
     * object; reading starts right after it returns.
     */
    constructor(tables: MethodTables, toHandlers: (connection: SideConnection<PeerRequests, PeerNotifications>) => object, stream: MessageStream, options?: ConnectionOptions);
    /** Aborts when the connection closes. */
    get signal(): PlatformAbortSignal;
    /** Resolves once the connection has closed (end of input, transport error or `close()`). */
    get closed(): Promise<void>;
    /**
     * What `initialize` negotiated: the protocol version and both sides' capabilities, as
     * each side declared them (the peer's read as the reference implementation reads them).
     * Undefined until it completed: for a client, when the agent's answer arrived; for an
     * agent, when it sent its answer.
     */
    get negotiated(): Negotiated | undefined;
    /** Calls a method the peer serves, by wire name. */
    request<M extends keyof PeerRequests & string>(method: M, params: ParamsOf<PeerRequests, M>, options?: CallOptions): Promise<ResultOf<PeerRequests, M>>;
    /** Calls an extension method (name starting with `_`); params and result are unchecked. */
    request(method: ExtensionMethod, params?: unknown, options?: CallOptions): Promise<unknown>;
    /** Sends a notification the peer handles, by wire name. */
    notify<M extends keyof PeerNotifications & string>(method: M, params: ParamsOf<PeerNotifications, M>): Promise<void>;
    /** Sends an extension notification (name starting with `_`). */
    notify(method: ExtensionMethod, params?: unknown): Promise<void>;
    /** Closes the connection: pending calls reject, handlers' signals abort, output is closed. */
    close(reason?: unknown): void;
    /**
     * What the generated connections of a surface with JSON-RPC batches (v2) expose as
     * `batch`: the calls `calls` makes leave as one batch.
     */
    protected sendBatch<T>(calls: () => T): T;
}
/** What remote methods send through: a connection, or a proxy's path to its successor. */
export type Caller = Pick<Connection, "request" | "notify">;
/** One function per entry, keyed by handler name, sending it through `connection`. */
export declare function remoteMethods(connection: Caller, entries: readonly MethodEntry[]): RemoteMethods;
