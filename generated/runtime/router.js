// dist/runtime/router-stream.js
function hold(stream) {
  const reader = stream.readable.getReader();
  let writer;
  try {
    writer = stream.writable.getWriter();
  } catch (error) {
    reader.releaseLock();
    throw error;
  }
  return { reader, writer };
}
function handOver(held, replay, swallow) {
  const queue = [...replay];
  let waiting = swallow;
  let released;
  const swallowed = swallow ? new Promise((resolve) => {
    released = resolve;
  }) : void 0;
  let reading = false;
  let writing = false;
  const reader = {
    async read() {
      if (waiting)
        await swallowed;
      if (queue.length > 0)
        return { done: false, value: queue.shift() };
      return held.reader.read();
    },
    releaseLock() {
      reading = false;
    },
    cancel(reason) {
      queue.length = 0;
      waiting = void 0;
      released?.();
      return held.reader.cancel(reason);
    }
  };
  const writer = {
    write(message) {
      if (waiting) {
        const instead = waiting(message);
        if (instead) {
          waiting = void 0;
          queue.push(...instead);
          released?.();
          return Promise.resolve();
        }
      }
      return held.writer.write(message);
    },
    close: () => held.writer.close(),
    releaseLock() {
      writing = false;
    }
  };
  return {
    readable: {
      getReader() {
        if (reading)
          throw new TypeError("the routed stream's readable side is already locked");
        reading = true;
        return reader;
      }
    },
    writable: {
      getWriter() {
        if (writing)
          throw new TypeError("the routed stream's writable side is already locked");
        writing = true;
        return writer;
      }
    }
  };
}
async function release(held, reason) {
  await Promise.allSettled([held.reader.cancel(reason), held.writer.close()]);
}

// dist/runtime/router.js
import { defaultLog } from "./index.js";
import { classify } from "./index.js";
import { isMalformedFrame } from "./index.js";
import { RequestError, wireErrors } from "./index.js";
var MAX_PROTOCOL_VERSION = 65535;
var AgentRouter = class {
  constructor(spec, routes, options = {}) {
    this.spec = spec;
    this.routes = routes;
    this.versions = routedVersions("agentRouter", spec, routes, (route) => {
      if (typeof route !== "function")
        return "is not a function";
      return void 0;
    });
    this.log = options.log ?? defaultLog;
    this.connect = this.connect.bind(this);
  }
  /**
   * Serves one client on `stream` (`stdio()`, or what `AcpServer` passes to its `connect`):
   * resolves with the version chosen and the factory's connection, or undefined when the
   * stream ended (or failed) before an `initialize`. Rejects only when the factory threw
   * (then the stream is closed); that rejection is also logged, and never unhandled.
   */
  connect(stream, ...extra) {
    const routed = this.route(stream, extra);
    routed.catch(ignore);
    return routed;
  }
  async route(stream, extra) {
    const held = hold(stream);
    for (; ; ) {
      let next;
      try {
        next = await held.reader.read();
      } catch {
        await release(held);
        return void 0;
      }
      if (next.done) {
        await release(held);
        return void 0;
      }
      const decision = this.first(next.value);
      if (decision.kind === "wait") {
        if (decision.answer) {
          try {
            await held.writer.write(decision.answer);
          } catch {
            await release(held);
            return void 0;
          }
        }
        continue;
      }
      const { version } = decision;
      const factory = this.routes[version];
      try {
        const connection = factory(handOver(held, [next.value]), ...extra);
        return { protocolVersion: version, connection };
      } catch (error) {
        this.note("error", "handler-error", `the v${version} factory threw: ${describe(error)}`, {
          error
        });
        await release(held, error);
        throw error;
      }
    }
  }
  /** What to do with a message received before the first `initialize`. */
  first(value) {
    if (isMalformedFrame(value))
      return this.malformed(value);
    if (Array.isArray(value)) {
      this.note("warn", "invalid-message", "a JSON-RPC batch before initialize: answered -32600");
      return refuse(null, wireErrors.invalidRequest(void 0, "a batch before initialize"));
    }
    const message = classify(value);
    switch (message.kind) {
      case "notification":
      case "result":
      case "error":
        this.note("debug", "not-initialized", `ignored ${what(message)} before initialize`);
        return IGNORE;
      case "invalid":
        this.note("warn", "invalid-message", `invalid JSON-RPC message: ${message.reason}`, {
          id: message.id
        });
        return message.answer ? refuse(message.id, wireErrors.invalidRequest(void 0, message.reason)) : IGNORE;
      case "request":
        break;
    }
    const { id, method, params } = message;
    const expected = this.spec.method;
    if (method !== expected) {
      this.note("warn", "not-initialized", `refused ${method}: the first request must be ${expected}`, {
        method,
        id
      });
      return refuse(id, wireErrors.invalidRequest({ method, reason: "not-initialized" }, `the first request must be ${expected}`));
    }
    const requested = protocolVersionOf(params, this.spec.version);
    if (requested === void 0) {
      const property = this.spec.version;
      this.note("warn", "invalid-params", `refused ${method}: no valid ${property} in its params`, {
        method,
        id
      });
      return refuse(id, wireErrors.invalidParams({ property }, `${property} must be an integer from 0 to ${MAX_PROTOCOL_VERSION}`));
    }
    return { kind: "route", version: choose(this.versions, requested) };
  }
  malformed(frame) {
    const { id, response } = frame.peek ?? {};
    this.note("warn", frame.problem === "too-large" ? "message-too-large" : frame.problem, `an incoming message of ${frame.size} bytes before initialize is ${frame.problem === "too-large" ? "over the size limit" : "not valid JSON"}; dropped`);
    if (frame.problem === "too-large" && id !== void 0 && !response)
      return refuse(id, wireErrors.invalidRequest({ size: frame.size, limit: frame.limit }, "message too large"));
    return IGNORE;
  }
  note(level, reason, message, detail = {}) {
    this.log({ ...detail, level, reason, message: `router: ${message}` });
  }
};
var MAX_EARLY_MESSAGES = 1024;
var ClientRouter = class {
  constructor(spec, offers, options = {}) {
    this.spec = spec;
    this.offers = offers;
    this.versions = routedVersions("clientRouter", spec, offers, (offer) => {
      if (typeof offer !== "object" || offer === null)
        return "is not an object";
      const { initialize, connect } = offer;
      if (typeof connect !== "function")
        return "has no connect function";
      if (typeof initialize !== "object" || initialize === null || Array.isArray(initialize))
        return "has no initialize params object";
      return void 0;
    });
    this.offer = mergedOffer(spec, this.versions, offers);
    void options;
    this.connect = this.connect.bind(this);
  }
  connect(stream, options = {}) {
    return this.route(stream, options.signal);
  }
  async route(stream, signal) {
    if (signal?.aborted)
      throw signal.reason;
    const held = hold(stream);
    const abort = () => {
      void release(held, signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
    try {
      const id = 0;
      await held.writer.write({ jsonrpc: "2.0", id, method: this.spec.method, params: this.offer });
      const { early, answer } = await this.answerTo(held, id);
      const version = protocolVersionOf(answer.result, this.spec.version);
      const offer = version === void 0 ? void 0 : this.offers[version];
      if (version === void 0 || !offer || !this.versions.includes(version))
        throw new RequestError(-32600, `the agent answered ${this.spec.method} with protocol version ${JSON.stringify(isRecord(answer.result) ? answer.result[this.spec.version] : void 0)}; this client speaks ${this.versions.join(" or ")}`, {
          [this.spec.version]: isRecord(answer.result) ? answer.result[this.spec.version] : void 0
        });
      signal?.removeEventListener("abort", abort);
      const method = this.spec.method;
      const connection = offer.connect(handOver(held, [], (message) => !Array.isArray(message) && "method" in message && message.method === method && "id" in message ? [...early, { ...answer, id: message.id }] : void 0));
      let initialized;
      try {
        initialized = await connection.agent.initialize(this.offer);
      } catch (error) {
        connection.close(error);
        throw error;
      }
      return { protocolVersion: version, connection, initialized };
    } catch (error) {
      signal?.removeEventListener("abort", abort);
      await release(held, error);
      throw signal?.aborted ? signal.reason : error;
    }
  }
  /** Reads up to the answer to request `id`, keeping what came before it. */
  async answerTo(held, id) {
    const early = [];
    for (; ; ) {
      const next = await held.reader.read();
      if (next.done)
        throw new RequestError(-32603, `the agent closed the stream before it answered ${this.spec.method}`);
      const value = next.value;
      const message = isMalformedFrame(value) || Array.isArray(value) ? void 0 : classify(value);
      if (message?.kind === "result" && message.id === id)
        return { early, answer: value };
      if (message?.kind === "error" && message.id === id)
        throw new RequestError(message.error.code, message.error.message, message.error.data);
      if (early.length >= MAX_EARLY_MESSAGES)
        throw new RequestError(-32603, `the agent sent ${MAX_EARLY_MESSAGES} messages without answering ${this.spec.method}`);
      early.push(value);
    }
  }
};
function routedVersions(who, spec, routes, check) {
  if (typeof routes !== "object" || routes === null)
    throw new TypeError(`${who}: pass an object of protocol version → route`);
  const versions = [];
  for (const key of Object.keys(routes)) {
    const version = Number(key);
    const route = routes[key];
    if (route === void 0)
      continue;
    if (!spec.versions.includes(version) || String(version) !== key)
      throw new TypeError(`${who}: ${JSON.stringify(key)} is not a protocol version of this package (${spec.versions.join(", ")})`);
    const problem = check(route);
    if (problem)
      throw new TypeError(`${who}: the route of v${version} ${problem}`);
    versions.push(version);
  }
  if (versions.length === 0)
    throw new TypeError(`${who}: no protocol version routed`);
  return versions.sort((a, b) => b - a);
}
function choose(versions, requested) {
  return versions.find((v) => v <= requested) ?? versions[0];
}
function mergedOffer(spec, versions, offers) {
  const merged = /* @__PURE__ */ Object.create(null);
  const from = /* @__PURE__ */ Object.create(null);
  for (const version of versions) {
    const params = offers[version].initialize;
    for (const key of Object.keys(params)) {
      if (key === spec.version)
        continue;
      const value = params[key];
      if (value === void 0)
        continue;
      if (key in merged) {
        if (!sameJson(merged[key], value))
          throw new TypeError(`clientRouter: the initialize params of v${from[key]} and v${version} disagree on ${JSON.stringify(key)}: an agent of either version reads the one initialize sent`);
        continue;
      }
      merged[key] = value;
      from[key] = version;
    }
  }
  return { [spec.version]: versions[0], ...merged };
}
function protocolVersionOf(value, property) {
  if (!isRecord(value) || !Object.hasOwn(value, property))
    return void 0;
  const version = value[property];
  return typeof version === "number" && Number.isInteger(version) && version >= 0 && version <= MAX_PROTOCOL_VERSION ? version : void 0;
}
var IGNORE = { kind: "wait" };
function refuse(id, error) {
  return { kind: "wait", answer: { jsonrpc: "2.0", id, error: error.toErrorObject() } };
}
function what(message) {
  return message.kind === "notification" ? `the ${message.method} notification` : `an answer to ${JSON.stringify(message.id)}`;
}
function sameJson(a, b) {
  if (a === b)
    return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function describe(error) {
  return error instanceof Error ? error.message : String(error);
}
function ignore() {
}
export {
  AgentRouter,
  ClientRouter,
  handOver,
  hold,
  release
};
