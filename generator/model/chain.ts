import { PROXY_CHAIN } from "./conventions.js";
import { methodsOf } from "./methods.js";
import type { Method, SurfaceModel } from "./protocol.js";

/** How a surface's `x-side: proxy` methods make a proxy chain (see PROXY_CHAIN). */
export interface ProxyChain {
  /** The envelope request (`proxy/successor`): both the proxy and the conductor serve it. */
  successor: Method;
  /** The envelope notification, where the schema has one. */
  successorNotification?: Method;
  /** Every `x-side: proxy` method, envelope included, in model order: what the conductor may call. */
  methods: Method[];
  /** The proxy methods only the proxy serves (`proxy/initialize`), in model order. */
  proxyServes: Method[];
  /** The proxy method standing for `initialize` and the agent method it forwards, when both exist. */
  initialize?: { method: Method; forwards: Method };
}

/**
 * The surface's proxy chain, or undefined when it has none: without the envelope request a
 * proxy could not reach its successor, so the proxy methods then get constants and maps
 * only, like any other methods no connection role serves.
 */
export function proxyChain(surface: Pick<SurfaceModel, "methods">): ProxyChain | undefined {
  const methods = methodsOf(surface, "proxy");
  const successor = methods.find((m) => m.method === PROXY_CHAIN.successor && m.kind === "request");
  if (!successor) return undefined;
  const successorNotification = methods.find(
    (m) => m.method === PROXY_CHAIN.successor && m.kind === "notification",
  );
  const proxyServes = methods.filter((m) => m.method !== PROXY_CHAIN.successor);
  const init = proxyServes.find(
    (m) => m.method === PROXY_CHAIN.initialize.method && m.kind === "request",
  );
  const forwards = methodsOf(surface, "agent", "request").find(
    (m) => m.method === PROXY_CHAIN.initialize.forwards,
  );
  return {
    successor,
    ...(successorNotification ? { successorNotification } : {}),
    methods,
    proxyServes,
    ...(init && forwards ? { initialize: { method: init, forwards } } : {}),
  };
}
