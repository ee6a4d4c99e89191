import { type MessageStream } from "./message-stream.js";
import { type WebSocketConstructor } from "./web-globals.js";
import type { FetchLike, HeadersLike, SignalLike } from "./web-types.js";
export type { WebSocketConstructor } from "./web-globals.js";
/**
 * Cookies for routing affinity (a load balancer's sticky-session cookie), kept across
 * reconnects when the application passes the same store to the next stream. In a browser
 * the platform keeps cookies itself; this store is for other hosts (Node's fetch keeps none).
 */
export interface AcpCookieStore {
    /** Takes the cookies of a response's `Set-Cookie` headers. */
    store(headers: HeadersLike & {
        getSetCookie?(): string[];
    }): void;
    /** Sets the `Cookie` header of a request from what is stored. */
    apply(headers: {
        get(name: string): string | null;
        set(name: string, value: string): void;
    }): void;
    clear(): void;
}
/**
 * A cookie store in memory: names and values only (no domain, path or expiry handling),
 * which is what affinity needs. Not for authentication.
 */
export declare class MemoryAcpCookieStore implements AcpCookieStore {
    private readonly cookies;
    store(headers: HeadersLike & {
        getSetCookie?(): string[];
    }): void;
    apply(headers: {
        get(name: string): string | null;
        set(name: string, value: string): void;
    }): void;
    clear(): void;
}
export interface RemoteStreamOptions {
    /** Headers for every request (an `Authorization` bearer token). */
    readonly headers?: Readonly<Record<string, string>>;
    /** Whether requests carry cookies (`credentials` in a browser). Default `"include"`. */
    readonly cookies?: "include" | "omit";
    /**
     * Where cookies are kept between requests outside a browser; pass the same store to the
     * stream that reconnects. Default: a store of this stream's own, cleared when it ends.
     */
    readonly cookieStore?: AcpCookieStore;
    /** Longest message in either direction, in bytes. Default 16 MiB. */
    readonly maxMessageBytes?: number;
    /** Aborting it ends the stream (and, over HTTP, the connection: DELETE). */
    readonly signal?: SignalLike;
}
export interface HttpStreamOptions extends RemoteStreamOptions {
    /** The `fetch` to use. Default: the platform's. */
    readonly fetch?: FetchLike;
    /** Reopening an event stream that dropped: tries, and the first wait (doubling). Default 4 tries from 250 ms. */
    readonly reconnect?: {
        readonly attempts?: number;
        readonly delayMs?: number;
    };
}
export interface WebSocketStreamOptions extends RemoteStreamOptions {
    /** The WebSocket constructor: the platform's by default; on Node 20, the `ws` package's. */
    readonly WebSocket?: WebSocketConstructor;
    /** Subprotocols to request. */
    readonly protocols?: string | string[];
}
/**
 * ACP over the RFD's streamable HTTP: `initialize` is POSTed first and answered in the
 * response with the connection's id; every later message is a POST answered 202, and the
 * agent's messages arrive as server-sent events on the connection's stream and one stream
 * per session. Cookies are kept (`cookieStore`) for sticky routing.
 *
 * A POST the server refuses fails only its own call where it can (the request's answer is an
 * error naming the HTTP status; 413 is a `MessageTooLargeError`); 401, 403, 404 and 410 mean
 * the connection is gone, and end the stream with a `RemoteClosedError`.
 */
export declare function createHttpStream(url: string, options?: HttpStreamOptions): MessageStream;
/**
 * ACP over a WebSocket to the RFD's endpoint: one JSON-RPC message per text message. An
 * `http(s)://` URL is turned into `ws(s)://`. The client still sends `initialize` first.
 * In Node 20, pass `{ WebSocket }` from the `ws` package (Node 22 and browsers have one);
 * `headers` and `cookieStore` reach constructors that take headers (`ws`), while a browser
 * sends its own cookies.
 */
export declare function createWebSocketStream(url: string, options?: WebSocketStreamOptions): MessageStream;
