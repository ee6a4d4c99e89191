/** One input file as manifests, headers and error messages name it, with its hash. */
export interface InputFile {
  /** Path relative to the schema dir (`v1/schema.json`), or an extension as given: what manifests and headers record. */
  name: string;
  /** Path as the user sees it (`schema/v1/schema.json`): what error messages name. */
  display: string;
  sha256: string;
}
