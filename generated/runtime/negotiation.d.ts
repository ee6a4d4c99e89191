import { RequestError } from "./request-error.js";
import { ValidationError } from "./validation.js";
/**
 * Capability negotiation as a contract the connection keeps. At `initialize` each side
 * declares what it supports; afterwards neither uses what the other did not declare. The
 * generator reads from the schema which capability gates which method or content (each
 * surface's `CAPABILITY_GATES`); this module holds what a connection does with it.
 */
/** One capability and one thing it gates: calling a method, or sending a variant in its params. */
export interface CapabilityGate {
    /** The side that declares the capability, and serves the method. */
    readonly side: "agent" | "client";
    /** Property names from that side's capabilities object down to the capability. */
    readonly capability: readonly string[];
    /** How it is declared: `true`, or `{}` for a capability that is an object. */
    readonly declare: true | Readonly<Record<string, never>>;
    /** Wire name of the method gated, or in whose params the gated content travels. */
    readonly method: string;
    readonly kind: "request" | "notification";
    /** The method's handler member. */
    readonly handler: string;
    /**
     * Declaring the capability promises to serve the method: a side that declares it without
     * the handler is reported, and the capabilities helpers declare it only with the handler.
     */
    readonly handlerRequired: boolean;
    /** Only for gated content: a tagged-union variant, and where it sits in the params. */
    readonly content?: ContentGate;
}
export interface ContentGate {
    /** The union's type name, its tag property and the variant's tag value. */
    readonly type: string;
    readonly tag: string;
    readonly value: string;
    /** Where such values sit in the params: property names, and `*` for every item or map value. */
    readonly at: readonly (readonly string[])[];
}
/** What a surface's connection needs to know of its handshake; the generated connection holds it. */
export interface NegotiationSpec {
    /** The request that negotiates (`initialize`). */
    readonly method: string;
    /** The property holding each side's capabilities: the client's in the params, the agent's in the result. */
    readonly capabilities: {
        readonly agent: string;
        readonly client: string;
    };
    /** The property of params and result holding the protocol version, when the schema has one. */
    readonly version?: string;
    /** The protocol versions this connection speaks. */
    readonly versions: readonly number[];
}
/**
 * What the connection does about capabilities: `"enforce"` refuses, `"warn"` logs a warning
 * and goes ahead, `"off"` does neither.
 */
export type CapabilityMode = "enforce" | "warn" | "off";
export interface CapabilityOptions {
    /**
     * What this side sends (default `"enforce"`): a call or content the peer did not declare,
     * a call before `initialize` completed (other than `initialize` and `$/` methods), and an
     * `initialize` answered with a protocol version this connection does not speak. Enforced,
     * each fails locally and nothing is sent.
     */
    readonly sent?: CapabilityMode;
    /**
     * What the peer sends (default `"enforce"`): a call of a method this side gates behind a
     * capability it did not declare. Enforced, a request is answered -32601 and a
     * notification dropped, without reaching the handler.
     */
    readonly received?: CapabilityMode;
}
/** What `initialize` negotiated: the protocol version and both sides' capabilities. */
export interface Negotiated<AgentCapabilities = unknown, ClientCapabilities = unknown> {
    readonly protocolVersion?: number;
    readonly agent: AgentCapabilities;
    readonly client: ClientCapabilities;
}
/** How `Negotiation` reports: the connection's `log`, with its reasons. */
export type NegotiationNote = (level: "debug" | "warn" | "error", reason: "capability-not-declared" | "not-initialized" | "undeclared-method" | "capability-without-handler" | "protocol-version", message: string, method: string) => void;
type Role = "agent" | "client";
/** One connection's side of the handshake, and the checks that follow from it. */
export declare class Negotiation {
    private readonly role;
    private readonly spec;
    private readonly gates;
    private readonly note;
    /** Whether this side's handler object has the named handler. */
    private readonly serves;
    private readonly sent;
    private readonly received;
    /** Gates on what this side sends (the peer's capabilities) and receives (its own), by kind and method. */
    private readonly outgoing;
    private readonly incoming;
    /** This side's capabilities, once declared: the client's when it sends initialize, the agent's when it answers. */
    private own;
    private peer;
    private version;
    private done;
    constructor(role: Role, spec: NegotiationSpec, gates: readonly CapabilityGate[], options: CapabilityMode | CapabilityOptions | undefined, note: NegotiationNote, 
    /** Whether this side's handler object has the named handler. */
    serves: (handler: string) => boolean);
    /** Both sides' capabilities, once `initialize` has completed. */
    get negotiated(): Negotiated | undefined;
    /**
     * An outgoing call: the error it fails with, or undefined to send it. A client sending
     * `initialize` declares its own capabilities with it.
     */
    beforeSend(method: string, kind: "request" | "notification", params: unknown): RequestError | undefined;
    /**
     * A (parsed) answer to one of our requests. For the client's `initialize`: the error that
     * fails the call when the agent speaks another protocol version; otherwise the handshake
     * is done.
     */
    resultReceived(method: string, resultType: string | undefined, result: unknown): ValidationError | undefined;
    /** A request received, as its handler gets it: for the agent, `initialize` brings the client's capabilities. */
    requestReceived(method: string, params: unknown): void;
    /** The result a handler answered with, about to be sent: the agent's `initialize` completes the handshake. */
    answering(method: string, result: unknown): void;
    /**
     * An incoming call of a method this side gates: true when it must not reach the handler
     * (it was not declared, or nothing was yet). Logged either way.
     */
    refuses(method: string, kind: "request" | "notification"): boolean;
    /** This side's capabilities are now `capabilities`: report each promise its handlers do not keep. */
    private declare;
    private refuse;
}
/**
 * The capabilities object a side declares, from its handlers: each capability that promises
 * methods is declared exactly when every one of their handlers is there; the rest (content,
 * transports, settings) is taken from `declared`. What `agentCapabilities` and
 * `clientCapabilities` of each entry point do.
 */
export declare function capabilitiesFrom(gates: readonly CapabilityGate[], side: "agent" | "client", handlers: object, declared?: object): Record<string, unknown>;
/** A deep-frozen copy of the generated tables: tooling reading them cannot change what is enforced. */
export declare function frozen<T>(value: T): T;
export {};
