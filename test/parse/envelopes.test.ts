import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { Method } from "../../generator/model/protocol.js";
import { ROOT } from "../../generator/paths.js";
import { isObject, type Json } from "../../generator/schema/json.js";
import { forEachSchema } from "../../generator/schema/walk.js";
import { plainCopy, withoutProto } from "../support/plain.js";
import { heldReleases, SCHEMA_DIR, tempDir } from "../support/run.js";
import { SchemaArbitraries, SchemaChecker } from "./arbitrary.js";
import { attempt, buildParsePackage, type Outcome, type SurfaceModules } from "./support.js";

/**
 * A JSON-RPC message definition (`ClientRequest`, `AgentResponse`, `ProxyNotification`…, any
 * definition whose object, or a branch of its root union, declares `params` beside `method`,
 * or `result`) that accepts a message must keep what the message carries there: `parse<Name>`
 * gives the content as the connection reads it, by method. The oracle is independent of the
 * envelope code: the method's own `parse<Params>` (or, for a response, with the method passed,
 * `parse<Result>`) on the content alone, which is what the connection's method table calls;
 * where nothing names a method the schema refers to there (an extension's method, a response
 * read without a method, a free-form `params`), the content itself, whole.
 *
 * The messages: the exchange recorded between the official SDK's agent and client
 * (bench/corpus/exchange.ndjson, its responses paired with their requests by id), and for
 * every release the suite holds, every surface and every method, messages generated from the
 * schema (requests, notifications, responses), plus an extension method's.
 *
 * Before envelopes were read by method, 10 of these 11 tests failed: 5,120 of the 15,533
 * (message, definition) pairs judged, 263 of the recorded exchange's 731 (parse<Envelope>
 * emptied or narrowed the content).
 */

const work = tempDir("parse-envelopes");
afterAll(() => work.remove());

const SEED = 20260101;
/** Generated params (and results) per method: more on the vendored schema. */
const SAMPLES = { vendored: 6, other: 2 };

type Message = Record<string, unknown>;

/** Where a definition says a message carries a method's content, read from its schema. */
interface MessageShape {
  key: string;
  /** The objects (its root, its unions' branches) that carry `params` beside `method`, or `result`. */
  carriers: Array<{
    property: "params" | "result";
    /** Whether the object declares an `id`: a request's params, not a notification's. */
    id: boolean;
    /** The definitions the content's subschema refers to, through references, at any depth. */
    refers: Set<string>;
  }>;
}

function messageShapes(modules: SurfaceModules): MessageShape[] {
  const { surface } = modules;
  const schemas = new Map(surface.definitions.map((d) => [d.key, d.schema]));
  // Through references to definitions that are only unions of others, up to the first that
  // is more (an object, or one built on another with allOf): what the content can be.
  const refersFrom = (schema: Json): Set<string> => {
    const out = new Set<string>();
    const visit = (node: Json) =>
      forEachSchema(node, (sub) => {
        if (typeof sub.$ref !== "string") return;
        const key = sub.$ref.split("/").pop() as string;
        const target = schemas.get(key);
        if (out.has(key)) return;
        out.add(key);
        const union =
          isObject(target) && (Array.isArray(target.anyOf) || Array.isArray(target.oneOf));
        if (union && !["properties", "allOf", "$ref"].some((k) => Object.hasOwn(target, k)))
          visit(target);
      });
    visit(schema);
    return out;
  };
  const objects = (schema: Json): Json[] => {
    if (!isObject(schema)) return [];
    const branches = [schema.anyOf, schema.oneOf].flatMap((b) => (Array.isArray(b) ? b : []));
    return [schema, ...branches.flatMap(objects)];
  };
  const shapes: MessageShape[] = [];
  for (const def of surface.definitions) {
    const carriers: MessageShape["carriers"] = [];
    for (const object of objects(def.schema)) {
      const props = isObject(object) && isObject(object.properties) ? object.properties : {};
      const has = (name: string) => Object.hasOwn(props, name);
      const property = has("method")
        ? has("params")
          ? "params"
          : undefined
        : has("result")
          ? "result"
          : undefined;
      if (property === undefined) continue;
      carriers.push({ property, id: has("id"), refers: refersFrom(props[property] as Json) });
    }
    if (carriers.length > 0) shapes.push({ key: def.key, carriers });
  }
  return shapes;
}

interface Case {
  label: string;
  message: Message;
  /** The method of the request a response answers, when the case passes it. */
  answers?: string;
}

interface Failure {
  label: string;
  definition: string;
  expected: unknown;
  actual: unknown;
}

/**
 * Every message shape that accepts the case's message: its parse keeps the content as the
 * oracle reads it. Returns the failures and how many (message, definition) pairs were judged.
 */
function judge(modules: SurfaceModules, shapes: MessageShape[], c: Case, failures: Failure[]) {
  const { surface, parsers, guards } = modules;
  let judged = 0;
  for (const shape of shapes) {
    // The object the message is: the one carrying what it holds, with an `id` if it has one.
    const held = shape.carriers.filter(
      (o) => Object.hasOwn(c.message, o.property) && c.message[o.property] !== null,
    );
    const carrier =
      held.find((o) => o.id === Object.hasOwn(c.message, "id")) ?? (held[0] as (typeof held)[0]);
    if (carrier === undefined) continue;
    const content = c.message[carrier.property];
    if (!guards[`validate${shape.key}`]?.(c.message).valid) continue;
    const parse = parsers[`parse${shape.key}`];
    if (!parse) continue;
    judged++;
    const params = carrier.property === "params";
    const method = params ? c.message.method : c.answers;
    const kind = params && !carrier.id ? "notification" : "request";
    const named = surface.methods.find(
      (m: Method) =>
        m.method === method &&
        m.kind === kind &&
        carrier.refers.has(params ? m.params : (m.result ?? "")),
    );
    const contentType = named && (params ? named.params : named.result);
    const expected: Outcome = contentType
      ? attempt(parsers[`parse${contentType}`] as (v: unknown) => unknown, content)
      : { ok: true, value: withoutProto(content) };
    const read = attempt(
      (v: unknown) => parse(v, c.answers === undefined ? undefined : { method: c.answers }),
      c.message,
    );
    const actual: Outcome = read.ok
      ? { ok: true, value: (read.value as Message)[carrier.property] }
      : { ok: false, error: read.error };
    const same = expected.ok
      ? actual.ok && isDeepStrictEqual(plainCopy(actual.value), plainCopy(expected.value))
      : !actual.ok;
    if (!same)
      failures.push({
        label: c.label,
        definition: shape.key,
        expected: expected.ok ? expected.value : `throws: ${String(expected.error)}`,
        actual: actual.ok ? actual.value : `throws: ${String(actual.error)}`,
      });
  }
  return judged;
}

/** The recorded exchange: each response with the method of the request of its id and sender. */
function recordedCases(): Case[] {
  const lines = readFileSync(join(ROOT, "bench", "corpus", "exchange.ndjson"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { from: string; message: Message });
  const asked = new Map<string, string>();
  return lines.flatMap(({ from, message }, i) => {
    const label = `recorded #${i} (${from})`;
    if (typeof message.method === "string") {
      if (Object.hasOwn(message, "id")) asked.set(`${from}:${String(message.id)}`, message.method);
      return [{ label: `${label} ${message.method}`, message }];
    }
    const answers = asked.get(`${from === "agent" ? "client" : "agent"}:${String(message.id)}`);
    const cases: Case[] = [{ label: `${label} response, whole`, message }];
    if (answers !== undefined)
      cases.push({ label: `${label} response to ${answers}`, message, answers });
    return cases;
  });
}

/** Messages generated from the schema: every method's, and an extension method's. */
function generatedCases(modules: SurfaceModules, checker: SchemaChecker, runs: number): Case[] {
  const arbitraries = new SchemaArbitraries(modules.surface, checker);
  const sample = (arb: fc.Arbitrary<unknown>, salt: number) =>
    fc.sample(arb, { numRuns: runs, seed: SEED + salt });
  const cases: Case[] = [];
  modules.surface.methods.forEach((m, i) => {
    for (const [j, params] of sample(arbitraries.definition(m.params), i).entries()) {
      const label = `${modules.surface.id} ${m.method} ${m.kind} #${j}`;
      const message: Message =
        m.kind === "request"
          ? { jsonrpc: "2.0", id: j, method: m.method, params }
          : { jsonrpc: "2.0", method: m.method, params };
      cases.push({ label, message });
    }
    if (typeof m.result !== "string") return;
    for (const [j, result] of sample(arbitraries.definition(m.result), i + 1000).entries()) {
      const message = { jsonrpc: "2.0", id: j, result };
      const label = `${modules.surface.id} ${m.method} result #${j}`;
      cases.push({ label: `${label}, whole`, message }, { label, message, answers: m.method });
    }
  });
  const extension = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }));
  for (const [j, params] of sample(extension, 9999).entries())
    for (const id of [j, undefined]) {
      const message: Message = { jsonrpc: "2.0", method: "_acme/probe", params };
      if (id !== undefined) message.id = id;
      cases.push({ label: `${modules.surface.id} extension #${j}`, message });
    }
  return cases;
}

const RELEASES = heldReleases();

describe("envelope parses keep what their validators accept", { timeout: 300_000 }, () => {
  it("the recorded exchange between the official SDK's agent and client", async () => {
    const pkg = await buildParsePackage(SCHEMA_DIR, join(work.path, "recorded"));
    const failures: Failure[] = [];
    let judged = 0;
    for (const id of ["v1", "v1/unstable"]) {
      const modules = pkg.surfaces.get(id) as SurfaceModules;
      const shapes = messageShapes(modules);
      for (const c of recordedCases()) judged += judge(modules, shapes, c, failures);
    }
    // Every message is some envelope's: the judging did not pass for want of cases.
    expect(judged).toBeGreaterThan(2 * 80);
    expect(failures.slice(0, 5)).toEqual([]);
  });

  it.each(RELEASES)("messages generated for every method of %s", async (label, dir) => {
    const pkg = await buildParsePackage(dir, join(work.path, label.replace(/\W+/g, "-")));
    const runs = dir === SCHEMA_DIR ? SAMPLES.vendored : SAMPLES.other;
    const failures: Failure[] = [];
    let judged = 0;
    for (const modules of pkg.surfaces.values()) {
      const checker = await SchemaChecker.for(modules.surface);
      const shapes = messageShapes(modules);
      for (const c of generatedCases(modules, checker, runs))
        judged += judge(modules, shapes, c, failures);
    }
    // A release whose schema names no method (before x-method) has no content to key.
    const keyed = [...pkg.surfaces.values()].some(
      (m) => m.surface.methods.length > 0 && messageShapes(m).length > 0,
    );
    if (keyed) expect(judged).toBeGreaterThan(0);
    expect({ failures: failures.length, first: failures.slice(0, 3) }).toEqual({
      failures: 0,
      first: [],
    });
  });
});
