/** The part of mjml's API we use (the package ships no types): api/email/mjml.ts. */
declare module "mjml" {
  type MjmlError = { line: number; message: string; tagName: string; formattedMessage: string };
  type MjmlOptions = { validationLevel?: "strict" | "soft" | "skip"; ignoreIncludes?: boolean; keepComments?: boolean; minify?: boolean; beautify?: boolean };
  export default function mjml2html(source: string, options?: MjmlOptions): Promise<{ html: string; errors: MjmlError[] }>;
}
