/**
 * Fills `{name}` placeholders of a translated string. Its own module, apart from t.ts, so that an island
 * can import it without pulling every dictionary into the browser. A placeholder without a value stays
 * as written, so a missing value shows instead of vanishing.
 */
export function format(template: string, vars: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}
