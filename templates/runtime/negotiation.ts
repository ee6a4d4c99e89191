import { RequestError, wireErrors } from "./request-error.js";
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
  readonly capabilities: { readonly agent: string; readonly client: string };
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
export type NegotiationNote = (
  level: "debug" | "warn" | "error",
  reason:
    | "capability-not-declared"
    | "not-initialized"
    | "undeclared-method"
    | "capability-without-handler"
    | "protocol-version",
  message: string,
  method: string,
) => void;

type Role = "agent" | "client";
const other = (role: Role): Role => (role === "agent" ? "client" : "agent");

/** One connection's side of the handshake, and the checks that follow from it. */
export class Negotiation {
  private readonly sent: CapabilityMode;
  private readonly received: CapabilityMode;
  /** Gates on what this side sends (the peer's capabilities) and receives (its own), by kind and method. */
  private readonly outgoing: GatesByCall;
  private readonly incoming: GatesByCall;
  /** This side's capabilities, once declared: the client's when it sends initialize, the agent's when it answers. */
  private own: unknown;
  private peer: unknown;
  private version: number | undefined;
  private done = false;

  constructor(
    private readonly role: Role,
    private readonly spec: NegotiationSpec,
    private readonly gates: readonly CapabilityGate[],
    options: CapabilityMode | CapabilityOptions | undefined,
    private readonly note: NegotiationNote,
    /** Whether this side's handler object has the named handler. */
    private readonly serves: (handler: string) => boolean,
  ) {
    const modes = typeof options === "string" ? { sent: options, received: options } : options;
    this.sent = modes?.sent ?? "enforce";
    this.received = modes?.received ?? "enforce";
    this.outgoing = byCall(gates.filter((g) => g.side === other(role)));
    this.incoming = byCall(gates.filter((g) => g.side === role && !g.content));
  }

  /** Both sides' capabilities, once `initialize` has completed. */
  get negotiated(): Negotiated | undefined {
    if (!this.done) return undefined;
    const [agent, client] = this.role === "agent" ? [this.own, this.peer] : [this.peer, this.own];
    return this.version === undefined
      ? { agent, client }
      : { protocolVersion: this.version, agent, client };
  }

  /**
   * An outgoing call: the error it fails with, or undefined to send it. A client sending
   * `initialize` declares its own capabilities with it.
   */
  beforeSend(
    method: string,
    kind: "request" | "notification",
    params: unknown,
  ): RequestError | undefined {
    if (this.sent === "off" && !(this.role === "client" && method === this.spec.method)) {
      return undefined;
    }
    if (method === this.spec.method && kind === "request") {
      if (this.role === "client") this.declare(property(params, this.spec.capabilities.client));
      return undefined;
    }
    if (method.startsWith("$/")) return undefined;
    if (!this.done)
      return this.refuse(notInitialized(this.role, method), method, "not-initialized");
    for (const gate of this.outgoing[kind].get(method) ?? []) {
      if (declared(this.peer, gate.capability)) continue;
      const problem = gate.content
        ? contentRefusal(this.spec, gate, params)
        : methodRefusal(this.spec, gate);
      if (problem) return this.refuse(problem, method, "capability-not-declared");
    }
    return undefined;
  }

  /**
   * A (parsed) answer to one of our requests. For the client's `initialize`: the error that
   * fails the call when the agent speaks another protocol version; otherwise the handshake
   * is done.
   */
  resultReceived(
    method: string,
    resultType: string | undefined,
    result: unknown,
  ): ValidationError | undefined {
    if (this.role !== "client" || method !== this.spec.method) return undefined;
    const version =
      this.spec.version === undefined ? undefined : property(result, this.spec.version);
    const speaks = this.spec.versions;
    if (
      this.spec.version !== undefined &&
      this.sent !== "off" &&
      !speaks.includes(version as number)
    ) {
      const issue = {
        instancePath: `/${this.spec.version}`,
        keyword: "const",
        message: `is ${JSON.stringify(version)}, and this connection speaks protocol version ${speaks.join(" or ")}`,
      };
      this.note(
        "warn",
        "protocol-version",
        `the agent answered ${method} with protocol version ${JSON.stringify(version)}; this connection speaks ${speaks.join(" or ")}`,
        method,
      );
      if (this.sent === "enforce") return new ValidationError(resultType ?? "result", [issue]);
    }
    this.peer = property(result, this.spec.capabilities.agent) ?? {};
    this.version = typeof version === "number" ? version : undefined;
    this.done = true;
    return undefined;
  }

  /** A request received, as its handler gets it: for the agent, `initialize` brings the client's capabilities. */
  requestReceived(method: string, params: unknown): void {
    if (this.role !== "agent" || method !== this.spec.method) return;
    this.peer = property(params, this.spec.capabilities.client) ?? {};
    const version =
      this.spec.version === undefined ? undefined : property(params, this.spec.version);
    this.version = typeof version === "number" ? version : undefined;
  }

  /** The result a handler answered with, about to be sent: the agent's `initialize` completes the handshake. */
  answering(method: string, result: unknown): void {
    if (this.role !== "agent" || method !== this.spec.method) return;
    this.declare(property(result, this.spec.capabilities.agent));
    const version =
      this.spec.version === undefined ? undefined : property(result, this.spec.version);
    if (typeof version === "number") this.version = version;
    this.done = true;
  }

  /**
   * An incoming call of a method this side gates: true when it must not reach the handler
   * (it was not declared, or nothing was yet). Logged either way.
   */
  refuses(method: string, kind: "request" | "notification"): boolean {
    if (this.received === "off") return false;
    const gates = this.incoming[kind].get(method);
    if (!gates) return false;
    const missing = gates.find((g) => !declared(this.own, g.capability));
    if (!missing) return false;
    const refused = this.received === "enforce";
    this.note(
      "warn",
      "undeclared-method",
      `${refused ? "refused" : "served"} ${method}: this ${this.role} did not declare ${capabilityName(this.spec, missing)}`,
      method,
    );
    return refused;
  }

  /** This side's capabilities are now `capabilities`: report each promise its handlers do not keep. */
  private declare(capabilities: unknown): void {
    this.own = capabilities ?? {};
    const missing = new Map<string, string[]>();
    const unused = new Map<string, string[]>();
    for (const gate of this.gates) {
      if (gate.side !== this.role || gate.content || !gate.handlerRequired) continue;
      const name = capabilityName(this.spec, gate);
      const served = this.serves(gate.handler);
      const isDeclared = declared(this.own, gate.capability);
      const list = isDeclared && !served ? missing : !isDeclared && served ? unused : undefined;
      list?.set(name, [...(list.get(name) ?? []), `${gate.handler} (${gate.method})`]);
    }
    for (const [name, handlers] of missing) {
      this.note(
        "error",
        "capability-without-handler",
        `this ${this.role} declares ${name} but has no ${handlers.join(", ")} handler: the ${other(this.role)} may call what it cannot serve`,
        this.spec.method,
      );
    }
    if (this.received === "off") return;
    for (const [name, handlers] of unused) {
      this.note(
        "debug",
        "capability-without-handler",
        `this ${this.role} serves ${handlers.join(", ")} but does not declare ${name}: calls will be refused`,
        this.spec.method,
      );
    }
  }

  private refuse(
    error: RequestError,
    method: string,
    reason: "capability-not-declared" | "not-initialized",
  ): RequestError | undefined {
    if (this.sent === "enforce") return error;
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
export function capabilitiesFrom(
  gates: readonly CapabilityGate[],
  side: "agent" | "client",
  handlers: object,
  declared: object = {},
): Record<string, unknown> {
  const out = copy(declared) as Record<string, unknown>;
  const byCapability = new Map<string, CapabilityGate[]>();
  for (const gate of gates) {
    if (gate.side !== side || gate.content || !gate.handlerRequired) continue;
    const key = JSON.stringify(gate.capability);
    byCapability.set(key, [...(byCapability.get(key) ?? []), gate]);
  }
  const has = (name: string) => typeof (handlers as Record<string, unknown>)[name] === "function";
  for (const list of byCapability.values()) {
    const first = list[0] as CapabilityGate;
    if (!list.every((g) => has(g.handler))) continue;
    let node = out;
    const path = first.capability;
    for (const [i, key] of path.entries()) {
      const last = i === path.length - 1;
      const current = Object.hasOwn(node, key) ? node[key] : undefined;
      if (last) {
        if (!isRecord(current)) define(node, key, first.declare === true ? true : {});
      } else {
        const next = isRecord(current) ? current : {};
        define(node, key, next);
        node = next;
      }
    }
  }
  return out;
}

/** A deep-frozen copy of the generated tables: tooling reading them cannot change what is enforced. */
export function frozen<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Gates by kind, then wire name: looked up for every message sent and received, so the key
 * is the method string as it comes (no key built per message).
 */
type GatesByCall = Readonly<
  Record<CapabilityGate["kind"], ReadonlyMap<string, readonly CapabilityGate[]>>
>;

function byCall(gates: readonly CapabilityGate[]): GatesByCall {
  const byKind = {
    request: new Map<string, CapabilityGate[]>(),
    notification: new Map<string, CapabilityGate[]>(),
  };
  for (const gate of gates) {
    const map = byKind[gate.kind];
    map.set(gate.method, [...(map.get(gate.method) ?? []), gate]);
  }
  return byKind;
}

/** Whether the capability at `path` is declared: `true`, or an object (`{}` declares it). */
function declared(capabilities: unknown, path: readonly string[]): boolean {
  let node = capabilities;
  for (const key of path) {
    if (!isRecord(node) || !Object.hasOwn(node, key)) return false;
    node = node[key];
  }
  return node === true || isRecord(node);
}

/** `agentCapabilities.loadSession`: the capability as it reads in the initialize message. */
function capabilityName(spec: NegotiationSpec, gate: CapabilityGate): string {
  return [spec.capabilities[gate.side], ...gate.capability].join(".");
}

function methodRefusal(spec: NegotiationSpec, gate: CapabilityGate): RequestError {
  const capability = capabilityName(spec, gate);
  return new RequestError(
    -32601,
    `${gate.method} is not available: the ${gate.side} did not declare ${capability}`,
    { method: gate.method, capability },
  );
}

/** The refusal of params holding the gated variant, or undefined when they hold none. */
function contentRefusal(
  spec: NegotiationSpec,
  gate: CapabilityGate,
  params: unknown,
): RequestError | undefined {
  const content = gate.content as ContentGate;
  for (const at of content.at) {
    for (const { value, pointer } of valuesAt(params, at)) {
      if (
        !isRecord(value) ||
        !Object.hasOwn(value, content.tag) ||
        value[content.tag] !== content.value
      )
        continue;
      const capability = capabilityName(spec, gate);
      return new RequestError(
        -32602,
        `${gate.method} cannot carry ${content.type} "${content.value}" (at ${pointer || "the params"}): the ${gate.side} did not declare ${capability}`,
        { method: gate.method, capability, at: pointer },
      );
    }
  }
  return undefined;
}

function notInitialized(role: Role, method: string): RequestError {
  const first =
    role === "client"
      ? "send initialize and wait for its answer first"
      : "an agent calls its client only once it has answered initialize";
  return wireErrors.invalidRequest(
    { method, reason: "not-initialized" },
    `${method} was called before initialize completed: ${first}`,
  );
}

/** The values at a position of the params, with their JSON pointers. */
function valuesAt(
  root: unknown,
  path: readonly string[],
): Array<{ value: unknown; pointer: string }> {
  let level = [{ value: root, pointer: "" }];
  for (const step of path) {
    const next: Array<{ value: unknown; pointer: string }> = [];
    for (const { value, pointer } of level) {
      if (step === "*") {
        if (Array.isArray(value))
          value.forEach((item, i) => {
            next.push({ value: item, pointer: `${pointer}/${i}` });
          });
        else if (isRecord(value))
          for (const key of Object.keys(value))
            next.push({ value: value[key], pointer: `${pointer}/${pointerToken(key)}` });
      } else if (isRecord(value) && Object.hasOwn(value, step)) {
        next.push({ value: value[step], pointer: `${pointer}/${pointerToken(step)}` });
      }
    }
    level = next;
  }
  return level;
}

function property(value: unknown, name: string): unknown {
  return isRecord(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A copy of plain data: own properties only, `__proto__` kept as a property, never a prototype. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) define(out, key, copy(value[key]));
  return out;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
