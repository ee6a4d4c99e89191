import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { TEMPLATES_DIR } from "../paths.js";

/**
 * Render `templates/package/<name>` with `data`. Compiled at each call: a handful of renders a
 * run, each a few milliseconds, so the emit stage keeps no cache between runs of the pipeline.
 */
export function render(name: string, data: object): string {
  // noEscape: the output is code and Markdown, not HTML; values are escaped where they land.
  const template = Handlebars.compile(readFileSync(join(TEMPLATES_DIR, "package", name), "utf8"), {
    noEscape: true,
    strict: true,
  });
  return template(data);
}
