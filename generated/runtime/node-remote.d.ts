import type { AcpServer } from "./remote-server.js";
import type { WebSocketLike } from "./web-types.js";
/** What is read of Node's `IncomingMessage`. */
export interface NodeIncomingMessage {
    readonly method?: string | undefined;
    readonly url?: string | undefined;
    readonly headers: Readonly<Record<string, string | string[] | undefined>>;
    readonly complete?: boolean;
    on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
    on(event: "end" | "close" | "aborted", listener: () => void): unknown;
    on(event: "error", listener: (error: Error) => void): unknown;
    removeListener(event: string, listener: (...args: never[]) => void): unknown;
    pause(): unknown;
    resume(): unknown;
}
/** What is used of Node's `ServerResponse`. */
export interface NodeServerResponse {
    statusCode: number;
    readonly headersSent: boolean;
    readonly writableEnded: boolean;
    readonly destroyed: boolean;
    setHeader(name: string, value: string | readonly string[]): unknown;
    flushHeaders(): void;
    write(chunk: Uint8Array): boolean;
    end(chunk?: string | Uint8Array): unknown;
    once(event: "drain" | "close" | "finish", listener: () => void): unknown;
    removeListener(event: string, listener: (...args: never[]) => void): unknown;
    destroy(): unknown;
}
/** What is used of the socket of an `upgrade` event. */
export interface NodeUpgradeSocket {
    write(data: string): unknown;
    destroy(): unknown;
    once(event: "close" | "error", listener: () => void): unknown;
    removeListener(event: string, listener: (...args: never[]) => void): unknown;
}
/** What is used of `ws`'s `WebSocketServer` (made with `noServer: true`). */
export interface NodeWebSocketServer {
    handleUpgrade(request: never, socket: never, head: never, callback: (socket: WebSocketLike) => void): void;
    on(event: "headers", listener: (headers: string[], request: never) => void): unknown;
    removeListener(event: "headers", listener: (...args: never[]) => void): unknown;
}
export interface NodeWebSocketOptions {
    /**
     * How often each socket is pinged; one that has not answered the previous ping is
     * terminated (a client that vanished without closing). Default 30 s; 0 turns it off.
     */
    readonly heartbeatMs?: number;
}
/**
 * A Node `request` listener serving the ACP endpoint with `server.handleRequest`: mount it
 * on your `http.Server` (or under your router, at the path you choose).
 */
export declare function createNodeHttpHandler(server: AcpServer): (req: NodeIncomingMessage, res: NodeServerResponse) => void;
/**
 * A Node `upgrade` listener accepting WebSocket connections for `server`, through your
 * `ws` `WebSocketServer` (made with `noServer: true`; set its `maxPayload` to the server's
 * `limits.maxMessageBytes`). The upgrade is checked (origin, `authenticate`, limits) before
 * it is accepted; the 101 carries `Acp-Connection-Id`.
 */
export declare function createNodeWebSocketUpgradeHandler(server: AcpServer, webSocketServer: NodeWebSocketServer, options?: NodeWebSocketOptions): (req: NodeIncomingMessage, socket: NodeUpgradeSocket, head: Uint8Array) => void;
export interface ServeOptions extends NodeWebSocketOptions {
    /** Default `127.0.0.1`: this machine only. Listening wider is a choice to make with `authenticate`. */
    readonly host?: string;
    /** Default 0: a free port (read it from `url`). */
    readonly port?: number;
    /** The endpoint's path. Default `/acp`. */
    readonly path?: string;
    /** Accept WebSocket upgrades (needs the `ws` package). Default true. */
    readonly webSocket?: boolean;
}
/** A listening ACP endpoint. */
export interface ServedAcp {
    /** `http://host:port/path`: give it to `createHttpStream` or `createWebSocketStream`. */
    readonly url: string;
    /** Stops listening and ends every connection (`server.close()`). */
    close(): Promise<void>;
}
/**
 * Serves `server` on a new Node `http.Server`: HTTP and WebSocket upgrades on one path.
 *
 * @example
 * const served = await serve(new AcpServer({ connect: (stream) => new AgentSideConnection(agent, stream) }), { port: 8000 });
 */
export declare function serve(server: AcpServer, options?: ServeOptions): Promise<ServedAcp>;
