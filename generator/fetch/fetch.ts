import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Diagnostics, type Warning } from "../diagnostics.js";
import { render } from "../diff/format.js";
import { buildReport, type DiffReport } from "../diff/report.js";
import { nextVersion } from "../diff/semver.js";
import { InputError } from "../errors.js";
import { loadSchemaDir } from "../load/index.js";
import { CHANGES_FILE } from "../load/layout.js";
import { buildModel } from "../model/build.js";
import type { ProtocolModel } from "../model/protocol.js";
import { MANIFEST, type Manifest } from "../output/plan.js";
import { writeAtomically } from "../output/write.js";
import { type Member, readArchive } from "./archive.js";
import { SourceError } from "./errors.js";
import { readFolder } from "./folder.js";
import { rawUrl, readGithub } from "./github.js";
import { NOT_FOUND_HINT, planLayout } from "./layout.js";
import { npmPack } from "./npm.js";
import {
  type FetchRecord,
  README_FILE,
  RECORD_FILE,
  type RecordedFile,
  renderReadme,
  renderRecord,
} from "./record.js";
import { readCurrentSchema } from "./schema-folder.js";
import { parseSource, type Source } from "./source.js";

export interface FetchOptions {
  schemaDir: string;
  githubBaseUrl: string;
  dryRun: boolean;
  /** The package generated from the folder, whose version the next one follows (`--out`). */
  out?: string;
}

export type FileStatus = "added" | "changed" | "unchanged";

export interface FetchOutcome {
  /** The release as resolved (`npm:@agentclientprotocol/sdk@2.4.0`). */
  source: string;
  /** The argument as given (`npm:@agentclientprotocol/sdk@latest`). */
  requested: string;
  integrity?: string;
  schemaDir: string;
  /** `--out` as given: the package the version follows. */
  out: string;
  files: Array<RecordedFile & { status: FileStatus }>;
  /** Schema files the folder held that the release does not have. */
  removed: string[];
  /** The schema files differ from what the folder held. */
  changed: boolean;
  /** The folder was replaced (not with --dry-run, nor when nothing at all differs). */
  written: boolean;
  dryRun: boolean;
  report: DiffReport;
  warnings: Warning[];
  /** The generated package's version now, and the one the advice leads to (when `out` has a package). */
  version?: { current: string; next: string };
}

/** A release's schema files, read from its source but not yet checked. */
interface Release {
  source: string;
  integrity?: string;
  members: Map<string, Member>;
  /** How to name one of its files in a message: a URL, or a path inside the source. */
  display(from: string): string;
  /** What to suggest for the next bump in the schema folder's README. */
  example: string;
}

interface ReleaseFile extends RecordedFile {
  bytes: Buffer;
  /** The same bytes, decoded: the loader and the writer take text. */
  text: string;
  display: string;
}

/**
 * `acp-codegen fetch`: read a release from its source, check it with the generator's own
 * loader, compare it with the schema folder, and swap it in atomically. On any error the
 * schema folder is untouched: nothing is written before every check has passed.
 */
export async function fetchSchema(argument: string, options: FetchOptions): Promise<FetchOutcome> {
  const source = parseSource(argument);
  const display = options.schemaDir;
  // Refuse a folder that cannot be replaced before downloading anything.
  const current = readCurrentSchema(resolve(options.schemaDir), display);
  const scratch = mkdtempSync(join(tmpdir(), "acp-codegen-fetch-"));
  try {
    const release = await readRelease(source, options, scratch);
    const files = pickFiles(release);
    const diagnostics = new Diagnostics();
    const newModel = checkWithLoader(files, join(scratch, "check"), diagnostics);

    const notes: string[] = [];
    const oldModel = loadCurrent(current.exists && current.files.size > 0, options, notes);
    const report = buildReport(oldModel, newModel, { old: display, new: release.source }, notes);
    // The bump's record names the releases, not the folder: the source it held, if recorded.
    const changes = `${render({ ...report, old: recordedSource(current.record) ?? display }, "markdown").join("\n")}\n`;

    const record: FetchRecord = {
      source: release.source,
      ...(release.integrity ? { integrity: release.integrity } : {}),
      files: files.map(({ path, from, sha256 }) => ({ path, from, sha256 })),
    };
    const readme = renderReadme(record, release.example);
    const recordText = renderRecord(record);
    const statuses = files.map((f) => {
      const before = current.files.get(f.path);
      const status: FileStatus =
        before === undefined ? "added" : before.equals(f.bytes) ? "unchanged" : "changed";
      return { path: f.path, from: f.from, sha256: f.sha256, status };
    });
    const removed = [...current.files.keys()].filter((p) => !files.some((f) => f.path === p));
    const changed = removed.length > 0 || statuses.some((s) => s.status !== "unchanged");
    const stale = changed || current.readme !== readme || current.record !== recordText;
    const written = !options.dryRun && stale;
    if (written) {
      writeAtomically(
        options.schemaDir,
        display,
        [
          ...files.map((f) => ({ path: f.path, content: f.text })),
          { path: README_FILE, content: readme },
          { path: RECORD_FILE, content: recordText },
          // A rewrite of the record alone keeps the bump the folder's files came with.
          ...(changed
            ? [{ path: CHANGES_FILE, content: changes }]
            : current.changes !== undefined
              ? [{ path: CHANGES_FILE, content: current.changes }]
              : []),
        ],
        true,
      );
    }
    const version = packageVersion(options.out);
    return {
      source: release.source,
      requested: argument,
      ...(release.integrity ? { integrity: release.integrity } : {}),
      schemaDir: display,
      out: options.out ?? "./generated",
      files: statuses,
      removed,
      changed,
      written,
      dryRun: options.dryRun,
      report,
      warnings: diagnostics.warnings,
      ...(version
        ? { version: { current: version, next: nextVersion(version, report.advice.bump) } }
        : {}),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function readRelease(
  source: Source,
  options: FetchOptions,
  scratch: string,
): Promise<Release> {
  switch (source.kind) {
    case "npm": {
      const spec = source.spec === undefined ? source.name : `${source.name}@${source.spec}`;
      const packed = await npmPack(spec, scratch, source.text);
      const resolved = `npm:${packed.id}`;
      return {
        source: resolved,
        ...(packed.integrity ? { integrity: packed.integrity } : {}),
        members: await readArchive(packed.path, resolved),
        display: (from) => `${resolved}/${from}`,
        example: `npm:${source.name}@latest`,
      };
    }
    case "github": {
      const release = { owner: source.owner, repo: source.repo, ref: source.ref };
      const resolved = `github:${source.owner}/${source.repo}@${source.ref}`;
      const members = await readGithub(options.githubBaseUrl, release, resolved);
      if (members.size === 0) {
        throw new SourceError(
          resolved,
          `no schema files at ${rawUrl(options.githubBaseUrl, release, "schema/")} (HTTP 404 for every name a release has used: is the tag or commit right?)`,
        );
      }
      return {
        source: resolved,
        members,
        display: (from) => rawUrl(options.githubBaseUrl, release, from),
        example: `github:${source.owner}/${source.repo}@<tag or commit>`,
      };
    }
    case "folder":
      return {
        source: source.text,
        members: readFolder(source.path, source.text),
        display: (from) => join(source.text, from),
        example: "<npm:PACKAGE@VERSION, github:OWNER/REPO@REF, a folder or a .tgz>",
      };
    case "archive":
      return {
        source: source.text,
        members: await readArchive(source.path, source.text),
        display: (from) => `${source.text}/${from}`,
        example: "<npm:PACKAGE@VERSION, github:OWNER/REPO@REF, a folder or a .tgz>",
      };
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The schema files of the release, in the layout the loader reads, as text. */
function pickFiles(release: Release): ReleaseFile[] {
  const plan = planLayout(release.members.keys());
  if (plan === undefined) throw new SourceError(release.source, NOT_FOUND_HINT);
  if (!plan.ok) throw new SourceError(release.source, plan.problem);
  return plan.files.map(({ from, to }) => {
    const member = release.members.get(from);
    const display = release.display(from);
    if (member?.kind !== "file") {
      throw new SourceError(
        display,
        `${member?.detail ?? "missing"}: links and special files in a release are never followed`,
      );
    }
    let text: string;
    try {
      text = utf8.decode(member.bytes);
    } catch {
      throw InputError.about(display, "not UTF-8 text (JSON files must be UTF-8)");
    }
    const sha256 = createHash("sha256").update(member.bytes).digest("hex");
    return { path: to, from, sha256, bytes: member.bytes, text, display };
  });
}

/**
 * Run the generator's own loader and model over the release, from a scratch copy, so a
 * release `generate` would refuse is refused here before anything is written. Messages name
 * the file in the release (a URL, a path in the package), not the scratch copy.
 */
function checkWithLoader(
  files: ReleaseFile[],
  dir: string,
  diagnostics: Diagnostics,
): ProtocolModel {
  for (const f of files) {
    const path = join(dir, ...f.path.split("/"));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.text);
  }
  // Messages may name a scratch file anywhere in their text ("… in <file>"), not only up front.
  const rename = (text: string) =>
    files.reduce((t, f) => t.split(join(dir, f.path)).join(f.display), text);
  try {
    const model = buildModel(loadSchemaDir(dir, dir, diagnostics), diagnostics);
    for (const w of diagnostics.warnings) {
      w.file = rename(w.file);
      w.message = rename(w.message);
    }
    return model;
  } catch (error) {
    if (error instanceof InputError)
      throw new InputError(rename(error.file), error.pointer, rename(error.detail));
    throw error;
  }
}

const EMPTY: ProtocolModel = {
  surfaces: [],
  versions: { versions: [], same: {} },
  inputs: [],
  extensions: [],
};

/** The schema the folder holds now, as the old side of the diff: a folder the loader refuses counts as empty. */
function loadCurrent(present: boolean, options: FetchOptions, notes: string[]): ProtocolModel {
  if (!present) {
    notes.push(`${options.schemaDir} holds no schema yet: every entry point is new`);
    return EMPTY;
  }
  try {
    return buildModel(
      loadSchemaDir(resolve(options.schemaDir), options.schemaDir, new Diagnostics()),
    );
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    notes.push(
      `the schema in ${options.schemaDir} cannot be read (${error.message}): every entry point counts as new`,
    );
    return EMPTY;
  }
}

/** The source a fetch record names (`source.json`), if the folder has a readable one. */
function recordedSource(record: string | undefined): string | undefined {
  if (record === undefined) return undefined;
  try {
    const source = (JSON.parse(record) as { source?: unknown }).source;
    return typeof source === "string" ? source : undefined;
  } catch {
    return undefined;
  }
}

/** The version the package in `out` was last generated at, from its manifest. */
function packageVersion(out: string | undefined): string | undefined {
  if (out === undefined) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(join(out, MANIFEST), "utf8")) as Partial<Manifest>;
    return typeof manifest.options?.version === "string" ? manifest.options.version : undefined;
  } catch {
    return undefined;
  }
}
