import type { ConnectionOptions, LogEvent, MethodEntry } from "./connection-types.js";
import type { JsonRpcId } from "./json-rpc.js";
import { fillEmpty, kindsOf, type Routes, receive } from "./method-routes.js";
import { type RequestError, wireErrors } from "./request-error.js";
import { issuesOf, ValidationError } from "./validation.js";
import { consoleError } from "./web-globals.js";

/**
 * The one path a received call takes between the wire and its handler, whatever the
 * connection's role: a side connection (and the conductor, which is one), and a proxy, for
 * the predecessor's calls (which its `Connection` receives) as for the successor's (which
 * arrive unwrapped from the envelope). Each role decides only what it does when no handler
 * takes a call: answer -32601 and drop, or pass it on to a neighbour.
 */

export type HandlerFunction = (...args: unknown[]) => unknown;

/** What a connection's options say about the calls it receives, resolved once. */
export interface IncomingOptions {
  /** Received params and results are read (`validate.received`). */
  readonly checkReceived: boolean;
  /** What this side sends, results of its handlers included, is checked (`validate.sent`). */
  readonly checkSent: boolean;
  /** How received params are read (`ConnectionOptions.unknownVariants`). */
  readonly unknownVariants: "keep" | "reject";
  readonly log: (event: LogEvent) => void;
}

/** `options` resolved; `unknownVariants`, when given, in place of the options' own. */
export function incomingOptions(
  options: ConnectionOptions,
  unknownVariants?: "keep" | "reject",
): IncomingOptions {
  const validate = options.validate ?? true;
  return {
    checkReceived: typeof validate === "boolean" ? validate : (validate.received ?? true),
    checkSent: typeof validate === "boolean" ? validate : (validate.sent ?? true),
    unknownVariants: unknownVariants ?? options.unknownVariants ?? "keep",
    log: options.log ?? defaultLog,
  };
}

/** Where every role's events go without a `log` option: `warn` and `error` to `console.error`. */
export function defaultLog(event: LogEvent): void {
  if (event.level !== "debug") consoleError(`acp: ${event.message}`);
}

/** The route of a `_` name no table declares: `extMethod` / `extNotification`. */
export const EXTENSION: unique symbol = Symbol("extension");

/**
 * Where a received call goes: its method's entry, EXTENSION, or undefined (no such method).
 * A declared method comes first: an extension method the package declares (`--extension`)
 * has an entry, and is read and handled like the protocol's.
 */
export type IncomingRoute = MethodEntry | typeof EXTENSION | undefined;

/** A notification that reaches no handler: dropped (and logged). */
export const DROPPED: unique symbol = Symbol("dropped");

/** The member `name` of a handler object, when it is a function (unbound). */
export function handlerOf(
  handlers: Readonly<Record<string, unknown>> | undefined,
  name: string,
): HandlerFunction | undefined {
  const member = handlers?.[name];
  return typeof member === "function" ? (member as HandlerFunction) : undefined;
}

/** What an extension handler's answer is sent as: nothing is `null`. */
export function extensionResult(result: unknown): unknown {
  return result === undefined ? null : result;
}

/** One connection's reading of the calls it receives, by (kind, wire name) through `routes`. */
export class IncomingCalls {
  constructor(
    private readonly routes: Routes,
    readonly options: IncomingOptions,
  ) {}

  route(kind: "request" | "notification", method: string): IncomingRoute {
    const entry = (kind === "request" ? this.routes.request : this.routes.notification).get(method);
    if (entry !== undefined) return entry;
    return method.startsWith("_") ? EXTENSION : undefined;
  }

  /** The answer to a request no handler serves (logged). */
  notFound(method: string, id: JsonRpcId): RequestError {
    this.note("warn", "unknown-method", `no handler for request ${method}`, { method, id });
    return wireErrors.methodNotFound(method);
  }

  /** A notification no handler takes, noted; DROPPED. */
  unhandled(method: string): typeof DROPPED {
    // `$/` notifications are optional by JSON-RPC convention: ignoring one is normal.
    const level = method.startsWith("$/") ? "debug" : "warn";
    this.note(level, "unknown-method", `no handler for notification ${method}`, { method });
    return DROPPED;
  }

  /** A request's params as its handler receives them; throws the -32602 answer (logged). */
  requestParams(entry: MethodEntry, params: unknown, id: JsonRpcId): unknown {
    const received = this.read(entry, params);
    if ("value" in received) return received.value;
    const { invalid, unknown } = received;
    const message =
      unknown.length > 0 ? `a ${kindsOf(unknown)} this package does not know` : invalid.message;
    this.note(
      "warn",
      unknown.length > 0 ? "unknown-variant" : "invalid-params",
      `invalid params for ${entry.method}: ${message}`,
      { method: entry.method, id, issues: invalid.issues },
    );
    throw wireErrors.invalidParams({ type: invalid.type, issues: invalid.issues }, message);
  }

  /** A notification's params as its handler receives them, or DROPPED (logged). */
  notificationParams(entry: MethodEntry, params: unknown): unknown {
    const received = this.read(entry, params);
    if ("value" in received) return received.value;
    const { method } = entry;
    const { invalid, unknown } = received;
    if (unknown.length > 0)
      this.note(
        "warn",
        "unknown-variant",
        `dropped ${method}: a ${kindsOf(unknown)} this package does not know`,
        { method, issues: invalid.issues },
      );
    else
      this.note("warn", "invalid-params", `dropped ${method}: ${invalid.message}`, {
        method,
        issues: invalid.issues,
      });
    return DROPPED;
  }

  /**
   * What a request's handler returned, as it is answered: an empty result filled; when it
   * fails the result's schema (and sent values are checked), the -32603 answer is thrown
   * (logged as the handler's fault).
   */
  answerOf(entry: MethodEntry, returned: unknown, id: JsonRpcId): unknown {
    const validator = entry.validateResult;
    const result = fillEmpty(returned, validator);
    if (!this.options.checkSent || !validator || validator(result)) return result;
    const issues = issuesOf(validator);
    const problem = new ValidationError(entry.result ?? "result", issues);
    this.note(
      "error",
      "invalid-result",
      `the ${entry.method} handler returned an ${problem.message}`,
      { method: entry.method, id, issues },
    );
    throw wireErrors.internalError(
      { type: problem.type, issues },
      `the handler returned an ${problem.message}`,
    );
  }

  note(
    level: LogEvent["level"],
    reason: LogEvent["reason"],
    message: string,
    detail: Partial<LogEvent> = {},
  ): void {
    this.options.log({ ...detail, level, reason, message });
  }

  /**
   * Params read with the entry's parser (the open reading unless `unknownVariants:
   * "reject"`), or as they came when received values go unchecked. Unknown variants
   * delivered are noted at debug level, with their kinds.
   */
  private read(entry: MethodEntry, params: unknown): ReturnType<typeof receive> {
    const { checkReceived, unknownVariants } = this.options;
    if (!checkReceived) return { value: params, unknown: NONE };
    const received = receive(
      entry.parseParams,
      entry.validateParams,
      entry.params,
      params,
      unknownVariants,
    );
    if ("value" in received && received.unknown.length > 0)
      this.note(
        "debug",
        "unknown-variant",
        `${entry.method}: delivered a ${kindsOf(received.unknown)} this package does not know`,
        { method: entry.method },
      );
    return received;
  }
}

const NONE: readonly never[] = Object.freeze([]);
