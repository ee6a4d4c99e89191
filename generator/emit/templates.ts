import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { TEMPLATES_DIR } from "../paths.js";

const templates = new Map<string, Handlebars.TemplateDelegate>();

/** Render `templates/package/<name>` (compiled once) with `data`. */
export function render(name: string, data: object): string {
  let template = templates.get(name);
  if (!template) {
    // noEscape: the output is code and Markdown, not HTML; values are escaped where they land.
    template = Handlebars.compile(readFileSync(join(TEMPLATES_DIR, "package", name), "utf8"), {
      noEscape: true,
      strict: true,
    });
    templates.set(name, template);
  }
  return template(data);
}
