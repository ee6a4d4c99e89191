import { describe, expect, it } from "vitest";
import { nextVersion } from "../../generator/diff/semver.js";

/** docs/bump.md, "Choosing the version": the version each piece of advice leads to. */
describe("nextVersion", () => {
  it.each([
    ["1.4.2", "major", "2.0.0"],
    ["1.4.2", "minor", "1.5.0"],
    ["1.4.2", "patch", "1.4.3"],
    ["1.4.2", "none", "1.4.2"],
    // Below 1.0.0: breaking → the minor, anything else → the patch.
    ["0.4.2", "major", "0.5.0"],
    ["0.4.2", "minor", "0.4.3"],
    ["0.4.2", "patch", "0.4.3"],
    ["0.1.0", "none", "0.1.0"],
    // A prerelease or build suffix is not carried into the next version.
    ["2.0.0-rc.1", "patch", "2.0.1"],
  ] as const)("%s with %s advice → %s", (current, bump, next) => {
    expect(nextVersion(current, bump)).toBe(next);
  });
});
