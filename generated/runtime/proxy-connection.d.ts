import type { ConnectionOptions, MethodEntry } from "./connection-types.js";
import type { MessageStream } from "./message-stream.js";
import { type RemoteMethods } from "./side-connection.js";
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
    readonly initialize?: {
        readonly method: string;
        readonly forwards: string;
    };
}
/** The handler object a proxy gives: its own methods' handlers, and the two pass-through groups. */
export interface ChainHandlers {
    /** Handlers for the agent's methods, called by the predecessor. */
    readonly agent?: object;
    /** Handlers for the client's methods, called by the successor. */
    readonly client?: object;
    readonly [handler: string]: unknown;
}
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
export declare class ProxyConnection {
    /** The predecessor's methods (the client's): exposed as `client` by the generated subclass. */
    protected readonly predecessor: RemoteMethods;
    /** The successor's methods (the agent's), each sent in the envelope. */
    protected readonly next: RemoteMethods;
    private readonly connection;
    constructor(tables: ChainTables, toHandlers: (connection: ProxyConnection) => ChainHandlers, stream: MessageStream, options?: ConnectionOptions);
    /** Aborts when the connection closes. */
    get signal(): PlatformAbortSignal;
    /** Resolves once the connection has closed (end of input, transport error or `close()`). */
    get closed(): Promise<void>;
    /** Closes the connection: pending calls reject, handlers' signals abort, output is closed. */
    close(reason?: unknown): void;
}
