import { canonical } from "../schema/equal.js";
import type { Json } from "../schema/json.js";

/**
 * Merging the equal nodes of a plan (the repair plan, the shape plan). Both are built one
 * node per subschema *path*: a definition reached through ten references, or an inline
 * `_meta` written out in every definition, gives ten nodes that say the same thing, and in
 * parsers.js each node is a record and (for shapes) a function. Nodes refer to each other by
 * index and form cycles (recursive definitions), so "the same thing" is bisimilarity:
 * records equal once every reference is replaced by the class of its target. Classes are
 * found by partition refinement (start from one class, split by each node's record with
 * references read as classes, until no class splits), which finds the coarsest such
 * partition, cycles included. Merging bisimilar nodes changes no walk: every step of the
 * runtime's interpreter reads only a node's record and, through indices, its targets'.
 */

/** A copy of `node` with every reference to another node of the same plan passed through `f`. */
export type MapRefs<T> = (node: T, f: (index: number) => number) => T;

export interface MergedGraph<T> {
  /** One node per class, in the order of each class's first node; references renumbered. */
  nodes: T[];
  /** New index of each old node. */
  index: (old: number) => number;
  /** Old index of each new node's representative (its class's first node), for labels. */
  representatives: number[];
}

export function mergeEqualNodes<T>(nodes: readonly T[], mapRefs: MapRefs<T>): MergedGraph<T> {
  let classes = nodes.map(() => 0);
  let count = nodes.length === 0 ? 0 : 1;
  for (;;) {
    const ids = new Map<string, number>();
    const next = nodes.map((node, i) => {
      // The current class beside the record: a class only ever splits, never merges.
      const key = `${classes[i]}:${canonical(mapRefs(node, (c) => classes[c] as number) as Json)}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = ids.size;
        ids.set(key, id);
      }
      return id;
    });
    classes = next;
    if (ids.size === count) break;
    count = ids.size;
  }
  // Renumber classes by first appearance, so the output keeps the plan's order.
  const order = new Map<number, number>();
  const representatives: number[] = [];
  classes.forEach((c, i) => {
    if (order.has(c)) return;
    order.set(c, order.size);
    representatives.push(i);
  });
  const index = (old: number): number => {
    const c = classes[old];
    if (c === undefined) throw new RangeError(`plan node ${old} does not exist`);
    return order.get(c) as number;
  };
  return {
    nodes: representatives.map((i) => mapRefs(nodes[i] as T, index)),
    index,
    representatives,
  };
}
