import { Connection } from "./connection.js";
import { fillEmpty, invalidParams, receive, routesOf } from "./method-routes.js";
import { wireErrors } from "./request-error.js";
import { remoteMethods } from "./side-connection.js";
import { issuesOf, ValidationError } from "./validation.js";
import { consoleError } from "./web-globals.js";
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
    constructor(tables, toHandlers, stream, options = {}) {
        const validate = options.validate ?? true;
        const check = {
            received: typeof validate === "boolean" ? validate : (validate.received ?? true),
            sent: typeof validate === "boolean" ? validate : (validate.sent ?? true),
            // Whatever a proxy receives it may send on, and what it sends is checked strictly: a
            // variant this package does not know could not go on, so it is refused on arrival.
            unknownVariants: "reject",
        };
        const log = options.log ?? defaultLog;
        // Served and called entries keep their handler names per group: one object routes all.
        const agentEntries = tables.agent.map((e) => ({ ...e, handler: `agent:${e.handler}` }));
        const proxyEntries = tables.proxy.map((e) => ({ ...e, handler: `proxy:${e.handler}` }));
        this.connection = new Connection({
            serves: [...agentEntries, ...proxyEntries],
            calls: [...tables.client, ...tables.proxy.filter((e) => e.method === tables.successor)],
            ...(tables.protocol ? { protocol: tables.protocol } : {}),
        }, stream, { ...options, unknownVariants: check.unknownVariants });
        const connection = this.connection;
        const successor = successorCaller(connection, tables.successor, routesOf(tables.agent), check);
        this.predecessor = remoteMethods(connection, tables.client);
        this.next = remoteMethods(successor, tables.agent);
        const handlers = toHandlers(this);
        const group = (name) => (handlers[name] ?? {});
        const own = (g, name) => {
            const member = g[name];
            return typeof member === "function" ? member.bind(g) : undefined;
        };
        // No prototype: handler names come from the schema and must not meet Object.prototype.
        const dispatch = Object.create(null);
        for (const entry of tables.agent) {
            const mine = own(group("agent"), entry.handler);
            dispatch[`agent:${entry.handler}`] =
                mine ??
                    (entry.kind === "request"
                        ? (params, context) => successor.request(entry.method, params, { signal: context.signal })
                        : (params) => successor.notify(entry.method, params));
        }
        const fromSuccessor = new SuccessorDelivery(connection, routesOf(tables.client), group("client"), check, log);
        for (const entry of tables.proxy) {
            const key = `proxy:${entry.handler}`;
            if (entry.method === tables.successor) {
                dispatch[key] =
                    entry.kind === "request"
                        ? (envelope, context) => fromSuccessor.request(envelope, context)
                        : (envelope, context) => fromSuccessor.notify(envelope, context);
                continue;
            }
            const mine = own(handlers, entry.handler);
            const forwards = tables.initialize?.method === entry.method && tables.initialize.forwards;
            if (mine)
                dispatch[key] = mine;
            else if (forwards && entry.kind === "request")
                dispatch[key] = (params, context) => successor.request(forwards, params, { signal: context.signal });
        }
        // Extension methods pass through too, unchecked, unless the group handles them.
        const agentGroup = group("agent");
        dispatch.extMethod =
            own(agentGroup, "extMethod") ??
                ((method, params, context) => successor.request(method, params, { signal: context.signal }));
        dispatch.extNotification =
            own(agentGroup, "extNotification") ??
                ((method, params) => successor.notify(method, params));
        connection.serve(dispatch);
    }
    /** Aborts when the connection closes. */
    get signal() {
        return this.connection.signal;
    }
    /** Resolves once the connection has closed (end of input, transport error or `close()`). */
    get closed() {
        return this.connection.closed;
    }
    /** Closes the connection: pending calls reject, handlers' signals abort, output is closed. */
    close(reason) {
        this.connection.close(reason);
    }
}
/**
 * Calls on the successor: each wrapped in the envelope, its params checked here against
 * the agent's method as any sent params are, and its result read as any received result
 * is (the envelope's own schema says nothing of what it wraps). Extension methods pass
 * unchecked. Aborting sends `$/cancel_request` for the envelope, as chains require.
 */
function successorCaller(connection, envelope, routes, check) {
    const wrap = (method, params) => params === undefined ? { method } : { method, params };
    return {
        async request(method, params, options) {
            const entry = routes.request.get(method);
            const invalid = check.sent ? invalidParams(entry, params) : undefined;
            if (invalid)
                throw invalid;
            const result = await connection.request(envelope, wrap(method, params), options);
            if (!entry)
                return result;
            const filled = fillEmpty(result, entry.validateResult);
            if (!check.received)
                return filled;
            const read = receive(entry.parseResult, entry.validateResult, entry.result ?? "result", filled);
            if ("invalid" in read)
                throw read.invalid;
            return read.value;
        },
        async notify(method, params) {
            const invalid = check.sent
                ? invalidParams(routes.notification.get(method), params)
                : undefined;
            if (invalid)
                throw invalid;
            await connection.notify(envelope, wrap(method, params));
        },
    };
}
/**
 * What the successor sent, unwrapped from the envelope: read as the client's method it
 * names, then to the proxy's handler for it, or on to the predecessor.
 */
class SuccessorDelivery {
    constructor(connection, routes, handlers, check, log) {
        this.connection = connection;
        this.routes = routes;
        this.handlers = handlers;
        this.check = check;
        this.log = log;
    }
    async request(envelope, context) {
        const { method } = envelope;
        const params = paramsOf(envelope);
        const inner = { ...context, method };
        if (method.startsWith("_")) {
            const ext = this.handler("extMethod");
            if (ext)
                return (await ext(method, params, inner)) ?? null;
            return this.connection.request(method, params, { signal: context.signal });
        }
        const entry = this.routes.request.get(method);
        if (!entry)
            throw wireErrors.methodNotFound(method);
        const read = this.read(entry, params);
        if ("invalid" in read) {
            const { invalid } = read;
            this.note("invalid-params", `invalid params for ${method}: ${invalid.message}`, method);
            throw wireErrors.invalidParams({ type: invalid.type, issues: invalid.issues }, invalid.message);
        }
        const handler = this.handler(entry.handler);
        if (!handler)
            return this.connection.request(method, read.value, { signal: context.signal });
        const result = fillEmpty(await handler(read.value, inner), entry.validateResult);
        if (this.check.sent && entry.validateResult && !entry.validateResult(result)) {
            const problem = new ValidationError(entry.result ?? "result", issuesOf(entry.validateResult));
            this.note("invalid-result", `the ${method} handler returned an ${problem.message}`, method);
            throw wireErrors.internalError({ type: problem.type, issues: problem.issues }, `the handler returned an ${problem.message}`);
        }
        return result;
    }
    async notify(envelope, context) {
        const { method } = envelope;
        const params = paramsOf(envelope);
        const inner = { ...context, method };
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
    read(entry, params) {
        return this.check.received
            ? receive(entry.parseParams, entry.validateParams, entry.params, params, this.check.unknownVariants)
            : { value: params };
    }
    handler(name) {
        const member = this.handlers[name];
        return typeof member === "function"
            ? member.bind(this.handlers)
            : undefined;
    }
    note(reason, message, method) {
        this.log({ level: "warn", reason, message, method });
    }
}
/** The envelope's params: omitted and `null` both mean the wrapped call has none. */
function paramsOf(envelope) {
    return envelope.params === null ? undefined : envelope.params;
}
function defaultLog(event) {
    if (event.level !== "debug")
        consoleError(`acp: ${event.message}`);
}
