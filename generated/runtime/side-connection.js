import { Connection } from "./connection.js";
import { handlePrototype, makeHandle } from "./handle.js";
/**
 * One side of an ACP connection, typed by the generated maps of what the peer serves. The
 * generated `AgentSideConnection` and `ClientSideConnection` of each surface extend this with
 * their tables and a typed `client` / `agent` property; the routing lives in {@link Connection}.
 */
export class SideConnection {
    /**
     * `toHandlers` gets this connection (so handlers can call the peer) and returns the handler
     * object; reading starts right after it returns.
     */
    constructor(tables, toHandlers, stream, options) {
        this.connection = new Connection(tables, stream, options);
        this.remote = remoteMethods(this.connection, tables.calls);
        this.connection.serve(toHandlers(this));
    }
    /** Aborts when the connection closes. */
    get signal() {
        return this.connection.signal;
    }
    /** Resolves once the connection has closed (end of input, transport error or `close()`). */
    get closed() {
        return this.connection.closed;
    }
    request(method, params, options) {
        return this.connection.request(method, params, options);
    }
    notify(method, params) {
        return this.connection.notify(method, params);
    }
    /** Closes the connection: pending calls reject, handlers' signals abort, output is closed. */
    close(reason) {
        this.connection.close(reason);
    }
}
function remoteMethods(connection, entries) {
    // No prototype: handler names come from the schema and must not meet Object.prototype.
    const remote = Object.create(null);
    const request = (method, params, options) => connection.request(method, params, options);
    for (const entry of entries) {
        const spec = entry.handle;
        if (entry.kind === "notification") {
            remote[entry.handler] = (params) => connection.notify(entry.method, params);
        }
        else if (spec) {
            // The proxy of a request that creates something resolves with a handle on it.
            const proto = handlePrototype(spec);
            remote[entry.handler] = (params, options) => request(entry.method, params, options).then((result) => makeHandle(proto, spec, request, params, result));
        }
        else {
            remote[entry.handler] = (params, options) => request(entry.method, params, options);
        }
    }
    return Object.freeze(remote);
}
