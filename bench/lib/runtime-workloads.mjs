// The messages of the runtime benchmark, shared by its agent and client processes, so every
// implementation (ours, the SDK's, the raw ndjson floor) sends byte-identical payloads.

import { readFileSync } from "node:fs";

export const SESSION_ID = "bench-session";

/**
 * A text `agent_message_chunk` update whose text is `bytes` long.
 * @param {number} bytes
 */
function chunk(bytes) {
  return {
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: "x".repeat(bytes) },
  };
}

/**
 * A `tool_call_update` carrying the diff of a `lines`-line file, every line changed.
 * @param {number} lines
 */
function diff(lines) {
  const file = (/** @type {string} */ tag) =>
    Array.from({ length: lines }, (_, i) => `  const value${i} = compute("${tag}", ${i});`).join(
      "\n",
    );
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: "call-1",
    status: "in_progress",
    content: [
      { type: "diff", path: "/workspace/src/big.ts", oldText: file("old"), newText: file("new") },
    ],
  };
}

/** The update each payload name streams. */
export const PAYLOADS = {
  small: () => chunk(100),
  large: () => chunk(10 * 1024),
  diff: () => diff(2000),
};

/**
 * The `session/prompt` params that ask the agent for a workload (its text names it).
 * @param {string} text
 */
export function promptParams(text) {
  return { sessionId: SESSION_ID, prompt: [{ type: "text", text }] };
}

/**
 * `stream <count>`: send `count` updates, then answer; anything else: answer at once.
 * @param {any} params the prompt's params as each implementation hands them over (typed or not)
 */
export function parsePrompt(params) {
  const text = params?.prompt?.[0]?.text ?? "";
  const match = /^stream (\d+)$/.exec(text);
  return match ? { stream: Number(match[1]) } : { stream: 0 };
}

/**
 * Reads a CLI flag's value: `--name value`; without a fallback, the flag must be there.
 * @param {string} name
 * @param {string} [fallback]
 * @returns {string}
 */
export function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  const value = i === -1 ? fallback : process.argv[i + 1];
  if (value === undefined) throw new Error(`missing --${name}`);
  return value;
}

/**
 * The floor's framing: split bytes on `\n`, decode, JSON.parse, with the same web-stream
 * reader the implementations get. Written plainly, the way anyone would, so the floor is
 * the cost of the pipe and of JSON itself, not of any one implementation's framing.
 * @param {ReadableStream<Uint8Array>} readable
 * @returns {AsyncGenerator<any>} the messages, as JSON.parse returns them
 */
export async function* rawLines(readable) {
  const reader = readable.getReader();
  const decoder = new TextDecoder();
  /** @type {Uint8Array | undefined} */
  let carry;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    let start = 0;
    for (let nl = value.indexOf(10); nl !== -1; nl = value.indexOf(10, start)) {
      let line = value.subarray(start, nl);
      if (carry) {
        const joined = new Uint8Array(carry.length + line.length);
        joined.set(carry);
        joined.set(line, carry.length);
        line = joined;
        carry = undefined;
      }
      start = nl + 1;
      if (line.length > 0) yield JSON.parse(decoder.decode(line));
    }
    if (start < value.length) {
      const rest = value.slice(start);
      if (carry) {
        const joined = new Uint8Array(carry.length + rest.length);
        joined.set(carry);
        joined.set(rest, carry.length);
        carry = joined;
      } else {
        carry = rest;
      }
    }
  }
}

/**
 * The floor's writing: one JSON.stringify and one encode per message, through a web writer.
 * @param {WritableStream<Uint8Array>} writable
 */
export function rawWriter(writable) {
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  return (/** @type {unknown} */ message) =>
    writer.write(encoder.encode(`${JSON.stringify(message)}\n`));
}

/**
 * CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere.
 * @param {number | undefined} pid
 */
export function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
