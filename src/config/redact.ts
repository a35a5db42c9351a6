// What a configuration error may show of a value: nothing for secrets (by name: *_KEY, *_SECRET,
// *_PASSWORD, *_TOKEN, so variables added later are covered), and never the password inside a URL.
const SECRET_NAME = /_(KEY|SECRET|PASSWORD|TOKEN)$/i;

export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

/** The value with any URL password replaced by ***, also when the URL does not parse. */
export function withoutUrlPassword(text: string): string {
  try {
    const url = new URL(text);
    if (url.password) {
      url.password = "***";
      return url.toString();
    }
  } catch {
    /* not a URL the parser accepts: fall through to the pattern */
  }
  return text.replace(/(\/\/[^/?#@\s:]*):[^/?#@\s]*@/g, "$1:***@");
}

/** " (got …)" for a plain value, " (value not shown: secret)" for a secret. */
export function shownValue(name: string, raw: unknown): string {
  if (raw === undefined) return "";
  if (isSecretName(name)) return " (value not shown: secret)";
  return ` (got ${JSON.stringify(withoutUrlPassword(String(raw)))})`;
}
