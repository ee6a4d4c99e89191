import { type Command, Option } from "commander";
import { formatWarning } from "../diagnostics.js";
import { extensionInputs } from "../load/extensions.js";
import { FORMATS, type Format, render } from "./format.js";
import { alignSingleFiles, loadSide } from "./input.js";
import { buildReport } from "./report.js";

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Exit codes of `diff`, the same scheme as `check`: 2 (bad input) is set by the CLI's error handler. */
export const DIFF_EXIT = { ok: 0, breaking: 1, badInput: 2 } as const;

export interface DiffIO {
  out(line: string): void;
  err(line: string): void;
}

interface DiffOptions {
  format: Format;
  extension: string[];
  oldExtension: string[];
  extensionSurfaces?: string;
  failOnBreaking?: boolean;
  json?: boolean;
  quiet?: boolean;
  debug?: boolean;
}

/**
 * Add `diff <old> <new>` to the CLI. Input errors are thrown as InputError and printed by
 * the CLI's `main` as one line naming the file and JSON pointer (exit 2). No colour: the
 * report is read in CI logs and pasted into notes as often as it is read in a terminal.
 */
export function registerDiff(program: Command, io: DiffIO): Command {
  return program
    .command("diff")
    .description(
      "semantic diff of two schema releases, with semver advice for the generated package: exit 0, or 1 with --fail-on-breaking when something breaks, 2 bad input",
    )
    .argument("<old>", "old release: a schema folder (any layout) or one schema .json file")
    .argument("<new>", "new release: a schema folder (any layout) or one schema .json file")
    .addOption(
      new Option("--format <format>", "output format").choices([...FORMATS]).default("text"),
    )
    .option("--fail-on-breaking", "exit 1 when a change breaks code that builds or reads messages")
    .option(
      "--extension <file>",
      "your extension definitions, applied to the new side (and to the old one unless --old-extension is given); repeatable",
      collect,
      [],
    )
    .option(
      "--old-extension <file>",
      "the extension definitions of the old side, when they differ from --extension; repeatable",
      collect,
      [],
    )
    .option(
      "--extension-surfaces <list>",
      "apply the extensions only to these surfaces (comma-separated: v1, v2/unstable, stable, unstable…)",
    )
    .option("--json", "same as --format json (for scripts)")
    .option("--quiet", "print errors only (with --fail-on-breaking, the exit code is the answer)")
    .option("--debug", "print stack traces for errors")
    .addHelpText(
      "after",
      `
Examples:
  $ acp-codegen diff old-schema/ schema/
  $ acp-codegen diff old-schema/ schema/ --format markdown > bump.md
  $ acp-codegen diff v1.0.0/v1/schema.json schema/v1/schema.json --fail-on-breaking
  $ acp-codegen diff schema/ schema/ --old-extension old/acme.json --extension acme.json
  $ acp-codegen diff old-schema/ schema/ --fail-on-breaking --quiet || echo "breaking"

Exit codes:
  0  the report was printed (and, with --fail-on-breaking, nothing breaks)
  1  --fail-on-breaking and a change breaks code that builds or reads messages
  2  bad input: one line on stderr naming the file and the JSON pointer`,
    )
    .action((oldPath: string, newPath: string, opts: DiffOptions) => {
      const newExtensions = extensionInputs(opts.extension, opts.extensionSurfaces);
      const oldExtensions =
        opts.oldExtension.length > 0
          ? extensionInputs(opts.oldExtension, opts.extensionSurfaces)
          : newExtensions;
      const oldSide = loadSide(oldPath, oldExtensions);
      const newSide = loadSide(newPath, newExtensions);
      const note = alignSingleFiles(oldSide, newSide);
      for (const side of [oldSide, newSide]) {
        for (const w of side.diagnostics.warnings) io.err(formatWarning(w));
      }
      const report = buildReport(
        oldSide.model,
        newSide.model,
        { old: oldPath, new: newPath },
        note ? [note] : [],
      );
      const format: Format = opts.json ? "json" : opts.format;
      // JSON is for scripts: printed whatever --quiet says, as with the other commands.
      if (format === "json" || !opts.quiet) for (const line of render(report, format)) io.out(line);
      const failed = opts.failOnBreaking === true && report.advice.counts.breaking > 0;
      program.setOptionValue("exitCode", failed ? DIFF_EXIT.breaking : DIFF_EXIT.ok);
    });
}
