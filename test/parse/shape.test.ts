import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { isObject, type Json } from "../../generator/schema/json.js";
import { HISTORY_DIR, RELEASES_DIR, SCHEMA_DIR, tempDir } from "../support/run.js";
import { SchemaArbitraries, SchemaChecker } from "./arbitrary.js";
import { Positions, plain, withKey } from "./positions.js";
import { attempt, buildParsePackage, clone, deepFreeze, type SurfaceModules } from "./support.js";
import { knownTags, readTaggedUnion } from "./tagged.js";

/**
 * What parse keeps of a value, as serde reads it: stale tags (the inputs of the issue that
 * asked for this, and a stale tag on every untagged variant of every tagged union), and at
 * every object of sample messages of every method an unknown key (dropped, unless the
 * position admits any key), a `__proto__` key (always dropped, no prototype ever changes)
 * and a map key (kept).
 */
const work = tempDir("parse-shape");
afterAll(() => work.remove());
const pkg = await buildParsePackage(SCHEMA_DIR, join(work.path, "vendored"));
/**
 * The releases the stale-tag rows were written against: the SDK 2.4.0's schema, and upstream
 * commit 788fdeda, whose `args` still had default-on-error.
 */
const RELEASE_DIRS = {
  "788fdeda": join(HISTORY_DIR, "788fdeda"),
  "2.4.0": join(RELEASES_DIR, "2.4.0"),
} as const;
type Release = keyof typeof RELEASE_DIRS;
const v1 = {} as Record<Release, SurfaceModules>;
for (const [name, dir] of Object.entries(RELEASE_DIRS) as Array<[Release, string]>)
  v1[name] = (await buildParsePackage(dir, join(work.path, name))).surfaces.get(
    "v1",
  ) as SurfaceModules;
/** The tests' reference validator for each surface. */
const checkers = new Map<string, SchemaChecker>();
for (const [id, modules] of pkg.surfaces)
  checkers.set(id, await SchemaChecker.for(modules.surface));
type Fn = (value: unknown) => unknown;
const fn = (modules: SurfaceModules, name: string) =>
  (modules.parsers[name] ?? modules.guards[name]) as Fn;

describe("stale tags: the issue's inputs, read as serde reads them (v1)", () => {
  const rows: Array<{
    why: string;
    /** The schema sets the row holds for. */
    sets: readonly Release[];
    def: string;
    input: unknown;
    serde: unknown;
    /** Guards the result must pass (true) or fail (false), as [name, tag?]. */
    guards: Array<[string, string | undefined, boolean]>;
  }> = [
    {
      why: "an sse tag on a stdio server: serde falls back to the untagged stdio variant and ignores the tag",
      sets: ["788fdeda", "2.4.0"],
      def: "NewSessionRequest",
      input: {
        cwd: "/x",
        mcpServers: [{ type: "sse", name: "m", command: "run", args: [], env: [] }],
      },
      serde: { cwd: "/x", mcpServers: [{ name: "m", command: "run", args: [], env: [] }] },
      guards: [],
    },
    {
      why: "a boolean tag on a string value: the untagged value_id variant, without the tag",
      sets: ["788fdeda", "2.4.0"],
      def: "SetSessionConfigOptionRequest",
      input: { sessionId: "s", configId: "c", type: "boolean", value: "fast" },
      serde: { sessionId: "s", configId: "c", value: "fast" },
      guards: [
        ["isSetSessionConfigOptionRequestOf", "boolean", false],
        ["isUntaggedSetSessionConfigOptionRequest", undefined, true],
      ],
    },
    {
      why: "a terminal tag with args that are no list (args without default-on-error): the untagged agent variant, terminal's fields gone",
      sets: ["2.4.0"],
      def: "AuthMethod",
      input: { type: "terminal", id: "x", name: "n", args: 5 },
      serde: { id: "x", name: "n" },
      guards: [
        ["isAuthMethodOf", "terminal", false],
        ["isUntaggedAuthMethod", undefined, true],
      ],
    },
    {
      why: "the same where args has default-on-error (788fdeda): the terminal variant deserializes, args falls back to []",
      sets: ["788fdeda"],
      def: "AuthMethod",
      input: { type: "terminal", id: "x", name: "n", args: 5 },
      serde: { type: "terminal", id: "x", name: "n", args: [] },
      guards: [
        ["isAuthMethodOf", "terminal", true],
        ["isUntaggedAuthMethod", undefined, false],
      ],
    },
    {
      why: "an embedded resource with a blob and a text that is no string: the blob variant, without the text",
      sets: ["788fdeda", "2.4.0"],
      def: "EmbeddedResourceResource",
      input: { uri: "file:///a", blob: "aGk=", text: 5 },
      serde: { uri: "file:///a", blob: "aGk=" },
      guards: [
        ["isBlobResourceContents", undefined, true],
        ["isTextResourceContents", undefined, false],
      ],
    },
  ];

  it.each(rows.flatMap((r) => r.sets.map((set) => [`${set}: ${r.why}`, set, r] as const)))(
    "%s",
    (_why, set, row) => {
      const modules = v1[set];
      // The schema admits the input as it is (JSON Schema ignores the extra keys)…
      expect(fn(modules, `is${row.def}`)(row.input)).toBe(true);
      // …and parse returns serde's value, the stale tag and the losing fields gone.
      const input = deepFreeze(clone(row.input));
      const result = fn(modules, `parse${row.def}`)(input);
      expect(result).toEqual(row.serde);
      for (const [guard, tag, expected] of row.guards) {
        const check = (modules.parsers[guard] ?? modules.guards[guard]) as (
          v: unknown,
          t?: string,
        ) => boolean;
        expect(check(result, tag), guard).toBe(expected);
      }
    },
  );
});

describe("a stale tag on every untagged variant of every tagged union", () => {
  const cases: Array<[string, () => void]> = [];
  for (const [surfaceId, modules] of pkg.surfaces) {
    const defs = new Map(modules.surface.definitions.map((d) => [d.key, d.schema]));
    const checker = checkers.get(surfaceId) as SchemaChecker;
    const arbitraries = new SchemaArbitraries(modules.surface, checker);
    for (const def of modules.surface.definitions) {
      const union = readTaggedUnion(def.schema, defs);
      if (!union) continue;
      const valid = checker.definition(def.key, modules.surface.defsKeyword);
      const untagged = fc
        .sample(arbitraries.definition(def.key), { seed: 5, numRuns: 200 })
        .find((v) => isObject(v as Json) && valid(v) && !Object.hasOwn(v as object, union.tag)) as
        | Record<string, unknown>
        | undefined;
      if (!untagged) continue;
      for (const tag of knownTags(union)) {
        const stale = { ...untagged, [union.tag]: tag };
        // Only where the tag's own variant does not take the value: else it is that variant.
        const variant = union.variants.find((v) => v.kind === "tagged" && v.value === tag);
        if (!variant || checker.check(variant.schema)(stale) || !valid(stale)) continue;
        cases.push([
          `${surfaceId} ${def.key}: ${union.tag} "${tag}" on an untagged variant`,
          () => {
            const parse = fn(modules, `parse${def.key}`);
            expect(parse(deepFreeze(clone(stale)))).toEqual(parse(untagged));
            const isOf = modules.parsers[`is${def.key}Of`] as (v: unknown, t: string) => boolean;
            expect(isOf(parse(stale), tag)).toBe(false);
          },
        ]);
      }
    }
  }

  it("finds such unions on every surface, McpServer and SetSessionConfigOptionRequest in v1", () => {
    for (const id of pkg.surfaces.keys())
      expect(
        cases.some(([label]) => label.startsWith(`${id} `)),
        id,
      ).toBe(true);
    for (const def of ["McpServer", "SetSessionConfigOptionRequest"])
      expect(
        cases.some(([label]) => label.startsWith(`v1 ${def}:`)),
        def,
      ).toBe(true);
  });

  it.each(cases)("%s", (_label, run) => run());
});

/**
 * Sample messages: for each method's params and result on each surface, the first valid
 * values generated from the schema (by the tests' reference validator).
 */
describe("unknown keys, __proto__ keys and map keys at every object of a message", () => {
  const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort().join(",");
  interface Case {
    label: string;
    run(): void;
  }
  const cases: Case[] = [];
  const counts = { dropped: 0, kept: 0, proto: 0, nested: 0 };
  for (const [surfaceId, modules] of pkg.surfaces) {
    const surface = modules.surface;
    const defs = new Map(surface.definitions.map((d) => [d.key, d.schema]));
    const checker = checkers.get(surfaceId) as SchemaChecker;
    const arbitraries = new SchemaArbitraries(surface, checker);
    const positions = new Positions(defs, checker);
    const types = [
      ...new Set(surface.methods.flatMap((m) => (m.result ? [m.params, m.result] : [m.params]))),
    ];
    for (const type of types) {
      const schema = { $ref: `#/${surface.defsKeyword}/${type}` };
      const valid = checker.definition(type, surface.defsKeyword);
      const parse = fn(modules, `parse${type}`);
      const samples = fc
        .sample(arbitraries.definition(type), { seed: 9, numRuns: 40 })
        .filter((v) => valid(v) && isObject(v as Json))
        .slice(0, 2);
      for (const [n, sample] of samples.entries()) {
        const base = parse(sample);
        for (const position of positions.of(sample, schema)) {
          const where = `/${position.path.join("/")}`;
          if (position.path.length > 0) counts.nested++;
          // An unknown key: dropped where the object is a struct; kept where it admits any key
          // (then with a value its other keys take).
          const admitted = position.others?.find(
            (s) => s === true || (isObject(s) && Object.keys(s).length === 0),
          );
          if (position.others === undefined) {
            counts.dropped++;
            cases.push({
              label: `${surfaceId} ${type} #${n} ${where}: an unknown key is dropped`,
              run: () =>
                expect(
                  parse(deepFreeze(withKey(sample, position.path, "x_unknown", { a: [1] }))),
                ).toEqual(base),
            });
          } else if (admitted !== undefined) {
            counts.kept++;
            cases.push({
              label: `${surfaceId} ${type} #${n} ${where}: a key of a map is kept`,
              run: () =>
                expect(
                  parse(deepFreeze(withKey(sample, position.path, "x_key", { a: [1] }))),
                ).toEqual(withKey(base, position.path, "x_key", { a: [1] })),
            });
          }
          // A `__proto__` key, as JSON.parse makes it: never kept, no prototype changed.
          counts.proto++;
          cases.push({
            label: `${surfaceId} ${type} #${n} ${where}: a __proto__ key is dropped`,
            run: () => {
              const before = prototypeNames();
              const text = JSON.stringify(
                withKey(sample, position.path, "__proto__", { polluted: true }),
              );
              const input = deepFreeze(JSON.parse(text));
              const outcome = attempt(parse, input);
              // Under a map of typed values `{ polluted: true }` may be invalid: serde rejects it
              // as it would under any other key, and so does parse, or (inside an untagged
              // fallback) reads the enclosing value as another variant. Elsewhere it goes.
              const typedMap = position.others?.some((s) => s !== true) === true;
              if (outcome.ok) {
                if (!typedMap) expect(outcome.value).toEqual(base);
                expect(plain(outcome.value)).toBe(true);
                expect(valid(outcome.value)).toBe(true);
              } else {
                expect(typedMap).toBe(true);
              }
              expect(prototypeNames()).toBe(before);
              expect(({} as Record<string, unknown>).polluted).toBeUndefined();
            },
          });
        }
      }
    }
  }

  it("reaches nested objects, struct and map positions on every surface", () => {
    expect(counts.nested).toBeGreaterThan(200);
    expect(counts.dropped).toBeGreaterThan(200);
    expect(counts.kept).toBeGreaterThan(50);
    expect(cases.length).toBe(counts.dropped + counts.kept + counts.proto);
  });

  it.each(cases.map((c) => [c.label, c] as const))("%s", (_label, c) => c.run());

  it("the values compared are what JSON would carry", () => {
    // A sanity check of the comparison: toEqual sees an own __proto__ key as a key.
    const withProto = JSON.parse('{"a":1,"__proto__":{"b":2}}');
    expect(isDeepStrictEqual(withProto, { a: 1 })).toBe(false);
  });
});
