import type { SurfaceModel } from "../model/protocol.js";
import { escapePointerToken, unescapePointerToken } from "../schema/pointer.js";
import type { Change } from "./change.js";

/**
 * Which changes come from the user's extensions (`--extension`) rather than the protocol's
 * schema: a change inside an extension's definition or method, or inside a `_meta` key an
 * extension typed. Those are reported in a section of their own, named by the extension
 * file, with a pointer into that file (`x-meta/SessionNotification/acme.dev~1trace` for a
 * `_meta` key).
 */
export function attributeExtensions(
  changes: Change[],
  before: SurfaceModel | undefined,
  after: SurfaceModel | undefined,
): Change[] {
  const owners = new Map<string, string>();
  const metaOwners = new Map<string, string>();
  for (const surface of [before, after]) {
    for (const extension of surface?.extensions ?? []) {
      for (const key of extension.definitions) owners.set(key, extension.file.name);
      for (const { definition, key } of extension.meta)
        metaOwners.set(`${definition}\u0000${key}`, extension.file.name);
    }
  }
  if (owners.size === 0 && metaOwners.size === 0) return changes;
  return changes.map((change) => {
    const [keyword, definition, ...rest] = change.path.split("/");
    if (keyword === undefined || definition === undefined) return change;
    const key = unescapePointerToken(definition);
    const owner = owners.get(key);
    if (owner !== undefined) return { ...change, extension: owner };
    if (rest[0] === "properties" && rest[1] === "_meta" && rest[2] === "properties" && rest[3]) {
      const metaKey = unescapePointerToken(rest[3]);
      const metaOwner = metaOwners.get(`${key}\u0000${metaKey}`);
      if (metaOwner !== undefined)
        return {
          ...change,
          extension: metaOwner,
          path: ["x-meta", escapePointerToken(key), rest[3], ...rest.slice(4)].join("/"),
        };
    }
    return change;
  });
}
