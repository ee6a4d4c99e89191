import type { CallOptions, LogEvent } from "./connection-types.js";
import { type MessageStream } from "./message-stream.js";
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
/**
 * Makes the connection of one version for a stream, with the arguments `connect` got after
 * it (`AcpServer` passes the client connection's `RemoteConnectionInfo`).
 */
export type AgentFactory = (stream: MessageStream, ...extra: any[]) => unknown;
/** `agentRouter`'s routes: a factory per protocol version served. */
export type AgentRoutes<V extends number = number> = {
    readonly [K in V]?: AgentFactory;
};
/** The arguments `connect` passes on to the factories after the stream. */
export type ExtraArguments<R> = {
    [K in keyof R]-?: NonNullable<R[K]> extends (stream: MessageStream, ...extra: infer E) => unknown ? E : never;
}[keyof R];
/** Where a stream went: the version chosen, and what its factory returned. */
export type AgentRoute<R> = {
    [K in keyof R & number]-?: NonNullable<R[K]> extends (...args: never[]) => infer C ? {
        readonly protocolVersion: K;
        readonly connection: C;
    } : never;
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
export declare class AgentRouter<R extends AgentRoutes = AgentRoutes> {
    private readonly spec;
    private readonly routes;
    /** The versions routed, from the latest down. */
    readonly versions: readonly number[];
    private readonly log;
    constructor(spec: HandshakeSpec, routes: R, options?: RouterOptions);
    /**
     * Serves one client on `stream` (`stdio()`, or what `AcpServer` passes to its `connect`):
     * resolves with the version chosen and the factory's connection, or undefined when the
     * stream ended (or failed) before an `initialize`. Rejects only when the factory threw
     * (then the stream is closed); that rejection is also logged, and never unhandled.
     */
    connect(stream: MessageStream, ...extra: ExtraArguments<R>): Promise<AgentRoute<R> | undefined>;
    private route;
    /** What to do with a message received before the first `initialize`. */
    private first;
    private malformed;
    private note;
}
/** A connection whose peer is an agent: what the client's router calls `initialize` on. */
export interface InitializingConnection {
    readonly agent: {
        initialize(params: never, options?: CallOptions): Promise<unknown>;
    };
    close(reason?: unknown): void;
}
/** What a connection's `initialize` resolves with. */
export type InitializeResultOf<C> = C extends {
    readonly agent: {
        initialize(...args: never[]): Promise<infer R>;
    };
} ? R : never;
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
    [K in keyof C & number]-?: [C[K]] extends [never] ? never : {
        readonly protocolVersion: K;
        readonly connection: C[K];
        readonly initialized: InitializeResultOf<C[K]>;
    };
}[keyof C & number];
export interface ClientConnectOptions {
    /** Aborts the handshake: `connect` rejects with the signal's reason, and the stream is closed. */
    readonly signal?: CallOptions["signal"];
}
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
export declare class ClientRouter<C = {
    readonly [version: number]: InitializingConnection;
}> {
    private readonly spec;
    private readonly offers;
    /** The versions offered, from the newest down. */
    readonly versions: readonly number[];
    private readonly offer;
    constructor(spec: HandshakeSpec, offers: {
        readonly [version: number]: ClientOffer<InitializingConnection>;
    }, options?: RouterOptions);
    connect(stream: MessageStream, options?: ClientConnectOptions): Promise<ClientRoute<C>>;
    private route;
    /** Reads up to the answer to request `id`, keeping what came before it. */
    private answerTo;
}
