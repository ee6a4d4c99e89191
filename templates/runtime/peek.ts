import { isJsonRpcId, type JsonRpcId } from "./json-rpc.js";

/** What the first bytes of a message say about it. */
export interface MessageHead {
  /** `method` seen at the top level: a request (with an id) or a notification. */
  readonly method?: boolean;
  /** `result` or `error` seen at the top level: a response. */
  readonly response?: boolean;
  /** The top-level `id`, when it was read whole. */
  readonly id?: JsonRpcId;
}

/**
 * Reads the top-level `id`, and whether there is a `method` or a `result`/`error`, from the
 * start of a JSON text too long to parse (a message over the size limit, of which only the
 * head was kept). Every JSON-RPC implementation seen writes `id` and `method` before
 * `params`, so the head usually says whose request it was, and the caller can be answered
 * with its own id instead of a null one it cannot match.
 *
 * A small tokenizer: it tracks strings and nesting and looks at keys at depth 1 only, so a
 * nested `"id"` inside params is never mistaken for the message's. Anything unexpected
 * ends the scan with what was found so far.
 */
export function peek(head: string): MessageHead {
  let i = 0;
  const n = head.length;
  const found: { method?: boolean; response?: boolean; id?: JsonRpcId } = {};
  const skipSpace = () => {
    while (i < n && " \t\r\n".includes(head[i] as string)) i++;
  };
  /** A string token starting at `i` (the opening quote); undefined when it is cut off. */
  const readString = (): string | undefined => {
    const start = i;
    i++;
    while (i < n) {
      const c = head[i];
      if (c === "\\") i += 2;
      else if (c === '"') {
        i++;
        try {
          return JSON.parse(head.slice(start, i)) as string;
        } catch {
          return undefined;
        }
      } else i++;
    }
    return undefined;
  };
  /** Skips one value of any kind; false when the head ends inside it. */
  const skipValue = (): boolean => {
    let depth = 0;
    while (i < n) {
      const c = head[i] as string;
      if (c === '"') {
        if (readString() === undefined) return false;
      } else if (c === "{" || c === "[") {
        depth++;
        i++;
      } else if (c === "}" || c === "]") {
        if (depth === 0) return true;
        depth--;
        i++;
        if (depth === 0) return true;
      } else if (c === "," && depth === 0) {
        return true;
      } else {
        i++;
      }
    }
    return false;
  };

  skipSpace();
  if (head[i] !== "{") return found;
  i++;
  for (;;) {
    skipSpace();
    if (head[i] !== '"') return found;
    const key = readString();
    if (key === undefined) return found;
    skipSpace();
    if (head[i] !== ":") return found;
    i++;
    skipSpace();
    if (key === "method") found.method = true;
    if (key === "result" || key === "error") found.response = true;
    if (key === "id") {
      const start = i;
      if (!skipValue() || i >= n) return found;
      try {
        const id: unknown = JSON.parse(head.slice(start, i));
        if (isJsonRpcId(id)) found.id = id;
      } catch {
        return found;
      }
    } else if (!skipValue()) {
      return found;
    }
    skipSpace();
    if (head[i] !== ",") return found;
    i++;
  }
}
