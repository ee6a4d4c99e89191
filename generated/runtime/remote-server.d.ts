import { type MessageStream } from "./message-stream.js";
import { type RemoteConnectionInfo, type RemoteLimits, type ResolvedLimits } from "./remote-connection.js";
import type { PlatformResponse, RequestLike, ResponseLike, WebSocketLike } from "./web-types.js";
export type { RemoteConnectionInfo, RemoteLimits } from "./remote-connection.js";
/** What `authenticate` decides: see {@link AcpServerOptions.authenticate}. */
export type AuthenticateResult = boolean | string | ResponseLike | null | undefined;
export interface AcpServerOptions extends RemoteLimits {
    /**
     * Serve one client connection: called once per connection, with the stream to hand to a
     * connection of any surface (`new AgentSideConnection(handlers, stream)`) or a router.
     */
    connect(stream: MessageStream, connection: RemoteConnectionInfo): unknown;
    /**
     * The browser origins allowed to connect (`https://editor.example.com`), or a function
     * deciding. A request carrying any other `Origin` is refused with 403 before anything else;
     * requests without one (not from a browser) pass. Default: none, so every web page is
     * refused until allowed. `"*"` allows every origin: only behind `authenticate`.
     */
    readonly allowedOrigins?: readonly string[] | ((origin: string) => boolean);
    /**
     * Checks every request and every WebSocket upgrade (a bearer token, a cookie). Return
     * `true` to let it through, a string to let it through as that principal (the connection
     * is bound to it: a request of another principal does not find it), a `Response` to
     * answer with, or `false` for 401. Default: every request passes.
     */
    authenticate?(request: RequestLike): AuthenticateResult | Promise<AuthenticateResult>;
    /** Where a dropped connection is reported, one line each. Default `console.warn`. */
    log?(line: string): void;
    /**
     * This instance's name, put before every connection id it makes (`a.9f3c…`), so a reverse
     * proxy in front of several instances can send each request to the one holding its
     * connection: letters, digits, `_` and `-`.
     */
    readonly idPrefix?: string;
}
/** The outcome of {@link AcpServer.prepareWebSocketUpgrade}. */
export type WebSocketUpgrade = {
    readonly ok: true;
    readonly connectionId: string;
    /** Headers for the 101 response: `Acp-Connection-Id` (a WebSocket needs no CORS). */
    readonly headers: Readonly<Record<string, string>>;
    /** The upgrade succeeded: serve the connection on `socket`. */
    accept(socket: WebSocketLike): void;
    /** The upgrade failed: forget the connection. */
    reject(): void;
} | {
    readonly ok: false;
    /** The status to refuse the upgrade with, and its one-line reason. */
    readonly status: number;
    readonly message: string;
};
export declare class AcpServer {
    private readonly options;
    /** The limits in force, defaults filled in. */
    readonly limits: ResolvedLimits;
    private readonly connections;
    private readonly hooks;
    private isClosed;
    constructor(options: AcpServerOptions);
    /** Open connections, over both transports. */
    get connectionCount(): number;
    /** Handles one request to the ACP endpoint: a WHATWG fetch handler. */
    handleRequest(request: RequestLike): Promise<PlatformResponse>;
    /**
     * For a host that upgrades the WebSocket itself: checks the upgrade request (origin,
     * `authenticate`, the connection limit) before the upgrade is accepted, and names the
     * connection for the 101 response. Then `accept(socket)` serves it.
     */
    prepareWebSocketUpgrade(request: RequestLike): Promise<WebSocketUpgrade>;
    /** Ends every connection (WebSockets close with 1001) and refuses new ones. */
    close(): Promise<void>;
    private originProblem;
    private authenticate;
    private fullProblem;
    /** The connection a request names, if it is live and its principal's; else the answer. */
    private find;
    private open;
    private post;
    private idProblem;
    private initialize;
    private get;
    private delete;
    private serveSocket;
}
