import type { ShapeNode, ShapeUnion, ShapeVariant } from "../../templates/runtime/parse.js";
import { literal } from "./js.js";

/**
 * The fast walks of a shape plan, as JavaScript for parsers.js: one function per node that
 * only confirms a valid value is already what serde keeps (every key admitted, nothing to
 * fill, each child likewise) and returns it, or hands the value to the runtime's
 * interpreter (`S`, `ParsePlan.reshape`) the moment anything must change. The interpreter
 * holds all the logic; these functions exist because a `for…in` over an object and a
 * `switch` on its keys costs a fraction of reading a table per key, and they run on every
 * valid message.
 *
 * In the code: `v` the value, `x` the reading (`false` the strict one, else the open reading's
 * context, runtime/parse-context.ts: passed on untouched), `s<i>` the walk of node `i`,
 * `c<i>` check `i`, `S` the interpreter, `F` the free-form walk, `H` `Object.hasOwn`, `Q` a
 * competing variant's repair (`ParsePlan.repairedAs`).
 */
export const WALK_NAMES = { reshape: "S", free: "F", hasOwn: "H", repairedAs: "Q" } as const;

const { reshape: S, free: F, hasOwn: H, repairedAs: Q } = WALK_NAMES;

/** The function name of node `index`'s walk. */
export const walkName = (index: number): string => `s${index}`;

/** The function name of check `index`. */
export const checkName = (index: number): string => `c${index}`;

/**
 * How a walk writes the names it calls, the other walks and the checks: the module it goes into
 * records each one it binds from outside (module.ts), so its imports come from what was written.
 */
export interface WalkRefs {
  walk(index: number): string;
  check(index: number): string;
}

/**
 * The walks of `nodes`, the shape nodes numbered from `first` on in a plan whose every node
 * `nodeAt` reads (a module's own nodes follow the shared ones: model/plan-link.ts).
 */
export function shapeWalks(
  nodes: readonly ShapeNode[],
  first: number,
  nodeAt: (index: number) => ShapeNode,
  refs: WalkRefs,
): string[] {
  return nodes.map((node, i) => walkOf(node, first + i, nodeAt, refs));
}

function walkOf(
  node: ShapeNode,
  index: number,
  nodeAt: (index: number) => ShapeNode,
  refs: WalkRefs,
): string {
  // The walk's own name: declared here, not referred to.
  const name = walkName(index);
  const slow = `return ${S}(v, ${index}, x);`;
  if (node.free) return `function ${name}(v) { return ${F}(v); }`;
  const unions = node.unions ?? [];
  const body: string[] = ['if (typeof v !== "object" || v === null) return v;'];
  if (unions.length === 1 && node.items === undefined)
    body.push(...unionWalk(node, unions[0] as ShapeUnion, nodeAt, slow, refs));
  else if (unions.length > 0) body.push(slow);
  else body.push(...arrayPart(node, slow, refs), ...objectPart(node, slow, refs), "return v;");
  return `function ${name}(v, x) {\n  ${body.join("\n  ")}\n}`;
}

/** Arrays: each item through the items' walk. */
function arrayPart(node: ShapeNode, slow: string, refs: WalkRefs): string[] {
  // Without items, an array falls to the object part's `default` (its indices are no
  // declared keys), which hands it over.
  if (node.items === undefined) return [];
  const item = refs.walk(node.items);
  return [
    "if (Array.isArray(v)) {",
    `  for (let i = 0; i < v.length; i++) if (${item}(v[i], x) !== v[i]) ${slow}`,
    "  return v;",
    "}",
  ];
}

/** Objects: every key admitted and its value unchanged; nothing to fill in. */
function objectPart(node: ShapeNode, slow: string, refs: WalkRefs): string[] {
  if (node.keys === undefined && node.others === undefined && node.fills === undefined) {
    // An array-only node: an object here is not a valid value; the interpreter decides.
    if (node.items !== undefined) return [slow];
  }
  const cases: string[] = [];
  const plain: string[] = [];
  for (const [key, child] of node.keys ?? []) {
    // `__proto__` is never kept: it falls to `default`, which hands it over.
    if (key === "__proto__") continue;
    if (child < 0) plain.push(`case ${literal(key)}:`);
    else {
      const value = `v[${literal(key)}]`;
      cases.push(
        `case ${literal(key)}: if (${refs.walk(child)}(${value}, x) !== ${value}) ${slow} continue;`,
      );
    }
  }
  if (plain.length > 0) cases.unshift(`${plain.join(" ")} continue;`);
  let otherwise: string;
  if (node.others === undefined) otherwise = slow;
  else if (node.others < 0) otherwise = `if (k === "__proto__") ${slow} continue;`;
  else
    otherwise = `if (k === "__proto__" || ${refs.walk(node.others)}(v[k], x) !== v[k]) ${slow} continue;`;
  const lines = [
    "for (const k in v) switch (k) {",
    ...cases.map((c) => `  ${c}`),
    `  default: ${otherwise}`,
    "}",
  ];
  for (const fill of node.fills ?? []) {
    const key = literal(fill.name);
    if (Object.hasOwn(fill, "default")) lines.push(`if (!${H}(v, ${key})) ${slow}`);
    if (Object.hasOwn(fill, "onNull")) lines.push(`if (v[${key}] === null) ${slow}`);
  }
  return lines;
}

/**
 * A node with one union among its parts: either only the union (a root union, a nullable
 * reference: the value takes the chosen variant's walk) or an object with it (its own keys
 * and the chosen variant's, checked together). The variant is chosen as the interpreter's
 * `VariantChoice.choose` (runtime/parse-choice.ts) does, which test/parse/walks.test.ts holds
 * these walks against: the tag's own variant, then the untagged ones in schema order, each behind
 * its check where variants compete, the last one without (the value is valid). With the
 * open reading a competing union may keep an unknown variant: that is the interpreter's.
 */
function unionWalk(
  node: ShapeNode,
  union: ShapeUnion,
  nodeAt: (index: number) => ShapeNode,
  slow: string,
  refs: WalkRefs,
): string[] {
  const onlyUnion =
    node.keys === undefined && node.others === undefined && node.fills === undefined;
  const finish = (variant: ShapeVariant | undefined): string[] => {
    if (variant === undefined) return [slow];
    if (onlyUnion)
      return [
        variant.node === undefined ? "return v;" : `return ${refs.walk(variant.node)}(v, x);`,
      ];
    const merged = merge(node, variant.node === undefined ? {} : nodeAt(variant.node));
    return merged === undefined ? [slow] : [...objectPart(merged, slow, refs), "return v;"];
  };
  const guarded = (variant: ShapeVariant, last: boolean): string[] => {
    if (variant.check === undefined || last) return finish(variant);
    const lines = [
      `if (${refs.check(variant.check)}(v)) {`,
      ...finish(variant).map((l) => `  ${l}`),
      "}",
    ];
    if (variant.repair === undefined) return lines;
    // serde tries the candidate with its own rules: valid once repaired, it wins.
    const repaired = `${Q}(v, ${variant.repair}, ${variant.check})`;
    if (!onlyUnion) return [...lines, `if (${repaired} !== undefined) ${slow}`];
    const next = variant.node === undefined ? "r" : `${refs.walk(variant.node)}(r, x)`;
    return [...lines, `{ const r = ${repaired}; if (r !== undefined) return ${next}; }`];
  };
  /** Candidates in order, the last one (or the first needing no check) taken unchecked. */
  const chain = (candidates: readonly ShapeVariant[]): string[] => {
    const out: string[] = [];
    for (const [i, c] of candidates.entries()) {
      const last = i === candidates.length - 1 || c.check === undefined;
      out.push(...guarded(c, last));
      if (last) return out;
    }
    return [...out, slow];
  };
  const untagged = union.variants.filter((v) => v.tag === undefined && !v.other);
  const objects = untagged.filter((v) => v.kinds === undefined || v.kinds === "object");
  const arrays = untagged.filter((v) => v.kinds === undefined || v.kinds === "array");
  const lines: string[] = [];
  if (union.variants.some((v) => v.check !== undefined)) lines.push(`if (x) ${slow}`);
  if (onlyUnion && arrays.length > 0)
    lines.push("if (Array.isArray(v)) {", ...chain(arrays).map((l) => `  ${l}`), "}");
  else lines.push(`if (Array.isArray(v)) ${slow}`);
  if (union.tag !== undefined) {
    const tag = literal(union.tag);
    const cases: string[] = [];
    for (const v of union.variants) {
      if (v.tag === undefined) continue;
      // Beside untagged variants the tag's own one must deserialize to win; else on to them.
      const own = objects.length === 0 ? finish(v) : [...guarded(v, false), "break;"];
      cases.push(`case ${literal(v.tag)}: {`, ...own.map((l) => `  ${l}`), "}");
    }
    const other = union.variants.find((v) => v.other);
    const otherwise =
      other === undefined
        ? ["break;"]
        : [
            `if (typeof v[${tag}] !== "string") break;`,
            ...(objects.length === 0 ? finish(other) : [...guarded(other, false), "break;"]),
          ];
    lines.push(
      `switch (v[${tag}]) {`,
      ...cases.map((l) => `  ${l}`),
      "  default: {",
      ...otherwise.map((l) => `    ${l}`),
      "  }",
      "}",
    );
  }
  lines.push(...chain(objects));
  return lines;
}

/** Two object shapes as one, when that is plain: no unions, items or free-form inside. */
function merge(a: ShapeNode, b: ShapeNode): ShapeNode | undefined {
  if (b.unions || b.items !== undefined || b.free || a.free) return undefined;
  const keys = new Map<string, number>(a.keys ?? []);
  for (const [key, child] of b.keys ?? []) {
    const known = keys.get(key);
    // One key, two shapes: which keys its value keeps is the interpreter's to merge.
    if (known !== undefined && known !== child) return undefined;
    keys.set(key, child);
  }
  if (a.others !== undefined && b.others !== undefined && a.others !== b.others) return undefined;
  const others = a.others ?? b.others;
  const fills = [...(a.fills ?? []), ...(b.fills ?? [])];
  const out: { keys?: Array<[string, number]>; others?: number; fills?: typeof fills } = {};
  if (keys.size > 0) out.keys = [...keys];
  if (others !== undefined) out.others = others;
  if (fills.length > 0) out.fills = fills;
  return out;
}
