import { join, normalize } from "node:path";
import { createTwoFilesPatch } from "diff";
import type { OutputFile } from "../emit/output.js";
import type { PackageOptions } from "../emit/package.js";
import { hashExtensions } from "../load/extensions.js";
import type { ExtensionInputs, InputFile } from "../load/index.js";
import { hashInputs } from "../load/index.js";
import { generatorFingerprint } from "./fingerprint.js";
import { MANIFEST, type Manifest, sha256, withoutFingerprint } from "./plan.js";
import { compareTree, type TreeDiff } from "./write.js";

export interface CheckReport {
  clean: boolean;
  diff: TreeDiff;
  /** Why it drifted, where the manifest lets us tell. */
  causes: string[];
  /** Unified diffs, one per added/changed/removed file. */
  patches: string[];
}

const MAX_LINES_PER_FILE = 400;
/**
 * Edits (added plus removed lines) beyond which a file's diff is summarised instead of
 * computed. Myers' algorithm costs time proportional to the file's length times the number
 * of edits: on a schema bump that rewrites most of a megabyte validator module, the full
 * diff took minutes, and only its first MAX_LINES_PER_FILE lines would be printed anyway.
 */
export const MAX_EDITS_PER_FILE = 1000;

export function checkTree(
  files: OutputFile[],
  onDisk: Map<string, string>,
  inputs: InputFile[],
  generatorVersion: string,
  extensions: ExtensionsGiven = { files: [] },
): CheckReport {
  // A manifest that differs only in the generator fingerprint is not drift.
  const manifestOnDisk = onDisk.get(MANIFEST);
  const planned = new Map(files.map((f) => [f.path, f.content]));
  const plannedManifest = planned.get(MANIFEST);
  const comparable =
    manifestOnDisk !== undefined &&
    plannedManifest !== undefined &&
    withoutFingerprint(manifestOnDisk) === withoutFingerprint(plannedManifest)
      ? files.map((f) => (f.path === MANIFEST ? { path: f.path, content: manifestOnDisk } : f))
      : files;
  const diff = compareTree(comparable, onDisk);
  const clean = diff.added.length + diff.changed.length + diff.removed.length === 0;
  const patches: string[] = [];
  for (const path of [...diff.changed, ...diff.added, ...diff.removed].sort()) {
    patches.push(patchFor(path, onDisk.get(path), planned.get(path)));
  }
  return {
    clean,
    diff,
    causes: clean ? [] : causes(onDisk, inputs, extensions, generatorVersion, diff),
    patches,
  };
}

function patchFor(path: string, before: string | undefined, after: string | undefined): string {
  const patch = createTwoFilesPatch(
    before === undefined ? "/dev/null" : `a/${path}`,
    after === undefined ? "/dev/null" : `b/${path}`,
    before ?? "",
    after ?? "",
    undefined,
    undefined,
    { context: 3, maxEditLength: MAX_EDITS_PER_FILE },
  );
  if (patch === undefined) {
    const count = (text: string | undefined) => (text === undefined ? 0 : text.split("\n").length);
    return [
      `--- ${before === undefined ? "/dev/null" : `a/${path}`}`,
      `+++ ${after === undefined ? "/dev/null" : `b/${path}`}`,
      `… more than ${MAX_EDITS_PER_FILE} changed lines (${count(before)} lines before, ${count(after)} after): too many to show; regenerate and review with git diff`,
    ].join("\n");
  }
  const lines = patch.split("\n").slice(1); // drop the "====" separator line
  if (lines.length <= MAX_LINES_PER_FILE) return lines.join("\n");
  return [
    ...lines.slice(0, MAX_LINES_PER_FILE),
    `… ${lines.length - MAX_LINES_PER_FILE} more diff lines in ${path}`,
  ].join("\n");
}

/** The extensions `check` was given, as the model read them, and where the package is. */
export interface ExtensionsGiven {
  files: readonly InputFile[];
  surfaces?: readonly string[];
  /** `--out` as typed: recorded names are relative to it. */
  packageDir?: string;
}

/** Compare what the manifest recorded at the last generate with what we see now. */
function causes(
  onDisk: Map<string, string>,
  inputs: InputFile[],
  extensions: ExtensionsGiven,
  generatorVersion: string,
  diff: TreeDiff,
): string[] {
  const text = onDisk.get(MANIFEST);
  if (text === undefined)
    return [
      `no ${MANIFEST} in the output folder: it was never generated, or the manifest was deleted`,
    ];
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    return [`${MANIFEST} is not valid JSON: edited by hand`];
  }
  const found: string[] = [];
  const recorded = manifest.inputs ?? {};
  const changedInputs = inputs
    .filter((f) => recorded[f.name] !== undefined && recorded[f.name] !== f.sha256)
    .map((f) => f.name);
  const newInputs = inputs.filter((f) => recorded[f.name] === undefined).map((f) => f.name);
  const goneInputs = Object.keys(recorded).filter((name) => !inputs.some((f) => f.name === name));
  if (changedInputs.length)
    found.push(
      `schema changed since the last generate: ${changedInputs.join(", ")} (run acp-codegen generate)`,
    );
  if (newInputs.length)
    found.push(
      `new schema files since the last generate: ${newInputs.join(", ")} (run acp-codegen generate)`,
    );
  if (goneInputs.length)
    found.push(
      `schema files gone since the last generate: ${goneInputs.join(", ")} (run acp-codegen generate)`,
    );
  found.push(...extensionCauses(manifest, extensions));
  if (manifest.generator?.version !== generatorVersion) {
    found.push(
      `generated by acp-codegen ${manifest.generator?.version ?? "?"}, this is ${generatorVersion} (run acp-codegen generate)`,
    );
  }
  const recordedFiles = manifest.files ?? {};
  const edited = [...onDisk.entries()]
    .filter(
      ([path, content]) =>
        path !== MANIFEST &&
        recordedFiles[path] !== undefined &&
        recordedFiles[path] !== sha256(content),
    )
    .map(([path]) => path);
  const extra = diff.removed.filter(
    (path) => recordedFiles[path] === undefined && path !== MANIFEST,
  );
  const deleted = Object.keys(recordedFiles).filter((path) => !onDisk.has(path));
  if (edited.length) found.push(`edited by hand since the last generate: ${edited.join(", ")}`);
  if (deleted.length) found.push(`deleted by hand since the last generate: ${deleted.join(", ")}`);
  if (extra.length) found.push(`files acp-codegen does not generate: ${extra.join(", ")}`);
  if (found.length === 0)
    found.push(
      "the output differs although schema, generator version and files match the manifest: the generator's templates or dependencies changed",
    );
  return found;
}

/**
 * Extension files are inputs too, given on the command line: each change is named on its
 * own, as the user typed it; one recorded but not given is named by where it is from here.
 */
function extensionCauses(manifest: Manifest, given: ExtensionsGiven): string[] {
  const recorded = manifest.extensions ?? {};
  const found: string[] = [];
  const extensions = given.files;
  const changed = extensions.filter(
    (f) => recorded[f.name] !== undefined && recorded[f.name] !== f.sha256,
  );
  const added = extensions.filter((f) => recorded[f.name] === undefined);
  const gone = Object.keys(recorded)
    .filter((name) => !extensions.some((f) => f.name === name))
    .map((name) =>
      given.packageDir === undefined
        ? name
        : normalize(join(given.packageDir, name)).replaceAll("\\", "/"),
    );
  if (changed.length)
    found.push(
      `extension changed since the last generate: ${changed.map((f) => f.display).join(", ")} (run acp-codegen generate with the same --extension files)`,
    );
  if (added.length)
    found.push(
      `extension not used at the last generate: ${added.map((f) => f.display).join(", ")} (run acp-codegen generate with it)`,
    );
  if (gone.length)
    found.push(
      `extension used at the last generate but not given now: ${gone.join(", ")} (pass --extension ${gone.join(" --extension ")}, or regenerate without it)`,
    );
  const before = manifest.extensionSurfaces;
  const now = given.surfaces;
  if (extensions.length > 0 && (before ?? []).join(",") !== (now ?? []).join(","))
    found.push(
      `--extension-surfaces was ${before ? before.join(",") : "not given"} at the last generate, is ${now ? now.join(",") : "not given"} now`,
    );
  return found;
}

/**
 * Confirm a clean tree without regenerating: when the manifest records the same inputs,
 * options and generator fingerprint as now, the output would be byte-identical to what it
 * lists, so it is enough that every file on disk still has its recorded hash. Returns
 * false whenever that cannot be shown; the caller then regenerates and compares in full.
 */
export function cleanByManifest(
  onDisk: Map<string, string>,
  schemaDir: string,
  displayDir: string,
  options: PackageOptions,
  extensions: ExtensionInputs = { files: [] },
): boolean {
  const text = onDisk.get(MANIFEST);
  if (text === undefined) return false;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    return false;
  }
  if (manifest.generator?.fingerprint !== generatorFingerprint()) return false;
  if (manifest.options?.name !== options.name || manifest.options?.version !== options.version)
    return false;
  if (!sameRecord(manifest.inputs, hashInputs(schemaDir, displayDir))) return false;
  // Extensions are inputs like the schema files: the same files (by hash) applied the same
  // way (--extension-surfaces) to the same schema give the same output.
  if (extensions.files.length > 0 || manifest.extensions !== undefined) {
    const hashes = hashExtensions(extensions.files);
    if (hashes === undefined || !sameRecord(manifest.extensions, hashes)) return false;
    if ((manifest.extensionSurfaces ?? []).join(",") !== (extensions.surfaces ?? []).join(","))
      return false;
  }
  const files = manifest.files ?? {};
  if (onDisk.size !== Object.keys(files).length + 1) return false;
  for (const [path, content] of onDisk) {
    if (path !== MANIFEST && files[path] !== sha256(content)) return false;
  }
  return true;
}

function sameRecord(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  if (!a) return false;
  const keys = Object.keys(b);
  return Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
}
