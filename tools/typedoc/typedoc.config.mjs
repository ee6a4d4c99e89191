// The API reference of the generated package, one module per entry point. Entry points are
// read from the generated package.json, so a schema with fewer surfaces still builds.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const pkg = JSON.parse(
  readFileSync(new URL("../../generated/package.json", import.meta.url), "utf8"),
);
const entryPoints = Object.values(pkg.exports)
  .filter((target) => typeof target === "object" && target.types)
  .map((target) =>
    fileURLToPath(new URL(`../../generated/${target.types.slice(2)}`, import.meta.url)),
  );

/** @type {Partial<import("typedoc").TypeDocOptions>} */
export default {
  entryPoints,
  tsconfig: "./tsconfig.json",
  plugin: ["./entry-names.mjs"],
  out: "../../docs/api/html",
  // The package's own README is the reference's front page.
  readme: "../../generated/README.md",
  // Source links would name a commit and a local path: the output would differ per checkout.
  disableSources: true,
  hideGenerator: true,
  cleanOutputDir: true,
  // Warnings (a broken {@link}, a public signature naming a type the package does not
  // export) are printed by `build` and fail `check`, which is what CI runs.
};
