// Where things are: the repository, the official SDK as installed, and the SDK's entry points.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = join(REPO, "bin", "acp-codegen.js");
export const RESULTS = join(REPO, "bench", "results.json");

/** Vendored schema and the schema the official SDK 2.4.0 was generated from. */
export const VENDORED_SCHEMA_DIR = join(REPO, "schema");
export const SDK_SCHEMA_DIR = join(REPO, "test", "fixtures", "releases", "2.4.0");

/**
 * The SDK's package folder, found through Node's own resolution (not a hard-coded
 * node_modules path) so a hoisted or nested install is measured where it really is.
 */
export function sdkRoot() {
  let dir = dirname(fileURLToPath(import.meta.resolve("@agentclientprotocol/sdk")));
  while (dir !== dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, "utf8"));
      if (pkg.name === "@agentclientprotocol/sdk") return dir;
    }
    dir = dirname(dir);
  }
  throw new Error("cannot locate @agentclientprotocol/sdk");
}

export function sdkManifest() {
  return JSON.parse(readFileSync(join(sdkRoot(), "package.json"), "utf8"));
}

/**
 * The SDK's zod schemas for protocol v1 stable. They are not in its exports map, so they are
 * imported by file path, next to the stable entry point that imports them itself.
 */
export function sdkZodFile() {
  return join(sdkRoot(), "dist", "v1", "schema", "zod.gen.js");
}

/** Entry points compared one to one: ours by export key, theirs by the matching export key. */
export const ENTRY_POINTS = [
  { ours: ".", sdk: ".", label: "v1 stable" },
  { ours: "./unstable", sdk: "./unstable", label: "v1 unstable" },
  { ours: "./v2", sdk: "./experimental/v2", label: "v2 stable" },
  { ours: "./v2/unstable", sdk: "./experimental/v2/unstable", label: "v2 unstable" },
];

/**
 * The JavaScript file an export key of a package maps to (ESM "import"/"default" condition).
 * @param {string} pkgDir
 * @param {string} key
 */
export function exportFile(pkgDir, key) {
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  let target = pkg.exports?.[key];
  if (target && typeof target === "object") target = target.import ?? target.default;
  if (typeof target !== "string") throw new Error(`${pkg.name} has no export ${key}`);
  return join(pkgDir, target);
}

/**
 * A command-line option the script cannot run without.
 * @param {string | undefined} value
 * @param {string} name
 * @returns {string}
 */
export function required(value, name) {
  if (value === undefined) throw new Error(`missing --${name}`);
  return value;
}
