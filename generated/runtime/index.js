// dist/runtime/ajv-helpers.js
function issue(instancePath, keyword, params) {
  return { instancePath, keyword, params };
}
function fail(validator, instancePath, keyword, params) {
  validator.errors = [issue(instancePath, keyword, params)];
  return false;
}
function failType(validator, instancePath, type) {
  validator.errors = [issue(instancePath, "type", { type })];
  return false;
}
function isObject(data) {
  return typeof data === "object" && data !== null && !Array.isArray(data);
}
function pushIssue(list, error) {
  if (list === null)
    return [error];
  list.push(error);
  return list;
}
function concatIssues(list, errors) {
  return list === null ? errors : list.concat(errors);
}
function truncateIssues(list, count2) {
  if (list === null || !count2)
    return null;
  list.length = count2;
  return list;
}
function ucs2length(text) {
  let length = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index++);
    if (code >= 55296 && code <= 56319 && index < text.length) {
      const next = text.charCodeAt(index);
      if ((next & 64512) === 56320)
        index++;
    }
    length++;
  }
  return length;
}
function equal(a, b) {
  if (a === b)
    return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length)
      return false;
    for (let i = 0; i < a.length; i++)
      if (!equal(a[i], b[i]))
        return false;
    return true;
  }
  if (Array.isArray(b))
    return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length)
    return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key))
      return false;
    if (!equal(a[key], b[key]))
      return false;
  }
  return true;
}

// dist/runtime/fifo.js
var BLOCK = 1024;
var Fifo = class {
  constructor() {
    this.head = { slots: new Array(BLOCK), next: void 0 };
    this.tail = this.head;
    this.readAt = 0;
    this.writeAt = 0;
    this.count = 0;
  }
  get length() {
    return this.count;
  }
  push(value) {
    if (this.writeAt === BLOCK) {
      const block = { slots: new Array(BLOCK), next: void 0 };
      this.tail.next = block;
      this.tail = block;
      this.writeAt = 0;
    }
    this.tail.slots[this.writeAt++] = value;
    this.count++;
  }
  /** The oldest value, removed; undefined when empty. */
  shift() {
    if (this.count === 0)
      return void 0;
    if (this.readAt === BLOCK) {
      this.head = this.head.next;
      this.readAt = 0;
    }
    const slots = this.head.slots;
    const value = slots[this.readAt];
    slots[this.readAt++] = void 0;
    this.count--;
    if (this.count === 0) {
      this.head = this.tail;
      this.readAt = 0;
      this.writeAt = 0;
    }
    return value;
  }
  clear() {
    this.head = { slots: new Array(BLOCK), next: void 0 };
    this.tail = this.head;
    this.readAt = 0;
    this.writeAt = 0;
    this.count = 0;
  }
};

// dist/runtime/arrival-queue.js
var HIGH_WATER = 1024;
var LOW_WATER = 256;
var ArrivalQueue = class {
  /** `start` begins one call; it returns a promise when later calls must wait for it, and must not reject. */
  constructor(start) {
    this.start = start;
    this.waiting = new Fifo();
    this.busy = false;
    this.resume = () => {
      this.busy = false;
      this.drain();
    };
  }
  /** True while a call holds the queue or calls wait to start. */
  get idle() {
    return !this.busy && this.waiting.length === 0;
  }
  /** Calls queued and not started yet. */
  get length() {
    return this.waiting.length;
  }
  /** `call` starts now or after the calls queued before it. */
  push(call) {
    this.waiting.push(call);
    if (!this.busy)
      this.drain();
  }
  /**
   * Undefined while fewer than {@link HIGH_WATER} calls wait; otherwise a promise that
   * resolves once no more than {@link LOW_WATER} do, or at {@link wake}.
   */
  whenRoom() {
    if (this.waiting.length < HIGH_WATER)
      return void 0;
    return new Promise((resolve) => {
      this.room = { resolve };
    });
  }
  /** Resolves a pending {@link whenRoom} now, whatever the queue's length. */
  wake() {
    const room = this.room;
    this.room = void 0;
    room?.resolve();
  }
  /** Drops every call not started yet (the connection closed). */
  clear() {
    this.waiting.clear();
    this.wake();
  }
  drain() {
    while (!this.busy && this.waiting.length > 0) {
      this.busy = true;
      const running = this.start(this.waiting.shift());
      if (running) {
        void running.then(this.resume);
      } else {
        this.busy = false;
      }
    }
    if (this.room && this.waiting.length <= LOW_WATER)
      this.wake();
  }
};

// dist/runtime/json-rpc.js
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isJsonRpcId(value) {
  return value === null || typeof value === "string" || typeof value === "number" && Number.isFinite(value);
}
function isErrorObject(value) {
  return isRecord(value) && Number.isInteger(value.code) && typeof value.message === "string";
}
function classify(value) {
  if (Array.isArray(value))
    return { kind: "invalid", reason: "batches are not supported", id: null, answer: true };
  if (!isRecord(value))
    return { kind: "invalid", reason: "a message must be a JSON object", id: null, answer: true };
  const hasId = Object.hasOwn(value, "id");
  const id = hasId && isJsonRpcId(value.id) ? value.id : null;
  const responseShaped = !Object.hasOwn(value, "method") && (hasId || Object.hasOwn(value, "result") || Object.hasOwn(value, "error"));
  const invalid = (reason) => ({
    kind: "invalid",
    reason,
    id,
    answer: !responseShaped
  });
  if (value.jsonrpc !== "2.0")
    return invalid('"jsonrpc" must be "2.0"');
  if (hasId && !isJsonRpcId(value.id))
    return invalid('"id" must be a string, a number or null');
  if (!responseShaped) {
    if (typeof value.method !== "string")
      return invalid('"method" must be a string');
    return hasId ? { kind: "request", id, method: value.method, params: value.params } : { kind: "notification", method: value.method, params: value.params };
  }
  const hasResult = Object.hasOwn(value, "result");
  const hasError = Object.hasOwn(value, "error");
  if (!hasId) {
    if (hasError && !hasResult && isErrorObject(value.error))
      return { kind: "error", id: null, error: value.error };
    return invalid('a response needs an "id"');
  }
  if (hasResult === hasError)
    return invalid('a response needs exactly one of "result" and "error"');
  if (hasResult)
    return { kind: "result", id, result: value.result };
  if (!isErrorObject(value.error))
    return invalid('"error" must be an object with an integer "code" and a string "message"');
  return { kind: "error", id, error: value.error };
}

// dist/runtime/request-error.js
var RequestError = class extends Error {
  constructor(code, message, data) {
    super(message);
    this.name = "RequestError";
    this.code = code;
    if (data !== void 0)
      this.data = data;
  }
  /** The `error` member of a JSON-RPC response. */
  toErrorObject() {
    return this.data === void 0 ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
};
var wireErrors = {
  /** -32700: the line received was not JSON (or not UTF-8). */
  parseError: (detail) => new RequestError(-32700, withDetail("Parse error", detail)),
  /** -32600: JSON, but not a valid JSON-RPC request object. */
  invalidRequest: (data, detail) => new RequestError(-32600, withDetail("Invalid request", detail), data),
  /** -32601: the method does not exist here, or this side does not implement it. */
  methodNotFound: (method) => new RequestError(-32601, `Method not found: ${method}`, { method }),
  /** -32602: the params do not match the method's schema. */
  invalidParams: (data, detail) => new RequestError(-32602, withDetail("Invalid params", detail), data),
  /** -32603: the handler failed. */
  internalError: (data, detail) => new RequestError(-32603, withDetail("Internal error", detail), data),
  /** -32800: the request was cancelled (`$/cancel_request`, or the caller's signal). */
  requestCancelled: (data, detail) => new RequestError(-32800, withDetail("Request cancelled", detail), data)
};
function withDetail(message, detail) {
  return detail ? `${message}: ${detail}` : message;
}
var ConnectionClosedError = class extends Error {
  constructor(reason, kind = "closed") {
    super(closeMessage(kind, reason));
    this.name = "ConnectionClosedError";
    this.kind = kind;
    this.reason = reason;
  }
};
function closeMessage(kind, reason) {
  const detail = reason instanceof Error ? reason.message : reason === void 0 ? "" : String(reason);
  switch (kind) {
    case "end-of-input":
      return `connection closed: ${detail || "the peer closed its output"}`;
    case "read-error":
      return `connection closed: ${detail || "reading failed"}`;
    case "write-error":
      return `connection closed: ${detail || "writing failed"}`;
    case "closed":
      return detail ? `connection closed: ${detail}` : "connection closed by close()";
  }
}
var TurnAbandonedError = class extends Error {
  constructor(sessionId, graceMs, cancelMethod) {
    super(`the agent did not answer ${cancelMethod} for session ${String(sessionId)} within ${graceMs} ms: the turn was abandoned`);
    this.name = "TurnAbandonedError";
    this.sessionId = sessionId;
    this.graceMs = graceMs;
  }
};

// dist/runtime/batching-stream.js
var BatchingStream = class {
  constructor(inner, options) {
    this.options = options;
    this.waiting = /* @__PURE__ */ new Map();
    this.sink = inner.writable.getWriter();
    this.readable = { getReader: () => this.reader(inner.readable) };
    let locked = false;
    this.writable = {
      getWriter: () => {
        if (locked)
          throw new TypeError("batching stream: the writable side is already locked");
        locked = true;
        return {
          write: (message) => this.write(message),
          close: () => this.close(),
          releaseLock: () => {
            locked = false;
          }
        };
      }
    };
  }
  /**
   * Runs `calls` and sends every request and notification written while it runs (its
   * synchronous part) as one batch, after it returns or throws. Nested, the inner calls join
   * the outer batch. Nothing written, nothing sent.
   */
  collect(calls) {
    if (this.collected)
      return calls();
    const batch = [];
    const written = deferred();
    this.collected = batch;
    this.collectedWritten = written;
    try {
      return calls();
    } finally {
      this.collected = void 0;
      this.collectedWritten = void 0;
      if (batch.length > 0)
        settle(this.sink.write(batch), written);
      else
        written.resolve();
    }
  }
  reader(source) {
    const inner = source.getReader();
    let entries = [];
    let next = 0;
    const fromSource = (result) => {
      if (result.done || !Array.isArray(result.value))
        return result;
      entries = this.split(result.value);
      next = 0;
      return read();
    };
    const read = () => {
      if (next < entries.length) {
        const value = entries[next];
        entries[next++] = void 0;
        return { done: false, value };
      }
      entries = [];
      return inner.read().then(fromSource);
    };
    return {
      read: () => Promise.resolve(read()),
      releaseLock: () => inner.releaseLock(),
      cancel: (reason) => {
        entries = [];
        return inner.cancel(reason);
      }
    };
  }
  /**
   * One incoming batch: answers what is invalid, records what its requests' answers will
   * join, and returns the entries for the connection, in order.
   */
  split(batch) {
    if (batch.length === 0) {
      this.invalid("an empty batch");
      const answer = { jsonrpc: "2.0", id: null, error: emptyBatch() };
      this.sink.write(answer).then(() => this.traceSent([answer]), ignore);
      return [];
    }
    const group = { slots: [], open: 0, own: [], written: deferred() };
    const entries = [];
    for (const entry of batch) {
      const message = classify(entry);
      if (message.kind === "invalid") {
        this.options.trace?.({ direction: "received", message: entry });
        this.invalid(`a batch entry: ${message.reason}`, message.id);
        const answer = {
          jsonrpc: "2.0",
          id: null,
          error: invalidEntry(message.reason)
        };
        group.slots.push(answer);
        group.own.push(answer);
        continue;
      }
      if (message.kind === "request") {
        const waiting = this.waiting.get(message.id);
        const slot = { group, slot: group.slots.length };
        if (waiting)
          waiting.push(slot);
        else
          this.waiting.set(message.id, [slot]);
        group.slots.push(void 0);
        group.open++;
      }
      entries.push(entry);
    }
    if (group.open === 0 && group.slots.length > 0)
      this.flush(group);
    return entries;
  }
  write(message) {
    if (isBatch(message))
      return this.sink.write(message);
    const isAnswer = !("method" in message);
    if (this.collected && !isAnswer) {
      this.collected.push(message);
      return this.collectedWritten.promise;
    }
    if (isAnswer && this.waiting.size > 0) {
      const waiting = this.waiting.get(message.id);
      const first = waiting?.shift();
      if (first) {
        if (waiting?.length === 0)
          this.waiting.delete(message.id);
        const { group, slot } = first;
        group.slots[slot] = message;
        if (--group.open === 0)
          this.flush(group);
        return group.written.promise;
      }
    }
    return this.sink.write(message);
  }
  /** A complete group's answers, as one array. */
  flush(group) {
    const written = this.sink.write(group.slots);
    settle(written, group.written);
    if (group.own.length > 0)
      written.then(() => this.traceSent(group.own), ignore);
  }
  close() {
    for (const slots of this.waiting.values())
      for (const { group } of slots)
        group.written.reject(CLOSING);
    this.waiting.clear();
    return this.sink.close();
  }
  traceSent(messages) {
    const trace = this.options.trace;
    if (trace)
      for (const message of messages)
        trace({ direction: "sent", message });
  }
  invalid(what, id) {
    this.options.log({
      level: "warn",
      reason: "invalid-message",
      message: `invalid JSON-RPC batch: ${what}; answered -32600`,
      ...id === void 0 || id === null ? {} : { id }
    });
  }
};
var CLOSING = new Error("the connection closed before every request of the batch was answered");
function emptyBatch() {
  return wireErrors.invalidRequest(void 0, "an empty batch").toErrorObject();
}
function invalidEntry(reason) {
  return wireErrors.invalidRequest(void 0, reason).toErrorObject();
}
function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(ignore);
  return { promise, resolve, reject };
}
function settle(written, into) {
  written.then(into.resolve, into.reject);
}
function isBatch(message) {
  return Array.isArray(message);
}
function ignore() {
}

// dist/runtime/validation.js
var ValidationError = class extends Error {
  constructor(type, issues) {
    const first = issues[0];
    const where = first ? `${first.instancePath || "(root)"} ${first.message}` : "invalid";
    super(`invalid ${type}: ${where}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ""}`);
    this.name = "ValidationError";
    this.type = type;
    this.issues = issues;
  }
};
function issuesOf(validator, sent) {
  return (validator.errors ?? []).map((e) => {
    const message = messageOf(e.keyword, e.params ?? {});
    return {
      instancePath: e.instancePath,
      message: sent && FOUND_KEYWORDS.has(e.keyword) ? `${message}; found ${shown(at(sent.value, e.instancePath))}` : message,
      keyword: e.keyword
    };
  });
}
var FOUND_KEYWORDS = /* @__PURE__ */ new Set(["type", "enum", "const"]);
function at(root, pointer) {
  let node = root;
  for (const token of pointer.split("/").slice(1)) {
    if (typeof node !== "object" || node === null)
      return void 0;
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    node = Object.hasOwn(node, key) ? node[key] : void 0;
  }
  return node;
}
function shown(value) {
  if (value === void 0)
    return "nothing";
  if (Array.isArray(value))
    return "an array";
  if (typeof value === "object" && value !== null)
    return "an object";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
function allowed(values2) {
  const listed = values2.slice(0, 10).map((v) => JSON.stringify(v) ?? String(v));
  return values2.length > 10 ? `${listed.join(", ")}, …` : listed.join(", ");
}
var LIMITS = {
  maxLength: ["more", "characters"],
  minLength: ["fewer", "characters"],
  maxItems: ["more", "items"],
  minItems: ["fewer", "items"],
  maxProperties: ["more", "properties"],
  minProperties: ["fewer", "properties"]
};
function messageOf(keyword, params) {
  const p = (name) => String(params[name]);
  switch (keyword) {
    case "type":
      return `must be ${p("type")}`;
    case "required":
      return `must have required property '${p("missingProperty")}'`;
    case "additionalProperties":
      return `must NOT have additional properties${unexpected(params.additionalProperty)}`;
    case "unevaluatedProperties":
      return `must NOT have unevaluated properties${unexpected(params.unevaluatedProperty)}`;
    case "enum":
      return Array.isArray(params.allowedValues) ? `must be equal to one of the allowed values: ${allowed(params.allowedValues)}` : "must be equal to one of the allowed values";
    case "const":
      return Object.hasOwn(params, "allowedValue") ? `must be equal to constant ${allowed([params.allowedValue])}` : "must be equal to constant";
    case "format":
      return `must match format "${p("format")}"`;
    case "pattern":
      return `must match pattern "${p("pattern")}"`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${p("comparison")} ${p("limit")}`;
    case "multipleOf":
      return `must be multiple of ${p("multipleOf")}`;
    case "uniqueItems":
      return `must NOT have duplicate items (items ## ${p("j")} and ${p("i")} are identical)`;
    case "items":
    case "additionalItems":
    case "unevaluatedItems":
      return `must NOT have more than ${p("limit")} items`;
    case "contains":
      return params.maxContains === void 0 ? `must contain at least ${p("minContains")} valid item(s)` : `must contain at least ${p("minContains")} and no more than ${p("maxContains")} valid item(s)`;
    case "dependencies":
    case "dependentRequired":
      return `must have ${params.depsCount === 1 ? "property" : "properties"} ${p("deps")} when property ${p("property")} is present`;
    case "propertyNames":
      return "property name must be valid";
    case "anyOf":
      return "must match a schema in anyOf";
    case "oneOf":
      return "must match exactly one schema in oneOf";
    case "not":
      return "must NOT be valid";
    case "if":
      return `must match "${p("failingKeyword")}" schema`;
    case "false schema":
      return "boolean schema is false";
    case "discriminator":
      return params.error === "tag" ? `tag "${p("tag")}" must be string` : `value of tag "${p("tag")}" must be in oneOf`;
  }
  const limit = Object.hasOwn(LIMITS, keyword) ? LIMITS[keyword] : void 0;
  if (limit)
    return `must NOT have ${limit[0]} than ${p("limit")} ${limit[1]}`;
  return `must pass "${keyword}" keyword validation`;
}
function unexpected(name) {
  return typeof name === "string" ? `: ${JSON.stringify(name)}` : "";
}
var TOO_DEEP = {
  instancePath: "",
  message: "is nested too deeply to validate",
  keyword: "depth"
};
function run(validator, value) {
  try {
    return validator(value) ? null : issuesOf(validator);
  } catch (error) {
    if (error instanceof RangeError)
      return [TOO_DEEP];
    throw error;
  }
}
function validateWith(validator, value) {
  const issues = run(validator, value);
  return issues === null ? { valid: true, value } : { valid: false, issues };
}
function assertWith(validator, type, value) {
  const issues = run(validator, value);
  if (issues === null)
    return value;
  throw new ValidationError(type, issues);
}

// dist/runtime/method-routes.js
function routesOf(entries) {
  const request = /* @__PURE__ */ new Map();
  const notification = /* @__PURE__ */ new Map();
  for (const entry of entries) {
    (entry.kind === "request" ? request : notification).set(entry.method, entry);
  }
  return { request, notification };
}
function invalidParams(entry, params, sent = false) {
  const validator = entry?.validateParams;
  if (!entry || !validator || validator(params))
    return void 0;
  return new ValidationError(entry.params, issuesOf(validator, sent ? { value: params } : void 0));
}
function receive(parse, validator, type, value, unknownVariants = "reject") {
  if (parse) {
    try {
      if (unknownVariants === "keep")
        return readOpen(parse, value);
      return { value: parse(value), unknown: NONE };
    } catch (error) {
      if (!(error instanceof ValidationError))
        throw error;
      const open = unknownVariants === "reject" ? acceptsOpen(parse, value) : void 0;
      return { invalid: error, unknown: open ?? NONE };
    }
  }
  if (!validator || validator(value))
    return { value, unknown: NONE };
  return { invalid: new ValidationError(type, issuesOf(validator)), unknown: NONE };
}
var NONE = Object.freeze([]);
var collected;
var OPEN = {
  unknownVariants: "keep",
  onUnknownVariant: (variant) => {
    if (collected)
      collected.push(variant);
    else
      collected = [variant];
  }
};
function readOpen(parse, value) {
  const outer = collected;
  collected = void 0;
  try {
    const read = parse(value, OPEN);
    return { value: read, unknown: collected ?? NONE };
  } finally {
    collected = outer;
  }
}
function acceptsOpen(parse, value) {
  try {
    return readOpen(parse, value).unknown;
  } catch (error) {
    if (error instanceof ValidationError)
      return void 0;
    throw error;
  }
}
function kindsOf(unknown) {
  return [...new Set(unknown.map((u) => `${u.tag} ${JSON.stringify(u.kind)}`))].join(", ");
}
function fillEmpty(value, validator) {
  if (value !== void 0 && value !== null)
    return value;
  if (validator && !validator(value ?? null) && validator({}))
    return {};
  return value ?? null;
}

// dist/runtime/web-globals.js
var platform = globalThis;
function missing(name) {
  return new Error(`acp runtime: this JavaScript platform has no global ${name}`);
}
function newAbortController() {
  const Controller = platform.AbortController;
  if (!Controller)
    throw missing("AbortController");
  return new Controller();
}
function strictUtf8Decoder(keepBOM = false) {
  const Decoder = platform.TextDecoder;
  if (!Decoder)
    throw missing("TextDecoder");
  return new Decoder("utf-8", { fatal: true, ignoreBOM: keepBOM });
}
function lossyUtf8Decoder() {
  const Decoder = platform.TextDecoder;
  if (!Decoder)
    throw missing("TextDecoder");
  return new Decoder("utf-8", { fatal: false });
}
function utf8Encoder() {
  const Encoder = platform.TextEncoder;
  if (!Encoder)
    throw missing("TextEncoder");
  return new Encoder();
}
function consoleError(...values2) {
  platform.console?.error(...values2);
}
function consoleWarn(...values2) {
  platform.console?.warn(...values2);
}
function newResponse(body, status, headers) {
  const Response = platform.Response;
  if (!Response)
    throw missing("Response");
  return new Response(body, { status, headers });
}
function newByteStream(source) {
  const Stream = platform.ReadableStream;
  if (!Stream)
    throw missing("ReadableStream");
  return new Stream(source, { highWaterMark: 0 });
}
function platformFetch() {
  const fetch = platform.fetch;
  return fetch ? (url, init) => fetch(url, init) : void 0;
}
function platformWebSocket() {
  return platform.WebSocket;
}
function randomBytes(count2) {
  const crypto = platform.crypto;
  if (!crypto)
    throw missing("crypto");
  return crypto.getRandomValues(new Uint8Array(count2));
}
function startTimer(ms, callback, keepAlive = false) {
  const set = platform.setTimeout;
  const clear = platform.clearTimeout;
  if (!set || !clear)
    throw missing("setTimeout");
  const timer = set(callback, ms);
  if (!keepAlive)
    timer.unref?.();
  return { cancel: () => clear(timer) };
}
function sleep(ms) {
  return new Promise((resolve) => {
    startTimer(ms, resolve, true);
  });
}

// dist/runtime/incoming.js
function incomingOptions(options, unknownVariants) {
  const validate = options.validate ?? true;
  return {
    checkReceived: typeof validate === "boolean" ? validate : validate.received ?? true,
    checkSent: typeof validate === "boolean" ? validate : validate.sent ?? true,
    unknownVariants: unknownVariants ?? options.unknownVariants ?? "keep",
    log: options.log ?? defaultLog
  };
}
function defaultLog(event) {
  if (event.level !== "debug")
    consoleError(`acp: ${event.message}`);
}
var EXTENSION = /* @__PURE__ */ Symbol("extension");
var DROPPED = /* @__PURE__ */ Symbol("dropped");
function handlerOf(handlers, name) {
  const member = handlers?.[name];
  return typeof member === "function" ? member : void 0;
}
function extensionResult(result) {
  return result === void 0 ? null : result;
}
var IncomingCalls = class {
  constructor(routes, options) {
    this.routes = routes;
    this.options = options;
  }
  route(kind, method) {
    const entry = (kind === "request" ? this.routes.request : this.routes.notification).get(method);
    if (entry !== void 0)
      return entry;
    return method.startsWith("_") ? EXTENSION : void 0;
  }
  /** The answer to a request no handler serves (logged). */
  notFound(method, id) {
    this.note("warn", "unknown-method", `no handler for request ${method}`, { method, id });
    return wireErrors.methodNotFound(method);
  }
  /** A notification no handler takes, noted; DROPPED. */
  unhandled(method) {
    const level = method.startsWith("$/") ? "debug" : "warn";
    this.note(level, "unknown-method", `no handler for notification ${method}`, { method });
    return DROPPED;
  }
  /** A request's params as its handler receives them; throws the -32602 answer (logged). */
  requestParams(entry, params, id) {
    const received = this.read(entry, params);
    if ("value" in received)
      return received.value;
    const { invalid, unknown } = received;
    const message = unknown.length > 0 ? `a ${kindsOf(unknown)} this package does not know` : invalid.message;
    this.note("warn", unknown.length > 0 ? "unknown-variant" : "invalid-params", `invalid params for ${entry.method}: ${message}`, { method: entry.method, id, issues: invalid.issues });
    throw wireErrors.invalidParams({ type: invalid.type, issues: invalid.issues }, message);
  }
  /** A notification's params as its handler receives them, or DROPPED (logged). */
  notificationParams(entry, params) {
    const received = this.read(entry, params);
    if ("value" in received)
      return received.value;
    const { method } = entry;
    const { invalid, unknown } = received;
    if (unknown.length > 0)
      this.note("warn", "unknown-variant", `dropped ${method}: a ${kindsOf(unknown)} this package does not know`, { method, issues: invalid.issues });
    else
      this.note("warn", "invalid-params", `dropped ${method}: ${invalid.message}`, {
        method,
        issues: invalid.issues
      });
    return DROPPED;
  }
  /**
   * What a request's handler returned, as it is answered: an empty result filled; when it
   * fails the result's schema (and sent values are checked), the -32603 answer is thrown
   * (logged as the handler's fault).
   */
  answerOf(entry, returned, id) {
    const validator = entry.validateResult;
    const result = fillEmpty(returned, validator);
    if (!this.options.checkSent || !validator || validator(result))
      return result;
    const issues = issuesOf(validator);
    const problem = new ValidationError(entry.result ?? "result", issues);
    this.note("error", "invalid-result", `the ${entry.method} handler returned an ${problem.message}`, { method: entry.method, id, issues });
    throw wireErrors.internalError({ type: problem.type, issues }, `the handler returned an ${problem.message}`);
  }
  note(level, reason, message, detail = {}) {
    this.options.log({ ...detail, level, reason, message });
  }
  /**
   * Params read with the entry's parser (the open reading unless `unknownVariants:
   * "reject"`), or as they came when received values go unchecked. Unknown variants
   * delivered are noted at debug level, with their kinds.
   */
  read(entry, params) {
    const { checkReceived, unknownVariants } = this.options;
    if (!checkReceived)
      return { value: params, unknown: NONE2 };
    const received = receive(entry.parseParams, entry.validateParams, entry.params, params, unknownVariants);
    if ("value" in received && received.unknown.length > 0)
      this.note("debug", "unknown-variant", `${entry.method}: delivered a ${kindsOf(received.unknown)} this package does not know`, { method: entry.method });
    return received;
  }
};
var NONE2 = Object.freeze([]);

// dist/runtime/message-stream.js
var _a;
var _b;
var _c;
var _d;
var MALFORMED = /* @__PURE__ */ Symbol.for("acp-codegen.malformed-frame");
function isMalformedFrame(value) {
  return hasMark(value, MALFORMED);
}
function hasMark(value, mark) {
  return typeof value === "object" && value !== null && value[mark] === true;
}
var MalformedFrame = class {
  constructor(problem, size, detail = {}) {
    this[_a] = true;
    this.problem = problem;
    this.size = size;
    if (detail.text !== void 0)
      this.text = detail.text;
    if (detail.peek !== void 0)
      this.peek = detail.peek;
    if (detail.limit !== void 0)
      this.limit = detail.limit;
  }
};
_a = MALFORMED;
var REFUSED = /* @__PURE__ */ Symbol.for("acp-codegen.refused-message");
function isRefusedMessage(error) {
  return typeof error === "object" && error !== null && error[REFUSED] === true;
}
var MessageEncodingError = class extends Error {
  constructor(reason) {
    super(`message cannot be encoded as JSON${reason instanceof Error ? `: ${reason.message}` : ""}`);
    this.name = "MessageEncodingError";
    this[_b] = true;
    this.reason = reason;
  }
};
_b = REFUSED;
var MessageTooLargeError = class extends Error {
  constructor(what, size, limit) {
    super(`${what} is ${size} bytes encoded, over the limit of ${limit} bytes`);
    this.name = "MessageTooLargeError";
    this[_c] = true;
    this.size = size;
    this.limit = limit;
  }
};
_c = REFUSED;
var INPUT_ENDED = /* @__PURE__ */ Symbol.for("acp-codegen.input-ended");
function isInputEnded(error) {
  return hasMark(error, INPUT_ENDED);
}
var InputEndedError = class extends Error {
  constructor() {
    super(...arguments);
    this.name = "InputEndedError";
    this[_d] = true;
  }
};
_d = INPUT_ENDED;

// dist/runtime/negotiation.js
var other = (role) => role === "agent" ? "client" : "agent";
var Negotiation = class {
  constructor(role, spec, gates, options, note, serves) {
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
      return void 0;
    const [agent, client] = this.role === "agent" ? [this.own, this.peer] : [this.peer, this.own];
    return this.version === void 0 ? { agent, client } : { protocolVersion: this.version, agent, client };
  }
  /**
   * An outgoing call: the error it fails with, or undefined to send it. A client sending
   * `initialize` declares its own capabilities with it.
   */
  beforeSend(method, kind, params) {
    if (this.sent === "off" && !(this.role === "client" && method === this.spec.method)) {
      return void 0;
    }
    if (method === this.spec.method && kind === "request") {
      if (this.role === "client")
        this.declare(property(params, this.spec.capabilities.client));
      return void 0;
    }
    if (method.startsWith("$/"))
      return void 0;
    if (!this.done)
      return this.refuse(notInitialized(this.role, method), method, "not-initialized");
    for (const gate of this.outgoing[kind].get(method) ?? []) {
      if (declared(this.peer, gate.capability))
        continue;
      const problem = gate.content ? contentRefusal(this.spec, gate, params) : methodRefusal(this.spec, gate);
      if (problem)
        return this.refuse(problem, method, "capability-not-declared");
    }
    return void 0;
  }
  /**
   * A (parsed) answer to one of our requests. For the client's `initialize`: the error that
   * fails the call when the agent speaks another protocol version; otherwise the handshake
   * is done.
   */
  resultReceived(method, resultType, result) {
    if (this.role !== "client" || method !== this.spec.method)
      return void 0;
    const version = this.spec.version === void 0 ? void 0 : property(result, this.spec.version);
    const speaks = this.spec.versions;
    if (this.spec.version !== void 0 && this.sent !== "off" && !speaks.includes(version)) {
      const issue2 = {
        instancePath: `/${this.spec.version}`,
        keyword: "const",
        message: `is ${JSON.stringify(version)}, and this connection speaks protocol version ${speaks.join(" or ")}`
      };
      this.note("warn", "protocol-version", `the agent answered ${method} with protocol version ${JSON.stringify(version)}; this connection speaks ${speaks.join(" or ")}`, method);
      if (this.sent === "enforce")
        return new ValidationError(resultType ?? "result", [issue2]);
    }
    this.peer = property(result, this.spec.capabilities.agent) ?? {};
    this.version = typeof version === "number" ? version : void 0;
    this.done = true;
    return void 0;
  }
  /** A request received, as its handler gets it: for the agent, `initialize` brings the client's capabilities. */
  requestReceived(method, params) {
    if (this.role !== "agent" || method !== this.spec.method)
      return;
    this.peer = property(params, this.spec.capabilities.client) ?? {};
    const version = this.spec.version === void 0 ? void 0 : property(params, this.spec.version);
    this.version = typeof version === "number" ? version : void 0;
  }
  /** The result a handler answered with, about to be sent: the agent's `initialize` completes the handshake. */
  answering(method, result) {
    if (this.role !== "agent" || method !== this.spec.method)
      return;
    this.declare(property(result, this.spec.capabilities.agent));
    const version = this.spec.version === void 0 ? void 0 : property(result, this.spec.version);
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
    const gates = this.incoming[kind].get(method);
    if (!gates)
      return false;
    const missing2 = gates.find((g) => !declared(this.own, g.capability));
    if (!missing2)
      return false;
    const refused = this.received === "enforce";
    this.note("warn", "undeclared-method", `${refused ? "refused" : "served"} ${method}: this ${this.role} did not declare ${capabilityName(this.spec, missing2)}`, method);
    return refused;
  }
  /** This side's capabilities are now `capabilities`: report each promise its handlers do not keep. */
  declare(capabilities) {
    this.own = capabilities ?? {};
    const missing2 = /* @__PURE__ */ new Map();
    const unused = /* @__PURE__ */ new Map();
    for (const gate of this.gates) {
      if (gate.side !== this.role || gate.content || !gate.handlerRequired)
        continue;
      const name = capabilityName(this.spec, gate);
      const served = this.serves(gate.handler);
      const isDeclared = declared(this.own, gate.capability);
      const list = isDeclared && !served ? missing2 : !isDeclared && served ? unused : void 0;
      list?.set(name, [...list.get(name) ?? [], `${gate.handler} (${gate.method})`]);
    }
    for (const [name, handlers] of missing2) {
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
    return void 0;
  }
};
function capabilitiesFrom(gates, side, handlers, declared2 = {}) {
  const out = copy(declared2);
  const byCapability = /* @__PURE__ */ new Map();
  for (const gate of gates) {
    if (gate.side !== side || gate.content || !gate.handlerRequired)
      continue;
    const key = JSON.stringify(gate.capability);
    byCapability.set(key, [...byCapability.get(key) ?? [], gate]);
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
      const current = Object.hasOwn(node, key) ? node[key] : void 0;
      if (last) {
        if (!isRecord2(current))
          define(node, key, first.declare === true ? true : {});
      } else {
        const next = isRecord2(current) ? current : {};
        define(node, key, next);
        node = next;
      }
    }
  }
  return out;
}
function frozen(value) {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value))
      frozen(child);
    Object.freeze(value);
  }
  return value;
}
function byCall(gates) {
  const byKind = {
    request: /* @__PURE__ */ new Map(),
    notification: /* @__PURE__ */ new Map()
  };
  for (const gate of gates) {
    const map = byKind[gate.kind];
    map.set(gate.method, [...map.get(gate.method) ?? [], gate]);
  }
  return byKind;
}
function declared(capabilities, path) {
  let node = capabilities;
  for (const key of path) {
    if (!isRecord2(node) || !Object.hasOwn(node, key))
      return false;
    node = node[key];
  }
  return node === true || isRecord2(node);
}
function capabilityName(spec, gate) {
  return [spec.capabilities[gate.side], ...gate.capability].join(".");
}
function methodRefusal(spec, gate) {
  const capability = capabilityName(spec, gate);
  return new RequestError(-32601, `${gate.method} is not available: the ${gate.side} did not declare ${capability}`, { method: gate.method, capability });
}
function contentRefusal(spec, gate, params) {
  const content = gate.content;
  for (const at3 of content.at) {
    for (const { value, pointer } of valuesAt(params, at3)) {
      if (!isRecord2(value) || !Object.hasOwn(value, content.tag) || value[content.tag] !== content.value)
        continue;
      const capability = capabilityName(spec, gate);
      return new RequestError(-32602, `${gate.method} cannot carry ${content.type} "${content.value}" (at ${pointer || "the params"}): the ${gate.side} did not declare ${capability}`, { method: gate.method, capability, at: pointer });
    }
  }
  return void 0;
}
function notInitialized(role, method) {
  const first = role === "client" ? "send initialize and wait for its answer first" : "an agent calls its client only once it has answered initialize";
  return wireErrors.invalidRequest({ method, reason: "not-initialized" }, `${method} was called before initialize completed: ${first}`);
}
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
        else if (isRecord2(value))
          for (const key of Object.keys(value))
            next.push({ value: value[key], pointer: `${pointer}/${pointerToken(key)}` });
      } else if (isRecord2(value) && Object.hasOwn(value, step)) {
        next.push({ value: value[step], pointer: `${pointer}/${pointerToken(step)}` });
      }
    }
    level = next;
  }
  return level;
}
function property(value, name) {
  return isRecord2(value) && Object.hasOwn(value, name) ? value[name] : void 0;
}
function isRecord2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function pointerToken(token) {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
function copy(value) {
  if (Array.isArray(value))
    return value.map(copy);
  if (!isRecord2(value))
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
    configurable: true
  });
}

// dist/runtime/notification-order.js
var NotificationOrder = class {
  constructor() {
    this.received = 0;
    this.handled = 0;
    this.awaitable = 0;
    this.countHandled = () => {
      this.handled++;
    };
  }
  /**
   * Whether the answer to a call sent after `sentAfter` notifications is delivered as it
   * arrives rather than queued behind them: when they have all been handled, or when one
   * of those received before the call was sent still is.
   */
  answersAtOnce(sentAfter) {
    return this.handled === this.received || this.handled < sentAfter;
  }
};

// dist/runtime/connection.js
var CANCEL_REQUEST_METHOD = "$/cancel_request";
var ABANDONED_MEMORY = 1024;
var Threw = class {
  constructor(error) {
    this.error = error;
  }
};
var Connection = class {
  constructor(tables, stream, options = {}) {
    this.malformedLines = 0;
    this.lifetime = newAbortController();
    this.isClosed = false;
    this.pending = /* @__PURE__ */ new Map();
    this.order = new NotificationOrder();
    this.abandoned = /* @__PURE__ */ new Set();
    this.inFlight = /* @__PURE__ */ new Map();
    this.nextId = 0;
    this.arrivals = new ArrivalQueue((arrival) => this.start(arrival));
    this.resolveClosed = () => {
    };
    this.sendFailed = (error) => {
      if (isRefusedMessage(error))
        throw error;
      this.shutDown(new ConnectionClosedError(error, isInputEnded(error) ? "end-of-input" : "write-error"));
      throw this.closedError();
    };
    this.options = incomingOptions(options);
    this.incoming = new IncomingCalls(routesOf(tables.serves), this.options);
    this.called = routesOf(tables.calls);
    this.cancelEntry = tables.protocol?.find((m) => m.method === CANCEL_REQUEST_METHOD && m.kind === "notification");
    this.trace = options.trace;
    this.answerMalformed = options.malformedInput === "answer";
    const handshake = tables.negotiation;
    this.negotiation = handshake ? new Negotiation(handshake.role, handshake.spec, handshake.gates, options.capabilities, (level, reason, message, method) => this.note(level, reason, message, { method }), (name) => this.handler(name) !== void 0) : void 0;
    this.stream = tables.batches ? new BatchingStream(stream, { log: this.options.log, trace: this.trace }) : stream;
    this.writer = this.stream.writable.getWriter();
    this.closedPromise = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
  }
  /** Aborts when the connection closes; its reason is a `ConnectionClosedError`. */
  get signal() {
    return this.lifetime.signal;
  }
  /** Resolves once the connection has closed and its queued output was flushed. Never rejects. */
  get closed() {
    return this.closedPromise;
  }
  /** What `initialize` negotiated, once it has completed; undefined before (or without a handshake). */
  get negotiated() {
    return this.negotiation?.negotiated;
  }
  /**
   * Start reading, routing incoming calls to `handlers`: for each served method the member
   * named by its table entry; `extMethod`/`extNotification` for other names starting with `_`.
   */
  serve(handlers) {
    if (this.handlers)
      throw new Error("this connection is already serving handlers");
    this.handlers = handlers;
    void this.readLoop();
  }
  /** Send a request; resolves with the peer's result, rejects with its `RequestError`. */
  request(method, params, options = {}) {
    if (this.isClosed)
      return Promise.reject(this.closedError());
    const entry = this.called.request.get(method);
    const invalid = this.options.checkSent ? invalidParams(entry, params, true) : void 0;
    if (invalid)
      return Promise.reject(invalid);
    const refused = this.negotiation?.beforeSend(method, "request", params);
    if (refused)
      return Promise.reject(refused);
    const signal = options.signal;
    if (signal?.aborted)
      return Promise.reject(wireErrors.requestCancelled(void 0, "aborted before it was sent"));
    const id = this.nextId++;
    const sentAfter = this.order.received;
    const awaitable = this.order.handled < sentAfter;
    if (awaitable) {
      this.order.awaitable++;
      this.arrivals.wake();
    }
    return new Promise((resolve, reject) => {
      const cancelBy = entry?.cancelBy;
      const onAbort = cancelBy ? () => this.stopByNotification(id, cancelBy, params) : () => this.abandon(id);
      this.pending.set(id, {
        entry,
        sentAfter,
        awaitable,
        resolve,
        reject,
        release: () => signal?.removeEventListener("abort", onAbort)
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.send(params === void 0 ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }).catch((error) => this.settle(id)?.reject(error));
    });
  }
  /** Send a notification; resolves once it is handed to the transport. */
  notify(method, params) {
    if (this.isClosed)
      return Promise.reject(this.closedError());
    const invalid = this.options.checkSent ? invalidParams(this.called.notification.get(method), params, true) : void 0;
    if (invalid)
      return Promise.reject(invalid);
    const refused = this.negotiation?.beforeSend(method, "notification", params);
    if (refused)
      return Promise.reject(refused);
    return this.send(params === void 0 ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }
  /**
   * Sends the requests and notifications `calls` makes (synchronously) as one JSON-RPC
   * batch; returns what `calls` returned. Only where the surface allows batches.
   */
  batch(calls) {
    if (!(this.stream instanceof BatchingStream))
      throw new TypeError("this protocol version has no JSON-RPC batches");
    return this.stream.collect(calls);
  }
  /**
   * Close: pending calls reject with a `ConnectionClosedError`, handlers in flight see their
   * signal abort (their answers are not sent), input is cancelled and output closed after
   * what was already queued. Idempotent.
   */
  close(reason) {
    this.shutDown(new ConnectionClosedError(reason, "closed"));
  }
  shutDown(error) {
    if (this.isClosed)
      return;
    const reason = error.reason;
    this.isClosed = true;
    this.lifetime.abort(error);
    for (const call of this.pending.values()) {
      call.release();
      call.reject(error);
    }
    this.pending.clear();
    this.order.awaitable = 0;
    for (const controller of this.inFlight.values())
      controller.abort(error);
    this.inFlight.clear();
    this.arrivals.clear();
    this.reader?.cancel(reason).catch(ignore2);
    attempt(() => this.writer.close()).catch(ignore2).then(() => this.resolveClosed());
  }
  closedError() {
    const reason = this.lifetime.signal.reason;
    return reason instanceof ConnectionClosedError ? reason : new ConnectionClosedError(reason);
  }
  async readLoop() {
    try {
      const reader = this.stream.readable.getReader();
      this.reader = reader;
      for (; ; ) {
        if (this.order.awaitable === 0) {
          const room = this.arrivals.whenRoom();
          if (room)
            await room;
          if (this.isClosed)
            break;
        }
        const next = await reader.read();
        if (this.isClosed)
          break;
        if (next.done) {
          this.shutDown(new ConnectionClosedError(void 0, "end-of-input"));
          break;
        }
        this.trace?.({ direction: "received", message: next.value });
        this.receive(next.value);
      }
    } catch (error) {
      this.shutDown(new ConnectionClosedError(error, isInputEnded(error) ? "end-of-input" : "read-error"));
    }
  }
  receive(value) {
    if (isMalformedFrame(value)) {
      this.malformed(value);
      return;
    }
    const message = classify(value);
    switch (message.kind) {
      case "request":
        this.onRequest(message.id, message.method, message.params);
        break;
      case "notification":
        this.onNotification(message);
        break;
      case "result":
      case "error":
        this.onResponse(message);
        break;
      case "invalid":
        this.note("warn", "invalid-message", `invalid JSON-RPC message: ${message.reason}`, {
          id: message.id
        });
        if (message.answer) {
          this.answerWithError(message.id, wireErrors.invalidRequest(void 0, message.reason));
        }
    }
  }
  malformed(frame) {
    if (frame.problem === "too-large") {
      this.tooLarge(frame);
      return;
    }
    const what = frame.problem === "invalid-utf8" ? "not valid UTF-8" : "not valid JSON";
    const first = this.malformedLines++ === 0;
    this.note(first ? "warn" : "debug", frame.problem, `an incoming line of ${frame.size} bytes is ${what}${first && !this.answerMalformed ? "; dropped (later ones are logged at debug level)" : ""}`);
    if (this.answerMalformed)
      this.answerWithError(null, wireErrors.parseError(what));
  }
  /**
   * A message over the size limit was skipped. Its head usually names it: a request is
   * answered with its own id, so the peer's call fails instead of waiting; an answer to one
   * of our calls fails that call.
   */
  tooLarge(frame) {
    const { id, method, response } = frame.peek ?? {};
    const limit = frame.limit ?? Number.NaN;
    this.note("warn", "message-too-large", `skipped an incoming message of ${frame.size} bytes: over the size limit`, id === void 0 ? {} : { id });
    if (response && id !== void 0) {
      const call = this.settle(id);
      const what = call?.entry ? `the answer to ${call.entry.method}` : "the answer";
      call?.reject(new MessageTooLargeError(what, frame.size, limit));
      return;
    }
    if (method && id === void 0)
      return;
    if (id === void 0 && !this.answerMalformed)
      return;
    this.answerWithError(id ?? null, wireErrors.invalidRequest({ size: frame.size, limit }, "message too large"));
  }
  answerWithError(id, error) {
    this.send({ jsonrpc: "2.0", id, error: error.toErrorObject() }).catch(ignore2);
  }
  // --- incoming requests -------------------------------------------------------------------
  onRequest(id, method, params) {
    if (this.inFlight.has(id)) {
      this.note("warn", "duplicate-id", `request id ${JSON.stringify(id)} is already in flight`, {
        method,
        id
      });
      this.answerWithError(id, wireErrors.invalidRequest({ id }, "request id already in flight"));
      return;
    }
    const controller = newAbortController();
    this.inFlight.set(id, controller);
    const context = { method, requestId: id, signal: controller.signal };
    this.arrivals.push({ kind: "request", context, params, controller });
  }
  /** Starts a queued call (see {@link ArrivalQueue}): a promise while later calls must wait. */
  start(arrival) {
    switch (arrival.kind) {
      case "notification":
        return this.runNotification(arrival.method, arrival.params);
      case "request":
        void this.answer(arrival.context, arrival.params, arrival.controller);
        return void 0;
      default:
        this.deliver(arrival);
        return void 0;
    }
  }
  async answer(context, params, controller) {
    const { requestId: id, method } = context;
    let response;
    try {
      response = { jsonrpc: "2.0", id, result: await this.runRequest(context, params) };
    } catch (error) {
      response = { jsonrpc: "2.0", id, error: this.errorObjectFor(error, context, controller) };
    }
    if (this.inFlight.get(id) === controller)
      this.inFlight.delete(id);
    if (this.isClosed)
      return;
    if ("result" in response)
      this.negotiation?.answering(method, response.result);
    await this.send(response).catch((error) => {
      if (!isRefusedMessage(error))
        return;
      if (error.name === "MessageTooLargeError") {
        const { size, limit } = error;
        this.note("error", "message-too-large", `the ${method} result is ${size} bytes, over the limit of ${limit}`, {
          method,
          id,
          error
        });
        this.answerWithError(id, wireErrors.internalError({ size, limit }, "result over the message size limit"));
        return;
      }
      this.note("error", "encode-error", `the ${method} result cannot be encoded as JSON`, {
        method,
        id,
        error
      });
      this.answerWithError(id, wireErrors.internalError(void 0, "result cannot be encoded as JSON"));
    });
  }
  async runRequest(context, params) {
    const { method, requestId: id } = context;
    if (this.isClosed)
      throw this.closedError();
    const incoming = this.incoming;
    const entry = incoming.route("request", method);
    if (entry === EXTENSION) {
      const ext = this.handler("extMethod");
      if (!ext)
        throw incoming.notFound(method, id);
      return extensionResult(await ext.call(this.handlers, method, params, context));
    }
    if (entry && this.negotiation?.refuses(method, "request"))
      throw wireErrors.methodNotFound(method);
    const handler = entry && this.handler(entry.handler);
    if (!entry || !handler)
      throw incoming.notFound(method, id);
    const value = incoming.requestParams(entry, params, id);
    this.negotiation?.requestReceived(method, value);
    return incoming.answerOf(entry, await handler.call(this.handlers, value, context), id);
  }
  errorObjectFor(error, context, controller) {
    if (error instanceof RequestError)
      return error.toErrorObject();
    if (controller.signal.aborted)
      return wireErrors.requestCancelled().toErrorObject();
    const { method, requestId: id } = context;
    this.note("error", "handler-error", `the ${method} handler failed: ${describe(error)}`, {
      method,
      id,
      error
    });
    return wireErrors.internalError({ message: describe(error) }, `the ${method} handler failed: ${describe(error)}`).toErrorObject();
  }
  // --- incoming notifications ----------------------------------------------------------------
  onNotification(message) {
    if (this.cancelEntry && message.method === this.cancelEntry.method) {
      this.onCancelRequest(this.cancelEntry, message.params);
      return;
    }
    this.order.received++;
    this.arrivals.push(message);
  }
  /**
   * Calls the handler; a promise when it is asynchronous. Never rejects: the queue must go
   * on. Counts the notification handled once the handler has returned or settled.
   */
  runNotification(method, params) {
    const result = this.isClosed ? DROPPED : this.callNotificationHandler(method, params);
    if (result instanceof Threw) {
      this.notificationFailed(method, result.error);
      return void 0;
    }
    if (result !== DROPPED && isThenable(result))
      return Promise.resolve(result).then(this.order.countHandled, (error) => this.notificationFailed(method, error));
    this.order.handled++;
    return void 0;
  }
  notificationFailed(method, error) {
    this.order.handled++;
    this.note("error", "handler-error", `the ${method} handler failed: ${describe(error)}`, {
      method,
      error
    });
  }
  /**
   * Calls the handler of one notification: what it returned, what it threw (as a `Threw`),
   * or DROPPED when the notification does not reach a handler (logged).
   */
  callNotificationHandler(method, params) {
    const context = { method, signal: this.lifetime.signal };
    const incoming = this.incoming;
    const entry = incoming.route("notification", method);
    if (entry === EXTENSION) {
      const ext = this.handler("extNotification");
      if (!ext) {
        incoming.note("debug", "unknown-method", `no extNotification handler for ${method}`, {
          method
        });
        return DROPPED;
      }
      try {
        return ext.call(this.handlers, method, params, context);
      } catch (error) {
        return new Threw(error);
      }
    }
    if (entry && this.negotiation?.refuses(method, "notification"))
      return DROPPED;
    const handler = entry && this.handler(entry.handler);
    if (!entry || !handler)
      return incoming.unhandled(method);
    const value = incoming.notificationParams(entry, params);
    if (value === DROPPED)
      return DROPPED;
    try {
      return handler.call(this.handlers, value, context);
    } catch (error) {
      return new Threw(error);
    }
  }
  onCancelRequest(entry, params) {
    const invalid = this.options.checkReceived ? invalidParams(entry, params) : void 0;
    const requestId = typeof params === "object" && params !== null ? params.requestId : void 0;
    if (invalid || !isJsonRpcId(requestId)) {
      const issues = invalid?.issues;
      this.note("warn", "invalid-params", `dropped ${entry.method}: no valid requestId`, {
        method: entry.method,
        ...issues ? { issues } : {}
      });
      return;
    }
    const controller = this.inFlight.get(requestId);
    if (!controller) {
      this.note("debug", "unknown-cancel", `${entry.method} for ${JSON.stringify(requestId)}, which is not in flight`, { id: requestId });
      return;
    }
    controller.abort(wireErrors.requestCancelled({ requestId }));
  }
  // --- incoming responses --------------------------------------------------------------------
  /**
   * Hands an answer to its call once every notification received before it has been
   * handled: an agent sends a turn's updates before it answers the prompt, and the caller
   * must see the turn end after them. The exception: when a notification received before
   * the request was sent is still being handled, that handler may be waiting for this very
   * answer (a handler that calls the peer), so it is delivered at once rather than never.
   */
  onResponse(message) {
    const call = this.pending.get(message.id);
    if (!call || this.order.answersAtOnce(call.sentAfter)) {
      this.deliver(message);
      return;
    }
    this.arrivals.push(message);
  }
  deliver(message) {
    if (message.kind === "result")
      this.onResult(message.id, message.result);
    else
      this.onErrorResponse(message.id, message.error);
  }
  onResult(id, value) {
    const call = this.settle(id);
    if (!call) {
      this.unmatched(id);
      return;
    }
    const validator = call.entry?.validateResult;
    const filled = fillEmpty(value, validator);
    const received = this.options.checkReceived && call.entry ? receive(call.entry.parseResult, validator, call.entry.result ?? "result", filled) : { value: filled, unknown: [] };
    if ("invalid" in received && call.entry) {
      const problem = received.invalid;
      const what = received.unknown.length > 0 ? `a ${kindsOf(received.unknown)} this package does not know` : `an ${problem.message}`;
      this.note("warn", "invalid-result", `${call.entry.method} answered with ${what}`, {
        method: call.entry.method,
        id,
        issues: problem.issues
      });
      call.reject(problem);
      return;
    }
    const result = "value" in received ? received.value : filled;
    const unspoken = call.entry && this.negotiation?.resultReceived(call.entry.method, call.entry.result, result);
    if (unspoken)
      call.reject(unspoken);
    else
      call.resolve(result);
  }
  onErrorResponse(id, error) {
    const call = this.settle(id);
    if (!call) {
      this.unmatched(id, error);
      return;
    }
    call.reject(new RequestError(error.code, error.message, error.data));
  }
  unmatched(id, error) {
    if (id === null && error) {
      this.note("debug", "unattributed-error", `the peer reported an error not tied to a request: ${error.code} ${error.message}`);
    } else if (this.abandoned.delete(id)) {
      this.note("debug", "late-response", `dropped the answer to cancelled request ${JSON.stringify(id)}`, { id });
    } else {
      this.note("warn", "unknown-response-id", `dropped a response to unknown request id ${JSON.stringify(id)}`, { id });
    }
  }
  /** Takes a pending call out of the table, or undefined if it is not (or no longer) pending. */
  settle(id) {
    const call = this.pending.get(id);
    if (!call)
      return void 0;
    this.pending.delete(id);
    if (call.awaitable)
      this.order.awaitable--;
    call.release();
    return call;
  }
  /**
   * The caller aborted a call the protocol stops with a notification (`session/prompt`:
   * `session/cancel`): send it, and keep waiting, since the peer still answers the call
   * (ACP: with `stopReason: "cancelled"`). Peers seen in the field ignore
   * `$/cancel_request` but honour this.
   */
  stopByNotification(id, cancelBy, params) {
    const call = this.pending.get(id);
    if (!call)
      return;
    call.release();
    const source = typeof params === "object" && params !== null ? params : {};
    const copied = {};
    for (const key of cancelBy.copy)
      if (Object.hasOwn(source, key))
        copied[key] = source[key];
    this.notify(cancelBy.method, copied).catch((error) => {
      this.note("warn", "cancel-failed", `could not send ${cancelBy.method}: ${describe(error)}`, {
        method: cancelBy.method,
        id,
        error
      });
    });
  }
  /** The caller aborted: stop waiting, tell the peer, drop its answer when it comes. */
  abandon(id) {
    const call = this.settle(id);
    if (!call)
      return;
    this.abandoned.add(id);
    if (this.abandoned.size > ABANDONED_MEMORY)
      this.abandoned.delete(this.abandoned.values().next().value);
    if (this.cancelEntry)
      this.send({
        jsonrpc: "2.0",
        method: this.cancelEntry.method,
        params: { requestId: id }
      }).catch(ignore2);
    call.reject(wireErrors.requestCancelled({ requestId: id }, "cancelled by the caller"));
  }
  // --- output --------------------------------------------------------------------------------
  /**
   * Hand one message to the writer, which keeps messages whole and in order (see
   * `StreamWriter`). A transport failure closes the connection; a message the transport
   * refuses (it cannot be encoded, or is over the size limit) fails only its own call.
   */
  send(message) {
    if (this.isClosed)
      return Promise.reject(this.closedError());
    let written;
    try {
      written = this.writer.write(message);
    } catch (error) {
      written = Promise.reject(error);
    }
    const trace = this.trace;
    return (trace ? written.then(() => trace({ direction: "sent", message })) : written).then(void 0, this.sendFailed);
  }
  note(level, reason, message, detail) {
    this.incoming.note(level, reason, message, detail);
  }
  handler(name) {
    return handlerOf(this.handlers, name);
  }
};
function isThenable(value) {
  return typeof value?.then === "function";
}
function describe(error) {
  return error instanceof Error ? error.message : String(error);
}
function ignore2() {
}
function attempt(run2) {
  try {
    return run2();
  } catch (error) {
    return Promise.reject(error);
  }
}

// dist/runtime/formats.js
function integerIn(min, max) {
  return { type: "number", validate: (n) => Number.isInteger(n) && n >= min && n <= max };
}
var TWO_63 = 2 ** 63;
var TWO_64 = 2 ** 64;
var formats = {
  int8: integerIn(-128, 127),
  int16: integerIn(-32768, 32767),
  int32: integerIn(-2147483648, 2147483647),
  int64: { type: "number", validate: (n) => Number.isInteger(n) && n >= -TWO_63 && n < TWO_63 },
  uint8: integerIn(0, 255),
  uint16: integerIn(0, 65535),
  uint32: integerIn(0, 4294967295),
  uint64: { type: "number", validate: (n) => Number.isInteger(n) && n >= 0 && n < TWO_64 },
  uint: { type: "number", validate: (n) => Number.isInteger(n) && n >= 0 && n < TWO_64 }
};

// dist/runtime/handle.js
var STATE = /* @__PURE__ */ Symbol("acp-codegen.handle");
function handlePrototype(spec) {
  const proto = {};
  for (const [member, method] of Object.entries(spec.methods)) {
    proto[member] = function(extra, options) {
      const state = this[STATE];
      return state.request(method, { ...extra, ...state.params }, options);
    };
  }
  const asyncDispose = Symbol.asyncDispose;
  const dispose = spec.dispose === void 0 ? void 0 : proto[spec.dispose];
  if (typeof asyncDispose === "symbol" && dispose) {
    proto[asyncDispose] = async function() {
      await dispose.call(this);
    };
  }
  return Object.freeze(proto);
}
function makeHandle(proto, spec, request, createParams, result) {
  if (typeof result !== "object" || result === null)
    return result;
  const source = typeof createParams === "object" && createParams !== null ? createParams : {};
  const params = {};
  for (const key of spec.scope)
    if (Object.hasOwn(source, key))
      params[key] = source[key];
  params[spec.id] = result[spec.id];
  const handle = Object.assign(Object.create(proto), result);
  Object.defineProperty(handle, STATE, { value: { request, params: Object.freeze(params) } });
  return handle;
}

// dist/runtime/line-framing.js
var LF = 10;
var OVERSIZE_HEAD_BYTES = 512;
var LineFramer = class {
  constructor(maxLineBytes) {
    this.pieces = [];
    this.pending = 0;
    this.head = new Uint8Array(0);
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes <= 0) {
      throw new RangeError(`maxMessageBytes must be a positive integer, got ${maxLineBytes}`);
    }
    this.maxLineBytes = maxLineBytes;
  }
  /**
   * The lines `chunk` completes, in order; the rest waits for a later chunk or `end()`. The
   * first completes what earlier chunks left; the ones after it lie wholly in `chunk`, and
   * come as one `lines` frame when there are several and together they are within the cap
   * (then each one is).
   */
  push(chunk) {
    const frames = [];
    const first = chunk.indexOf(LF);
    if (first === -1) {
      this.hold(chunk);
      return frames;
    }
    frames.push(this.finish(chunk.subarray(0, first)));
    let start = first + 1;
    const second = chunk.indexOf(LF, start);
    if (second !== -1) {
      const last = chunk.lastIndexOf(LF);
      if (second < last && last - start <= this.maxLineBytes) {
        frames.push({ kind: "lines", bytes: chunk.subarray(start, last) });
        start = last + 1;
      } else {
        for (let newline = second; newline !== -1; newline = chunk.indexOf(LF, start)) {
          frames.push(this.finish(chunk.subarray(start, newline)));
          start = newline + 1;
        }
      }
    }
    this.hold(chunk.subarray(start));
    return frames;
  }
  /** End of input: a last line without its newline still counts. */
  end() {
    if (this.skipped === void 0 && this.pending === 0)
      return [];
    return [this.finish(new Uint8Array(0))];
  }
  hold(rest) {
    if (rest.length === 0)
      return;
    if (this.skipped !== void 0) {
      this.skipped += rest.length;
    } else if (this.pending + rest.length > this.maxLineBytes) {
      this.skipped = this.pending + rest.length;
      this.head = this.headOf(rest);
      this.pieces = [];
      this.pending = 0;
    } else {
      this.pieces.push(rest.slice());
      this.pending += rest.length;
    }
  }
  finish(tail) {
    const size = (this.skipped ?? this.pending) + tail.length;
    const oversize = this.skipped !== void 0 || size > this.maxLineBytes;
    let frame;
    if (!oversize)
      frame = { kind: "line", bytes: this.join(tail) };
    else if (this.skipped !== void 0)
      frame = { kind: "oversize", size, head: this.head };
    else
      frame = { kind: "oversize", size, head: this.headOf(tail) };
    this.pieces = [];
    this.pending = 0;
    this.skipped = void 0;
    this.head = new Uint8Array(0);
    return frame;
  }
  /** The first OVERSIZE_HEAD_BYTES of the held pieces followed by `tail`, copied. */
  headOf(tail) {
    const head = new Uint8Array(Math.min(OVERSIZE_HEAD_BYTES, this.pending + tail.length));
    let offset = 0;
    for (const piece of [...this.pieces, tail]) {
      if (offset === head.length)
        break;
      const part = piece.subarray(0, head.length - offset);
      head.set(part, offset);
      offset += part.length;
    }
    return head;
  }
  join(tail) {
    if (this.pieces.length === 0)
      return tail;
    const line = new Uint8Array(this.pending + tail.length);
    let offset = 0;
    for (const piece of this.pieces) {
      line.set(piece, offset);
      offset += piece.length;
    }
    line.set(tail, offset);
    return line;
  }
};
function splitLines(bytes) {
  const frames = [];
  let start = 0;
  for (let newline = bytes.indexOf(LF); newline !== -1; newline = bytes.indexOf(LF, start)) {
    frames.push({ kind: "line", bytes: bytes.subarray(start, newline) });
    start = newline + 1;
  }
  frames.push({ kind: "line", bytes: bytes.subarray(start) });
  return frames;
}

// dist/runtime/peek.js
function peek(head) {
  let i = 0;
  const n = head.length;
  const found = {};
  const skipSpace = () => {
    while (i < n && " 	\r\n".includes(head[i]))
      i++;
  };
  const readString = () => {
    const start = i;
    i++;
    while (i < n) {
      const c = head[i];
      if (c === "\\")
        i += 2;
      else if (c === '"') {
        i++;
        try {
          return JSON.parse(head.slice(start, i));
        } catch {
          return void 0;
        }
      } else
        i++;
    }
    return void 0;
  };
  const skipValue = () => {
    let depth = 0;
    while (i < n) {
      const c = head[i];
      if (c === '"') {
        if (readString() === void 0)
          return false;
      } else if (c === "{" || c === "[") {
        depth++;
        i++;
      } else if (c === "}" || c === "]") {
        if (depth === 0)
          return true;
        depth--;
        i++;
        if (depth === 0)
          return true;
      } else if (c === "," && depth === 0) {
        return true;
      } else {
        i++;
      }
    }
    return false;
  };
  skipSpace();
  if (head[i] !== "{")
    return found;
  i++;
  for (; ; ) {
    skipSpace();
    if (head[i] !== '"')
      return found;
    const key = readString();
    if (key === void 0)
      return found;
    skipSpace();
    if (head[i] !== ":")
      return found;
    i++;
    skipSpace();
    if (key === "method")
      found.method = true;
    if (key === "result" || key === "error")
      found.response = true;
    if (key === "id") {
      const start = i;
      if (!skipValue() || i >= n)
        return found;
      try {
        const id = JSON.parse(head.slice(start, i));
        if (isJsonRpcId(id))
          found.id = id;
      } catch {
        return found;
      }
    } else if (!skipValue()) {
      return found;
    }
    skipSpace();
    if (head[i] !== ",")
      return found;
    i++;
  }
}

// dist/runtime/ndjson-stream.js
var DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
var CR = 13;
var BOM = 65279;
var SKIP = /* @__PURE__ */ Symbol("blank line");
function ndJsonStream(output, input, options = {}) {
  const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const framer = new LineFramer(limit);
  return { readable: lineReadable(input, framer, limit), writable: lineWritable(output, limit) };
}
function lineReadable(input, framer, limit) {
  const decoder = strictUtf8Decoder();
  const runDecoder = strictUtf8Decoder(true);
  const encoder = utf8Encoder();
  let locked = false;
  return {
    getReader() {
      if (locked)
        throw new TypeError("ndJsonStream: the readable side is already locked to a reader");
      locked = true;
      const source = input.getReader();
      let frames = [];
      let next = 0;
      let run2;
      let at3 = 0;
      let ended = false;
      return {
        async read() {
          for (; ; ) {
            while (run2 !== void 0) {
              const end = run2.indexOf("\n", at3);
              const line = end === -1 ? run2.slice(at3) : run2.slice(at3, end);
              if (end === -1)
                run2 = void 0;
              else
                at3 = end + 1;
              const value = textValue(line, encoder);
              if (value !== SKIP)
                return { done: false, value };
            }
            if (next < frames.length) {
              const frame = frames[next++];
              if (frame.kind === "lines") {
                at3 = 0;
                run2 = decodeRun(frame.bytes, runDecoder);
                if (run2 === void 0)
                  frames.splice(next, 0, ...splitLines(frame.bytes));
                continue;
              }
              const value = toValue(frame, decoder, limit);
              if (value !== SKIP)
                return { done: false, value };
              continue;
            }
            frames = [];
            next = 0;
            if (ended)
              return { done: true };
            const chunk = await source.read();
            if (chunk.done) {
              ended = true;
              frames = framer.end();
            } else if (chunk.value) {
              frames = framer.push(chunk.value);
            }
          }
        },
        releaseLock() {
          locked = false;
          source.releaseLock();
        },
        cancel(reason) {
          ended = true;
          frames = [];
          run2 = void 0;
          return source.cancel(reason);
        }
      };
    }
  };
}
function decodeRun(bytes, decoder) {
  try {
    return decoder.decode(bytes);
  } catch {
    return void 0;
  }
}
function textValue(line, encoder) {
  let text = line;
  if (text.charCodeAt(text.length - 1) === CR)
    text = text.slice(0, -1);
  if (text.charCodeAt(0) === BOM)
    text = text.slice(1);
  if (text.trim() === "")
    return SKIP;
  try {
    return JSON.parse(text);
  } catch {
    return new MalformedFrame("parse-error", encoder.encode(line).length, { text });
  }
}
function toValue(frame, decoder, limit) {
  if (frame.kind === "oversize") {
    const peeked = peek(lossyUtf8Decoder().decode(frame.head));
    return new MalformedFrame("too-large", frame.size, { peek: peeked, limit });
  }
  const bytes = frame.bytes[frame.bytes.length - 1] === CR ? frame.bytes.subarray(0, -1) : frame.bytes;
  let text;
  try {
    text = decoder.decode(bytes);
  } catch {
    return new MalformedFrame("invalid-utf8", frame.bytes.length, {
      text: lossyUtf8Decoder().decode(bytes)
    });
  }
  if (text.trim() === "")
    return SKIP;
  try {
    return JSON.parse(text);
  } catch {
    return new MalformedFrame("parse-error", frame.bytes.length, { text });
  }
}
function lineWritable(output, limit) {
  const encoder = utf8Encoder();
  return {
    getWriter() {
      const sink = output.getWriter();
      return {
        // A batch is one line, as JSON-RPC's batch array (v2's stdio carries them so).
        write(message) {
          let text;
          try {
            text = JSON.stringify(message);
          } catch (error) {
            return Promise.reject(new MessageEncodingError(error));
          }
          if (text === void 0)
            return Promise.reject(new MessageEncodingError(void 0));
          const bytes = encoder.encode(`${text}
`);
          if (bytes.length - 1 > limit)
            return Promise.reject(new MessageTooLargeError(describe2(message), bytes.length - 1, limit));
          return sink.write(bytes);
        },
        close: () => sink.close(),
        releaseLock: () => sink.releaseLock()
      };
    }
  };
}
function describe2(message) {
  if (isBatch2(message))
    return `a batch of ${message.length} messages`;
  if ("method" in message)
    return "id" in message ? `the ${message.method} request` : `the ${message.method} notification`;
  return `the answer to request ${JSON.stringify(message.id)}`;
}
function isBatch2(message) {
  return Array.isArray(message);
}

// dist/runtime/null-result.js
function validateNullResult(value) {
  const valid = value === null;
  validateNullResult.errors = valid ? null : MUST_BE_NULL;
  return valid;
}
validateNullResult.errors = null;
var MUST_BE_NULL = Object.freeze([
  Object.freeze({ instancePath: "", message: "must be null", keyword: "type" })
]);
function parseNullResult(_value) {
  return null;
}

// dist/runtime/parse-values.js
var hasOwn = (object, key) => Object.hasOwn(object, key);
var PROTO = "__proto__";
function isDict(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function put(object, key, value) {
  if (key === PROTO)
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true
    });
  else
    object[key] = value;
}
function copyOf(object) {
  const out = {};
  for (const key of Object.keys(object))
    put(out, key, object[key]);
  return out;
}
function fresh(value) {
  if (Array.isArray(value))
    return value.map(fresh);
  if (isDict(value)) {
    const out = {};
    for (const key of Object.keys(value))
      if (key !== PROTO)
        out[key] = fresh(value[key]);
    return out;
  }
  return value;
}
function free(value) {
  if (typeof value !== "object" || value === null || !holdsProto(value))
    return value;
  const root = Array.isArray(value) ? [] : {};
  const stack = [[value, root]];
  for (let pair = stack.pop(); pair; pair = stack.pop()) {
    const [source, target] = pair;
    const take = (item) => {
      if (typeof item !== "object" || item === null)
        return item;
      const copy2 = Array.isArray(item) ? [] : {};
      stack.push([item, copy2]);
      return copy2;
    };
    if (Array.isArray(source))
      for (const item of source)
        target.push(take(item));
    else
      for (const key of Object.keys(source))
        if (key !== PROTO)
          target[key] = take(source[key]);
  }
  return root;
}
function holdsProto(value) {
  const stack = [value];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (Array.isArray(next)) {
      for (const item of next)
        if (typeof item === "object" && item !== null)
          stack.push(item);
      continue;
    }
    if (hasOwn(next, PROTO))
      return true;
    for (const key of Object.keys(next)) {
      const item = next[key];
      if (typeof item === "object" && item !== null)
        stack.push(item);
    }
  }
  return false;
}
function partialCopy(object, keys, count2) {
  const out = {};
  for (let i = 0; i < count2; i++) {
    const key = keys[i];
    if (key !== PROTO)
      out[key] = object[key];
  }
  return out;
}

// dist/runtime/parse-choice.js
var NONE3 = -2;
var Variant = class {
  constructor(node, check, open, repair) {
    this.node = node;
    this.check = check;
    this.open = open;
    this.repair = repair;
  }
};
var Union = class {
  constructor(tag2, closed, byTag, other2, objects, arrays) {
    this.tag = tag2;
    this.closed = closed;
    this.byTag = byTag;
    this.other = other2;
    this.objects = objects;
    this.arrays = arrays;
  }
};
function variantOf(v) {
  return new Variant(v.node ?? NONE3, v.check ?? NONE3, v.open ?? v.check ?? NONE3, v.repair ?? NONE3);
}
function unionOf(union) {
  const byTag = /* @__PURE__ */ new Map();
  const objects = [];
  const arrays = [];
  let other2 = null;
  for (const v of union.variants) {
    const variant = variantOf(v);
    if (v.tag !== void 0)
      byTag.set(v.tag, variant);
    else if (v.other)
      other2 = variant;
    else {
      if (v.kinds === void 0 || v.kinds === "object")
        objects.push(variant);
      if (v.kinds === void 0 || v.kinds === "array")
        arrays.push(variant);
    }
  }
  return new Union(union.tag ?? null, union.closed === true, byTag, other2, objects, arrays);
}
var VariantChoice = class {
  constructor(checks, repairs) {
    this.checks = checks;
    this.repairs = repairs;
  }
  /**
   * What `v` reads `value` as: the value itself when it deserializes as it is, the value
   * repaired by the variant's own rules when that deserializes, else undefined (no JSON
   * value is).
   */
  readAs(v, value, reading) {
    const check = reading ? v.open : v.check;
    if (check === NONE3 || this.checks[check](value))
      return value;
    if (v.repair === NONE3)
      return void 0;
    return this.repairs.repairedAs(value, v.repair, check);
  }
  /**
   * The variant serde reads `value` as: the tag's own variant when it deserializes, else
   * the untagged variants in schema order (the tag is then ignored). The value is valid, so
   * the last candidate needs no check, unless an unknown variant may be kept (the open
   * reading). Null: no variant, or an unknown one the open reading keeps whole (reported
   * to its sink).
   */
  choose(union, value, reading) {
    const array = Array.isArray(value);
    const untagged = array ? union.arrays : union.objects;
    let own = null;
    let unknownTag = false;
    if (union.tag !== null && !array && hasOwn(value, union.tag)) {
      const tag2 = value[union.tag];
      if (typeof tag2 === "string") {
        own = union.byTag.get(tag2) ?? union.other;
        unknownTag = own === null;
      }
    }
    const keepUnknown = reading !== false && unknownTag && union.closed;
    if (own !== null) {
      if (untagged.length === 0)
        return { variant: own, value };
      const read = this.readAs(own, value, reading);
      if (read !== void 0)
        return { variant: own, value: read };
    }
    if (untagged.length === 0)
      return keepUnknown ? keptUnknown(union, value, reading) : null;
    const last = untagged.length - 1;
    for (let i = 0; i < last; i++) {
      const v = untagged[i];
      const read = this.readAs(v, value, reading);
      if (read !== void 0)
        return { variant: v, value: read };
    }
    const final = untagged[last];
    if (keepUnknown && this.readAs(final, value, reading) === void 0)
      return keptUnknown(union, value, reading);
    return { variant: final, value };
  }
};
function keptUnknown(union, value, reading) {
  reading.onUnknown?.({
    tag: union.tag,
    kind: value[union.tag]
  });
  return null;
}

// dist/runtime/parse-context.js
var SILENT = Object.freeze({ onUnknown: void 0 });
function openReading(onUnknown) {
  return onUnknown === void 0 ? SILENT : { onUnknown };
}

// dist/runtime/parse-envelope.js
var ID = "id";
function envelope(base, spec) {
  const { type, validator, open, contents } = spec;
  return (value, options) => {
    if (!isDict(value))
      return base(value, options);
    const held = contents.filter((c) => hasOwn(value, c.property) && value[c.property] != null);
    const carried = held.find((c) => c.id === void 0 || c.id === hasOwn(value, ID)) ?? held[0];
    if (carried === void 0)
      return base(value, options);
    const { property: property2, method: named, by } = carried;
    const content = value[property2];
    const method = named === void 0 ? options?.method : value[named];
    const read = typeof method === "string" ? by.get(method) : void 0;
    if (read !== void 0) {
      let parsed;
      try {
        parsed = read(content, options);
      } catch (error) {
        throw under(error, type, property2);
      }
      return withContent(base(withContent(value, property2, parsed), options), property2, parsed);
    }
    const rest = base(value, options);
    const whole = withContent(rest, property2, free(content));
    const keep = options?.unknownVariants === "keep" && open !== void 0 ? open : validator;
    return whole !== rest && keep(whole) ? whole : rest;
  };
}
function withContent(message, property2, content) {
  if (!isDict(message) || !hasOwn(message, property2))
    return message;
  const out = copyOf(message);
  put(out, property2, content);
  return out;
}
function under(error, type, property2) {
  if (!(error instanceof ValidationError))
    return error;
  const prefix = `/${property2.replace(/~/g, "~0").replace(/\//g, "~1")}`;
  return new ValidationError(type, error.issues.map((issue2) => ({ ...issue2, instancePath: `${prefix}${issue2.instancePath}` })));
}

// dist/runtime/parse-guards.js
function variantGuard(checks, tag2, variants, other2) {
  const byTag = new Map(variants);
  return (value, wanted) => {
    if (!isDict(value) || !hasOwn(value, tag2) || value[tag2] !== wanted)
      return false;
    const check = byTag.get(wanted) ?? other2;
    return check !== void 0 && checks[check](value);
  };
}
function customGuard(checks, tag2, known, other2) {
  return (value) => {
    if (!isDict(value) || !hasOwn(value, tag2))
      return false;
    const actual = value[tag2];
    return typeof actual === "string" && !known.includes(actual) && checks[other2](value);
  };
}
function untaggedGuard(tag2, whole) {
  return (value) => isDict(value) && !hasOwn(value, tag2) && whole(value);
}

// dist/runtime/parse-repair.js
var Repairs = class {
  constructor(nodeTable, checks) {
    this.nodeTable = nodeTable;
    this.checks = checks;
    this.variantMaps = /* @__PURE__ */ new Map();
  }
  passes(check, value) {
    return check === void 0 || this.checks[check](value);
  }
  /** Walk an invalid `value` through repair node `index`: annotations act on what fails its check. */
  repair(value, index) {
    const node = this.nodeTable()[index];
    let out = value;
    if (isDict(out)) {
      if (node.properties)
        out = this.properties(out, node.properties);
      if (node.values !== void 0)
        out = this.values(out, node);
    } else if (Array.isArray(out)) {
      out = this.items(out, node);
    }
    if (node.union)
      out = this.union(out, node.union);
    if (node.allOf)
      for (const part of node.allOf)
        out = this.repair(out, part);
    return out;
  }
  /** `value` repaired by node `index`, when it then passes check `check`; else undefined. */
  repairedAs(value, index, check) {
    const fixed = this.repair(value, index);
    return fixed !== value && this.checks[check](fixed) ? fixed : void 0;
  }
  properties(object, properties) {
    let copy2;
    const target = () => {
      if (!copy2)
        copy2 = copyOf(object);
      return copy2;
    };
    for (const p of properties) {
      if (!hasOwn(object, p.name)) {
        if (hasOwn(p, "default"))
          put(target(), p.name, fresh(p.default));
        continue;
      }
      const value = object[p.name];
      if (value === null && hasOwn(p, "onNull")) {
        put(target(), p.name, fresh(p.onNull));
        continue;
      }
      let next = p.node === void 0 ? value : this.repair(value, p.node);
      if (p.onError !== void 0 && !this.passes(p.onError, next)) {
        if (hasOwn(p, "fallback"))
          next = fresh(p.fallback);
        else if (p.omit) {
          delete target()[p.name];
          continue;
        }
      }
      if (next !== value)
        put(target(), p.name, next);
    }
    return copy2 ?? object;
  }
  values(object, node) {
    let copy2;
    for (const key of Object.keys(object)) {
      if (node.declared?.includes(key))
        continue;
      const value = object[key];
      const next = this.repair(value, node.values);
      if (next === value)
        continue;
      if (!copy2)
        copy2 = copyOf(object);
      put(copy2, key, next);
    }
    return copy2 ?? object;
  }
  items(items2, node) {
    const skip = node.skipInvalid;
    if (node.items === void 0 && skip === void 0)
      return items2;
    let out;
    for (let i = 0; i < items2.length; i++) {
      const item = items2[i];
      const next = node.items === void 0 ? item : this.repair(item, node.items);
      if (skip !== void 0 && !this.passes(skip, next)) {
        if (!out)
          out = items2.slice(0, i);
        continue;
      }
      if (out === void 0 && next !== item)
        out = items2.slice(0, i);
      out?.push(next);
    }
    return out ?? items2;
  }
  tagged(union) {
    let map = this.variantMaps.get(union);
    if (!map) {
      map = /* @__PURE__ */ new Map();
      for (const v of union.variants)
        if (v.tag !== void 0)
          map.set(v.tag, v);
      this.variantMaps.set(union, map);
    }
    return map;
  }
  union(value, union) {
    const tag2 = union.tag !== void 0 && isDict(value) && hasOwn(value, union.tag) ? value[union.tag] : void 0;
    const candidates = [];
    if (typeof tag2 === "string") {
      const own = this.tagged(union).get(tag2) ?? union.variants.find((v) => v.other);
      if (own)
        candidates.push(own);
    }
    for (const v of union.variants)
      if (v.tag === void 0 && !v.other)
        candidates.push(v);
    if (candidates.length === 0)
      return value;
    if (candidates.length === 1) {
      const only = candidates[0];
      return only.node === void 0 ? value : this.repair(value, only.node);
    }
    let first;
    let tried = false;
    for (const v of candidates) {
      const next = v.node === void 0 ? value : this.repair(value, v.node);
      if (this.passes(v.check, next))
        return next;
      if (!tried) {
        first = next;
        tried = true;
      }
    }
    return first;
  }
};

// dist/runtime/parse-reshape.js
var NO_OBJECT = -1;
var Shape = class {
  constructor(keys, others, fills, unions, items2, free2, passThrough) {
    this.keys = keys;
    this.others = others;
    this.fills = fills;
    this.unions = unions;
    this.items = items2;
    this.free = free2;
    this.passThrough = passThrough;
  }
};
function shapeOf(node) {
  const keys = new Map((node.keys ?? []).filter(([key]) => key !== PROTO));
  const unions = node.unions?.map(unionOf) ?? null;
  const passThrough = unions?.length === 1 && node.keys === void 0 && node.others === void 0 && node.fills === void 0 && node.items === void 0 && node.free === void 0;
  return new Shape(keys, node.others ?? NONE3, node.fills?.filter((f) => f.name !== PROTO) ?? null, unions, node.items ?? NONE3, node.free === true, passThrough);
}
var Restart = class {
  constructor(value) {
    this.value = value;
  }
};
var Reshaper = class {
  constructor(shapeTable, walks, choice) {
    this.shapeTable = shapeTable;
    this.walks = walks;
    this.choice = choice;
    this.shapes = [];
  }
  at(index) {
    let shape = this.shapes[index];
    if (shape === void 0) {
      shape = shapeOf(this.shapeTable()[index]);
      this.shapes[index] = shape;
    }
    return shape;
  }
  walk(value, index, reading) {
    return this.walks[index](value, reading);
  }
  /** The interpreter for node `index`; its children go through their fast walks. */
  shape(value, index, reading) {
    if (typeof value !== "object" || value === null)
      return value;
    const at3 = this.at(index);
    if (at3.passThrough) {
      const chosen = this.choice.choose(at3.unions[0], value, reading);
      if (chosen === null)
        return free(value);
      const { variant } = chosen;
      return variant.node === NONE3 ? chosen.value : this.walk(chosen.value, variant.node, reading);
    }
    if (at3.unions === null && !at3.free)
      return Array.isArray(value) ? this.items(value, at3.items, reading) : this.object(value, at3, reading);
    return this.facets(value, [at3], reading);
  }
  /** `value` under several shapes at once: an `allOf` of them, as a union's chosen variant adds. */
  facets(value, roots, reading) {
    const facets = [];
    for (const root of roots) {
      const collected2 = this.collect(value, root, reading, facets);
      if (collected2 === false)
        return free(value);
      if (collected2 !== true)
        return this.facets(collected2.value, roots, reading);
    }
    if (facets.some((f) => f.free))
      return free(value);
    if (Array.isArray(value)) {
      const items2 = facets.flatMap((f) => f.items === NONE3 ? [] : [f.items]);
      if (items2.length <= 1)
        return this.items(value, items2[0] ?? NONE3, reading);
      let out;
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        const next = this.all(item, items2, reading);
        if (out === void 0 && next !== item)
          out = value.slice(0, i);
        out?.push(next);
      }
      return out ?? value;
    }
    return facets.length === 1 ? this.object(value, facets[0], reading) : this.merged(value, facets, reading);
  }
  all(value, indices, reading) {
    if (indices.length === 1)
      return this.walk(value, indices[0], reading);
    if (typeof value !== "object" || value === null)
      return value;
    return this.facets(value, indices.map((i) => this.at(i)), reading);
  }
  /**
   * `at` and the shapes of the variants its unions choose, recursively, passing through
   * union-only shapes. False: no variant, or an unknown one (the value is kept whole); a
   * `Restart`: a variant reads the object repaired.
   */
  collect(value, at3, reading, into) {
    if (!at3.passThrough)
      into.push(at3);
    for (const union of at3.unions ?? []) {
      const chosen = this.choice.choose(union, value, reading);
      if (chosen === null)
        return false;
      if (chosen.value !== value)
        return new Restart(chosen.value);
      const node = chosen.variant.node;
      if (node === NONE3)
        continue;
      const inner = this.collect(value, this.at(node), reading, into);
      if (inner !== true)
        return inner;
    }
    return true;
  }
  items(items2, node, reading) {
    if (node === NONE3)
      return free(items2);
    let out;
    for (let i = 0; i < items2.length; i++) {
      const item = items2[i];
      const next = this.walk(item, node, reading);
      if (out === void 0 && next !== item)
        out = items2.slice(0, i);
      out?.push(next);
    }
    return out ?? items2;
  }
  object(object, at3, reading) {
    let out;
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const child = key === PROTO ? NONE3 : at3.keys.get(key) ?? at3.others;
      if (child === NONE3) {
        if (!out)
          out = partialCopy(object, keys, i);
        continue;
      }
      const value = object[key];
      const next = child === NO_OBJECT ? value : this.walk(value, child, reading);
      if (out === void 0 && next !== value)
        out = partialCopy(object, keys, i);
      if (out)
        out[key] = next;
    }
    return at3.fills === null ? out ?? object : fill(out ?? object, at3.fills, out !== void 0);
  }
  /** An object several shapes admit at once: a key any of them admits is kept. */
  merged(object, facets, reading) {
    let out;
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const children = key === PROTO ? null : admitting(facets, key);
      if (children === null) {
        if (!out)
          out = partialCopy(object, keys, i);
        continue;
      }
      const value = object[key];
      const next = children.length === 0 ? value : this.all(value, children, reading);
      if (out === void 0 && next !== value)
        out = partialCopy(object, keys, i);
      if (out)
        out[key] = next;
    }
    let result = out ?? object;
    for (const f of facets)
      if (f.fills !== null)
        result = fill(result, f.fills, result !== object);
    return result;
  }
};
function admitting(facets, key) {
  const children = [];
  let admitted = false;
  for (const f of facets) {
    const child = f.keys.get(key);
    if (child === void 0)
      continue;
    admitted = true;
    if (child !== NO_OBJECT)
      children.push(child);
  }
  if (!admitted) {
    for (const f of facets)
      if (f.others !== NONE3) {
        admitted = true;
        if (f.others !== NO_OBJECT)
          children.push(f.others);
      }
  }
  return admitted ? children : null;
}
function fill(object, fills, owned) {
  let out = owned ? object : void 0;
  for (const f of fills) {
    const present2 = hasOwn(object, f.name);
    let value;
    if (!present2 && hasOwn(f, "default"))
      value = f.default;
    else if (present2 && object[f.name] === null && hasOwn(f, "onNull"))
      value = f.onNull;
    else
      continue;
    if (!out)
      out = copyOf(object);
    put(out, f.name, fresh(value));
  }
  return out ?? object;
}

// dist/runtime/parse.js
function createParsePlan(nodeTable, shapeTable, checks, walks) {
  const repairs = new Repairs(nodeTable, checks);
  const reshaper = new Reshaper(shapeTable, walks, new VariantChoice(checks, repairs));
  const deep = (error, type) => error instanceof RangeError ? new ValidationError(type, [TOO_DEEP]) : error;
  return {
    reshape: (value, index, reading) => reshaper.shape(value, index, reading),
    free,
    repairedAs: (value, repair, check) => repairs.repairedAs(value, repair, check),
    read(value, options, validator, type, shapeRoot, repairRoot, open) {
      try {
        const root = shapeRoot === void 0 ? void 0 : walks[shapeRoot];
        if (validator(value))
          return root === void 0 ? value : root(value, false);
        const fixed = repairRoot === void 0 ? value : repairs.repair(value, repairRoot);
        if (fixed !== value && validator(fixed))
          return root === void 0 ? fixed : root(fixed, false);
        if (options?.unknownVariants === "keep" && open !== void 0 && checks[open](fixed))
          return root === void 0 ? fixed : root(fixed, openReading(options.onUnknownVariant));
        validator(fixed);
        throw new ValidationError(type, issuesOf(validator));
      } catch (error) {
        throw deep(error, type);
      }
    },
    deep,
    variantGuard: (tag2, variants, other2) => variantGuard(checks, tag2, variants, other2),
    customGuard: (tag2, known, other2) => customGuard(checks, tag2, known, other2),
    untaggedGuard
  };
}
function all(...checks) {
  return (value) => checks.every((c) => c(value));
}
function any(...checks) {
  return (value) => checks.some((c) => c(value));
}
function one(...checks) {
  return (value) => {
    let passed = 0;
    for (const c of checks)
      if (c(value) && ++passed > 1)
        return false;
    return passed === 1;
  };
}
function not(check) {
  return (value) => !check(value);
}
function tag(property2, expected) {
  return (value) => isDict(value) && hasOwn(value, property2) && value[property2] === expected;
}
function otherTag(property2, known) {
  return (value) => {
    if (!isDict(value) || !hasOwn(value, property2))
      return false;
    const actual = value[property2];
    return typeof actual === "string" && !known.includes(actual);
  };
}
function items(check) {
  return (value) => !Array.isArray(value) || value.every((item) => check(item));
}
function props(checks) {
  return (value) => !isDict(value) || checks.every(([name, c]) => !hasOwn(value, name) || c(value[name]));
}
function values(check, declared2) {
  return (value) => !isDict(value) || Object.keys(value).every((k) => declared2.includes(k) || check(value[k]));
}

// dist/runtime/side-connection.js
var SideConnection = class {
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
  /**
   * What `initialize` negotiated: the protocol version and both sides' capabilities, as
   * each side declared them (the peer's read as the reference implementation reads them).
   * Undefined until it completed: for a client, when the agent's answer arrived; for an
   * agent, when it sent its answer.
   */
  get negotiated() {
    return this.connection.negotiated;
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
  /**
   * What the generated connections of a surface with JSON-RPC batches (v2) expose as
   * `batch`: the calls `calls` makes leave as one batch.
   */
  sendBatch(calls) {
    return this.connection.batch(calls);
  }
};
function remoteMethods(connection, entries) {
  const remote = /* @__PURE__ */ Object.create(null);
  const request = (method, params, options) => connection.request(method, params, options);
  for (const entry of entries) {
    const spec = entry.handle;
    if (entry.kind === "notification") {
      remote[entry.handler] = (params) => connection.notify(entry.method, params);
    } else if (spec) {
      const proto = handlePrototype(spec);
      remote[entry.handler] = (params, options) => request(entry.method, params, options).then((result) => makeHandle(proto, spec, request, params, result));
    } else {
      remote[entry.handler] = (params, options) => request(entry.method, params, options);
    }
  }
  return Object.freeze(remote);
}

// dist/runtime/proxy-connection.js
var ProxyConnection = class {
  constructor(tables, toHandlers, stream, options = {}) {
    const check = incomingOptions(options, "reject");
    const agentEntries = tables.agent.map((e) => ({ ...e, handler: `agent:${e.handler}` }));
    const proxyEntries = tables.proxy.map((e) => ({ ...e, handler: `proxy:${e.handler}` }));
    this.connection = new Connection({
      serves: [...agentEntries, ...proxyEntries],
      calls: [...tables.client, ...tables.proxy.filter((e) => e.method === tables.successor)],
      ...tables.protocol ? { protocol: tables.protocol } : {}
    }, stream, { ...options, unknownVariants: check.unknownVariants });
    const connection = this.connection;
    const successor = successorCaller(connection, tables.successor, routesOf(tables.agent), check);
    this.predecessor = remoteMethods(connection, tables.client);
    this.next = remoteMethods(successor, tables.agent);
    const handlers = toHandlers(this);
    const group = (name) => handlers[name] ?? {};
    const own = (g, name) => handlerOf(g, name)?.bind(g);
    const dispatch = /* @__PURE__ */ Object.create(null);
    for (const entry of tables.agent) {
      const mine = own(group("agent"), entry.handler);
      dispatch[`agent:${entry.handler}`] = mine ?? (entry.kind === "request" ? (params, context) => successor.request(entry.method, params, { signal: context.signal }) : (params) => successor.notify(entry.method, params));
    }
    const fromSuccessor = new SuccessorDelivery(connection, new IncomingCalls(routesOf(tables.client), check), group("client"));
    for (const entry of tables.proxy) {
      const key = `proxy:${entry.handler}`;
      if (entry.method === tables.successor) {
        dispatch[key] = entry.kind === "request" ? (envelope2, context) => fromSuccessor.request(envelope2, context) : (envelope2, context) => fromSuccessor.notify(envelope2, context);
        continue;
      }
      const mine = own(handlers, entry.handler);
      const forwards = tables.initialize?.method === entry.method && tables.initialize.forwards;
      if (mine)
        dispatch[key] = mine;
      else if (forwards && entry.kind === "request")
        dispatch[key] = (params, context) => successor.request(forwards, params, { signal: context.signal });
    }
    const agentGroup = group("agent");
    dispatch.extMethod = own(agentGroup, "extMethod") ?? ((method, params, context) => successor.request(method, params, { signal: context.signal }));
    dispatch.extNotification = own(agentGroup, "extNotification") ?? ((method, params) => successor.notify(method, params));
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
};
function successorCaller(connection, envelope2, routes, check) {
  const wrap = (method, params) => params === void 0 ? { method } : { method, params };
  return {
    async request(method, params, options) {
      const entry = routes.request.get(method);
      const invalid = check.checkSent ? invalidParams(entry, params) : void 0;
      if (invalid)
        throw invalid;
      const result = await connection.request(envelope2, wrap(method, params), options);
      if (!entry)
        return result;
      const filled = fillEmpty(result, entry.validateResult);
      if (!check.checkReceived)
        return filled;
      const read = receive(entry.parseResult, entry.validateResult, entry.result ?? "result", filled);
      if ("invalid" in read)
        throw read.invalid;
      return read.value;
    },
    async notify(method, params) {
      const invalid = check.checkSent ? invalidParams(routes.notification.get(method), params) : void 0;
      if (invalid)
        throw invalid;
      await connection.notify(envelope2, wrap(method, params));
    }
  };
}
var SuccessorDelivery = class {
  constructor(connection, incoming, handlers) {
    this.connection = connection;
    this.incoming = incoming;
    this.handlers = handlers;
  }
  async request(envelope2, context) {
    const { method } = envelope2;
    const params = paramsOf(envelope2);
    const inner = { ...context, method };
    const { signal, requestId: id } = context;
    const entry = this.incoming.route("request", method);
    if (entry === EXTENSION) {
      const ext = handlerOf(this.handlers, "extMethod");
      if (ext)
        return extensionResult(await ext.call(this.handlers, method, params, inner));
      return this.connection.request(method, params, { signal });
    }
    if (!entry)
      throw this.incoming.notFound(method, id);
    const value = this.incoming.requestParams(entry, params, id);
    const handler = handlerOf(this.handlers, entry.handler);
    if (!handler)
      return this.connection.request(method, value, { signal });
    return this.incoming.answerOf(entry, await handler.call(this.handlers, value, inner), id);
  }
  async notify(envelope2, context) {
    const { method } = envelope2;
    const params = paramsOf(envelope2);
    const inner = { ...context, method };
    const entry = this.incoming.route("notification", method);
    if (entry === EXTENSION) {
      const ext = handlerOf(this.handlers, "extNotification");
      await (ext ? ext.call(this.handlers, method, params, inner) : this.connection.notify(method, params));
      return;
    }
    if (!entry) {
      this.incoming.unhandled(method);
      return;
    }
    const value = this.incoming.notificationParams(entry, params);
    if (value === DROPPED)
      return;
    const handler = handlerOf(this.handlers, entry.handler);
    await (handler ? handler.call(this.handlers, value, inner) : this.connection.notify(method, value));
  }
};
function paramsOf(envelope2) {
  return envelope2.params === null ? void 0 : envelope2.params;
}

// dist/runtime/schema-check.js
var hasOwn2 = (object, key) => Object.hasOwn(object, key);
var isDict2 = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
var isNumber = (value) => typeof value === "number" && Number.isFinite(value);
var present = (object, key) => object[key] !== void 0 && hasOwn2(object, key);
var TYPES = {
  null: (v) => v === null,
  boolean: (v) => typeof v === "boolean",
  object: isDict2,
  array: Array.isArray,
  number: isNumber,
  integer: (v) => isNumber(v) && v % 1 === 0,
  string: (v) => typeof v === "string"
};
function sameAs(expected) {
  return typeof expected === "object" && expected !== null ? (v) => equal(v, expected) : (v) => v === expected;
}
var always = () => true;
var onObjects = (check) => (v) => !isDict2(v) || check(v);
var onArrays = (check) => (v) => !Array.isArray(v) || check(v);
var onStrings = (check) => (v) => typeof v !== "string" || check(v);
var onNumbers = (check) => (v) => !isNumber(v) || check(v);
var schemas = (value) => value.map(compile);
var pattern = (source) => new RegExp(source, "u");
var count = (value) => value;
var KEYWORDS = {
  type: (value) => {
    const types = (Array.isArray(value) ? value : [value]).map((t) => TYPES[t]);
    return (v) => types.some((t) => t(v));
  },
  const: (value) => sameAs(value),
  enum: (value) => {
    const members = value.map(sameAs);
    return (v) => members.some((m) => m(v));
  },
  required: (value) => {
    const names = value;
    return onObjects((o) => names.every((n) => present(o, n)));
  },
  properties: (value) => {
    const checks = Object.entries(value).filter(([, sub]) => sub !== true).map(([name, sub]) => [name, compile(sub)]);
    if (checks.length === 0)
      return void 0;
    return onObjects((o) => checks.every(([n, c]) => !present(o, n) || c(o[n])));
  },
  patternProperties: (value) => {
    const checks = Object.entries(value).map(([source, sub]) => [pattern(source), compile(sub)]);
    return onObjects((o) => Object.keys(o).every((key) => checks.every(([p, c]) => !p.test(key) || c(o[key]))));
  },
  additionalProperties: (value, schema) => {
    const check = compile(value);
    if (check === always)
      return void 0;
    const declared2 = new Set(isDict2(schema.properties) ? Object.keys(schema.properties) : []);
    const patterns = isDict2(schema.patternProperties) ? Object.keys(schema.patternProperties).map(pattern) : [];
    return onObjects((o) => Object.keys(o).every((key) => declared2.has(key) || patterns.some((p) => p.test(key)) || check(o[key])));
  },
  propertyNames: (value) => {
    const check = compile(value);
    return onObjects((o) => Object.keys(o).every((key) => check(key)));
  },
  minProperties: (value) => onObjects((o) => Object.keys(o).length >= count(value)),
  maxProperties: (value) => onObjects((o) => Object.keys(o).length <= count(value)),
  dependentRequired: (value) => {
    const rules = Object.entries(value);
    return onObjects((o) => rules.every(([name, needs]) => !present(o, name) || needs.every((n) => present(o, n))));
  },
  dependentSchemas: (value) => {
    const rules = Object.entries(value).map(([name, sub]) => [name, compile(sub)]);
    return onObjects((o) => rules.every(([name, c]) => !present(o, name) || c(o)));
  },
  prefixItems: (value) => {
    const checks = schemas(value);
    return onArrays((a) => checks.every((c, i) => i >= a.length || c(a[i])));
  },
  items: (value, schema) => {
    const check = compile(value);
    const from = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
    return onArrays((a) => {
      for (let i = from; i < a.length; i++)
        if (!check(a[i]))
          return false;
      return true;
    });
  },
  minItems: (value) => onArrays((a) => a.length >= count(value)),
  maxItems: (value) => onArrays((a) => a.length <= count(value)),
  uniqueItems: (value) => value !== true ? void 0 : onArrays((a) => {
    for (let i = 1; i < a.length; i++)
      for (let j = 0; j < i; j++)
        if (equal(a[i], a[j]))
          return false;
    return true;
  }),
  contains: (value, schema) => {
    const check = compile(value);
    const min = schema.minContains === void 0 ? 1 : count(schema.minContains);
    const max = schema.maxContains === void 0 ? Infinity : count(schema.maxContains);
    return onArrays((a) => {
      const n = a.filter((item) => check(item)).length;
      return n >= min && n <= max;
    });
  },
  // Read by `contains`; on their own they constrain nothing.
  minContains: () => void 0,
  maxContains: () => void 0,
  minLength: (value) => onStrings((s) => ucs2length(s) >= count(value)),
  maxLength: (value) => onStrings((s) => ucs2length(s) <= count(value)),
  pattern: (value) => {
    const p = pattern(value);
    return onStrings((s) => p.test(s));
  },
  minimum: (value) => onNumbers((n) => n >= count(value)),
  maximum: (value) => onNumbers((n) => n <= count(value)),
  exclusiveMinimum: (value) => onNumbers((n) => n > count(value)),
  exclusiveMaximum: (value) => onNumbers((n) => n < count(value)),
  multipleOf: (value) => onNumbers((n) => {
    const quotient = n / count(value);
    return quotient === Number.parseInt(String(quotient), 10);
  }),
  format: (value) => {
    const format = hasOwn2(formats, value) ? formats[value] : void 0;
    return format === void 0 ? void 0 : onNumbers((n) => format.validate(n));
  },
  allOf: (value) => {
    const checks = schemas(value);
    return (v) => checks.every((c) => c(v));
  },
  anyOf: (value) => {
    const checks = schemas(value);
    return (v) => checks.some((c) => c(v));
  },
  oneOf: (value) => {
    const checks = schemas(value);
    return (v) => {
      let passed = 0;
      for (const c of checks)
        if (c(v) && ++passed > 1)
          return false;
      return passed === 1;
    };
  },
  not: (value) => {
    const check = compile(value);
    return (v) => !check(v);
  },
  if: (value, schema) => {
    const test = compile(value);
    const then = schema.then === void 0 ? always : compile(schema.then);
    const otherwise = schema.else === void 0 ? always : compile(schema.else);
    return (v) => test(v) ? then(v) : otherwise(v);
  },
  // Read by `if`; without it they constrain nothing.
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, never awaited.
  then: () => void 0,
  else: () => void 0
};
function compile(schema) {
  if (schema === true)
    return always;
  if (schema === false)
    return () => false;
  const checks = [];
  for (const [keyword, value] of Object.entries(schema)) {
    const read = hasOwn2(KEYWORDS, keyword) ? KEYWORDS[keyword] : null;
    if (!read)
      throw new Error(`a parse check cannot read the keyword ${JSON.stringify(keyword)}`);
    const check = read(value, schema);
    if (check)
      checks.push(check);
  }
  if (checks.length === 0)
    return always;
  if (checks.length === 1)
    return checks[0];
  return (v) => {
    for (const c of checks)
      if (!c(v))
        return false;
    return true;
  };
}
function schemaCheck(schema) {
  let check;
  return (value) => {
    check ?? (check = compile(schema));
    return check(value);
  };
}

// dist/runtime/session-state.js
function at2(value, path) {
  let current = value;
  for (const name of path) {
    if (typeof current !== "object" || current === null)
      return void 0;
    current = Object.hasOwn(current, name) ? current[name] : void 0;
  }
  return current;
}
var SessionState = class {
  constructor(spec) {
    this.spec = spec;
    this.listIndex = /* @__PURE__ */ new Map();
    this.rules = /* @__PURE__ */ new Map();
    this.compiled = /* @__PURE__ */ new Map();
    const view = {};
    for (const [slot, shape] of Object.entries(spec.slots)) {
      if (shape === "map")
        view[slot] = /* @__PURE__ */ new Map();
      else if (shape === "list") {
        view[slot] = [];
        this.listIndex.set(slot, /* @__PURE__ */ new Map());
      }
    }
    this.view = view;
    const all2 = Object.entries(spec.rules);
    for (const [kind, rule] of all2) {
      this.rules.set(kind, rule);
      if (rule.op === "set" || rule.op === "merge")
        continue;
      const siblings = all2.map(([, r]) => r).filter((r) => "key" in r && r.slot === rule.slot);
      this.compiled.set(rule, {
        rule,
        shape: spec.slots[rule.slot],
        keyName: rule.key.length === 0 ? void 0 : rule.key[rule.key.length - 1],
        needsCreate: siblings.some((r) => r.op === "create"),
        grown: [...new Set(siblings.flatMap((r) => r.op === "push" ? [r.to] : []))]
      });
    }
  }
  /** A turn boundary: a keyless chunk after it starts a new entity. */
  boundary() {
    this.lastEntity = void 0;
  }
  /** Applies one update (the value of the notification's update field). */
  apply(update) {
    const kind = update[this.spec.update.tag];
    const rule = typeof kind === "string" ? this.rules.get(kind) : void 0;
    if (!rule) {
      this.lastEntity = void 0;
      return void 0;
    }
    switch (rule.op) {
      case "set":
        this.lastEntity = void 0;
        this.view[rule.slot] = rule.from === void 0 ? this.withoutTag(update) : update[rule.from];
        return void 0;
      case "merge": {
        this.lastEntity = void 0;
        const current = this.view[rule.slot];
        this.view[rule.slot] = patched(current ?? {}, this.withoutTag(update), rule.patch, []);
        return void 0;
      }
      default:
        return this.applyEntity(this.compiled.get(rule), update);
    }
  }
  /** Applies what a call's answer says about the state (`effects` of its wire name). */
  applyCall(method, params, result) {
    for (const effect of this.spec.effects[method] ?? []) {
      const value = at2(effect.from === "result" ? result : params, effect.path);
      if (value !== void 0 && value !== null)
        this.view[effect.slot] = value;
    }
  }
  applyEntity(compiled, update) {
    const { rule, shape, keyName } = compiled;
    const key = keyName === void 0 ? void 0 : rule.key.length === 1 ? update[keyName] : at2(update, rule.key);
    const hasKey = key !== void 0 && key !== null;
    const found = hasKey ? this.find(rule.slot, shape, key) : this.continued(rule, keyName);
    let entity;
    switch (rule.op) {
      case "create":
        entity = this.stored(compiled, this.withoutTag(update));
        break;
      case "put": {
        const value = update[rule.value];
        entity = typeof value === "object" && value !== null ? { ...value } : void 0;
        break;
      }
      case "remove":
        if (hasKey)
          this.remove(rule.slot, shape, key);
        this.lastEntity = void 0;
        return void 0;
      case "patch":
        if (!found && shape === "map" && compiled.needsCreate) {
          this.lastEntity = void 0;
          return "unknown-entity";
        }
        entity = found ? patched(found, this.withoutTag(update), rule.patch, compiled.grown) : this.stored(compiled, patched({}, this.withoutTag(update), rule.patch, []));
        break;
      case "push": {
        const item = update[rule.from];
        if (found) {
          const list = found[rule.to];
          if (!Array.isArray(list))
            found[rule.to] = [item];
          else if (!this.joined(list, item))
            list.push(item);
          entity = found;
        } else {
          entity = rule.kind === void 0 ? {} : { [this.spec.update.tag]: rule.kind };
          if (hasKey && keyName !== void 0)
            entity[keyName] = key;
          entity[rule.to] = [item];
        }
        break;
      }
    }
    if (!entity)
      return void 0;
    if (rule.kind !== void 0 && entity !== found)
      entity[this.spec.update.tag] = rule.kind;
    if (entity !== found)
      this.store(rule.slot, shape, hasKey ? key : void 0, found, entity);
    this.lastEntity = entity;
    this.lastKind = rule.kind;
    return entity;
  }
  /**
   * Appends a plain text block (its tag and its text, nothing else) to a list ending in one
   * by joining the two, in a new block: a message streamed in a thousand chunks is kept as
   * the text it reads as, not a thousand blocks (each block a client would keep), and the
   * blocks the updates carry stay as they came. Anything else is appended as it is.
   */
  joined(list, item) {
    const text = this.spec.prompt.text;
    if (!text || list.length === 0)
      return false;
    const last = list[list.length - 1];
    if (!plainText(item, text) || !plainText(last, text))
      return false;
    list[list.length - 1] = {
      [text.tag]: text.value,
      [text.field]: `${last[text.field]}${item[text.field]}`
    };
    return true;
  }
  /** The entity a keyless update continues: the one the update just before it made, if of the same kind and keyless too. */
  continued(rule, keyName) {
    const last = this.lastEntity;
    if (!last || this.lastKind !== rule.kind)
      return void 0;
    if (keyName === void 0)
      return last;
    const key = last[keyName];
    return key === void 0 || key === null ? last : void 0;
  }
  find(slot, shape, key) {
    if (shape === "map")
      return this.view[slot].get(key);
    return this.listIndex.get(slot)?.get(key);
  }
  store(slot, shape, key, replaced, entity) {
    if (shape === "map") {
      this.view[slot].set(key, entity);
      return;
    }
    const list = this.view[slot];
    const index = replaced ? list.lastIndexOf(replaced) : -1;
    if (index === -1)
      list.push(entity);
    else
      list[index] = entity;
    if (key !== void 0)
      this.listIndex.get(slot)?.set(key, entity);
  }
  remove(slot, shape, key) {
    if (shape === "map") {
      this.view[slot].delete(key);
      return;
    }
    const index = this.listIndex.get(slot);
    const entity = index?.get(key);
    if (!entity)
      return;
    index?.delete(key);
    const list = this.view[slot];
    list.splice(list.indexOf(entity), 1);
  }
  /** A new entity from an update's fields: the lists appends grow are copied, so they are ours. */
  stored(compiled, fields) {
    for (const name of compiled.grown) {
      const list = fields[name];
      if (Array.isArray(list))
        fields[name] = [...list];
    }
    return fields;
  }
  withoutTag(update) {
    const { [this.spec.update.tag]: _tag, ...fields } = update;
    return fields;
  }
};
function plainText(value, text) {
  if (typeof value !== "object" || value === null)
    return false;
  const block = value;
  if (block[text.tag] !== text.value || typeof block[text.field] !== "string")
    return false;
  let keys = 0;
  for (const key in block)
    if (Object.hasOwn(block, key))
      keys++;
  return keys === 2;
}
function patched(entity, fields, patch, copied) {
  for (const [name, value] of Object.entries(fields)) {
    if (value === void 0 || name === "__proto__")
      continue;
    if (value === null) {
      if (patch.nullClears.includes(name))
        delete entity[name];
      continue;
    }
    if (patch.byKey.includes(name) && typeof value === "object" && !Array.isArray(value)) {
      const stored = entity[name];
      const merged = typeof stored === "object" && stored !== null && !Array.isArray(stored) ? { ...stored } : {};
      for (const [key, v] of Object.entries(value)) {
        if (key === "__proto__")
          continue;
        if (v === null)
          delete merged[key];
        else
          merged[key] = v;
      }
      entity[name] = merged;
      continue;
    }
    entity[name] = Array.isArray(value) && copied.includes(name) ? [...value] : value;
  }
  return entity;
}

// dist/runtime/session.js
var DEFAULT_CANCEL_GRACE_MS = 3e3;
var EARLY_UPDATES = 1024;
var record = (value) => typeof value === "object" && value !== null ? value : {};
function quiet(promise) {
  promise.catch(() => {
  });
  return promise;
}
var SessionRouter = class {
  constructor(spec, options = {}) {
    this.spec = spec;
    this.sessions = /* @__PURE__ */ new Map();
    this.opening = 0;
    this.early = [];
    const grace = options.cancelGraceMs;
    this.graceMs = typeof grace === "number" && grace >= 0 && Number.isFinite(grace) ? grace : DEFAULT_CANCEL_GRACE_MS;
    this.log = options.log ?? defaultLog;
  }
  /**
   * The handler object as the connection serves it: the application's own, with the update
   * notification's handler routing each update to its session first, then calling the
   * application's (with its own object as `this`). Every other member is the application's.
   */
  serve(caller, handlers) {
    this.caller = caller;
    caller.signal.addEventListener("abort", () => this.closedAll(caller.signal.reason), {
      once: true
    });
    const name = this.spec.update.handler;
    const route = (params) => this.route(params);
    function routed(params, context) {
      route(params);
      const own = Reflect.get(handlers, name);
      return typeof own === "function" ? own.call(handlers, params, context) : void 0;
    }
    return new Proxy(handlers, {
      get: (target, key) => key === name ? routed : Reflect.get(target, key),
      has: (target, key) => key === name || Reflect.has(target, key)
    });
  }
  /** Opens a session with one of the spec's opening calls. */
  async open(how, params, options) {
    const caller = this.caller;
    if (!caller)
      throw new Error("internal error: the sessions are not served yet");
    const calls = this.spec.calls;
    if (how === "new") {
      const call = calls.new;
      if (!call)
        throw new TypeError("this protocol surface has no call that opens a session");
      this.opening++;
      let result2;
      try {
        result2 = await caller.request(call.method, params, options);
      } finally {
        this.opening--;
      }
      const id2 = record(result2)[call.sessionId];
      const session2 = new SessionImpl(this, caller, id2, call.method);
      this.register(session2);
      for (const held of this.early.filter((e) => e.id === id2))
        session2.receive(held.update);
      if (this.opening === 0)
        this.early.length = 0;
      session2.opened(params, result2);
      return session2;
    }
    const method = calls[how];
    if (!method)
      throw new TypeError(`this protocol surface has no ${how} call for sessions`);
    const id = record(params)[this.spec.update.sessionId];
    const session = new SessionImpl(this, caller, id, method);
    this.register(session);
    let result;
    try {
      result = await caller.request(method, params, options);
    } catch (error) {
      this.forget(session);
      throw error;
    }
    session.opened(params, result);
    return session;
  }
  /** Stops routing to a session (closed, or its open failed). */
  forget(session) {
    if (this.sessions.get(session.sessionId) === session)
      this.sessions.delete(session.sessionId);
  }
  register(session) {
    const before = this.sessions.get(session.sessionId);
    if (before) {
      this.log({
        level: "warn",
        reason: "session-reopened",
        message: `session ${String(session.sessionId)} was opened again: its earlier Session gets no more updates`
      });
      before.detach();
    }
    this.sessions.set(session.sessionId, session);
  }
  /** One update notification's params, as the connection read them. */
  route(params) {
    if (this.sessions.size === 0 && this.opening === 0)
      return;
    const fields = record(params);
    const id = fields[this.spec.update.sessionId];
    const update = fields[this.spec.update.field];
    const session = this.sessions.get(id);
    if (session) {
      session.receive(update);
      return;
    }
    if (this.opening === 0)
      return;
    if (this.early.length === EARLY_UPDATES)
      this.early.shift();
    this.early.push({ id, update });
  }
  closedAll(reason) {
    const error = reason instanceof ConnectionClosedError ? reason : new ConnectionClosedError(reason);
    for (const session of [...this.sessions.values()])
      session.connectionClosed(error);
    this.sessions.clear();
    this.early.length = 0;
  }
};
var SessionImpl = class {
  constructor(router, caller, sessionId, openedBy) {
    this.router = router;
    this.caller = caller;
    this.sessionId = sessionId;
    this.openedBy = openedBy;
    this.history = [];
    this.opening = true;
    this.readers = /* @__PURE__ */ new Set();
    this.detached = false;
    this.store = new SessionState(router.spec);
    const dispose = Symbol.asyncDispose;
    if (typeof dispose === "symbol")
      Object.defineProperty(this, dispose, { value: () => this.close() });
  }
  /** What the opening call answered. */
  get response() {
    return this.answer;
  }
  get state() {
    return this.store.view;
  }
  /** @internal The opening call answered: later updates are live. */
  opened(params, result) {
    this.answer = result;
    this.opening = false;
    this.store.applyCall(this.openedBy, params, result);
    this.store.boundary();
  }
  /** @internal One update of this session. */
  receive(update) {
    const fields = record(update);
    const applied = this.store.apply(fields);
    if (applied === "unknown-entity") {
      this.router.log({
        level: "debug",
        reason: "unknown-entity",
        message: `session ${String(this.sessionId)}: a ${String(fields[this.router.spec.update.tag])} for an entity it never created changed nothing`
      });
    }
    if (this.opening) {
      this.history.push(update);
      return;
    }
    const turn = this.current;
    if (turn) {
      turn.receive(fields, typeof applied === "object" ? applied : void 0);
      return;
    }
    if (this.abandoned) {
      this.router.log({
        level: "debug",
        reason: "late-update",
        message: `session ${String(this.sessionId)}: dropped a ${String(fields[this.router.spec.update.tag])} that arrived after its turn was abandoned`
      });
      return;
    }
    for (const reader of this.readers)
      reader.push(update);
  }
  prompt(input, options = {}) {
    const turn = new TurnImpl(this.router.spec, this.sessionId, () => this.cancel(turn));
    const spec = this.router.spec;
    let blocks;
    try {
      blocks = this.blocksOf(input);
    } catch (error) {
      turn.settle({ error });
      return turn;
    }
    if (this.closing || this.detached) {
      turn.settle({ error: new Error(`session ${String(this.sessionId)} is closed`) });
      return turn;
    }
    const signal = options.signal;
    if (signal?.aborted) {
      turn.settle({ error: wireErrors.requestCancelled(void 0, "aborted before it was sent") });
      return turn;
    }
    if (signal) {
      const onAbort = () => turn.cancel();
      signal.addEventListener("abort", onAbort, { once: true });
      turn.onSettled(() => signal.removeEventListener("abort", onAbort));
    }
    const params = { [spec.update.sessionId]: this.sessionId, [spec.prompt.field]: blocks };
    const previous = this.tail;
    this.tail = turn;
    if (previous && !previous.isSettled)
      previous.onSettled(() => this.start(turn, params));
    else
      this.start(turn, params);
    return turn;
  }
  setMode(params, options) {
    return this.call(this.router.spec.calls.setMode, "setMode", params, options);
  }
  setConfigOption(params, options) {
    return this.call(this.router.spec.calls.setConfigOption, "setConfigOption", params, options);
  }
  /**
   * This session's updates that belong to no turn, from now on, until the session closes or
   * `signal` aborts (or the loop breaks). Each call is a reader of its own.
   */
  updates(options = {}) {
    const reader = new UpdateQueue(() => this.readers.delete(reader));
    if (this.closing || this.detached)
      reader.end();
    else
      this.readers.add(reader);
    const signal = options.signal;
    if (signal?.aborted)
      reader.end();
    else
      signal?.addEventListener("abort", () => reader.end(), { once: true });
    return reader;
  }
  /**
   * Closes the session: the agent's close call where it serves one (else the running turn is
   * cancelled), then waits for the running turn to settle (at most the cancel grace after),
   * and stops routing. Idempotent; never rejects for a session the agent no longer knows.
   */
  close() {
    this.closing ?? (this.closing = this.closeNow());
    return this.closing;
  }
  async closeNow() {
    const spec = this.router.spec;
    const turn = this.current;
    const method = spec.calls.close;
    let closed = false;
    if (method && !this.detached) {
      try {
        await this.caller.request(method, { [spec.update.sessionId]: this.sessionId });
        closed = true;
      } catch (error) {
        const done = error instanceof ConnectionClosedError || error instanceof RequestError && (error.code === -32601 || error.code === -32002);
        if (!done)
          throw error;
      }
    }
    if (turn && !turn.isSettled) {
      this.cancel(turn, !closed);
      await turn.settledPromise;
    }
    const queued = this.tail;
    if (queued && !queued.isSettled)
      queued.settle({ error: new Error(`session ${String(this.sessionId)} was closed`) });
    this.detach();
  }
  /** @internal Stops routing: updates end, readers end. */
  detach() {
    this.detached = true;
    this.router.forget(this);
    for (const reader of this.readers)
      reader.end();
    this.readers.clear();
  }
  /** @internal The connection closed: every turn fails with its reason. */
  connectionClosed(error) {
    for (const turn of [this.current, this.tail])
      if (turn && !turn.isSettled)
        turn.settle({ error });
    this.detach();
  }
  start(turn, params) {
    if (turn.isSettled)
      return;
    if (this.detached) {
      turn.settle({ error: new Error(`session ${String(this.sessionId)} was closed`) });
      return;
    }
    const spec = this.router.spec;
    this.current = turn;
    this.abandoned = void 0;
    this.store.boundary();
    turn.started();
    turn.onSettled(() => {
      if (this.current === turn)
        this.current = void 0;
      this.store.boundary();
    });
    this.caller.request(spec.calls.prompt, params).then((result) => {
      if (turn.isSettled) {
        this.late(turn, "the answer");
        return;
      }
      this.store.applyCall(spec.calls.prompt, params, result);
      turn.answered(result);
    }, (error) => {
      if (!turn.isSettled)
        turn.settle({ error });
      else if (!(error instanceof ConnectionClosedError))
        this.late(turn, "the error answer");
    });
  }
  late(turn, what) {
    if (this.abandoned === turn)
      this.abandoned = void 0;
    if (!turn.wasAbandoned)
      return;
    this.router.log({
      level: "debug",
      reason: "late-response",
      message: `session ${String(this.sessionId)}: dropped ${what} to a turn abandoned after ${this.router.graceMs} ms`
    });
  }
  /**
   * Cancels `turn`: one not sent yet settles at once; the running one gets the cancel
   * notification (`notify`) and then at most the grace to end, or it is abandoned. A turn
   * that settled sends nothing, ever: a cancel never reaches a later turn.
   */
  cancel(turn, notify = true) {
    if (turn.isSettled || turn.isCancelling)
      return;
    if (!turn.isStarted) {
      turn.settle({
        error: wireErrors.requestCancelled(void 0, "cancelled before it was sent")
      });
      return;
    }
    turn.cancelling();
    const spec = this.router.spec;
    const method = spec.calls.cancel;
    if (notify)
      this.caller.notify(method, { [spec.update.sessionId]: this.sessionId }).catch((error) => {
        this.router.log({
          level: "warn",
          reason: "cancel-failed",
          message: `could not send ${method}: ${error instanceof Error ? error.message : String(error)}`,
          method,
          error
        });
      });
    const grace = this.router.graceMs;
    const timer = startTimer(grace, () => {
      if (turn.isSettled)
        return;
      this.router.log({
        level: "warn",
        reason: "turn-abandoned",
        message: `session ${String(this.sessionId)}: the agent did not end the cancelled turn within ${grace} ms; it settled without the agent's answer`,
        method
      });
      this.abandoned = turn;
      turn.abandon(new TurnAbandonedError(this.sessionId, grace, method));
    }, true);
    turn.onSettled(() => timer.cancel());
  }
  call(method, member, params, options) {
    if (!method)
      return Promise.reject(new TypeError(`this protocol surface has no ${member} call`));
    const full = { ...record(params), [this.router.spec.update.sessionId]: this.sessionId };
    return this.caller.request(method, full, options).then((result) => {
      this.store.applyCall(method, full, result);
      return result;
    });
  }
  /** A prompt's content: a string is one text block, one block a list of one. */
  blocksOf(input) {
    if (Array.isArray(input))
      return input;
    if (typeof input === "string") {
      const text = this.router.spec.prompt.text;
      if (!text)
        throw new TypeError("this protocol surface has no plain-text content block");
      return [{ [text.tag]: text.value, [text.field]: input }];
    }
    return [input];
  }
};
var TurnImpl = class {
  constructor(spec, sessionId, cancelTurn) {
    this.spec = spec;
    this.sessionId = sessionId;
    this.cancelTurn = cancelTurn;
    this.queue = new UpdateQueue();
    this.iterated = false;
    this.settledCallbacks = [];
    this.resolveDone = () => {
    };
    this.rejectDone = () => {
    };
    this.phase = "queued";
    this.active = false;
    this.idled = false;
    this.spoken = /* @__PURE__ */ new Set();
    this.done = quiet(new Promise((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    }));
    this.settledPromise = new Promise((resolve) => this.onSettled(resolve));
  }
  /** Why the turn stopped, once it has: the answer's stop reason (v2: the idle state update's). */
  get stopReason() {
    return this.stop;
  }
  get isSettled() {
    return this.outcome !== void 0;
  }
  get isStarted() {
    return this.phase !== "queued";
  }
  get isCancelling() {
    return this.phase === "cancelling";
  }
  get wasAbandoned() {
    return this.abandonedBy !== void 0;
  }
  // biome-ignore lint/suspicious/noThenProperty: a Turn is a PromiseLike of the prompt's answer.
  then(onFulfilled, onRejected) {
    return this.done.then(onFulfilled, onRejected);
  }
  /** Stops the turn for sure (see `Session`): `session/cancel`, then at most the grace. */
  cancel() {
    this.cancelTurn();
  }
  /** The text of the agent's messages in this turn, once it has ended. */
  async text() {
    await this.done;
    const text = this.spec.prompt.text;
    const field = agentContentField(this.spec);
    if (!text || field === void 0)
      return "";
    let out = "";
    for (const message of this.spoken) {
      const content = message[field];
      if (!Array.isArray(content))
        continue;
      for (const block of content) {
        const fields = record(block);
        if (fields[text.tag] === text.value && typeof fields[text.field] === "string")
          out += fields[text.field];
      }
    }
    return out;
  }
  [Symbol.asyncIterator]() {
    if (this.iterated)
      throw new TypeError("a turn's updates can be read once");
    this.iterated = true;
    return this.queue;
  }
  /** @internal */
  onSettled(callback) {
    if (this.outcome)
      callback();
    else
      this.settledCallbacks.push(callback);
  }
  /** @internal The prompt went out. */
  started() {
    this.phase = "running";
  }
  /** @internal */
  cancelling() {
    this.phase = "cancelling";
  }
  /** @internal An update of this turn, and the entity it made or changed in the state. */
  receive(update, entity) {
    this.queue.push(update);
    const spec = this.spec;
    if (entity !== void 0 && spec.agentText && entity[spec.update.tag] === spec.agentText.kind)
      this.spoken.add(entity);
    const turn = spec.turn;
    if (turn.end === "state" && update[spec.update.tag] === turn.kind) {
      if (update[turn.field] !== turn.idle)
        this.active = true;
      else if (this.active || this.receipt) {
        this.stop = turn.stopReason === void 0 ? void 0 : update[turn.stopReason];
        this.idled = true;
        if (this.receipt)
          this.settle(this.receipt);
      }
    }
  }
  /** @internal The prompt's answer. */
  answered(result) {
    const turn = this.spec.turn;
    if (turn.end === "response") {
      this.stop = turn.stopReason === void 0 ? void 0 : at2(result, [turn.stopReason]);
      this.settle({ value: result });
      return;
    }
    this.receipt = { value: result };
    if (this.idled)
      this.settle(this.receipt);
  }
  /** @internal Settled without the agent's answer. */
  abandon(error) {
    this.abandonedBy = error;
    this.settle({ error });
  }
  /** @internal */
  settle(outcome) {
    if (this.outcome)
      return;
    this.outcome = outcome;
    if ("error" in outcome) {
      this.rejectDone(outcome.error);
      this.queue.end(outcome.error);
    } else {
      this.resolveDone(outcome.value);
      this.queue.end();
    }
    for (const callback of this.settledCallbacks.splice(0))
      callback();
  }
};
function agentContentField(spec) {
  const agent = spec.agentText;
  if (!agent)
    return void 0;
  for (const rule of Object.values(spec.rules))
    if (rule.op === "push" && rule.slot === agent.slot && rule.kind === agent.kind)
      return rule.to;
  return void 0;
}
var UpdateQueue = class {
  constructor(onEnd = () => {
  }) {
    this.onEnd = onEnd;
    this.held = new Fifo();
  }
  push(update) {
    if (this.ended)
      return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = void 0;
      waiting.resolve({ done: false, value: update });
    } else
      this.held.push(update);
  }
  end(error) {
    if (this.ended)
      return;
    this.ended = error === void 0 ? {} : { error };
    this.onEnd();
    const waiting = this.waiting;
    this.waiting = void 0;
    if (!waiting)
      return;
    if (error === void 0)
      waiting.resolve({ done: true, value: void 0 });
    else
      waiting.reject(error);
  }
  next() {
    if (this.held.length > 0)
      return Promise.resolve({ done: false, value: this.held.shift() });
    const ended = this.ended;
    if (ended) {
      if ("error" in ended) {
        this.ended = {};
        return Promise.reject(ended.error);
      }
      return Promise.resolve({ done: true, value: void 0 });
    }
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }
  return() {
    this.held.clear();
    this.end();
    this.ended = {};
    return Promise.resolve({ done: true, value: void 0 });
  }
  [Symbol.asyncIterator]() {
    return this;
  }
};
var SessionConnection = class extends SideConnection {
  constructor(tables, spec, toHandlers, stream, options) {
    const router = new SessionRouter(spec, options);
    super(tables, (connection) => router.serve(connection, toHandlers(connection)), stream, options);
    this.sessions = router;
  }
  /** Sends the opening call (`session/new`) and resolves with the session it opened. */
  session(params, options) {
    return this.sessions.open("new", params, options);
  }
  /** Loads a session: its replayed history is in `history`, never in a turn. */
  loadSession(params, options) {
    return this.sessions.open("load", params, options);
  }
  /** Resumes a session: what it replays is in `history`, never in a turn. */
  resumeSession(params, options) {
    return this.sessions.open("resume", params, options);
  }
};
export {
  ArrivalQueue,
  BatchingStream,
  CANCEL_REQUEST_METHOD,
  Connection,
  ConnectionClosedError,
  DEFAULT_MAX_MESSAGE_BYTES,
  DROPPED,
  EXTENSION,
  Fifo,
  HIGH_WATER,
  IncomingCalls,
  InputEndedError,
  LOW_WATER,
  LineFramer,
  MalformedFrame,
  MessageEncodingError,
  MessageTooLargeError,
  NONE3 as NONE,
  Negotiation,
  NotificationOrder,
  OVERSIZE_HEAD_BYTES,
  PROTO,
  ProxyConnection,
  Repairs,
  RequestError,
  Reshaper,
  SessionConnection,
  SessionImpl,
  SessionRouter,
  SessionState,
  SideConnection,
  TOO_DEEP,
  TurnAbandonedError,
  TurnImpl,
  Union,
  ValidationError,
  Variant,
  VariantChoice,
  all,
  any,
  assertWith,
  at2 as at,
  capabilitiesFrom,
  classify,
  concatIssues,
  consoleError,
  consoleWarn,
  copyOf,
  createParsePlan,
  customGuard,
  defaultLog,
  envelope,
  equal,
  extensionResult,
  fail,
  failType,
  fillEmpty,
  formats,
  free,
  fresh,
  frozen,
  handlePrototype,
  handlerOf,
  hasOwn,
  incomingOptions,
  invalidParams,
  isDict,
  isInputEnded,
  isJsonRpcId,
  isMalformedFrame,
  isObject,
  isRefusedMessage,
  issue,
  issuesOf,
  items,
  kindsOf,
  lossyUtf8Decoder,
  makeHandle,
  messageOf,
  ndJsonStream,
  newAbortController,
  newByteStream,
  newResponse,
  not,
  one,
  openReading,
  otherTag,
  parseNullResult,
  partialCopy,
  peek,
  platformFetch,
  platformWebSocket,
  props,
  pushIssue,
  put,
  randomBytes,
  receive,
  remoteMethods,
  routesOf,
  schemaCheck,
  sleep,
  splitLines,
  startTimer,
  strictUtf8Decoder,
  tag,
  truncateIssues,
  ucs2length,
  unionOf,
  untaggedGuard,
  utf8Encoder,
  validateNullResult,
  validateWith,
  values,
  variantGuard,
  wireErrors,
  withDetail
};
