import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { CHANGES_FILE } from "../load/layout.js";
import { TEMPLATES_DIR } from "../paths.js";

/** Written beside the schema files: where they came from, for scripts (the README says it for people). */
export const RECORD_FILE = "source.json";
export const README_FILE = "README.md";

export interface RecordedFile {
  /** Path in the schema folder. */
  path: string;
  /** Path in the release. */
  from: string;
  sha256: string;
}

export interface FetchRecord {
  /** The release as resolved: `npm:NAME@VERSION`, `github:OWNER/REPO@REF`, or the local path. */
  source: string;
  /** npm's integrity string for the tarball, when the source was npm. */
  integrity?: string;
  files: RecordedFile[];
}

/**
 * The record holds nothing that changes from one run to the next (no time stamp, not how the
 * version was asked for): fetching the same release twice writes the same bytes, so a
 * scheduled job sees a change only when a new release appears.
 */
export function renderRecord(record: FetchRecord): string {
  const body = {
    fetchedWith: "acp-codegen fetch",
    source: record.source,
    ...(record.integrity ? { integrity: record.integrity } : {}),
    files: Object.fromEntries(
      record.files.map((f) => [f.path, { from: f.from, sha256: f.sha256 }] as const),
    ),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

let readme: Handlebars.TemplateDelegate | undefined;

export function renderReadme(record: FetchRecord, example: string): string {
  readme ??= Handlebars.compile(
    readFileSync(join(TEMPLATES_DIR, "fetch", "README.md.hbs"), "utf8"),
    {
      noEscape: true,
      strict: true,
    },
  );
  return readme({
    source: codeSpan(record.source),
    integrity: record.integrity ?? false,
    files: record.files,
    record: RECORD_FILE,
    changes: CHANGES_FILE,
    example,
  });
}

/** A Markdown code span that holds any text, backticks included. */
function codeSpan(text: string): string {
  const flat = text.replace(/\r?\n/g, " ");
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}
