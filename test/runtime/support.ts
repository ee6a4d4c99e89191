import AjvModule from "ajv";
import type {
  LogEvent,
  MethodEntry,
  MethodTables,
} from "../../templates/runtime/connection-types.js";
import { LineFramer } from "../../templates/runtime/line-framing.js";
import type { MessageStream } from "../../templates/runtime/message-stream.js";
import { type NdJsonStreamOptions, ndJsonStream } from "../../templates/runtime/ndjson-stream.js";
import type { CompiledValidator } from "../../templates/runtime/validation.js";

const Ajv = AjvModule.default;
const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
const compile = (schema: object): CompiledValidator => ajv.compile(schema) as CompiledValidator;

/**
 * A small hand-made protocol for testing the runtime on its own: a "server" side serving
 * `math/add`, `slow/wait` and `log/line`, and a "caller" side serving `echo/ping`.
 */
const v = {
  AddRequest: compile({
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  }),
  AddResponse: compile({
    type: "object",
    properties: { sum: { type: "number" } },
    required: ["sum"],
  }),
  WaitRequest: compile({
    type: "object",
    properties: { tag: { type: "string" } },
    required: ["tag"],
  }),
  // Accepts `{}`: lets the tests see a null/undefined result become `{}`.
  WaitResponse: compile({ type: "object", properties: { tag: { type: "string" } } }),
  LogNotification: compile({
    type: "object",
    properties: { line: { type: "string" } },
    required: ["line"],
  }),
  PingRequest: compile({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] }),
  PingResponse: compile({
    type: "object",
    properties: { n: { type: "integer" } },
    required: ["n"],
  }),
  CancelRequestNotification: compile({
    type: "object",
    properties: { requestId: { type: ["string", "integer", "null"] } },
    required: ["requestId"],
  }),
};

const request = (
  method: string,
  handler: string,
  params: keyof typeof v,
  result: keyof typeof v,
): MethodEntry => ({
  method,
  kind: "request",
  handler,
  params,
  validateParams: v[params],
  result,
  validateResult: v[result],
});
const notification = (method: string, handler: string, params: keyof typeof v): MethodEntry => ({
  method,
  kind: "notification",
  handler,
  params,
  validateParams: v[params],
});

export const SERVER_METHODS: readonly MethodEntry[] = [
  request("math/add", "add", "AddRequest", "AddResponse"),
  request("slow/wait", "wait", "WaitRequest", "WaitResponse"),
  notification("log/line", "line", "LogNotification"),
];
export const CALLER_METHODS: readonly MethodEntry[] = [
  request("echo/ping", "ping", "PingRequest", "PingResponse"),
];
export const PROTOCOL_METHODS: readonly MethodEntry[] = [
  notification("$/cancel_request", "cancelRequest", "CancelRequestNotification"),
];

export const SERVER_TABLES: MethodTables = {
  serves: SERVER_METHODS,
  calls: CALLER_METHODS,
  protocol: PROTOCOL_METHODS,
};
export const CALLER_TABLES: MethodTables = {
  serves: CALLER_METHODS,
  calls: SERVER_METHODS,
  protocol: PROTOCOL_METHODS,
};

/** Maps for the typed `SideConnection` layer, shaped like the generated ones. */
export interface ServerRequestMap {
  "math/add": { kind: "request"; params: { a: number; b: number }; result: { sum: number } };
  "slow/wait": { kind: "request"; params: { tag: string }; result: { tag?: string } };
}
export interface ServerNotificationMap {
  "log/line": { kind: "notification"; params: { line: string } };
}

const bytes = () =>
  new TransformStream<Uint8Array, Uint8Array>(
    undefined,
    { highWaterMark: 256 },
    { highWaterMark: 256 },
  );

/** Two message streams wired to each other through ndjson byte pipes, as over stdio. */
export function streamPair(options?: NdJsonStreamOptions): [MessageStream, MessageStream] {
  const leftToRight = bytes();
  const rightToLeft = bytes();
  return [
    ndJsonStream(leftToRight.writable, rightToLeft.readable, options),
    ndJsonStream(rightToLeft.writable, leftToRight.readable, options),
  ];
}

/**
 * The far end of a connection, speaking raw bytes: the tests write arbitrary (also broken)
 * input and read back, parsed, whatever the connection answers.
 */
export class RawPeer {
  readonly stream: MessageStream;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly framer = new LineFramer(1 << 30);
  private readonly decoder = new TextDecoder();
  private readonly received: unknown[] = [];

  constructor(options?: NdJsonStreamOptions) {
    const toConnection = bytes();
    const fromConnection = bytes();
    this.stream = ndJsonStream(fromConnection.writable, toConnection.readable, options);
    this.writer = toConnection.writable.getWriter();
    this.reader = fromConnection.readable.getReader();
  }

  /** Strings and bytes go out verbatim; anything else as one JSON line. */
  send(data: string | Uint8Array | object): Promise<void> {
    // Not `instanceof`: byte arrays from another realm (the test runner's) must go out as bytes too.
    if (ArrayBuffer.isView(data)) return this.writer.write(data as Uint8Array);
    const text = typeof data === "string" ? data : `${JSON.stringify(data)}\n`;
    return this.writer.write(new TextEncoder().encode(text));
  }

  /** The next message the connection wrote. */
  async next(): Promise<unknown> {
    while (this.received.length === 0) {
      const chunk = await this.reader.read();
      if (chunk.done) throw new Error("the connection closed its output");
      for (const frame of this.framer.push(chunk.value)) {
        if (frame.kind === "line") this.received.push(JSON.parse(this.decoder.decode(frame.bytes)));
      }
    }
    return this.received.shift();
  }

  /** Resolves true once the connection has closed its output (after any messages left). */
  async outputEnded(): Promise<boolean> {
    for (;;) {
      const chunk = await this.reader.read();
      if (chunk.done) return true;
    }
  }

  /** End of our output: the connection sees end of input. */
  end(): Promise<void> {
    return this.writer.close();
  }
}

/** A log sink that records events, for asserting what was dropped and why. */
export function recorder(): {
  events: LogEvent[];
  log: (event: LogEvent) => void;
  reasons: () => string[];
} {
  const events: LogEvent[] = [];
  return { events, log: (event) => events.push(event), reasons: () => events.map((e) => e.reason) };
}

/** A promise with its resolver outside: lets a test decide when a handler finishes. */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const object = compile({ type: "object" });
const entry = (
  method: string,
  kind: "request" | "notification",
  handler: string,
  extra: Partial<MethodEntry> = {},
): MethodEntry => ({
  method,
  kind,
  handler,
  params: "Object",
  validateParams: object,
  ...(kind === "request" ? { result: "Object", validateResult: object } : {}),
  ...extra,
});

/**
 * A second mini protocol for the per-method data the generator derives from a schema: a
 * `turn/run` request stopped by the `turn/stop` notification (like `session/prompt` and
 * `session/cancel`), and a `job/start` request whose result names a job that `job/poll`
 * and `job/free` act on (like `terminal/create` and its terminal).
 */
export const TASK_SERVER_METHODS: readonly MethodEntry[] = [
  entry("turn/run", "request", "run", { cancelBy: { method: "turn/stop", copy: ["owner"] } }),
  entry("turn/stop", "notification", "stop"),
  entry("job/start", "request", "start", {
    handle: {
      id: "jobId",
      scope: ["owner"],
      methods: { poll: "job/poll", free: "job/free" },
      dispose: "free",
    },
  }),
  entry("job/poll", "request", "poll"),
  entry("job/free", "request", "free"),
];
export const TASK_SERVER_TABLES: MethodTables = {
  serves: TASK_SERVER_METHODS,
  calls: [],
  protocol: PROTOCOL_METHODS,
};
export const TASK_CALLER_TABLES: MethodTables = {
  serves: [],
  calls: TASK_SERVER_METHODS,
  protocol: PROTOCOL_METHODS,
};
