import { statSync } from "node:fs";
import { SourceError } from "./errors.js";

/** Where a release's schema files come from, as parsed from the `fetch` argument. */
export type Source =
  | { kind: "npm"; text: string; name: string; spec: string | undefined }
  | { kind: "github"; text: string; owner: string; repo: string; ref: string }
  | { kind: "folder"; text: string; path: string }
  | { kind: "archive"; text: string; path: string };

export const SOURCE_FORMS =
  "npm:PACKAGE[@VERSION|RANGE|TAG], github:OWNER/REPO@REF, a folder, or a .tgz";

// npm's own rules, loosened only where old packages were allowed more (capital letters).
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[A-Za-z0-9][A-Za-z0-9._~-]*$/;
// A version, a range (`^2`, `>=1.2 <2`, `1.x || 2.x`) or a dist-tag. Nothing that npm would
// read as a path, a URL or a git reference: no `/`, `:` or `#`.
const NPM_SPEC = /^[A-Za-z0-9.^~<>=|*+\- ]+$/;
const GITHUB_NAME = /^[A-Za-z0-9_.-]+$/;
// Tag, branch or commit: git's ref rules, minus anything that could change the URL's meaning.
const GIT_REF = /^(?!\/)(?!.*\/\/)(?!.*\.\.)(?!.*\/$)[A-Za-z0-9._\-/+]+$/;

export function parseSource(text: string): Source {
  if (text.startsWith("npm:")) return parseNpm(text);
  if (text.startsWith("github:")) return parseGithub(text);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(text).isDirectory();
  } catch {
    const looksLikeScheme = /^[a-z][a-z0-9+.-]+:/i.test(text) && !/^[a-z]:[\\/]/i.test(text);
    throw new SourceError(
      text,
      looksLikeScheme
        ? `unknown kind of source (expected ${SOURCE_FORMS})`
        : `not found (expected ${SOURCE_FORMS})`,
    );
  }
  return isDirectory ? { kind: "folder", text, path: text } : { kind: "archive", text, path: text };
}

function parseNpm(text: string): Source {
  const rest = text.slice("npm:".length);
  // The version starts at the first `@` after the scope's own.
  const at = rest.indexOf("@", rest.startsWith("@") ? 1 : 0);
  const name = at < 0 ? rest : rest.slice(0, at);
  const spec = at < 0 ? undefined : rest.slice(at + 1);
  if (!NPM_NAME.test(name) || name.length > 214) {
    throw new SourceError(text, `${JSON.stringify(name)} is not an npm package name`);
  }
  if (spec !== undefined && (!NPM_SPEC.test(spec) || spec.trim() === "")) {
    throw new SourceError(
      text,
      `${JSON.stringify(spec)} is not a version, range or dist-tag (for example 2.3.0, ^2, latest)`,
    );
  }
  return { kind: "npm", text, name, spec };
}

function parseGithub(text: string): Source {
  const match = /^github:([^/@]+)\/([^/@]+)(?:@(.*))?$/.exec(text);
  if (!match) throw new SourceError(text, "expected github:OWNER/REPO@REF");
  const [, owner = "", repo = "", ref] = match;
  for (const [what, value] of [
    ["owner", owner],
    ["repository", repo],
  ] as const) {
    if (!GITHUB_NAME.test(value) || value === "." || value === "..") {
      throw new SourceError(text, `${JSON.stringify(value)} is not a GitHub ${what} name`);
    }
  }
  if (ref === undefined || ref === "") {
    throw new SourceError(
      text,
      "name the tag or commit to fetch: github:OWNER/REPO@REF (a release stays reproducible that way)",
    );
  }
  if (!GIT_REF.test(ref)) {
    throw new SourceError(text, `${JSON.stringify(ref)} is not a tag, branch or commit name`);
  }
  return { kind: "github", text, owner, repo, ref };
}
