import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildProgram, took } from "../generator/cli.js";
import { ROOT } from "../generator/paths.js";
import { cli, HISTORY_DIR, tempDir } from "./support/run.js";

/**
 * The CLI as a person meets it when something is off: a mistyped flag, a bad option value,
 * a missing folder, `--help`. Every error is one line; only a JSON document's errors carry
 * a `#pointer`.
 */

const work = tempDir("cli-usage");
afterAll(() => work.remove());

const program = buildProgram(
  () => {},
  () => {},
);
const commands = program.commands.map((c) => c.name());

describe("usage errors are one line", () => {
  it.each(commands)(
    "a mistyped option of %s: the suggestion and where the options are",
    async (name) => {
      const command = program.commands.find((c) => c.name() === name);
      // Its longest option, one letter short: commander suggests the option itself.
      const option = (command?.options ?? [])
        .map((o) => o.long ?? "")
        .sort((a, b) => b.length - a.length)[0];
      expect(option, name).toBeTruthy();
      const typo = option?.slice(0, -1) ?? "";
      const run = await cli(name, typo);
      expect(run.code).toBe(2);
      expect(run.stdout).toEqual([]);
      expect(run.stderr).toEqual([
        `acp-codegen: unknown option '${typo}' (did you mean ${option}?); see acp-codegen ${name} --help`,
      ]);
    },
  );

  it("a mistyped command, and a missing argument", async () => {
    const command = await cli("gnerate");
    expect(command.code).toBe(2);
    expect(command.stderr).toEqual([
      "acp-codegen: unknown command 'gnerate' (did you mean generate?); see acp-codegen --help",
    ]);
    const argument = await cli("generate", "--pkg-version");
    expect(argument.code).toBe(2);
    expect(argument.stderr).toEqual([
      "acp-codegen: option '--pkg-version <semver>' argument missing; see acp-codegen generate --help",
    ]);
  });
});

describe("what an error names", () => {
  it("an option or a folder is named without a #", async () => {
    const out = join(work.path, "never");
    const file = join(work.path, "a-file");
    writeFileSync(file, "");
    const cases: Array<[string[], string]> = [
      [["--pkg-version", "1"], 'acp-codegen: --pkg-version: "1" is not a semantic version'],
      [["--name", "Not Valid"], 'acp-codegen: --name: "Not Valid" is not a valid npm package name'],
      [
        ["--schema-dir", join(work.path, "nope")],
        `acp-codegen: ${join(work.path, "nope")}: schema directory not found`,
      ],
      [
        ["--schema-dir", join(HISTORY_DIR, "v0.6.3"), "--out", file],
        `acp-codegen: ${file}: --out exists and is not a directory`,
      ],
      [
        ["--extension", file, "--extension-surfaces", "v1,nightly"],
        'acp-codegen: --extension-surfaces: unknown surface selector "nightly" (expected v1, v2/unstable, stable, unstable…)',
      ],
    ];
    for (const [args, line] of cases) {
      const run = await cli("generate", "--out", out, ...args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toEqual([line]);
    }
  });

  it("a JSON document keeps its pointer, # alone for the whole document", async () => {
    const file = join(work.path, "not-schema.json");
    writeFileSync(file, "[]");
    const run = await cli("generate", "--out", join(work.path, "never"), "--extension", file);
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([`acp-codegen: ${file}#: expected a JSON Schema object`]);
  });
});

describe("--help", () => {
  /** The codes an `Exit codes:` section lists. */
  const exitCodes = (help: string) => {
    const section = help.slice(help.indexOf("Exit codes:"));
    return [...section.matchAll(/^ {2}(\d) /gm)].map((m) => Number(m[1]));
  };
  const help = async (...args: string[]) => (await cli(...args, "--help")).stdout.join("\n");

  it("each command lists its own exit codes; the program lists them all", async () => {
    expect(exitCodes(await help("generate"))).toEqual([0, 2]);
    expect(exitCodes(await help("check"))).toEqual([0, 1, 2]);
    expect(exitCodes(await help("diff"))).toEqual([0, 1, 2]);
    expect(exitCodes(await help("fetch"))).toEqual([0, 2]);
    expect(exitCodes(await help())).toEqual([0, 1, 2]);
    expect(await help("generate")).not.toMatch(/drift/);
  });

  it("every command takes --quiet, --debug, and --json", () => {
    for (const command of program.commands) {
      const longs = command.options.map((o) => o.long);
      expect(longs, command.name()).toEqual(
        expect.arrayContaining(["--quiet", "--debug", "--json"]),
      );
    }
  });
});

describe("durations", () => {
  it("are shown in ms below a second, else in seconds", () => {
    expect(took(1000, 1380)).toBe("380 ms");
    expect(took(1000, 5240)).toBe("4.2 s");
  });

  it("count from the process's start: start-up included", () => {
    const out = join(work.path, "timed");
    const schema = ["--schema-dir", join(HISTORY_DIR, "v0.6.3"), "--out", out];
    const bin = join(ROOT, "bin", "acp-codegen.js");
    expect(spawnSync(process.execPath, [bin, "generate", ...schema, "--quiet"]).status).toBe(0);
    // A second of start-up before the CLI's first line: the reported time holds it.
    const slowStart = "data:text/javascript,const t=Date.now();while(Date.now()-t<1000);";
    const run = spawnSync(process.execPath, ["--import", slowStart, bin, "check", ...schema], {
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    const seconds = Number(/; (\d+\.\d) s\)$/.exec(run.stdout.trim())?.[1]);
    expect(seconds, run.stdout).toBeGreaterThanOrEqual(1);
  });
});
