// A TypeDoc plugin: names each module of the reference after the import that reaches it
// (`acp-protocol/unstable`), read from the generated package.json's `exports`, instead of
// after its folder (`v1/unstable`), which a consumer never writes.
import { readFileSync } from "node:fs";
import { Converter } from "typedoc";

const pkg = JSON.parse(
  readFileSync(new URL("../../generated/package.json", import.meta.url), "utf8"),
);

/** `v1/unstable` → `acp-protocol/unstable`, from `"./unstable": { "types": "./v1/unstable/index.d.ts" }`. */
const names = new Map();
for (const [entry, target] of Object.entries(pkg.exports)) {
  if (typeof target !== "object" || !target.types) continue;
  const folder = target.types.replace(/^\.\//, "").replace(/\/index\.d\.ts$/, "");
  names.set(folder, entry === "." ? pkg.name : `${pkg.name}/${entry.slice(2)}`);
}

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.children ?? []) {
      const name = names.get(module.name);
      if (!name) throw new Error(`entry-names: no package.json export for module ${module.name}`);
      module.name = name;
    }
  });
}
