import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { isObject, type Json } from "../../generator/schema/json.js";
import { forEachSchema } from "../../generator/schema/walk.js";
import { plainCopy, withoutProto } from "../support/plain.js";
import { RELEASES_DIR, tempDir } from "../support/run.js";
import { SchemaArbitraries, SchemaChecker } from "./arbitrary.js";
import { type MutationContext, mutate, mutationsArbitrary } from "./mutate.js";
import {
  attempt,
  buildParsePackage,
  deepFreeze,
  type Outcome,
  type SurfaceModules,
} from "./support.js";
import { tagGroups } from "./tagged.js";

/**
 * Differential test against the official SDK (`@agentclientprotocol/sdk` 2.4.0), whose zod
 * schemas implement serde's reading by hand (`z.object` strips unknown keys, `z.union` takes
 * the first variant that parses, the `x-deserialize-*` rules are written out). Both sides use
 * the 2.4.0 schema (the SDK's package is built from it). For every definition of the four
 * surfaces, values generated from the schema are changed by one to three mutations (a wrong
 * type, a missing or unknown key, `__proto__`, an unknown or a stale tag…; never the whole
 * message, and never a no-op), and both sides must give the same verdict and, when they
 * accept, the same value, whole.
 *
 * `ACP_DIFFERENTIAL_RUNS=n` runs n cases per definition instead (a longer search).
 */
const SEED = 20250601;
const RUNS_PER_TYPE = Number(process.env.ACP_DIFFERENTIAL_RUNS ?? 30);
const MIN_CASES = 20_000;
const MIN_AGREEMENT = 0.995;

/**
 * Where the two may differ, and why each is the SDK's departure from serde, the reference.
 * Every disagreement must fall in one of these classes; anything else fails the test with a
 * shrunk counterexample.
 */
const KNOWN = {
  "theirs: format enforced":
    "serde deserializes `uri` and `date-time` fields as plain `String`s (schemars writes the format as an annotation only), so it neither rejects nor drops such a value. The SDK validates them (zod's z.url(), an ISO date check) and rejects the message or, under its default-on-error, drops the field. Attributed when both agree once every such string is replaced by a well-formed one.",
  "theirs: result violates the schema":
    "The SDK does not re-check what its fallbacks produce: its default-on-error turns an array into [] where the schema says minItems: 1 (v2 SessionConfigSelectGroup.options), a value its own schema rejects. parse returns only values the schema accepts: such an item is dropped one level up (skip-invalid-items) or the message is rejected.",
  "theirs: a __proto__ map key ignored":
    'serde reads a `"__proto__"` key of a map (`HashMap`, an `additionalProperties` schema) like any other key, so an invalid value under it fails the map (and the variant holding it, ElicitationSchema.properties, AuthMethodTerminal.env). zod\'s z.record never sees that key, and accepts. Attributed when both agree once `__proto__` keys are taken out of the input.',
  "by design: no own __proto__":
    'serde keeps a `"__proto__"` key inside a free-form value (a serde_json::Value: `_meta` values, rawInput), and so does the SDK; parse drops it, as the package promises that no object of a result has an own `__proto__` (spreading or assigning such an object replaces a prototype). The values are otherwise equal. The one departure from the reference parse makes on purpose, counted apart from the agreement figure.',
  "by the reference: an envelope read by its method":
    "The SDK's zod schemas of the JSON-RPC envelopes (ClientRequest, AgentResponse…) read `params` or `result` as a z.union of every method's type: the first that parses wins, and one whose fields are all optional (LogoutRequest, AuthenticateResponse…) keeps none of the other keys. serde decodes a message by its method, and so does parse: `params` as the method's own type, an extension's method's or a response's `result` whole. Attributed when ours is the SDK's reading of the content with the method's own type (z<Params>), or of the content whole, with the rest of the message read by the SDK's envelope. Counted with the agreement: there the SDK departs from the reference.",
} as const;
type Known = keyof typeof KNOWN;

const SDK_ZOD: Record<string, string> = {
  v1: "v1/schema/zod.gen.js",
  "v1/unstable": "v1/unstable/schema/zod.gen.js",
  v2: "v2/schema/zod.gen.js",
  "v2/unstable": "v2/unstable/schema/zod.gen.js",
};

interface ZodSchema {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: unknown[] } };
}

const work = tempDir("parse-differential");
afterAll(() => work.remove());
const pkg = await buildParsePackage(join(RELEASES_DIR, "2.4.0"), work.path);

/**
 * `undefined`-valued keys dropped (zod writes `key: undefined` for a salvaged optional),
 * as plain objects: what `JSON.stringify` would send, which is what the comparison is about.
 */
function clean(value: unknown): unknown {
  return plainCopy(value, { dropUndefined: true });
}

/** A well-formed string per format the SDK checks (the strings the arbitraries draw from). */
const WELL_FORMED: Record<string, string> = {
  uri: "https://example.com/a",
  "date-time": "2025-01-02T03:04:05Z",
};

/** A copy with every string under a formatted property name replaced by a well-formed one. */
function wellFormed(value: unknown, formats: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => wellFormed(v, formats));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    Object.defineProperty(out, k, {
      value: typeof v === "string" && formats.has(k) ? formats.get(k) : wellFormed(v, formats),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/** Whether a value of `schema` can hold an object or array (something a mutation can edit). */
function holdsContainers(
  schema: Json,
  defs: ReadonlyMap<string, Json>,
  seen = new Set<string>(),
): boolean {
  let found = false;
  forEachSchema(schema, (node) => {
    const type = node.type;
    const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : undefined;
    if (types?.includes("object") || types?.includes("array")) found = true;
    // No type, no literal, nothing it refers to or combines: a free-form value.
    const constrained = ["type", "const", "enum", "$ref", "allOf", "anyOf", "oneOf", "not"];
    if (!constrained.some((k) => Object.hasOwn(node, k))) found = true;
    if (typeof node.$ref === "string") {
      const key = node.$ref.split("/").pop() as string;
      const target = defs.get(key);
      if (!seen.has(key) && target !== undefined) {
        seen.add(key);
        if (holdsContainers(target, defs, seen)) found = true;
      }
    }
  });
  return found;
}

/** No own `__proto__` key at any depth, and nothing but plain objects and arrays. */
function plain(value: unknown): boolean {
  if (Array.isArray(value))
    return Object.getPrototypeOf(value) === Array.prototype && value.every(plain);
  if (typeof value !== "object" || value === null) return true;
  return (
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, "__proto__") &&
    Object.values(value).every(plain)
  );
}

interface SurfaceContext {
  id: string;
  modules: SurfaceModules;
  zod: Record<string, ZodSchema>;
  arbitraries: SchemaArbitraries;
  mutations: MutationContext;
  types: string[];
  /** Property name → a well-formed value of the string `format` it carries in this surface. */
  formats: Map<string, string>;
}

const contexts: SurfaceContext[] = [];
for (const [id, modules] of pkg.surfaces) {
  const file = join(
    ROOT,
    "node_modules",
    "@agentclientprotocol",
    "sdk",
    "dist",
    SDK_ZOD[id] as string,
  );
  const zod = (await import(pathToFileURL(file).href)) as Record<string, ZodSchema>;
  const checker = await SchemaChecker.for(modules.surface);
  const defs = new Map(modules.surface.definitions.map((d) => [d.key, d.schema]));
  const formats = new Map<string, string>();
  for (const def of modules.surface.definitions)
    forEachSchema(def.schema, (node) => {
      if (!isObject(node.properties)) return;
      for (const [name, sub] of Object.entries(node.properties))
        if (isObject(sub) && typeof sub.format === "string" && WELL_FORMED[sub.format])
          formats.set(name, WELL_FORMED[sub.format] as string);
    });
  contexts.push({
    id,
    modules,
    zod,
    arbitraries: new SchemaArbitraries(modules.surface, checker),
    mutations: { tags: tagGroups(defs) },
    // Definitions whose values hold something to mutate (a scalar can only be replaced whole).
    types: modules.surface.definitions
      .filter(
        (d) =>
          zod[`z${d.key}`] &&
          !checker.definition(d.key, modules.surface.defsKeyword)(null) &&
          holdsContainers(d.schema, defs),
      )
      .map((d) => d.key),
    formats,
  });
}

interface Tally {
  cases: number;
  agreed: number;
  unchanged: number;
  repaired: number;
  rejected: number;
  /** Known kinds of disagreement seen, with a count. */
  seen: Map<Known, number>;
}
const tallies = new Map<string, Tally>();

type Context = (typeof contexts)[number];

/** Both sides' outcomes on `input` are the same: both reject, or both give equal values. */
function same(context: Context, type: string, input: unknown): boolean {
  const parse = context.modules.parsers[`parse${type}`] as (v: unknown) => unknown;
  const ours = attempt(parse, input);
  const theirs = (context.zod[`z${type}`] as ZodSchema).safeParse(input);
  if (!ours.ok || !theirs.success) return !ours.ok && !theirs.success;
  return isDeepStrictEqual(clean(ours.value), clean(theirs.data));
}

function classify(
  context: Context,
  type: string,
  input: unknown,
  ours: Outcome,
  theirs: ReturnType<ZodSchema["safeParse"]>,
): Known | "agree" | "unexplained" {
  const { modules, formats } = context;
  const is = modules.guards[`is${type}`] as (v: unknown) => boolean;
  if (ours.ok && theirs.success && isDeepStrictEqual(clean(ours.value), clean(theirs.data)))
    return "agree";
  if (!ours.ok && !theirs.success) return "agree";
  if (theirs.success && !is(theirs.data)) return "theirs: result violates the schema";
  if (
    ours.ok &&
    theirs.success &&
    isDeepStrictEqual(clean(withoutProto(ours.value)), clean(withoutProto(theirs.data)))
  )
    return "by design: no own __proto__";
  const stripped = withoutProto(input);
  if (same(context, type, stripped)) return "theirs: a __proto__ map key ignored";
  if (
    same(context, type, wellFormed(input, formats)) ||
    same(context, type, wellFormed(stripped, formats))
  )
    return "theirs: format enforced";
  if (readByMethod(context, type, input, ours))
    return "by the reference: an envelope read by its method";
  return "unexplained";
}

/**
 * Whether `ours` is what the SDK gives when it reads an envelope's content as serde does, by
 * the message's method: with the method's own params type (one the envelope's schema refers
 * to, of the message's kind), else whole; the rest of the message by the SDK's envelope.
 */
function readByMethod(context: Context, type: string, input: unknown, ours: Outcome): boolean {
  if (!isObject(input)) return false;
  const { surface } = context.modules;
  const schema = JSON.stringify(surface.definitions.find((d) => d.key === type)?.schema ?? {});
  const refers = (key: string) => schema.includes(`"#/${surface.defsKeyword}/${key}"`);
  for (const property of ["params", "result"]) {
    const content = input[property];
    if (!Object.hasOwn(input, property) || content === null || content === undefined) continue;
    const kind = Object.hasOwn(input, "id") ? "request" : "notification";
    const method =
      property === "params"
        ? surface.methods.find(
            (m) => m.method === input.method && m.kind === kind && refers(m.params),
          )
        : undefined;
    const own = method && context.zod[`z${method.params}`];
    const read = own ? own.safeParse(content) : { success: true as const, data: content };
    if (!read.success) return !ours.ok;
    const rest = (context.zod[`z${type}`] as ZodSchema).safeParse({
      ...input,
      [property]: read.data,
    });
    if (!rest.success) return !ours.ok;
    const expected = { ...(rest.data as object), [property]: read.data };
    return ours.ok && isDeepStrictEqual(clean(ours.value), clean(withoutProto(expected)));
  }
  return false;
}

/**
 * Runs the property for one type of one surface, once per file (the type's own test, its
 * surface's summary and the summary of all four ask for it, in whatever order they run, and
 * each runs alone as well) and counts what it saw.
 */
function tallyOf(context: Context, type: string): Tally {
  const key = `${context.id} ${type}`;
  const done = tallies.get(key);
  if (done) return done;
  const { modules, zod, arbitraries, mutations } = context;
  const parse = modules.parsers[`parse${type}`] as (v: unknown) => unknown;
  const is = modules.guards[`is${type}`] as (v: unknown) => boolean;
  const theirs = zod[`z${type}`] as ZodSchema;
  const tally: Tally = {
    cases: 0,
    agreed: 0,
    unchanged: 0,
    repaired: 0,
    rejected: 0,
    seen: new Map(),
  };
  fc.assert(
    fc.property(arbitraries.definition(type), mutationsArbitrary, (generated, edits) => {
      const mutated = mutate(generated, edits, mutations);
      // Only a message the mutations really changed is a case.
      fc.pre(!isDeepStrictEqual(mutated, generated));
      const input = deepFreeze(mutated);
      const prototypes = Object.getOwnPropertyNames(Object.prototype).length;
      const ours = attempt(parse, input);
      // Whatever parse returns is valid under the schema, plain (no own __proto__, no
      // prototype set), and the input is left alone (frozen: a write would have thrown).
      if (ours.ok) {
        expect(is(ours.value)).toBe(true);
        expect(plain(ours.value)).toBe(true);
      }
      expect(Object.getOwnPropertyNames(Object.prototype).length).toBe(prototypes);
      const verdict = classify(context, type, input, ours, theirs.safeParse(input));
      tally.cases++;
      if (!ours.ok) tally.rejected++;
      else if (ours.value === input) tally.unchanged++;
      else tally.repaired++;
      if (verdict === "agree") tally.agreed++;
      else if (verdict !== "unexplained")
        tally.seen.set(verdict, (tally.seen.get(verdict) ?? 0) + 1);
      return verdict !== "unexplained";
    }),
    { seed: SEED, numRuns: RUNS_PER_TYPE },
  );
  tallies.set(key, tally);
  return tally;
}

describe.each(contexts.map((c) => [c.id, c] as const))(
  "%s: parse gives the SDK's value",
  (_id, context) => {
    const { modules, zod, types } = context;

    it("has an SDK schema for every definition", () => {
      expect(modules.surface.definitions.map((d) => d.key).filter((k) => !zod[`z${k}`])).toEqual(
        [],
      );
    });

    it.each(types)("%s", (type) => {
      expect(tallyOf(context, type).cases).toBe(RUNS_PER_TYPE);
    });

    it("exercised accepted, repaired and rejected messages alike; disagreements only of known kinds", () => {
      const all = types.map((type) => tallyOf(context, type));
      const total = (bucket: "cases" | "unchanged" | "repaired" | "rejected") =>
        all.reduce((sum, t) => sum + t[bucket], 0);
      expect(total("cases")).toBe(types.length * RUNS_PER_TYPE);
      for (const bucket of ["repaired", "rejected"] as const)
        expect(total(bucket), bucket).toBeGreaterThan(total("cases") * 0.05);
      for (const t of all)
        for (const kind of t.seen.keys()) expect(Object.keys(KNOWN)).toContain(kind);
    });
  },
);

describe("all four surfaces", () => {
  it(`agree on at least ${MIN_AGREEMENT * 100}% of at least ${MIN_CASES} mutated messages`, () => {
    // Every surface's types: run here unless another test of this file already ran them.
    const all = contexts.flatMap((c) => c.types.map((type) => tallyOf(c, type)));
    const cases = all.reduce((sum, t) => sum + t.cases, 0);
    const agreed = all.reduce((sum, t) => sum + t.agreed, 0);
    const seen = new Map<Known, number>();
    for (const t of all) for (const [k, n] of t.seen) seen.set(k, (seen.get(k) ?? 0) + n);
    const percent = (n: number) => `${((100 * n) / cases).toFixed(2)}%`;
    // The tally, shown when the bar is missed (a green run prints nothing).
    const tally =
      `parse vs the SDK: ${agreed} of ${cases} mutated messages agree (${percent(agreed)}; ${percent(agreed + (seen.get("by design: no own __proto__") ?? 0))} with parse's own __proto__ rule); ` +
      [...seen].map(([k, n]) => `${k}: ${n}`).join(", ");
    if (RUNS_PER_TYPE >= 30) expect(cases, tally).toBeGreaterThanOrEqual(MIN_CASES);
    // The departure parse makes on purpose, and the envelopes the SDK reads unlike the
    // reference, are counted apart: every other case agrees.
    const byDesign =
      (seen.get("by design: no own __proto__") ?? 0) +
      (seen.get("by the reference: an envelope read by its method") ?? 0);
    expect((agreed + byDesign) / cases, tally).toBeGreaterThanOrEqual(MIN_AGREEMENT);
  });
});
