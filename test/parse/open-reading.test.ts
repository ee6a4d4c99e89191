import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { Json } from "../../generator/schema/json.js";
import { STABLE_UNSTABLE_PAIRS, type Surface, schemaOf } from "../support/surfaces.js";
import { TEST_PACKAGE } from "../support/test-package.js";
import { knownTags, readTaggedUnion } from "./tagged.js";

/**
 * The open reading (`unknownVariants: "keep"`) keeps a closed union's value whose tag this
 * package does not know, whole, and tells `onUnknownVariant` of each one by its tag. That
 * must hold wherever in a message the value sits, also where the unstable entry point reads
 * it through the plan records it shares with the stable one (shared-parsers.js), and while a
 * callback runs a reader of its own.
 */

type Parse = (value: unknown, options?: unknown) => unknown;
type Reported = { tag: string; kind: string };

const parsersOf = async (surface: Surface): Promise<Record<string, Parse>> =>
  (await import(pathToFileURL(join(TEST_PACKAGE, surface.id, "parsers.js")).href)) as Record<
    string,
    Parse
  >;

/** Closed tagged unions at a definition's root with nothing required beside the union. */
function bareClosedUnions(surface: Surface): Array<{ name: string; tag: string; kind: string }> {
  const defs = new Map(Object.entries(schemaOf(surface).$defs) as Array<[string, Json]>);
  return [...defs].flatMap(([name, schema]) => {
    const union = readTaggedUnion(schema, defs);
    if (!union || union.variants.some((v) => v.kind !== "tagged")) return [];
    const root = schema as Record<string, unknown>;
    if (root.required !== undefined || root.properties !== undefined) return [];
    const known = new Set(knownTags(union));
    let kind = "from_a_newer_peer";
    while (known.has(kind)) kind += "_next";
    return [{ name, tag: union.tag, kind }];
  });
}

function keep(reported: Reported[], also?: (r: Reported) => void) {
  return {
    unknownVariants: "keep",
    onUnknownVariant: (r: Reported) => {
      reported.push({ tag: r.tag, kind: r.kind });
      also?.(r);
    },
  };
}

/** Surfaces with closed unions to read (v2's are open, or have fields beside the union). */
const UNIONS = STABLE_UNSTABLE_PAIRS.flat().flatMap((surface) => {
  const unions = bareClosedUnions(surface);
  return unions.length > 0 ? [{ id: surface.id, surface, unions }] : [];
});

describe("an unknown variant of a closed union", () => {
  it("has unions to read: v1's, stable and unstable", () => {
    expect(UNIONS.map((u) => u.id)).toEqual(expect.arrayContaining(["v1", "v1/unstable"]));
  });

  it.each(UNIONS)("$id: is kept whole and reported once", async ({ surface, unions }) => {
    const parsers = await parsersOf(surface);
    for (const { name, tag, kind } of unions) {
      const value = { [tag]: kind, payload: { nested: [1, 2] } };
      const reported: Reported[] = [];
      const parse = parsers[`parse${name}`] as Parse;
      expect(parse(structuredClone(value), keep(reported)), name).toEqual(value);
      expect(reported, name).toEqual([{ tag, kind }]);
      expect(() => parse(structuredClone(value)), name).toThrow();
    }
  });
});

/** Surfaces whose prompt is a list of a closed union's values: two of them in one message. */
const PROMPTS = STABLE_UNSTABLE_PAIRS.flat().flatMap((surface) => {
  const request = schemaOf(surface).$defs.PromptRequest as
    | { properties?: { prompt?: { items?: { $ref?: string } } } }
    | undefined;
  const items = request?.properties?.prompt?.items?.$ref;
  const block = bareClosedUnions(surface).find((u) => items === `#/$defs/${u.name}`);
  return block ? [{ id: surface.id, surface, block }] : [];
});

describe("a reader that onUnknownVariant runs", () => {
  it("has prompts to read (v1's content blocks are a closed union)", () => {
    expect(PROMPTS.map((p) => p.id)).toContain("v1");
  });

  it.each(PROMPTS)("$id: leaves the outer reading's reports intact", async ({ surface, block }) => {
    const parsers = await parsersOf(surface);
    const outer: Reported[] = [];
    const inner: Reported[] = [];
    const options = keep(outer, () => {
      if (inner.length === 0)
        (parsers[`parse${block.name}`] as Parse)({ [block.tag]: "inner" }, keep(inner));
    });
    const request = {
      sessionId: "s",
      prompt: [{ [block.tag]: block.kind }, { [block.tag]: `${block.kind}_2` }],
    };
    expect((parsers.parsePromptRequest as Parse)(structuredClone(request), options)).toEqual(
      request,
    );
    expect(outer.map((r) => r.kind)).toEqual([block.kind, `${block.kind}_2`]);
    expect(inner.map((r) => r.kind)).toEqual(["inner"]);
  });
});
