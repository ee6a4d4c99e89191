import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { TEST_PACKAGE } from "../support/test-package.js";

/**
 * The repository's README shows the remote transport with the examples the generated
 * package's README carries, which test/consumers type-checks in every consumer setting and
 * runs: the two must say the same, or the repository's copy is untested.
 */

/** The fenced blocks of a README section, by the file name their first line gives (or the fence's language). */
function blocks(readme: string, section: string): Map<string, string> {
  const start = readme.indexOf(section);
  expect(start, section).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf("\n## ", start + section.length);
  const text = readme.slice(start, end === -1 ? undefined : end);
  const found = new Map<string, string>();
  for (const [, lang, body] of text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)) {
    const name = /^\/\/ ([\w-]+\.ts)\n/.exec(body ?? "")?.[1] ?? lang ?? "";
    found.set(name, body ?? "");
  }
  return found;
}

describe("the README's remote examples", () => {
  it("are the generated package's, which are checked and run", () => {
    const ours = blocks(
      readFileSync(join(ROOT, "README.md"), "utf8"),
      "## Remote agents and web clients",
    );
    const pkg = JSON.parse(readFileSync(join(TEST_PACKAGE, "package.json"), "utf8")) as {
      name: string;
    };
    const generated = blocks(
      readFileSync(join(TEST_PACKAGE, "README.md"), "utf8"),
      "## Remote agents and web clients",
    );
    expect([...ours.keys()].sort()).toEqual(["browser-client.ts", "nginx", "remote-agent.ts"]);
    for (const [name, body] of ours)
      expect(body.replaceAll('"acp-protocol', `"${pkg.name}`), name).toBe(generated.get(name));
  });
});
