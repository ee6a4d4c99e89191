// The message corpus: the recorded exchange (bench/corpus/exchange.ndjson), the large messages
// synthesised from a seed at bench time, and a few invalid variants derived from the schema.
//
// Messages are mapped to schema definitions through the generated package's METHODS table, i.e.
// through the schema's own x-method/x-side annotations, and coverage is checked against the
// same table and the schema's SessionUpdate variants. Nothing here lists methods by hand, so a
// schema that adds a method or an update kind makes the coverage check fail instead of silently
// shrinking what is measured.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const EXCHANGE = fileURLToPath(new URL("../corpus/exchange.ndjson", import.meta.url));

/** Seed of the large-message generator; change it only together with the recorded results. */
export const LARGE_SEED = 0xac9e;

/**
 * One JSON-RPC message as recorded, with the side that sent it.
 * @typedef {{ from: string, message: any, large?: boolean }} Message
 */

/**
 * One entry of the generated package's METHODS table.
 * @typedef {{ method: string, side: string, kind: string, params: string, result?: string }} MethodEntry
 */

/**
 * One value to validate: a message's params or result, with the definition the schema gives it.
 * @typedef {{
 *   label: string,
 *   method: string,
 *   part: "params" | "result",
 *   definition: string,
 *   from: string,
 *   large: boolean,
 *   expect: "valid" | "invalid",
 *   value: any,
 *   json: string,
 * }} Item
 */

/** @returns {Message[]} */
export function loadExchange() {
  return readFileSync(EXCHANGE, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

/**
 * mulberry32: a tiny seeded PRNG, so the large messages are the same bytes on every run.
 * @param {number} seed
 * @returns {() => number}
 */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the agent reads file handler request response session update tool call plan diff terminal " +
  "returns error value async await const let function import export router database query " +
  "cache index schema validate parse stream buffer token model context window budget test " +
  "passes fails retries timeout config option mode cursor page result status pending done " +
  "naïve café résumé 変更 テスト ✓ → λ"
).split(" ");

/**
 * @param {() => number} rand
 * @param {number} words
 */
function sentence(rand, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]);
  return out.join(" ");
}

/**
 * A markdown-ish answer of at least `bytes` UTF-16 code units, with prose, lists and code.
 * @param {() => number} rand
 * @param {number} bytes
 */
function longText(rand, bytes) {
  const parts = [];
  let length = 0;
  while (length < bytes) {
    const pick = rand();
    let part;
    if (pick < 0.7) part = `${sentence(rand, 8 + Math.floor(rand() * 20))}.\n`;
    else if (pick < 0.85) part = `- ${sentence(rand, 4 + Math.floor(rand() * 8))}\n`;
    else {
      part = `\`\`\`ts\nconst ${WORDS[Math.floor(rand() * 40)]} = await ${WORDS[Math.floor(rand() * 40)]}(${Math.floor(rand() * 1000)});\n\`\`\`\n`;
    }
    parts.push(part);
    length += part.length;
  }
  return parts.join("");
}

/**
 * A source file of `lines` lines, and a copy with about one line in ten edited.
 * @param {() => number} rand
 * @param {number} lines
 */
function sourceAndEdit(rand, lines) {
  const before = [];
  const after = [];
  for (let i = 0; i < lines; i++) {
    const indent = "  ".repeat(Math.floor(rand() * 4));
    const line = `${indent}const v${i} = ${WORDS[Math.floor(rand() * 40)]}(${Math.floor(rand() * 100)}); // ${sentence(rand, 3)}`;
    before.push(line);
    after.push(
      rand() < 0.1 ? `${indent}const v${i} = await ${WORDS[Math.floor(rand() * 40)]}();` : line,
    );
  }
  return { oldText: `${before.join("\n")}\n`, newText: `${after.join("\n")}\n` };
}

/**
 * The large messages: a 100 KB text chunk, a 2,000-line diff in a tool_call_update and a
 * 500-entry plan. Generated here rather than committed, to keep the repository small.
 * @param {string} sessionId
 * @returns {Message[]}
 */
export function largeMessages(sessionId, seed = LARGE_SEED) {
  const rand = prng(seed);
  const notify = (/** @type {Record<string, unknown>} */ update) => ({
    from: "agent",
    large: true,
    message: { jsonrpc: "2.0", method: "session/update", params: { sessionId, update } },
  });
  const { oldText, newText } = sourceAndEdit(rand, 2000);
  const statuses = ["pending", "in_progress", "completed"];
  const priorities = ["high", "medium", "low"];
  return [
    notify({
      sessionUpdate: "agent_message_chunk",
      messageId: "msg_large_1",
      content: { type: "text", text: longText(rand, 100 * 1024) },
    }),
    notify({
      sessionUpdate: "tool_call_update",
      toolCallId: "call_large_diff",
      status: "completed",
      content: [
        { type: "diff", path: "/home/dev/projects/todo-api/src/generated.ts", oldText, newText },
      ],
      locations: [{ path: "/home/dev/projects/todo-api/src/generated.ts", line: 1 }],
    }),
    notify({
      sessionUpdate: "plan",
      entries: Array.from({ length: 500 }, (_, i) => ({
        content: `Step ${i + 1}: ${sentence(rand, 6 + Math.floor(rand() * 10))}`,
        priority: priorities[Math.floor(rand() * 3)],
        status: statuses[Math.floor(rand() * 3)],
      })),
    }),
  ];
}

/**
 * The discriminator values of the schema's SessionUpdate union (the update kinds).
 * @param {any} schema
 * @returns {string[]}
 */
export function sessionUpdateKinds(schema) {
  const def = schema.$defs?.SessionUpdate;
  /** @type {any[]} */
  const branches = def?.oneOf ?? def?.anyOf ?? [];
  return branches
    .map((b) => b.properties?.sessionUpdate?.const)
    .filter((k) => typeof k === "string");
}

/** @param {any} update */
function updateLabel(update) {
  const content = update?.content;
  const detail = Array.isArray(content)
    ? content.map((/** @type {any} */ c) => c?.type).join("+")
    : (content?.type ?? "");
  return `session/update ${update?.sessionUpdate}${detail ? ` (${detail})` : ""}`;
}

/**
 * Turns the exchange into benchmark items: one per params/result value, labelled, paired with
 * the definition the schema assigns to it, and with the exact JSON text of the value (what a
 * receiver would JSON.parse).
 * @param {{ methods: readonly MethodEntry[], schema: any, messages: readonly Message[] }} input
 */
export function buildItems({ methods, schema, messages }) {
  const served = (/** @type {string} */ from) => (from === "client" ? "agent" : "client");
  const find = (
    /** @type {string} */ kind,
    /** @type {string} */ method,
    /** @type {string} */ from,
  ) =>
    methods.find(
      (m) =>
        m.kind === kind &&
        m.method === method &&
        (m.side === served(from) || m.side === "protocol"),
    ) ?? methods.find((m) => m.kind === kind && m.method === method);
  /** @type {Map<string, MethodEntry | string>} */
  const pending = new Map();
  /** @type {Item[]} */
  const items = [];
  /** @type {string[]} */
  const unmapped = [];
  /** @type {Map<string, number>} */
  const labels = new Map();
  const push = (/** @type {Item} */ item) => {
    const n = (labels.get(item.label) ?? 0) + 1;
    labels.set(item.label, n);
    if (n > 1) item.label = `${item.label} #${n}`;
    items.push(item);
  };
  const kinds = new Set(sessionUpdateKinds(schema));

  for (const { from, message, large } of messages) {
    const hasId = Object.hasOwn(message, "id");
    if (typeof message.method === "string") {
      const kind = hasId ? "request" : "notification";
      const entry = find(kind, message.method, from);
      if (hasId) pending.set(`${from}|${JSON.stringify(message.id)}`, entry ?? message.method);
      if (!entry) {
        unmapped.push(`${kind} ${message.method}`);
        continue;
      }
      const update = message.method === "session/update" ? message.params?.update : undefined;
      if (update && !kinds.has(update.sessionUpdate)) {
        unmapped.push(`session/update ${update.sessionUpdate} (not in this schema)`);
        continue;
      }
      push({
        label: update ? updateLabel(update) : `${message.method} params`,
        method: message.method,
        part: "params",
        definition: entry.params,
        from,
        large: Boolean(large),
        expect: "valid",
        value: message.params,
        json: JSON.stringify(message.params),
      });
    } else if (hasId && Object.hasOwn(message, "result")) {
      const requester = from === "client" ? "agent" : "client";
      const entry = pending.get(`${requester}|${JSON.stringify(message.id)}`);
      if (!entry || typeof entry === "string" || !entry.result) {
        unmapped.push(`response to ${typeof entry === "string" ? entry : "unknown request"}`);
        continue;
      }
      push({
        label: `${entry.method} result`,
        method: entry.method,
        part: "result",
        definition: entry.result,
        from,
        large: false,
        expect: "valid",
        value: message.result,
        json: JSON.stringify(message.result),
      });
    }
  }

  const seen = new Set(items.map((i) => `${i.method}|${i.part}`));
  /** @type {string[]} */
  const missing = [];
  for (const m of methods) {
    if (!seen.has(`${m.method}|params`)) missing.push(`${m.method} params`);
    if (m.kind === "request" && m.result && !seen.has(`${m.method}|result`)) {
      missing.push(`${m.method} result`);
    }
  }
  const seenKinds = new Set(
    items.filter((i) => i.method === "session/update").map((i) => i.value?.update?.sessionUpdate),
  );
  for (const k of kinds) if (!seenKinds.has(k)) missing.push(`session/update ${k}`);

  return {
    items,
    coverage: { methods: methods.length, updateKinds: kinds.size, missing, unmapped },
  };
}

/**
 * Invalid variants, derived from the schema rather than written by hand: for the first item of
 * each definition, drop the first property the definition lists as `required`; and one
 * session/update with an update kind the schema does not define. Both validators must reject
 * these; the benchmark reports any item they disagree on.
 * @param {readonly Item[]} items
 * @param {any} schema
 * @returns {Item[]}
 */
export function invalidItems(items, schema) {
  /** @type {Item[]} */
  const out = [];
  const done = new Set();
  for (const item of items) {
    if (item.large || done.has(item.definition)) continue;
    done.add(item.definition);
    const required = schema.$defs?.[item.definition]?.required;
    if (!Array.isArray(required) || required.length === 0) continue;
    const value = structuredClone(item.value);
    delete value[required[0]];
    out.push({
      ...item,
      label: `${item.definition} without "${required[0]}"`,
      expect: "invalid",
      value,
      json: JSON.stringify(value),
    });
  }
  const update = items.find((i) => i.method === "session/update" && !i.large);
  if (update) {
    const value = structuredClone(update.value);
    value.update.sessionUpdate = "no_such_update_kind";
    out.push({
      ...update,
      label: "SessionNotification with an unknown update kind",
      expect: "invalid",
      value,
      json: JSON.stringify(value),
    });
  }
  return out;
}
