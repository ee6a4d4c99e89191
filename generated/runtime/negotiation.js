import { RequestError, wireErrors } from "./request-error.js";
import { ValidationError } from "./validation.js";
const other = (role) => (role === "agent" ? "client" : "agent");
/** One connection's side of the handshake, and the checks that follow from it. */
export class Negotiation {
    constructor(role, spec, gates, options, note, 
    /** Whether this side's handler object has the named handler. */
    serves) {
        this.role = role;
        this.spec = spec;
        this.gates = gates;
        this.note = note;
        this.serves = serves;
        this.done = false;
        const modes = typeof options === "string" ? { sent: options, received: options } : options;
        this.sent = modes?.sent ?? "enforce";
        this.received = modes?.received ?? "enforce";
        this.outgoing = byCall(gates.filter((g) => g.side === other(role)));
        this.incoming = byCall(gates.filter((g) => g.side === role && !g.content));
    }
    /** Both sides' capabilities, once `initialize` has completed. */
    get negotiated() {
        if (!this.done)
            return undefined;
        const [agent, client] = this.role === "agent" ? [this.own, this.peer] : [this.peer, this.own];
        return this.version === undefined
            ? { agent, client }
            : { protocolVersion: this.version, agent, client };
    }
    /**
     * An outgoing call: the error it fails with, or undefined to send it. A client sending
     * `initialize` declares its own capabilities with it.
     */
    beforeSend(method, kind, params) {
        if (this.sent === "off" && !(this.role === "client" && method === this.spec.method)) {
            return undefined;
        }
        if (method === this.spec.method && kind === "request") {
            if (this.role === "client")
                this.declare(property(params, this.spec.capabilities.client));
            return undefined;
        }
        if (method.startsWith("$/"))
            return undefined;
        if (!this.done)
            return this.refuse(notInitialized(this.role, method), method, "not-initialized");
        for (const gate of this.outgoing.get(`${kind} ${method}`) ?? []) {
            if (declared(this.peer, gate.capability))
                continue;
            const problem = gate.content
                ? contentRefusal(this.spec, gate, params)
                : methodRefusal(this.spec, gate);
            if (problem)
                return this.refuse(problem, method, "capability-not-declared");
        }
        return undefined;
    }
    /**
     * A (parsed) answer to one of our requests. For the client's `initialize`: the error that
     * fails the call when the agent speaks another protocol version; otherwise the handshake
     * is done.
     */
    resultReceived(method, resultType, result) {
        if (this.role !== "client" || method !== this.spec.method)
            return undefined;
        const version = this.spec.version === undefined ? undefined : property(result, this.spec.version);
        const speaks = this.spec.versions;
        if (this.spec.version !== undefined &&
            this.sent !== "off" &&
            !speaks.includes(version)) {
            const issue = {
                instancePath: `/${this.spec.version}`,
                keyword: "const",
                message: `is ${JSON.stringify(version)}, and this connection speaks protocol version ${speaks.join(" or ")}`,
            };
            this.note("warn", "protocol-version", `the agent answered ${method} with protocol version ${JSON.stringify(version)}; this connection speaks ${speaks.join(" or ")}`, method);
            if (this.sent === "enforce")
                return new ValidationError(resultType ?? "result", [issue]);
        }
        this.peer = property(result, this.spec.capabilities.agent) ?? {};
        this.version = typeof version === "number" ? version : undefined;
        this.done = true;
        return undefined;
    }
    /** A request received, as its handler gets it: for the agent, `initialize` brings the client's capabilities. */
    requestReceived(method, params) {
        if (this.role !== "agent" || method !== this.spec.method)
            return;
        this.peer = property(params, this.spec.capabilities.client) ?? {};
        const version = this.spec.version === undefined ? undefined : property(params, this.spec.version);
        this.version = typeof version === "number" ? version : undefined;
    }
    /** The result a handler answered with, about to be sent: the agent's `initialize` completes the handshake. */
    answering(method, result) {
        if (this.role !== "agent" || method !== this.spec.method)
            return;
        this.declare(property(result, this.spec.capabilities.agent));
        const version = this.spec.version === undefined ? undefined : property(result, this.spec.version);
        if (typeof version === "number")
            this.version = version;
        this.done = true;
    }
    /**
     * An incoming call of a method this side gates: true when it must not reach the handler
     * (it was not declared, or nothing was yet). Logged either way.
     */
    refuses(method, kind) {
        if (this.received === "off")
            return false;
        const gates = this.incoming.get(`${kind} ${method}`);
        if (!gates)
            return false;
        const missing = gates.find((g) => !declared(this.own, g.capability));
        if (!missing)
            return false;
        const refused = this.received === "enforce";
        this.note("warn", "undeclared-method", `${refused ? "refused" : "served"} ${method}: this ${this.role} did not declare ${capabilityName(this.spec, missing)}`, method);
        return refused;
    }
    /** This side's capabilities are now `capabilities`: report each promise its handlers do not keep. */
    declare(capabilities) {
        this.own = capabilities ?? {};
        const missing = new Map();
        const unused = new Map();
        for (const gate of this.gates) {
            if (gate.side !== this.role || gate.content || !gate.handlerRequired)
                continue;
            const name = capabilityName(this.spec, gate);
            const served = this.serves(gate.handler);
            const isDeclared = declared(this.own, gate.capability);
            const list = isDeclared && !served ? missing : !isDeclared && served ? unused : undefined;
            list?.set(name, [...(list.get(name) ?? []), `${gate.handler} (${gate.method})`]);
        }
        for (const [name, handlers] of missing) {
            this.note("error", "capability-without-handler", `this ${this.role} declares ${name} but has no ${handlers.join(", ")} handler: the ${other(this.role)} may call what it cannot serve`, this.spec.method);
        }
        if (this.received === "off")
            return;
        for (const [name, handlers] of unused) {
            this.note("debug", "capability-without-handler", `this ${this.role} serves ${handlers.join(", ")} but does not declare ${name}: calls will be refused`, this.spec.method);
        }
    }
    refuse(error, method, reason) {
        if (this.sent === "enforce")
            return error;
        this.note("warn", reason, `sent anyway: ${error.message}`, method);
        return undefined;
    }
}
/**
 * The capabilities object a side declares, from its handlers: each capability that promises
 * methods is declared exactly when every one of their handlers is there; the rest (content,
 * transports, settings) is taken from `declared`. What `agentCapabilities` and
 * `clientCapabilities` of each entry point do.
 */
export function capabilitiesFrom(gates, side, handlers, declared = {}) {
    const out = copy(declared);
    const byCapability = new Map();
    for (const gate of gates) {
        if (gate.side !== side || gate.content || !gate.handlerRequired)
            continue;
        const key = JSON.stringify(gate.capability);
        byCapability.set(key, [...(byCapability.get(key) ?? []), gate]);
    }
    const has = (name) => typeof handlers[name] === "function";
    for (const list of byCapability.values()) {
        const first = list[0];
        if (!list.every((g) => has(g.handler)))
            continue;
        let node = out;
        const path = first.capability;
        for (const [i, key] of path.entries()) {
            const last = i === path.length - 1;
            const current = Object.hasOwn(node, key) ? node[key] : undefined;
            if (last) {
                if (!isRecord(current))
                    define(node, key, first.declare === true ? true : {});
            }
            else {
                const next = isRecord(current) ? current : {};
                define(node, key, next);
                node = next;
            }
        }
    }
    return out;
}
/** A deep-frozen copy of the generated tables: tooling reading them cannot change what is enforced. */
export function frozen(value) {
    if (typeof value === "object" && value !== null) {
        for (const child of Object.values(value))
            frozen(child);
        Object.freeze(value);
    }
    return value;
}
function byCall(gates) {
    const map = new Map();
    for (const gate of gates) {
        const key = `${gate.kind} ${gate.method}`;
        map.set(key, [...(map.get(key) ?? []), gate]);
    }
    return map;
}
/** Whether the capability at `path` is declared: `true`, or an object (`{}` declares it). */
function declared(capabilities, path) {
    let node = capabilities;
    for (const key of path) {
        if (!isRecord(node) || !Object.hasOwn(node, key))
            return false;
        node = node[key];
    }
    return node === true || isRecord(node);
}
/** `agentCapabilities.loadSession`: the capability as it reads in the initialize message. */
function capabilityName(spec, gate) {
    return [spec.capabilities[gate.side], ...gate.capability].join(".");
}
function methodRefusal(spec, gate) {
    const capability = capabilityName(spec, gate);
    return new RequestError(-32601, `${gate.method} is not available: the ${gate.side} did not declare ${capability}`, { method: gate.method, capability });
}
/** The refusal of params holding the gated variant, or undefined when they hold none. */
function contentRefusal(spec, gate, params) {
    const content = gate.content;
    for (const at of content.at) {
        for (const { value, pointer } of valuesAt(params, at)) {
            if (!isRecord(value) ||
                !Object.hasOwn(value, content.tag) ||
                value[content.tag] !== content.value)
                continue;
            const capability = capabilityName(spec, gate);
            return new RequestError(-32602, `${gate.method} cannot carry ${content.type} "${content.value}" (at ${pointer || "the params"}): the ${gate.side} did not declare ${capability}`, { method: gate.method, capability, at: pointer });
        }
    }
    return undefined;
}
function notInitialized(role, method) {
    const first = role === "client"
        ? "send initialize and wait for its answer first"
        : "an agent calls its client only once it has answered initialize";
    return wireErrors.invalidRequest({ method, reason: "not-initialized" }, `${method} was called before initialize completed: ${first}`);
}
/** The values at a position of the params, with their JSON pointers. */
function valuesAt(root, path) {
    let level = [{ value: root, pointer: "" }];
    for (const step of path) {
        const next = [];
        for (const { value, pointer } of level) {
            if (step === "*") {
                if (Array.isArray(value))
                    value.forEach((item, i) => {
                        next.push({ value: item, pointer: `${pointer}/${i}` });
                    });
                else if (isRecord(value))
                    for (const key of Object.keys(value))
                        next.push({ value: value[key], pointer: `${pointer}/${pointerToken(key)}` });
            }
            else if (isRecord(value) && Object.hasOwn(value, step)) {
                next.push({ value: value[step], pointer: `${pointer}/${pointerToken(step)}` });
            }
        }
        level = next;
    }
    return level;
}
function property(value, name) {
    return isRecord(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}
function isRecord(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}
function pointerToken(token) {
    return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
/** A copy of plain data: own properties only, `__proto__` kept as a property, never a prototype. */
function copy(value) {
    if (Array.isArray(value))
        return value.map(copy);
    if (!isRecord(value))
        return value;
    const out = {};
    for (const key of Object.keys(value))
        define(out, key, copy(value[key]));
    return out;
}
function define(target, key, value) {
    Object.defineProperty(target, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
    });
}
