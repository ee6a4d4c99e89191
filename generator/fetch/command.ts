import { type Command, Option } from "commander";
import { formatWarning } from "../diagnostics.js";
import { FORMATS, type Format, render } from "../diff/format.js";
import { CHANGES_FILE } from "../load/layout.js";
import { type FetchOutcome, fetchSchema } from "./fetch.js";
import { DEFAULT_GITHUB_BASE_URL } from "./github.js";
import { README_FILE, RECORD_FILE } from "./record.js";
import { SOURCE_FORMS } from "./source.js";

export interface FetchIO {
  out(line: string): void;
  err(line: string): void;
}

interface FetchCliOptions {
  schemaDir: string;
  out: string;
  githubBaseUrl: string;
  dryRun?: boolean;
  format: Format;
  json?: boolean;
  quiet?: boolean;
  debug?: boolean;
}

/** Version of the `--json` shape; bumped on any incompatible change to it. */
export const FETCH_JSON_VERSION = 1;

/**
 * Add `fetch SOURCE` to the CLI. Errors are InputErrors, printed by the CLI's `main` as one
 * line (exit 2); by then the schema folder has not been touched.
 */
export function registerFetch(program: Command, io: FetchIO): Command {
  return program
    .command("fetch")
    .description(
      "put a release's schema files into --schema-dir and print the schema diff (atomic: on error nothing changes)",
    )
    .argument("<source>", SOURCE_FORMS)
    .option("--schema-dir <dir>", "the schema folder to fill", "./schema")
    .option(
      "--out <dir>",
      "the package generated from it, whose version the suggested next version follows",
      "./generated",
    )
    .option("--dry-run", "print the diff, write nothing")
    .option(
      "--github-base-url <url>",
      "raw-content host for github: sources",
      DEFAULT_GITHUB_BASE_URL,
    )
    .addOption(
      new Option("--format <format>", "output format of the diff")
        .choices([...FORMATS])
        .default("text"),
    )
    .option("--json", "same as --format json (for scripts)")
    .option("--quiet", "print errors only")
    .option("--debug", "print stack traces for errors")
    .addHelpText(
      "after",
      `
Sources:
  npm:PACKAGE[@VERSION|RANGE|TAG]  the schema files in the package's tarball, downloaded with
                                   this machine's npm (its registry, proxy and auth settings)
  github:OWNER/REPO@REF            the repository's schema/ folder at a tag or commit
  DIR, FILE.tgz                    a local folder or archive (a package, a checkout, or the
                                   schema folder itself)

The schema folder ends up holding the release's schema files (bytes unchanged, in a layout
the generator reads), ${README_FILE} and ${RECORD_FILE} (the source and each file's sha256),
and ${CHANGES_FILE}: the schema diff of this bump, which \`generate\` makes the package's
CHANGELOG.md entry for its version.

Examples:
  $ acp-codegen fetch npm:@agentclientprotocol/sdk@latest
  $ acp-codegen fetch npm:@agentclientprotocol/sdk@2.3.0 --dry-run
  $ acp-codegen fetch github:agentclientprotocol/agent-client-protocol@v0.14.0
  $ acp-codegen fetch npm:@agentclientprotocol/sdk --format markdown > bump.md

Exit codes:
  0  fetched (or, with --dry-run, compared)
  2  bad source or input: one line on stderr; the schema folder is unchanged`,
    )
    .action(async (source: string, opts: FetchCliOptions) => {
      const outcome = await fetchSchema(source, {
        schemaDir: opts.schemaDir,
        githubBaseUrl: opts.githubBaseUrl,
        dryRun: opts.dryRun === true,
        out: opts.out,
      });
      for (const w of outcome.warnings) io.err(formatWarning(w));
      const format: Format = opts.json ? "json" : opts.format;
      if (format === "json") io.out(JSON.stringify(jsonOutcome(outcome), null, 2));
      else if (!opts.quiet) for (const line of renderOutcome(outcome, format)) io.out(line);
      program.setOptionValue("exitCode", 0);
    });
}

function jsonOutcome(o: FetchOutcome): object {
  return {
    formatVersion: FETCH_JSON_VERSION,
    source: o.source,
    requested: o.requested,
    integrity: o.integrity ?? null,
    schemaDir: o.schemaDir,
    dryRun: o.dryRun,
    changed: o.changed,
    written: o.written,
    files: o.files.map((f) => ({ path: f.path, from: f.from, sha256: f.sha256, status: f.status })),
    removed: o.removed,
    diff: JSON.parse(render(o.report, "json").join("\n")) as unknown,
    packageVersion: o.version ?? null,
  };
}

function renderOutcome(o: FetchOutcome, format: "text" | "markdown"): string[] {
  const diff = render(o.report, format);
  if (format === "markdown") {
    const verb = o.dryRun ? "Would fetch" : "Fetched";
    return [`${verb} \`${o.source}\` into \`${o.schemaDir}\`.`, "", ...diff];
  }
  const lines = [`${o.dryRun ? "Would fetch" : "Fetching"} ${o.source} into ${o.schemaDir}:`];
  const width = Math.max(...o.files.map((f) => f.path.length), ...o.removed.map((p) => p.length));
  for (const f of o.files) {
    lines.push(
      `  ${f.status.padEnd(9)} ${f.path.padEnd(width)}  sha256 ${f.sha256.slice(0, 16)}…  from ${f.from}`,
    );
  }
  for (const path of o.removed) lines.push(`  ${"removed".padEnd(9)} ${path}`);
  lines.push("", ...diff, "");
  if (o.dryRun) lines.push(`Dry run: ${o.schemaDir} is unchanged.`);
  else if (!o.written) lines.push(`${o.schemaDir} already holds this release: nothing written.`);
  else if (o.changed) {
    lines.push(
      `Wrote ${o.schemaDir} (${o.files.length} schema files, ${README_FILE}, ${RECORD_FILE}, ${CHANGES_FILE}).`,
      `Next: ${generateCommand(o)}, review the changes, commit ${o.schemaDir} and the generated package together.`,
    );
  } else {
    lines.push(
      `Wrote ${o.schemaDir} (${README_FILE}, ${RECORD_FILE}).`,
      "The schema files are unchanged: only the record was rewritten.",
    );
  }
  return lines;
}

/**
 * The command that regenerates the package at the version the diff advises, so the bump is
 * not left to memory: from the package's recorded version (`--out`'s manifest), or a
 * placeholder when there is no package yet. `--schema-dir` is repeated unless it is the default.
 */
function generateCommand(o: FetchOutcome): string {
  const schemaDir = o.schemaDir === "./schema" ? "" : ` --schema-dir ${o.schemaDir}`;
  const out = o.out === "./generated" ? "" : ` --out ${o.out}`;
  const version =
    o.version === undefined
      ? " --pkg-version <version>"
      : o.version.next === o.version.current
        ? ""
        : ` --pkg-version ${o.version.next}`;
  return `npx acp-codegen generate${schemaDir}${out}${version}`;
}
