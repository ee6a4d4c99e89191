import { compareText } from "../text.js";
import type { Variant } from "./variants.js";
import { expandRefs, type SchemaView, viewOf } from "./view.js";
import type { At, SchemaSide, Walk } from "./walk.js";

/**
 * Enums and unions: variants are matched by tag (see variants.ts), then by required fields,
 * and a new variant is judged by whether the union was open to unknown ones.
 */

export function compareVariants(walk: Walk, va: SchemaView, vb: SchemaView, at: At): void {
  const a = va.variants;
  const b = vb.variants;
  if (!a && !b) return;
  if (!a || !b) {
    const present = (a ?? b) as NonNullable<typeof a>;
    const literal = present.source === "enum" || present.source === "const";
    const list = present.items.map((v) => v.label).join(", ");
    if (b && literal) {
      walk.add("literals-listed", vb.tokens, at.label, `now limited to ${list}`);
    } else if (a && literal) {
      walk.add("literals-unlisted", vb.tokens, at.label, `no longer limited to ${list}`);
    } else if (b) {
      walk.add("union-made", vb.tokens, at.label, `now a union (${list})`);
    } else {
      walk.add("union-unmade", vb.tokens, at.label, `no longer a union (was ${list})`);
    }
    return;
  }
  const pointer = (view: SchemaView, v: Variant) =>
    view.variants?.source === "const"
      ? [...view.variantTokens, "const"]
      : [...view.variantTokens, String(v.index)];
  const oldByTag = new Map(a.items.map((v) => [v.tag, v]));
  const newByTag = new Map(b.items.map((v) => [v.tag, v]));
  const renamed = matchByFields(
    walk,
    a.items.filter((v) => !newByTag.has(v.tag)),
    b.items.filter((v) => !oldByTag.has(v.tag)),
  );
  for (const [before, after] of renamed) {
    oldByTag.set(after.tag, before);
    newByTag.set(before.tag, after);
  }
  for (const v of b.items) {
    const before = oldByTag.get(v.tag);
    if (!before && v.other) {
      walk.add(
        "catch-all-added",
        pointer(vb, v),
        at.label,
        "now open: a catch-all branch accepts variants it does not list (readers must handle unknown ones)",
      );
    } else if (!before) {
      const routed = routesMethod(v, walk.newSide);
      const [rule, why] = routed
        ? (["variant-added-for-method", "a method's type: see the method changes"] as const)
        : a.open
          ? ([
              "variant-added-to-open-union",
              "open union: readers already handle unknown variants",
            ] as const)
          : (["variant-added", `code that switches over ${at.label} must handle it`] as const);
      walk.add(rule, pointer(vb, v), at.label, `variant ${v.label} added (${why})`);
    } else if (before.schema !== undefined && v.schema !== undefined) {
      walk.compare(
        before.schema,
        v.schema,
        { old: pointer(va, before), new: pointer(vb, v), label: `${at.label}<${v.label}>` },
        { ignoreNot: v.other },
      );
    }
  }
  for (const v of a.items) {
    if (newByTag.has(v.tag)) continue;
    if (v.other) {
      walk.add(
        "catch-all-removed",
        pointer(va, v),
        at.label,
        "no longer open: the catch-all branch is gone (builders sending unlisted variants now fail)",
      );
      continue;
    }
    const routed = routesMethod(v, walk.oldSide);
    const why = routed
      ? "a method's type: see the method changes"
      : "builders can no longer send it; readers that name it no longer compile";
    walk.add(
      routed ? "variant-removed-for-method" : "variant-removed",
      pointer(va, v),
      at.label,
      `variant ${v.label} removed (${why})`,
    );
  }
}

/**
 * `{type: integer}` on one side and an open union of known values plus a catch-all
 * (`ErrorCode`) on the other accept the same values: listing the known ones is
 * compatible, and the catch-all is what the plain schema is compared with.
 */
export function openEnumOnOneSide(walk: Walk, va: SchemaView, vb: SchemaView, at: At): boolean {
  const openUnion = (v: SchemaView) =>
    v.variants?.open === true && (v.variants.source === "oneOf" || v.variants.source === "anyOf");
  const plain = (v: SchemaView) => v.variants === undefined && v.properties.size === 0;
  const listed = (v: SchemaView) =>
    (v.variants?.items ?? [])
      .filter((x) => !x.other)
      .map((x) => x.label)
      .join(", ");
  const catchAll = (v: SchemaView) => {
    const other = v.variants?.items.find((x) => x.other);
    return other?.schema === undefined
      ? undefined
      : { schema: other.schema, tokens: [...v.variantTokens, String(other.index)] };
  };
  const listing = plain(va) && openUnion(vb) ? "new" : openUnion(va) && plain(vb) ? "old" : null;
  if (!listing) return false;
  const other = catchAll(listing === "new" ? vb : va);
  if (!other) return false;
  if (listing === "new") {
    walk.add(
      "known-values-listed",
      vb.tokens,
      at.label,
      `now lists known values (${listed(vb)}); other values are still accepted`,
    );
  } else {
    walk.add(
      "known-values-unlisted",
      vb.tokens,
      at.label,
      `no longer lists known values (was ${listed(va)}); it accepted any value already`,
    );
  }
  // The plain schema is compared with the catch-all, on whichever side each one is.
  const plainSide = {
    schema: (listing === "new" ? va : vb).structure,
    tokens: (listing === "new" ? va : vb).tokens,
  };
  const [before, after] = listing === "new" ? [plainSide, other] : [other, plainSide];
  walk.compare(
    before.schema,
    after.schema,
    { old: before.tokens, new: after.tokens, label: at.label },
    { resolved: true, ignoreNot: true },
  );
  return true;
}

/**
 * Branches left unmatched by tag can still be the same variant written another way: an
 * untagged inline object in one release, a `$ref` to a definition with the same required
 * fields in the next (McpServer's stdio branch). Pair those whose required fields agree,
 * when exactly one branch on each side has that set.
 */
function matchByFields(
  walk: Walk,
  removed: Variant[],
  added: Variant[],
): Array<[Variant, Variant]> {
  const signature = (v: Variant, side: SchemaSide) => {
    if (v.schema === undefined || v.other) return "";
    const view = expandRefs(viewOf(v.schema, [], side), side);
    return [...view.required].sort(compareText).join(",");
  };
  const bySignature = (items: Variant[], side: SchemaSide) => {
    const map = new Map<string, Variant[]>();
    for (const v of items) {
      const sig = signature(v, side);
      if (sig !== "") map.set(sig, [...(map.get(sig) ?? []), v]);
    }
    return map;
  };
  const olds = bySignature(removed, walk.oldSide);
  const news = bySignature(added, walk.newSide);
  const pairs: Array<[Variant, Variant]> = [];
  for (const [sig, before] of olds) {
    const after = news.get(sig);
    if (before.length === 1 && after?.length === 1 && before[0] && after[0])
      pairs.push([before[0], after[0]]);
  }
  // As many unnamed branches left on each side (no literal tag, no ref): the same variants
  // whose titles or required fields changed, e.g. a JSON-RPC result branch that gained a
  // field. Paired in schema order.
  const structural = (v: Variant) => /^(fields|title|type|schema):/.test(v.tag);
  const restOld = removed.filter((v) => !pairs.some(([x]) => x === v));
  const restNew = added.filter((v) => !pairs.some(([, y]) => y === v));
  if (
    restOld.length > 0 &&
    restOld.length === restNew.length &&
    restOld.every(structural) &&
    restNew.every(structural)
  ) {
    restOld.forEach((v, i) => {
      const partner = restNew[i];
      if (partner) pairs.push([v, partner]);
    });
  }
  return pairs;
}

/**
 * Branches of the routing unions (`AgentRequest`, `ClientResponse`…) name method
 * definitions; they appear and disappear with methods, which are reported on their own.
 */
function routesMethod(v: Variant, side: SchemaSide): boolean {
  return v.tag.startsWith("ref:") && side.methodDefs.has(v.tag.slice("ref:".length));
}
