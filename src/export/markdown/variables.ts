/**
 * docs.json `variables`: `{{name}}` in a page or snippet becomes the value, before the page is
 * parsed, as the platform does. The value is content like any other (parsed, then held to the
 * HTML and URL policies). A name the site does not define is left as written.
 */
export function replaceVariables(text: string, variables: Readonly<Record<string, string>>): string {
  if (!text.includes('{{')) return text;
  return text.replace(/\{\{\s*([A-Za-z0-9-]+)\s*\}\}/g, (written, name: string) =>
    Object.hasOwn(variables, name) ? (variables[name] as string) : written,
  );
}
