import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { formatWarning } from "./diagnostics.js";
import { registerDiff } from "./diff/command.js";
import { CHANGELOG_FILE } from "./emit/changelog.js";
import type { PackageOptions } from "./emit/package.js";
import { InputError, oneLine } from "./errors.js";
import { registerFetch } from "./fetch/command.js";
import { extensionInputs } from "./load/extensions.js";
import { checkTree, cleanByManifest } from "./output/check.js";
import { MANIFEST, type Manifest } from "./output/plan.js";
import { readTree, writeAtomically } from "./output/write.js";
import { GENERATOR_VERSION } from "./paths.js";
import type { CarriedFiles } from "./pipeline.js";

export const EXIT = { ok: 0, drift: 1, badInput: 2 } as const;

const DEFAULT_NAME = "acp-protocol";
const DEFAULT_PKG_VERSION = "0.1.0";

interface CommonOptions {
  schemaDir: string;
  extension: string[];
  extensionSurfaces?: string;
  out: string;
  name?: string;
  pkgVersion?: string;
  debug?: boolean;
  quiet?: boolean;
}

/**
 * Package name and version are sticky: `generate --name @acme/acp` records them in the
 * manifest, so a later `generate` or `check` without the flag produces the same package.
 */
function packageOptions(opts: CommonOptions): PackageOptions {
  let recorded: Partial<PackageOptions> = {};
  const manifestPath = join(opts.out, MANIFEST);
  if (existsSync(manifestPath)) {
    try {
      recorded =
        (JSON.parse(readFileSync(manifestPath, "utf8")) as Partial<Manifest>).options ?? {};
    } catch {
      recorded = {};
    }
  }
  const name = opts.name ?? recorded.name ?? DEFAULT_NAME;
  if (!/^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(name) || name.length > 214) {
    throw InputError.about("--name", `${JSON.stringify(name)} is not a valid npm package name`);
  }
  const version = opts.pkgVersion ?? recorded.version ?? DEFAULT_PKG_VERSION;
  if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(version)) {
    throw InputError.about("--pkg-version", `${JSON.stringify(version)} is not a semantic version`);
  }
  return { name, version };
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** The extension options, shared by generate, check and diff. */
export function withExtensionOptions(command: Command): Command {
  return command
    .option(
      "--extension <file>",
      "your own extension definitions (JSON Schema like the protocol's, method names starting with _); repeatable",
      collect,
      [],
    )
    .option(
      "--extension-surfaces <list>",
      "apply the extensions only to these surfaces (comma-separated: v1, v2/unstable, stable, unstable…)",
    );
}

function withCommon(command: Command): Command {
  return withExtensionOptions(command)
    .option(
      "--schema-dir <dir>",
      "folder with the ACP schema (versioned v1/, v2/ or flat schema.json + meta.json)",
      "./schema",
    )
    .option("--out <dir>", "folder of the generated package", "./generated")
    .option(
      "--name <pkg>",
      `name of the generated package (default: as last generated, else ${DEFAULT_NAME})`,
    )
    .option(
      "--pkg-version <semver>",
      `version of the generated package (default: as last generated, else ${DEFAULT_PKG_VERSION})`,
    )
    .option("--quiet", "print errors only")
    .option("--debug", "print stack traces for errors");
}

/** What the package in --out carries into the next one: its changelog (emit/changelog.ts). */
function carriedFiles(out: string): CarriedFiles {
  const path = join(out, CHANGELOG_FILE);
  return existsSync(path) ? { changelog: readFileSync(path, "utf8") } : {};
}

/** The pipeline pulls in the type and validator backends: load it only when we regenerate. */
const loadPipeline = () => import("./pipeline.js");

/** ANSI colour for diff lines, only for a person at a terminal (never with NO_COLOR, --json or in CI logs). */
export function colourFor(enabled: boolean): (line: string) => string {
  if (!enabled) return (line) => line;
  return (line) => {
    const code =
      line.startsWith("+++") || line.startsWith("---")
        ? 1
        : line.startsWith("+")
          ? 32
          : line.startsWith("-")
            ? 31
            : line.startsWith("@@")
              ? 36
              : 0;
    return code === 0 ? line : `\u001b[${code}m${line}\u001b[0m`;
  };
}

/** Colour only for a person at a terminal: never with NO_COLOR (any value), never with --json. */
export function wantsColour(
  isTTY: boolean | undefined,
  env: Record<string, string | undefined>,
  json: boolean | undefined,
): boolean {
  return isTTY === true && (env.NO_COLOR ?? "") === "" && json !== true;
}

const BAD_INPUT_HELP =
  "2  bad input or usage: one line on stderr naming the file and the JSON pointer";

/** Every command's exit codes, for the program's own help. */
const EXIT_CODES_HELP = `
Exit codes:
  0  success (check: --out is up to date)
  1  check: --out has drifted from the schema; diff --fail-on-breaking: a change breaks
  ${BAD_INPUT_HELP}`;

/**
 * How long the command took: from `startedAt`, which the launcher sets to when the process
 * started, so start-up and loading the generator count too (what a person timing it sees,
 * but for npx's own start).
 */
export function took(startedAt: number, now = Date.now()): string {
  const ms = Math.max(0, Math.round(now - startedAt));
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A usage error (an unknown option or command, a missing argument) as one line on stderr,
 * like every other error: commander's message, its suggestion, and where the options are
 * listed, instead of the whole help after it.
 */
export function usageLine(message: string, help: string): string {
  const text = oneLine(message.replace(/^error: /, "")).replace(
    /\(Did you mean (.*?)\)/,
    "(did you mean $1)",
  );
  return `acp-codegen: ${text}; see ${help}`;
}

export function buildProgram(
  out: (line: string) => void,
  err: (line: string) => void,
  startedAt: number = Date.now(),
): Command {
  const program = new Command("acp-codegen")
    .description(
      "Generate a typed, validated TypeScript package from the Agent Client Protocol JSON Schema.",
    )
    .version(GENERATOR_VERSION)
    .configureOutput({ writeOut: (s) => out(s.trimEnd()), writeErr: (s) => err(s.trimEnd()) })
    .addHelpText("after", EXIT_CODES_HELP)
    .exitOverride();

  withCommon(program.command("generate"))
    .description(
      "regenerate the package in --out from the schema in --schema-dir (atomic: on error nothing changes)",
    )
    .addOption(new Option("--force", "replace --out even if acp-codegen did not generate it"))
    .option("--json", "print the summary as JSON (for scripts)")
    .addHelpText(
      "after",
      `
Examples:
  $ acp-codegen generate
  $ acp-codegen generate --schema-dir vendor/acp/schema --out packages/acp --name @acme/acp
  $ acp-codegen generate --pkg-version 1.4.0 --json

Exit codes:
  0  the package was written (or was already up to date)
  ${BAD_INPUT_HELP}; --out is unchanged`,
    )
    .action(async (opts: CommonOptions & { force?: boolean; json?: boolean }) => {
      const options = packageOptions(opts);
      const result = await (await loadPipeline()).render(
        resolve(opts.schemaDir),
        opts.schemaDir,
        options,
        extensionInputs(opts.extension, opts.extensionSurfaces, opts.out),
        carriedFiles(opts.out),
      );
      const before = readTree(opts.out);
      writeAtomically(opts.out, opts.out, result.files, opts.force === true);
      for (const w of result.diagnostics.warnings) err(formatWarning(w));
      const changed = result.files.filter((f) => before.get(f.path) !== f.content).length;
      const surfaces = result.model.surfaces.map((s) => ({
        entry: s.entry,
        schema: s.schemaFile.name,
        protocolVersion: s.protocolVersion,
        types: s.definitions.length,
        methods: s.methods.length,
      }));
      if (opts.json) {
        out(
          JSON.stringify({
            out: opts.out,
            package: options,
            surfaces,
            files: result.files.length,
            changed,
            ms: Math.round(Date.now() - startedAt),
            warnings: result.diagnostics.warnings,
          }),
        );
      } else if (!opts.quiet) {
        for (const s of surfaces) {
          out(
            `${s.entry.padEnd(14)} ${s.schema.padEnd(24)} ${String(s.types).padStart(4)} types  ${String(s.methods).padStart(3)} methods`,
          );
        }
        out(
          `wrote ${opts.out}: ${result.files.length} files (${changed} changed) in ${took(startedAt)}`,
        );
      }
      program.setOptionValue("exitCode", EXIT.ok);
    });

  withCommon(program.command("check"))
    .description(
      "regenerate in memory and compare with --out: exit 0 identical, 1 drift (diff printed), 2 bad input",
    )
    .option("--json", "print the report as JSON (for scripts)")
    .addHelpText(
      "after",
      `
Examples:
  $ acp-codegen check                      # in CI, after npm ci
  $ acp-codegen check --quiet || acp-codegen generate
  $ acp-codegen check --json | jq .causes

Exit codes:
  0  --out is up to date with the schema
  1  --out has drifted from the schema (what changed and why is printed)
  ${BAD_INPUT_HELP}`,
    )
    .option("--full", "always regenerate and compare, even when the manifest shows nothing changed")
    .action(async (opts: CommonOptions & { json?: boolean; full?: boolean }) => {
      const options = packageOptions(opts);
      const onDisk = readTree(opts.out);
      const extensions = extensionInputs(opts.extension, opts.extensionSurfaces, opts.out);
      if (
        !opts.full &&
        cleanByManifest(onDisk, resolve(opts.schemaDir), opts.schemaDir, options, extensions)
      ) {
        if (opts.json)
          out(
            JSON.stringify({
              clean: true,
              exitCode: EXIT.ok,
              changed: [],
              missing: [],
              extra: [],
              causes: [],
              patches: [],
              fast: true,
            }),
          );
        else if (!opts.quiet)
          out(
            `${opts.out} is up to date with ${opts.schemaDir} (${onDisk.size} files match the manifest; ${took(startedAt)})`,
          );
        program.setOptionValue("exitCode", EXIT.ok);
        return;
      }
      const result = await (await loadPipeline()).render(
        resolve(opts.schemaDir),
        opts.schemaDir,
        options,
        extensions,
        carriedFiles(opts.out),
      );
      const report = checkTree(result.files, onDisk, result.model.inputs, GENERATOR_VERSION, {
        files: result.model.extensions,
        ...(extensions.surfaces ? { surfaces: extensions.surfaces } : {}),
        packageDir: opts.out,
      });
      for (const w of result.diagnostics.warnings) err(formatWarning(w));
      const exitCode = report.clean ? EXIT.ok : EXIT.drift;
      program.setOptionValue("exitCode", exitCode);
      const { added, changed, removed } = report.diff;
      if (opts.json) {
        out(
          JSON.stringify({
            clean: report.clean,
            exitCode,
            changed,
            missing: added,
            extra: removed,
            causes: report.causes,
            patches: report.patches,
            fast: false,
          }),
        );
        return;
      }
      if (report.clean) {
        if (!opts.quiet) {
          out(
            `${opts.out} is up to date with ${opts.schemaDir} (${result.files.length} files, regenerated and compared in ${took(startedAt)})`,
          );
          const recorded = onDisk.get(MANIFEST);
          if (recorded !== result.files.find((f) => f.path === MANIFEST)?.content) {
            out(
              "note: the manifest was written by another build of acp-codegen; run `acp-codegen generate` once to let check skip regenerating",
            );
          }
        }
        return;
      }
      out(
        `${opts.out} has drifted from ${opts.schemaDir}: ${changed.length} changed, ${added.length} missing, ${removed.length} extra`,
      );
      for (const cause of report.causes) out(`- ${cause}`);
      for (const path of changed) out(`  changed: ${path}`);
      for (const path of added) out(`  missing: ${path}`);
      for (const path of removed) out(`  extra:   ${path}`);
      const colour = colourFor(wantsColour(process.stdout.isTTY, process.env, opts.json));
      if (!opts.quiet)
        for (const patch of report.patches) for (const line of patch.split("\n")) out(colour(line));
      out("run `acp-codegen generate` to update it");
    });

  registerDiff(program, { out, err });
  registerFetch(program, { out, err });

  for (const command of [program, ...program.commands]) {
    const help =
      command === program ? "acp-codegen --help" : `acp-codegen ${command.name()} --help`;
    command.configureOutput({ outputError: (message) => err(usageLine(message, help)) });
  }
  return program;
}

function schemaDirArgument(argv: string[]): string {
  const at = argv.indexOf("--schema-dir");
  const inline = argv.find((a) => a.startsWith("--schema-dir="));
  return (at >= 0 ? argv[at + 1] : inline?.slice("--schema-dir=".length)) ?? "./schema";
}

/** Run the CLI; returns the exit code. Every failure is one line on stderr unless --debug. */
export async function main(
  argv: string[],
  out: (line: string) => void = (l) => {
    process.stdout.write(`${l}\n`);
  },
  err: (line: string) => void = (l) => {
    process.stderr.write(`${l}\n`);
  },
  /** When the command started (epoch ms): the launcher passes the process's start. */
  startedAt: number = Date.now(),
): Promise<number> {
  const program = buildProgram(out, err, startedAt);
  const debug = argv.includes("--debug");
  try {
    await program.parseAsync(argv, { from: "user" });
    return (program.getOptionValue("exitCode") as number | undefined) ?? EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    }
    if (error instanceof InputError) {
      err(`acp-codegen: ${oneLine(error.message)}`);
    } else if (error instanceof RangeError && /call stack/i.test(error.message)) {
      // Long $ref chains can exhaust the stack inside the type backend: that is the input's doing.
      const dir = schemaDirArgument(argv);
      err(
        `acp-codegen: ${dir}: the schema is nested or linked too deeply to process (${error.message})`,
      );
    } else {
      const message = error instanceof Error ? error.message : String(error);
      err(
        `acp-codegen: internal error: ${oneLine(message)}${debug ? "" : " (run with --debug for details)"}`,
      );
    }
    if (debug && error instanceof Error && error.stack) err(error.stack);
    return EXIT.badInput;
  }
}
